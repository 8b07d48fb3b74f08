package queue_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/queue"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestDiscardedJobIsAFailureRow: the stand-in registry holds beta-mcp's
// packument on every request until the asker gives up, so each attempt of
// its examine job passes the job timeout outside the package's stages and
// returns an error; after the last attempt River discards the job. The
// leader's sweep records the package's failure row (stage pipeline, kind
// job_discarded), counts it done, and the finish job assembles the run,
// delegation wave included; the discarded job is gone. The queued run's
// files (package files and the seven) equal those of a single-process run
// over the same inputs that is given the same failure row for that package
// (a resume of a directory holding it) and examines the rest itself.
func TestDiscardedJobIsAFailureRow(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	hold := fakeregistry.NPMPackumentPath("beta-mcp")
	var held atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == hold {
			held.Add(1)
			<-r.Context().Done()
			return
		}
		f.fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	st := dbtest.Open(t)
	home := t.TempDir()
	o := f.options(t, home)
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o, MaxAttempts: 2}); err != nil {
		t.Fatal(err)
	}
	runWorker(t, queue.WorkerOptions{Store: st, Pipeline: o, Workers: 2, RetryBase: 20 * time.Millisecond,
		JobTimeout: 2 * time.Second, RescueAfter: time.Minute, SweepInterval: 200 * time.Millisecond})
	row := waitFinished(t, st, "r1")
	if row.Wave != 1 {
		t.Errorf("the run ended at wave %d; the delegation target is wave 1", row.Wave)
	}
	if n := held.Load(); n < 2 {
		t.Errorf("beta-mcp's packument was asked %d times; each of the 2 attempts asks it", n)
	}
	home1 := filepath.Join(home, "runs", "r1")
	files, err := rundir.Read(home1)
	if err != nil {
		t.Fatal(err)
	}
	var beta []rundir.Failure
	for _, p := range files.Summary.Packages {
		if p.Package.Name == "beta-mcp" {
			beta = p.Failures
		}
	}
	if len(beta) != 1 || beta[0].Stage != vocab.StagePipeline || beta[0].Kind != vocab.FailureJobDiscarded ||
		!strings.Contains(beta[0].Message, "after 2 attempt(s)") {
		t.Fatalf("beta-mcp's failure rows: %+v; want one, pipeline / job_discarded after 2 attempts", beta)
	}
	for _, g := range files.Gradeable {
		if g.Package.Name == "beta-mcp" && g.OK {
			t.Errorf("a discarded package is gradeable: %+v", g)
		}
	}
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	left, err := client.JobList(ctx, river.NewJobListParams().Kinds(vocab.JobExamine).States(rivertype.JobStateDiscarded))
	if err != nil {
		t.Fatal(err)
	}
	if len(left.Jobs) != 0 {
		t.Errorf("%d discarded examine jobs left after the sweep recorded them", len(left.Jobs))
	}

	// The single process, given the same row for beta-mcp, examines the
	// others and assembles the same files.
	var betaFile string
	var betaRow []byte
	if err := st.QueueResults(ctx, "r1", func(name string, body []byte) error {
		var pf struct {
			Package rundir.PackageRef `json:"package"`
		}
		if err := json.Unmarshal(body, &pf); err != nil {
			return err
		}
		if pf.Package.Name == "beta-mcp" {
			betaFile, betaRow = name, body
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	single := t.TempDir()
	if _, err := pipeline.SeedRunDir(single, "r1", row.Header, row.Candidates, func(yield func(string, []byte) error) error {
		return yield(betaFile, betaRow)
	}); err != nil {
		t.Fatal(err)
	}
	so := f.options(t, single)
	so.CandidatesPath, so.RunID, so.Resume = "", "", "r1"
	if _, err := pipeline.Run(ctx, so); err != nil {
		t.Fatal(err)
	}
	want := runFiles(t, filepath.Join(single, "runs", "r1"))
	got := runFiles(t, home1)
	if strings.Join(keys(want), " ") != strings.Join(keys(got), " ") {
		t.Fatalf("files differ:\nsingle %v\nqueued %v", keys(want), keys(got))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s differs:\nsingle: %s\nqueued: %s", name, w, got[name])
		}
	}
}

// TestSweepLeavesOtherJobsAlone: a sweep with nothing discarded writes
// nothing, and a run's results and count are untouched by it.
func TestSweepLeavesOtherJobsAlone(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st := dbtest.Open(t)
	o := f.options(t, t.TempDir())
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o}); err != nil {
		t.Fatal(err)
	}
	w, err := queue.NewWorker(queue.WorkerOptions{Store: st, Pipeline: o})
	if err != nil {
		t.Fatal(err)
	}
	n, err := w.Sweep(ctx)
	if err != nil || n != 0 {
		t.Fatalf("sweep over a queue with no discarded job: wrote %d, %v", n, err)
	}
	row, err := st.QueueRun(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := st.QueueResultCount(ctx, "r1"); err != nil || c != 0 || row.Pending != 6 {
		t.Errorf("after the sweep: %d results (%v), %d pending; want 0 and 6", c, err, row.Pending)
	}
}
