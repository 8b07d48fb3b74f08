package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// RunInfo is one run directory under Home/runs.
type RunInfo struct {
	ID     string
	Dir    string
	Header rundir.Header
	// Active is true while a live process holds the run's lock. A run whose
	// header says running and that is not active was killed.
	Active bool
}

// Resumable reports whether the run can be continued: it did not finish
// and no process is working on it.
func (ri RunInfo) Resumable() bool {
	return !ri.Active && ri.Header.Status != rundir.StatusFinished
}

// ListRuns lists the runs under home, oldest first (run ids sort by start
// time). A directory without a readable header is skipped: it is not a run
// this code wrote.
func ListRuns(home string) ([]RunInfo, error) {
	root := filepath.Join(home, "runs")
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pipeline.ListRuns: %w", err)
	}
	var out []RunInfo
	for _, e := range entries {
		if !e.IsDir() || !runIDRe.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		var h rundir.Header
		if _, err := rundir.ReadJSON(dir, rundir.HeaderFile, &h); err != nil {
			continue
		}
		ri := RunInfo{ID: e.Name(), Dir: dir, Header: h}
		if unlock, err := lockRun(dir); err == nil {
			unlock()
		} else if errors.Is(err, ErrRunLocked) {
			ri.Active = true
		}
		out = append(out, ri)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Header.StartedAt, out[j].Header.StartedAt
		if !a.Equal(b) {
			return a.Before(b)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// LatestResumable finds the most recently started run over the given
// candidates file (the same bytes) that did not finish and is not in use:
// the run `attestari cycle` continues instead of starting a new one
// (methodology §14).
func LatestResumable(home, candidatesPath string) (RunInfo, bool, error) {
	b, err := os.ReadFile(candidatesPath)
	if err != nil {
		return RunInfo{}, false, fmt.Errorf("pipeline.LatestResumable: %w", err)
	}
	sum := vocab.SHA256Hex(b)
	runs, err := ListRuns(home)
	if err != nil {
		return RunInfo{}, false, err
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Header.CandidatesSHA256 == sum && runs[i].Resumable() {
			return runs[i], true, nil
		}
	}
	return RunInfo{}, false, nil
}
