package queue_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/queue"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/s3test"
)

// TestFinishedRunPulledFromS3: a queued run finished by workers whose
// evidence store is a bucket of a real SeaweedFS is put into the bucket's
// run objects, and pulled into an empty home it is the finishing worker's
// run directory byte for byte (run.json, candidates.json, the seven). A
// second pull keeps the files; a local file with other bytes is refused and
// left as it was.
func TestFinishedRunPulledFromS3(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t)
	ctx := context.Background()
	vars := map[string]string{evstore.EnvURL: srv.URL(bucket, "runs-test"), evstore.EnvAccessKey: srv.AccessKey, evstore.EnvSecretKey: srv.SecretKey}
	store, err := evstore.Open(ctx, evstore.FromEnv(func(k string) string { return vars[k] }, ""))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	st := dbtest.Open(t)
	home := t.TempDir()
	o := f.options(t, home)
	o.Evidence = store
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o}); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, st, o, 1)
	waitFinished(t, st, "r1")
	finished := filepath.Join(home, "runs", "r1")

	other := t.TempDir()
	dir, err := pipeline.PullRun(ctx, store, other, "r1")
	if err != nil {
		t.Fatal(err)
	}
	names := pipeline.RunObjectNames()
	if len(names) != 9 {
		t.Fatalf("run objects %v: want run.json, candidates.json and the seven", names)
	}
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join(finished, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("pulled run lacks %s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s pulled differs from the finishing worker's file", name)
		}
	}
	if files, err := rundir.Read(dir); err != nil || len(files.Missing) != 0 || files.Header.Status != rundir.StatusFinished {
		t.Fatalf("the pulled run does not read as a whole finished run: %v", err)
	}
	if _, err := pipeline.PullRun(ctx, store, other, "r1"); err != nil {
		t.Fatalf("a second pull of the same run: %v", err)
	}
	tampered := filepath.Join(dir, rundir.SummaryFile)
	if err := os.WriteFile(tampered, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.PullRun(ctx, store, other, "r1"); err == nil {
		t.Fatal("a pull over a file with other bytes must be refused")
	}
	if b, _ := os.ReadFile(tampered); string(b) != "{}\n" {
		t.Error("a refused pull wrote over the local file")
	}
	if _, err := pipeline.PullRun(ctx, store, t.TempDir(), "r2"); !errors.Is(err, evidence.ErrNotFound) {
		t.Errorf("a run the store does not hold: %v; want ErrNotFound", err)
	}
}

// TestHomeDirectoryStoreGetsNoRunObjects: with the evidence store at the
// worker's own Home/evidence the run directory is already there, and no
// run object is written.
func TestHomeDirectoryStoreGetsNoRunObjects(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	st := dbtest.Open(t)
	home := t.TempDir()
	store, err := evidence.Open(filepath.Join(home, "evidence"))
	if err != nil {
		t.Fatal(err)
	}
	o := f.options(t, home)
	o.Evidence = store
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o}); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, st, o, 1)
	waitFinished(t, st, "r1")
	if _, err := store.GetRunObject(ctx, "r1", rundir.HeaderFile); !errors.Is(err, evidence.ErrNotFound) {
		t.Errorf("the home's own store got run objects: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "runs", "r1", rundir.SummaryFile)); err != nil {
		t.Errorf("the run directory: %v", err)
	}
}
