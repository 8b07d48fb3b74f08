// Package queue runs examination as jobs on River over PostgreSQL: `attestari
// run --queue` prepares a run and enqueues one examine job per package;
// `attestari worker` (any number, on any machine reaching the database and
// the evidence store) drains them; a finish job takes the run past each wave
// and assembles the seven run files.
//
// There is no second pipeline. A worker runs pipeline.Examiner, which is the
// single-process run's examinePackage, under the header the run recorded,
// and writes the package file's bytes (what a single-process run writes
// under packages/) to queue_package_results in the job's own transaction,
// with the job's completion (river.JobCompleteTx) and the run's count of
// pending packages. The finish job seeds a run directory from those rows
// (pipeline.SeedRunDir) and calls pipeline.Dispatch on it, which is the
// single-process run's wave loop and assembly with the resume rules: the
// next wave of delegation targets is enqueued, or the seven files are
// written by the same assembleFiles and writeSeven.
//
// "The last examine job of a wave" is known without a race: each examine
// transaction locks the run's row (queue_runs), inserts its result once (a
// result already there is not counted again), and decrements the wave's
// pending count; the transaction that takes it to zero enqueues the finish
// job in the same transaction. A worker that dies leaves its transaction
// uncommitted, so nothing is counted until a retry commits.
//
// A package that fails for good is a failure row, never a stuck queue: a
// job River discards (every attempt failed or was killed outside the
// package's stages) is recorded by the leader's periodic sweep (sweep.go)
// as the package's failure row, counted done as a worker's commit counts
// it; and a run left with no package pending and no live finish job (its
// finish job discarded after every attempt failed, or removed) gets its
// finish job again from the same sweep (sweep_finish.go), so a run is never
// stuck either.
//
// A run's jobs go to a River queue named after its stamps
// (pipeline.StampKey: versions, checks, analyzer, code), so a worker built
// another way never takes them; a worker that did would be refused by
// pipeline.NewExaminer anyway.
//
// The package holds River's client and so, with internal/store, a pgx
// pool; every query of its own tables is the store's (sqlc). It decides
// nothing and reads no artifact itself.
package queue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// ExamineArgs is one examine job: a package of a run. Unique by run and
// package file name, so a retry or a second enqueue never duplicates it.
type ExamineArgs struct {
	RunID string                 `json:"run_id" river:"unique"`
	File  string                 `json:"file" river:"unique"`
	Pkg   pipeline.QueuedPackage `json:"package"`
}

// Kind is the job kind River stores.
func (ExamineArgs) Kind() string { return vocab.JobExamine }

// FinishArgs is one finish job: take run past wave.
type FinishArgs struct {
	RunID string `json:"run_id" river:"unique"`
	Wave  int    `json:"wave" river:"unique"`
}

// Kind is the job kind River stores.
func (FinishArgs) Kind() string { return vocab.JobFinish }

// Defaults.
const (
	// DefaultMaxAttempts bounds an examine job's executions. A transient
	// failure is retried until the last attempt, which writes the failure
	// row; a job whose every attempt fails or is killed without a result is
	// discarded by River and recorded by the sweep as the package's
	// job_discarded row (sweep.go).
	DefaultMaxAttempts = 5
	// DefaultJobTimeout bounds one execution (the extraction's own wall
	// budget is 60 s; fetches and checks come on top).
	DefaultJobTimeout = 15 * time.Minute
	// DefaultRescueAfter is how long a job may stay running before River's
	// rescuer takes it as its worker's death and retries it.
	DefaultRescueAfter = 20 * time.Minute
	// DefaultRetryBase is the first retry's delay; each further retry
	// doubles it, up to maxRetryDelay.
	DefaultRetryBase = 10 * time.Second
	maxRetryDelay    = 10 * time.Minute
)

// Errors; classify with errors.Is.
var (
	// ErrOtherInputs: the run id is queued already with another candidates
	// file or under other versions, checks, analyzer or code.
	ErrOtherInputs = errors.New("queue: the run is already queued with other inputs")
	// ErrTransient: a package failed in a way the same request may not
	// fail later; the job is retried with backoff.
	ErrTransient = errors.New("queue: transient failure, retried later")
)

// QueueName is the River queue of a run with header h.
func QueueName(h rundir.Header) string { return "attestari_" + pipeline.StampKey(h) }

// retryPolicy doubles the delay from base on each attempt, up to a cap.
type retryPolicy struct{ base time.Duration }

func (p retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	d := p.base
	for i := 1; i < job.Attempt && d < maxRetryDelay; i++ {
		d *= 2
	}
	return time.Now().Add(min(d, maxRetryDelay))
}

