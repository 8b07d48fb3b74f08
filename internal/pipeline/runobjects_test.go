package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/rundir"
)

// TestRunObjectsOnlyWholeFinishedRuns: a run directory whose header is not
// finished is not put; a header in the store that is not finished, or that
// names another run, is not pulled, and nothing is written.
func TestRunObjectsOnlyWholeFinishedRuns(t *testing.T) {
	ctx := context.Background()
	store, err := evidence.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	running, err := rundir.Marshal(rundir.Header{RunID: "r1", Status: rundir.StatusRunning})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.HeaderFile), running, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PutRunObjects(ctx, store, dir); !errors.Is(err, ErrRunNotFinished) {
		t.Fatalf("put of a running run: %v; want ErrRunNotFinished", err)
	}
	if _, err := store.GetRunObject(ctx, "r1", rundir.HeaderFile); !errors.Is(err, evidence.ErrNotFound) {
		t.Fatalf("a refused put left a header in the store: %v", err)
	}
	if err := store.PutRunObject(ctx, "r1", rundir.HeaderFile, running); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if _, err := PullRun(ctx, store, home, "r1"); !errors.Is(err, ErrRunNotFinished) {
		t.Fatalf("pull of a running run: %v; want ErrRunNotFinished", err)
	}
	other, err := rundir.Marshal(rundir.Header{RunID: "r9", Status: rundir.StatusFinished})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.PutRunObject(ctx, "r2", rundir.HeaderFile, other); err != nil {
		t.Fatal(err)
	}
	if _, err := PullRun(ctx, store, home, "r2"); err == nil {
		t.Fatal("a header naming another run was pulled")
	}
	finished, err := rundir.Marshal(rundir.Header{RunID: "r3", Status: rundir.StatusFinished})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.PutRunObject(ctx, "r3", rundir.HeaderFile, finished); err != nil {
		t.Fatal(err)
	}
	if _, err := PullRun(ctx, store, home, "r3"); !errors.Is(err, evidence.ErrNotFound) {
		t.Fatalf("a finished header without its files: %v; want ErrNotFound", err)
	}
	if _, err := PullRun(ctx, store, home, "../r3"); err == nil {
		t.Fatal("a malformed run id was pulled")
	}
	if ents, _ := os.ReadDir(filepath.Join(home, "runs")); len(ents) != 0 {
		t.Errorf("refused pulls wrote %d entries under runs/", len(ents))
	}
}
