package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestWorkerKilledOnEveryAttempt: `attestari worker` processes are killed
// with SIGKILL on every attempt of one package's job, while its fetch waits
// on the stand-in registry (outside the extraction, so no extraction
// attempt is counted). River's rescuer retries the job after the first
// kill and discards it after the last (run --queue --max-attempts 2); a
// third worker's sweep records the package's failure row (pipeline /
// job_discarded) and the run finishes. Its seven files equal a
// single-process `attestari run --resume` of a directory holding that row,
// which examines the other package itself.
func TestWorkerKilledOnEveryAttempt(t *testing.T) {
	hits := make(chan struct{}, 16)
	q := newQueueCLI(t, func(w http.ResponseWriter, r *http.Request) bool {
		hits <- struct{}{}
		<-r.Context().Done() // until the asker is killed
		return true
	})
	if code, out := q.cli(q.home, "run", "--queue", "--max-attempts", "2", "--candidates", q.cands, "--run-id", "d1"); code != 0 || !strings.Contains(out, "run d1 queued: 2 packages") {
		t.Fatalf("run --queue: exit %d\n%s", code, out)
	}
	flags := []string{"--job-timeout", "10s", "--rescue-after", "11s", "--retry-base", "100ms", "--sweep-interval", "1s"}
	for _, name := range []string{"worker1", "worker2"} {
		w, _ := q.worker(t, name, q.home, flags...)
		select {
		case <-hits:
		case <-time.After(3 * time.Minute):
			t.Fatalf("%s never asked for the held package", name)
		}
		if err := w.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = w.Wait()
	}
	q.worker(t, "worker3", q.home, flags...)
	ctx := context.Background()
	st := q.store(t)
	waitFinished(t, st, "d1", "after its job was killed on every attempt")
	select {
	case <-hits:
		t.Errorf("the held package was asked a third time; its job has 2 attempts")
	default:
	}

	var betaFile string
	var betaRow []byte
	var fails []rundir.Failure
	if err := st.QueueResults(ctx, "d1", func(name string, body []byte) error {
		var pf struct {
			Package rundir.PackageRef     `json:"package"`
			Summary rundir.PackageSummary `json:"summary"`
		}
		if err := json.Unmarshal(body, &pf); err != nil {
			return err
		}
		if pf.Package.Name == "beta-mcp" {
			betaFile, betaRow, fails = name, body, pf.Summary.Failures
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(fails) != 1 || fails[0].Stage != vocab.StagePipeline || fails[0].Kind != vocab.FailureJobDiscarded || !strings.Contains(fails[0].Message, "after 2 attempt(s)") {
		t.Fatalf("the killed package's failure rows: %+v; want one, pipeline / job_discarded after 2 attempts", fails)
	}
	qr, err := st.QueueRun(ctx, "d1")
	if err != nil {
		t.Fatal(err)
	}
	single := t.TempDir()
	if _, err := pipeline.SeedRunDir(single, "d1", qr.Header, qr.Candidates, func(yield func(string, []byte) error) error {
		return yield(betaFile, betaRow)
	}); err != nil {
		t.Fatal(err)
	}
	if code, out := q.cli(single, "run", "--resume", "d1"); code != 0 {
		t.Fatalf("single-process run: exit %d\n%s", code, out)
	}
	sameSeven(t, single, q.home, "d1", "whose job was killed on every attempt")
}
