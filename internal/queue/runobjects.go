package queue

import (
	"path/filepath"

	"github.com/attestari/attestari/internal/evidence"
)

// runObjectsOf is where a finish job puts a finished run's files so any
// machine can read it (pipeline.PutRunObjects): the evidence store the
// worker examines with, unless that store is the directory backend at
// Home/evidence, the worker's own home, where the run directory already is
// (nil: nothing to put). A store that keeps no run objects is nil too.
func runObjectsOf(o WorkerOptions) evidence.RunObjects {
	ro, ok := o.Pipeline.Evidence.(evidence.RunObjects)
	if !ok || ro == nil {
		return nil
	}
	if ds, ok := ro.(*evidence.Store); ok {
		home, err := filepath.Abs(o.Pipeline.Home)
		if err == nil && filepath.Clean(ds.Root()) == filepath.Join(home, "evidence") {
			return nil
		}
	}
	return ro
}
