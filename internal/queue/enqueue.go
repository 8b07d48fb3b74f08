package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/riverqueue/river"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// EnqueueOptions configures Enqueue.
type EnqueueOptions struct {
	Store *store.Store
	// Pipeline is the run as this machine would make it: Home,
	// CandidatesPath, RunID and the stamps (versions, checks, analyzer,
	// code) the run records. Its clients are not called.
	Pipeline pipeline.Options
	// MaxAttempts bounds each examine job's executions; 0 means
	// DefaultMaxAttempts.
	MaxAttempts int
}

// EnqueueResult says what Enqueue did.
type EnqueueResult struct {
	RunID string
	Dir   string
	// Existing: the run was queued before; Enqueue added only what was
	// missing.
	Existing bool
	// Wave is the wave now examined; Queued its packages without a result;
	// Added the jobs inserted now (a job already queued, running or done is
	// not inserted again).
	Wave, Queued, Added int
	// Done is how many packages of the run have their result.
	Done int
	// Finished: every wave was done and the run's seven files are
	// assembled in Dir.
	Finished bool
}

// Enqueue prepares a run exactly as `attestari run` does (header,
// candidates copy, stamps, lock) and enqueues, in one transaction with the
// run's header row, one examine job per package of its first wave. A run id
// that exists is taken up again under the resume rules: refused when its
// inputs or versions differ (pipeline.ErrResumeMismatch, ErrOtherInputs),
// and otherwise its directory is seeded from the queue's results, so only
// packages without a result are enqueued, and only if no job for them is
// queued or running.
func Enqueue(ctx context.Context, o EnqueueOptions) (*EnqueueResult, error) {
	if o.Store == nil {
		return nil, errors.New("queue: Enqueue needs a store")
	}
	po := o.Pipeline
	if po.Home == "" {
		po.Home = "var"
	}
	out := &EnqueueResult{RunID: po.RunID}
	if po.RunID != "" {
		row, err := o.Store.QueueRun(ctx, po.RunID)
		switch {
		case err == nil:
			out.Existing = true
			if _, err := pipeline.SeedRunDir(po.Home, po.RunID, row.Header, row.Candidates, func(yield func(string, []byte) error) error {
				return o.Store.QueueResults(ctx, po.RunID, yield)
			}); err != nil {
				return nil, err
			}
		case !errors.Is(err, vocab.ErrNotFound):
			return nil, err
		}
		dir := filepath.Join(po.Home, "runs", po.RunID)
		if _, err := os.Stat(filepath.Join(dir, rundir.HeaderFile)); err == nil {
			if !out.Existing {
				// Its finished packages are files on this machine only: a
				// worker elsewhere could not assemble the run.
				return nil, fmt.Errorf("%w: run %s was started by 'attestari run' and is not queued; continue it with 'attestari run --resume %s'", ErrOtherInputs, po.RunID, po.RunID)
			}
			po.Resume = po.RunID
		}
	}
	client, err := river.NewClient(newDriver(o.Store), &river.Config{})
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	e := &enqueuer{st: o.Store, client: client, maxAttempts: o.MaxAttempts}
	if e.maxAttempts <= 0 {
		e.maxAttempts = DefaultMaxAttempts
	}
	res, err := pipeline.Dispatch(ctx, po, func(ctx context.Context, run pipeline.QueuedRun, wave int, pkgs []pipeline.QueuedPackage) error {
		added, err := e.wave(ctx, run, wave, pkgs)
		out.Wave, out.Queued, out.Added = wave, len(pkgs), added
		return err
	})
	if res != nil && res.Run != nil {
		out.RunID, out.Dir = res.Run.RunID, res.Run.Dir
		if res.Run.Status == rundir.StatusFinished {
			out.Finished = true
		}
	}
	if err != nil {
		return out, err
	}
	if out.Finished {
		// Every wave was done already (or the run has no package): the
		// run's row says so, written with the run's header row.
		if err := finishRow(ctx, o.Store, e, out.Dir); err != nil {
			return out, err
		}
	}
	if out.Done, err = o.Store.QueueResultCount(ctx, out.RunID); err != nil {
		return out, err
	}
	return out, nil
}

// finishRow records a run assembled here: its header row (when the run had
// nothing to enqueue it has none yet) and its finished status.
func finishRow(ctx context.Context, st *store.Store, e *enqueuer, dir string) error {
	var h rundir.Header
	hb, err := os.ReadFile(filepath.Join(dir, rundir.HeaderFile))
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	if err := json.Unmarshal(hb, &h); err != nil {
		return fmt.Errorf("queue: %s: %w", rundir.HeaderFile, err)
	}
	cb, err := os.ReadFile(filepath.Join(dir, pipeline.CandidatesCopy))
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		return fmt.Errorf("queue: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	q := store.InQueueTx(tx)
	if _, err := q.InsertRun(ctx, store.QueueRun{RunID: h.RunID, Header: hb, Candidates: cb, CandidatesSHA256: h.CandidatesSHA256,
		Queue: QueueName(h), Status: vocab.QueueRunQueued}); err != nil {
		return err
	}
	row, err := q.LockRun(ctx, h.RunID)
	if err != nil {
		return err
	}
	if err := sameInputs(row, h); err != nil {
		return err
	}
	if err := q.FinishRun(ctx, h.RunID, vocab.QueueRunFinished); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("queue: commit: %w", err)
	}
	return nil
}
