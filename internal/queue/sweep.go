package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// A job River discards is one whose every attempt returned an error, or
// whose worker died on every attempt (River's rescuer discards a job stuck
// running on its last attempt): no attempt wrote the package's result, so
// the run's count of pending packages would never reach zero. The sweep is
// a River periodic job, so only the elected leader among the running
// workers enqueues it (into its own queue); each execution lists the
// discarded examine jobs of every queue and, for each, in one transaction
// under the run's lock: writes the package's failure row
// (pipeline.DiscardedPackage) unless a result is there already, counts it
// as the worker's commit does, enqueues the wave's finish job when it was
// the last, and deletes the discarded job. A package that fails for good is
// a failure row, never a stuck queue. The row does not depend on the
// worker's stamps, so a leader built another way sweeps other runs' jobs
// the same.

// DefaultSweepInterval is how often the leader looks for discarded jobs.
const DefaultSweepInterval = time.Minute

// sweepPage is how many discarded jobs one listing reads.
const sweepPage = 100

// SweepArgs is the sweep job; it has no arguments.
type SweepArgs struct{}

// Kind is the job kind River stores.
func (SweepArgs) Kind() string { return vocab.JobSweep }

// sweepJob is the periodic job the worker's client registers.
func sweepJob(queue string, every time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(every), func() (river.JobArgs, *river.InsertOpts) {
		return SweepArgs{}, &river.InsertOpts{Queue: queue, MaxAttempts: 1,
			UniqueOpts: river.UniqueOpts{ByQueue: true, ByState: []rivertype.JobState{
				rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
				rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
	}, &river.PeriodicJobOpts{ID: vocab.JobSweep, RunOnStart: true})
}

type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	w *Worker
}

// Work records every discarded examine job's package, then enqueues again
// the finish job of every run left with no package pending and no live
// finish job (sweep_finish.go): a package recorded now may be its wave's
// last, whose finish job the same transaction enqueued.
func (x *sweepWorker) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	if _, err := x.w.Sweep(ctx); err != nil {
		return err
	}
	_, err := x.w.SweepFinishes(ctx)
	return err
}

// Sweep writes the failure row of every package whose examine job River
// discarded, and returns how many it wrote. The leader's periodic sweep
// job calls it; it is safe to call from any number of workers at once.
func (w *Worker) Sweep(ctx context.Context) (int, error) {
	written := 0
	params := river.NewJobListParams().Kinds(vocab.JobExamine).States(rivertype.JobStateDiscarded).First(sweepPage)
	for {
		res, err := w.client.JobList(ctx, params)
		if err != nil {
			return written, fmt.Errorf("queue: list discarded jobs: %w", err)
		}
		for _, job := range res.Jobs {
			ok, err := w.discarded(ctx, job)
			if err != nil {
				return written, err
			}
			if ok {
				written++
			}
		}
		if len(res.Jobs) < sweepPage || res.LastCursor == nil {
			return written, nil
		}
		params = params.After(res.LastCursor)
	}
}

// discarded records one discarded examine job's package and deletes the
// job, in one transaction under the run's lock; true when it wrote the
// package's row.
func (w *Worker) discarded(ctx context.Context, job *rivertype.JobRow) (bool, error) {
	var a ExamineArgs
	if err := json.Unmarshal(job.EncodedArgs, &a); err != nil || a.File != a.Pkg.FileName() {
		// Not a job Enqueue wrote: nothing to count it against.
		w.log.Warn("discarded examine job not recorded: its arguments are not a package of a run", "job", job.ID, "err", err)
		return false, nil
	}
	tx, err := w.o.Store.Pool().Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("queue: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	q := store.InQueueTx(tx)
	row, err := q.LockRun(ctx, a.RunID)
	if errors.Is(err, vocab.ErrNotFound) {
		w.log.Warn("discarded examine job not recorded: its run has no row", "job", job.ID, "run", a.RunID)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	wrote := false
	have, err := q.ResultExists(ctx, a.RunID, a.File)
	if err != nil {
		return false, err
	}
	if !have {
		last := ""
		if n := len(job.Errors); n > 0 {
			last = job.Errors[n-1].Error
		}
		res, err := pipeline.DiscardedPackage(a.Pkg, job.Attempt, last)
		if err != nil {
			return false, err
		}
		inserted, _, err := commitResult(ctx, w.client, tx, q, row, a, res)
		if err != nil {
			return false, err
		}
		if inserted {
			wrote = true
		}
	}
	if _, err := w.client.JobDeleteTx(ctx, tx, job.ID); err != nil && !errors.Is(err, river.ErrNotFound) {
		return false, fmt.Errorf("queue: delete discarded job %d: %w", job.ID, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("queue: commit: %w", err)
	}
	if wrote {
		w.log.Warn("package recorded as failed: its examine job was discarded", "run", a.RunID, "package", a.Pkg.Key(), "attempts", job.Attempt, "job", job.ID)
	}
	return wrote, nil
}
