package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/attestari/attestari/internal/queue"
	"github.com/attestari/attestari/internal/vocab"
)

// TestDiscardedFinishIsEnqueuedAgain: the one `attestari worker` process
// examines both packages, but its home cannot hold the run directory
// ($ATTESTARI_HOME/runs is a file), so the run's finish job fails on every
// one of its 5 attempts and River discards it: the run has no package
// pending and no live finish job. The fault is then cleared; the leader's
// sweep (--sweep-interval 1s) enqueues the finish job again, and the run
// finishes with the seven files of a single-process `attestari run` over
// the same inputs.
func TestDiscardedFinishIsEnqueuedAgain(t *testing.T) {
	q := newQueueCLI(t, nil)
	if code, out := q.cli(q.home, "run", "--queue", "--candidates", q.cands, "--run-id", "f1"); code != 0 || !strings.Contains(out, "run f1 queued: 2 packages") {
		t.Fatalf("run --queue: exit %d\n%s", code, out)
	}
	home := t.TempDir()
	blocked := filepath.Join(home, "runs")
	if err := os.WriteFile(blocked, []byte("not a directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, log := q.worker(t, "worker", home, "--job-timeout", "20s", "--rescue-after", "21s", "--retry-base", "100ms", "--sweep-interval", "1s")
	ctx := context.Background()
	st := q.store(t)
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	discarded := func() []*rivertype.JobRow {
		t.Helper()
		res, err := client.JobList(ctx, river.NewJobListParams().Kinds(vocab.JobFinish).States(rivertype.JobStateDiscarded).First(100))
		if err != nil {
			t.Fatal(err)
		}
		var out []*rivertype.JobRow
		for _, j := range res.Jobs {
			var a queue.FinishArgs
			if err := json.Unmarshal(j.EncodedArgs, &a); err == nil && a.RunID == "f1" {
				out = append(out, j)
			}
		}
		return out
	}
	for deadline := time.Now().Add(3 * time.Minute); len(discarded()) == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the run's finish job was never discarded")
		}
	}
	d := discarded()[0]
	row, err := st.QueueRun(ctx, "f1")
	if err != nil {
		t.Fatal(err)
	}
	if d.Attempt != queue.DefaultMaxAttempts || row.Status == vocab.QueueRunFinished || row.Pending != 0 {
		t.Fatalf("the discarded finish job ran %d attempts; the run is %s with %d pending; want %d attempts, not finished, 0 pending",
			d.Attempt, row.Status, row.Pending, queue.DefaultMaxAttempts)
	}
	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	waitFinished(t, st, "f1", "after its finish job was discarded")
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "finish job enqueued again") {
		t.Errorf("the worker's log does not say the finish job was enqueued again:\n%s", b)
	}

	single := t.TempDir()
	if code, out := q.cli(single, "run", "--candidates", q.cands, "--run-id", "f1"); code != 0 {
		t.Fatalf("single-process run: exit %d\n%s", code, out)
	}
	sameSeven(t, single, home, "f1", "whose finish job was discarded")
}