// enqueuer writes waves: the run's row and its examine jobs in one
// transaction.
type enqueuer struct {
	st          *store.Store
	client      *river.Client[pgx.Tx]
	maxAttempts int
}

// wave enqueues the packages of run's wave that have no result, and counts
// them pending, in one transaction: the run's row (inserted on the first
// wave, compared otherwise), the jobs (River skips a job that is already
// queued, running or done), and, when nothing is left to wait for, the
// finish job of the wave.
func (e *enqueuer) wave(ctx context.Context, run pipeline.QueuedRun, wave int, pkgs []pipeline.QueuedPackage) (added int, err error) {
	tx, err := e.st.Pool().Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("queue: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	q := store.InQueueTx(tx)
	queue := QueueName(run.Header)
	if _, err := q.InsertRun(ctx, store.QueueRun{RunID: run.Header.RunID, Header: run.HeaderJSON, Candidates: run.Candidates,
		CandidatesSHA256: run.Header.CandidatesSHA256, Queue: queue, Status: vocab.QueueRunQueued}); err != nil {
		return 0, err
	}
	row, err := q.LockRun(ctx, run.Header.RunID)
	if err != nil {
		return 0, err
	}
	if err := sameInputs(row, run.Header); err != nil {
		return 0, err
	}
	names := make([]string, 0, len(pkgs))
	byName := map[string]pipeline.QueuedPackage{}
	for _, p := range pkgs {
		names = append(names, p.FileName())
		byName[p.FileName()] = p
	}
	missing, err := q.Missing(ctx, row.RunID, names)
	if err != nil {
		return 0, err
	}
	params := make([]river.InsertManyParams, 0, len(missing))
	for _, n := range missing {
		params = append(params, river.InsertManyParams{
			Args: ExamineArgs{RunID: row.RunID, File: n, Pkg: byName[n]},
			InsertOpts: &river.InsertOpts{Queue: row.Queue, MaxAttempts: e.maxAttempts,
				UniqueOpts: river.UniqueOpts{ByArgs: true}},
		})
	}
	if len(params) > 0 {
		res, err := e.client.InsertManyTx(ctx, tx, params)
		if err != nil {
			return 0, fmt.Errorf("queue: insert jobs: %w", err)
		}
		for _, r := range res {
			if !r.UniqueSkippedAsDuplicate {
				added++
			}
		}
	}
	if err := q.SetWave(ctx, row.RunID, wave, len(missing), added); err != nil {
		return 0, err
	}
	if len(missing) == 0 {
		if _, err := insertFinish(ctx, e.client, tx, row, wave); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("queue: commit: %w", err)
	}
	return added, nil
}

// insertFinish enqueues the finish job of a wave; false when one is live
// already. It is unique only while it waits or runs, so a wave that was
// taken past once may be again (Dispatch is idempotent), and a finish job
// River discarded is replaced (sweep_finish.go).
func insertFinish(ctx context.Context, c *river.Client[pgx.Tx], tx pgx.Tx, row store.QueueRun, wave int) (bool, error) {
	res, err := c.InsertTx(ctx, tx, FinishArgs{RunID: row.RunID, Wave: wave}, &river.InsertOpts{
		Queue: row.Queue, MaxAttempts: DefaultMaxAttempts,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
			rivertype.JobStateRetryable, rivertype.JobStateScheduled}},
	})
	if err != nil {
		return false, fmt.Errorf("queue: insert finish job: %w", err)
	}
	return !res.UniqueSkippedAsDuplicate, nil
}

// sameInputs refuses a queued run's row that another header does not
// match: the candidates file, the versions, checks, analyzer and code.
func sameInputs(row store.QueueRun, h rundir.Header) error {
	var diffs []string
	if row.CandidatesSHA256 != h.CandidatesSHA256 {
		diffs = append(diffs, fmt.Sprintf("its candidates file hashes to %s, this one to %s", row.CandidatesSHA256, h.CandidatesSHA256))
	}
	if q := QueueName(h); row.Queue != q {
		diffs = append(diffs, "it was queued under other versions, checks, analyzer or code (queue "+row.Queue+", this one "+q+")")
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%w: run %s: %s", ErrOtherInputs, row.RunID, diffs)
	}
	return nil
}

func newDriver(st *store.Store) *riverpgxv5.Driver { return riverpgxv5.New(st.Pool()) }

// driverType is the River driver's type, which river.JobCompleteTx names.
type driverType = riverpgxv5.Driver
