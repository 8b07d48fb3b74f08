// Package cycle is the orchestration of `attestari cycle` and `attestari
// decide`: resume or start a run (internal/pipeline), decide it
// (internal/policy) with its day-0 notices (internal/publish), diff it
// against the previous decided run over the same candidates, and, for the
// demo, publish it at once. It owns the wiring between the steps and
// nothing of their rules; cmd/attestari parses flags, builds the clients and
// prints.
//
// A decision reads the run directory and the blobs it cites (methodology
// §8): the one piece of machine configuration it uses, the shared hosts of
// the context tags, is recorded in run.json when the run starts
// (RecordDecideInputs) and read back from there (SharedHostsFor).
package cycle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/rundir"
)

// Options is one cycle.
type Options struct {
	// Run is the run to start; its CandidatesPath is set. The cycle resumes
	// the latest resumable run over the same candidates instead, if any.
	Run pipeline.Options
	// Decide is how the run is decided.
	Decide DecideOptions
	// Publish, when set, publishes the decided run at once (the demo).
	Publish func(ctx context.Context, dir string, d *policy.Decisions) error
	// Report says what happened; every hook is optional.
	Report Report
}

// Report is what a cycle tells its caller, step by step. An error returned
// by a hook ends the cycle with it.
type Report struct {
	Resuming func(runID string)
	Ran      func(res *pipeline.RunResult, err error) error
	Decided  func(dir string, d *policy.Decisions) error
	Diffed   func(d policy.RunDiff)
}

// Once runs one cycle: run or resume, decide, diff (written as diff.json in
// the run directory), and publish when o.Publish is set.
func Once(ctx context.Context, o Options) error {
	ro := o.Run
	if ri, ok, err := pipeline.LatestResumable(ro.Home, ro.CandidatesPath); err != nil {
		return err
	} else if ok {
		if o.Report.Resuming != nil {
			o.Report.Resuming(ri.ID)
		}
		ro.Resume = ri.ID
	}
	res, err := pipeline.Run(ctx, ro)
	if o.Report.Ran != nil {
		err = o.Report.Ran(res, err)
	}
	if err != nil {
		return err
	}
	d, err := Decide(ctx, res.Dir, o.Decide)
	if err != nil {
		return err
	}
	if o.Report.Decided != nil {
		if err := o.Report.Decided(res.Dir, d); err != nil {
			return err
		}
	}
	diff, err := DiffAgainstPrevious(ro.Home, res)
	if err != nil {
		return err
	}
	if err := rundir.WriteJSON(res.Dir, policy.DiffFile, diff); err != nil {
		return err
	}
	if o.Report.Diffed != nil {
		o.Report.Diffed(diff)
	}
	if o.Publish == nil {
		return nil
	}
	return o.Publish(ctx, res.Dir, d)
}

// DiffAgainstPrevious finds the latest earlier decided run over the same
// candidates bytes and diffs res against it.
func DiffAgainstPrevious(home string, res *pipeline.RunResult) (policy.RunDiff, error) {
	cur, err := ReadDecided(res.Dir)
	if err != nil {
		return policy.RunDiff{}, err
	}
	runs, err := pipeline.ListRuns(home)
	if err != nil {
		return policy.RunDiff{}, err
	}
	var prev *policy.DecidedRun
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if r.ID == res.RunID || r.Header.CandidatesSHA256 != res.Header.CandidatesSHA256 || !r.Header.StartedAt.Before(res.Header.StartedAt) {
			continue
		}
		if _, err := os.Stat(filepath.Join(r.Dir, "decisions.json")); err != nil {
			continue
		}
		p, err := ReadDecided(r.Dir)
		if err != nil {
			return policy.RunDiff{}, fmt.Errorf("previous run %s: %w", r.ID, err)
		}
		prev = &p
		break
	}
	return policy.Diff(prev, cur), nil
}

// ReadDecided reads a decided run's decisions and surfaces.
func ReadDecided(dir string) (policy.DecidedRun, error) {
	d, _, err := publish.ReadDecisions(dir)
	if err != nil {
		return policy.DecidedRun{}, err
	}
	var s []rundir.Surface
	if _, err := rundir.ReadJSON(dir, rundir.SurfacesFile, &s); err != nil {
		return policy.DecidedRun{}, err
	}
	return policy.DecidedRun{Decisions: d, Surfaces: s}, nil
}
