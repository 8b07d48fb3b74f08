package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/rundir"
)

// A finished run in the shared evidence store: the worker that assembles a
// queued run puts its files into the store's run objects
// (runs/<id>/<name>), so a machine that shares no filesystem with it can
// materialise the run (PullRun) and decide or publish it. The objects are
// the files `attestari decide` reads (run.json and the seven) and the
// candidates copy; the per-package working files stay in the queue's
// database. The names are this list, never a listing of the store.

// RunObjectNames are the files of a run put into the store, in the order
// PutRunObjects writes them: run.json last, so a reader that finds a
// finished header finds every other file already written.
func RunObjectNames() []string {
	names := append([]string{CandidatesCopy}, rundir.SevenFiles...)
	return append(names, rundir.HeaderFile)
}

// PutRunObjects puts the files of the finished run directory dir into ro
// under the run's id, each whole. It returns the run id.
func PutRunObjects(ctx context.Context, ro evidence.RunObjects, dir string) (string, error) {
	hb, err := os.ReadFile(filepath.Join(dir, rundir.HeaderFile))
	if err != nil {
		return "", fmt.Errorf("pipeline: %w", err)
	}
	h, err := finishedHeader(hb)
	if err != nil {
		return "", fmt.Errorf("pipeline: %s: %w", dir, err)
	}
	for _, name := range RunObjectNames() {
		b := hb
		if name != rundir.HeaderFile {
			if b, err = os.ReadFile(filepath.Join(dir, name)); err != nil {
				return "", fmt.Errorf("pipeline: %w", err)
			}
		}
		if err := ro.PutRunObject(ctx, h.RunID, name, b); err != nil {
			return "", fmt.Errorf("pipeline: %w", err)
		}
	}
	return h.RunID, nil
}

// PullRun materialises the finished run id from ro as home/runs/<id>/:
// the header is read first and must say finished and name id; then every
// other file of RunObjectNames is read and written atomically, the header
// last. A file already in the directory with the same bytes is kept; one
// with other bytes is an error (a run id names one run), and nothing of
// the store's is written over it.
func PullRun(ctx context.Context, ro evidence.RunObjects, home, id string) (string, error) {
	if !runIDRe.MatchString(id) {
		return "", fmt.Errorf("pipeline: run id %q: letters, digits, '.', '_', '-' only", id)
	}
	hb, err := ro.GetRunObject(ctx, id, rundir.HeaderFile)
	if err != nil {
		return "", fmt.Errorf("pipeline: run %s: %w", id, err)
	}
	h, err := finishedHeader(hb)
	if err != nil {
		return "", fmt.Errorf("pipeline: run %s in the evidence store: %w", id, err)
	}
	if h.RunID != id {
		return "", fmt.Errorf("pipeline: the evidence store's run %s has a header naming run %q", id, h.RunID)
	}
	objs := map[string][]byte{rundir.HeaderFile: hb}
	for _, name := range RunObjectNames() {
		if name == rundir.HeaderFile {
			continue
		}
		b, err := ro.GetRunObject(ctx, id, name)
		if err != nil {
			return "", fmt.Errorf("pipeline: run %s: %w", id, err)
		}
		objs[name] = b
	}
	dir := filepath.Join(home, "runs", id)
	// Check every file before writing any, so a conflict leaves the
	// directory as it was.
	write := make([]string, 0, len(objs))
	for _, name := range RunObjectNames() {
		have, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case err == nil && bytes.Equal(have, objs[name]):
		case err == nil:
			return "", fmt.Errorf("pipeline: %s holds other bytes than the evidence store's run %s", filepath.Join(dir, name), id)
		case errors.Is(err, fs.ErrNotExist):
			write = append(write, name)
		default:
			return "", fmt.Errorf("pipeline: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("pipeline: %w", err)
	}
	for _, name := range write {
		if err := rundir.WriteFileAtomic(filepath.Join(dir, name), objs[name]); err != nil {
			return "", fmt.Errorf("pipeline: %w", err)
		}
	}
	return dir, nil
}

// finishedHeader parses a run.json and refuses one that is not finished
// (ErrRunNotFinished): only a whole run is shared.
func finishedHeader(b []byte) (rundir.Header, error) {
	var h rundir.Header
	if err := json.Unmarshal(b, &h); err != nil {
		return h, fmt.Errorf("%s: %w", rundir.HeaderFile, err)
	}
	if h.Status != rundir.StatusFinished {
		return h, fmt.Errorf("%w (status %q)", ErrRunNotFinished, h.Status)
	}
	return h, nil
}
