package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/evidence"
)

// TestRunRemovesStaleTemporaryBlobs: a run starts by removing what writers
// killed earlier left in the evidence store (an old temporary file no one
// holds), and leaves a fresh one, which may be another process's write.
func TestRunRemovesStaleTemporaryBlobs(t *testing.T) {
	w := newWorld(t, 1, false)
	blobs := filepath.Join(w.store(t).Root(), "blobs")
	stale, fresh := filepath.Join(blobs, ".tmp-killed"), filepath.Join(blobs, ".tmp-in-flight")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("half a blob"), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * evidence.StaleTempAge)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), w.options(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Dir == "" {
		t.Fatal("no run directory")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed writer's temporary file is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh temporary file was removed: %v", err)
	}
}
