package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// A run whose wave has no package pending waits on that wave's finish job
// alone. The job is inserted in the transaction that counts the wave's last
// result (commitResult) or that finds the wave done (enqueuer.wave), so a
// process that dies between the two has committed neither; but River may
// still lose it: a finish job whose every attempt fails (the finisher's
// disk, the evidence store) is discarded, and an operator may cancel or
// delete one. Then nothing would ever take the run further. So the same
// periodic sweep that records discarded examine jobs (sweep.go) lists the
// runs that are not finished and have no package pending, and, for each,
// under the run's lock, inserts the finish job of the wave being examined
// again. The insert is unique by run and wave over the job's live states
// (insertFinish), so a finish job queued, scheduled for a retry or running
// (a live finisher) is never doubled, and two sweeps at once insert one.
// The finish job is idempotent: it seeds the run directory from the rows
// (same bytes), re-runs the resume's assembly (every file written whole),
// puts the run objects again (each replaced whole) and only then marks the
// run finished, so one that died half-way is safe to run again and writes
// the same seven files. A discarded finish job stays in River's table, with
// its errors, until River's cleaner removes it.

// stalledPage is how many stalled runs one listing reads.
const stalledPage = 100

// SweepFinishes enqueues again the finish job of every run that is not
// finished, has no package pending, and has no live finish job, and returns
// how many it enqueued. The leader's periodic sweep job calls it; it is
// safe to call from any number of workers at once.
func (w *Worker) SweepFinishes(ctx context.Context) (int, error) {
	return sweepFinishes(ctx, w.o.Store, w.client, w.log)
}

func sweepFinishes(ctx context.Context, st *store.Store, c *river.Client[pgx.Tx], log *slog.Logger) (int, error) {
	added, after := 0, ""
	for {
		ids, err := st.QueueRunsStalled(ctx, after, stalledPage)
		if err != nil {
			return added, err
		}
		for _, id := range ids {
			ok, err := refinish(ctx, st, c, log, id)
			if err != nil {
				return added, err
			}
			if ok {
				added++
			}
			after = id
		}
		if len(ids) < stalledPage {
			return added, nil
		}
	}
}

// refinish inserts the finish job of run id's wave, in one transaction
// under the run's lock, when the run is still not finished with no package
// pending; true when a job was inserted (none was live).
func refinish(ctx context.Context, st *store.Store, c *river.Client[pgx.Tx], log *slog.Logger, id string) (bool, error) {
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("queue: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	q := store.InQueueTx(tx)
	row, err := q.LockRun(ctx, id)
	if errors.Is(err, vocab.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if row.Status != vocab.QueueRunQueued || row.Pending != 0 {
		return false, nil // it moved on since the listing
	}
	inserted, err := insertFinish(ctx, c, tx, row, row.Wave)
	if err != nil {
		return false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("queue: commit: %w", err)
	}
	if inserted {
		log.Warn("finish job enqueued again: the run had no package pending and no live finish job (its finish job was discarded or removed)", "run", id, "wave", row.Wave)
	}
	return inserted, nil
}

// finishHook, when set (tests only: export_test.go), is called at the
// steps of a finish job that assembles a run: "assembled" once the seven
// files and the finished header are on this machine's disk, "put <name>"
// before each run object is put, and "objects" before the row is marked
// finished. A test kills the process there.
var finishHook func(step string)

// hookedObjects calls finishHook before each object is put.
type hookedObjects struct{ evidence.RunObjects }

func (h hookedObjects) PutRunObject(ctx context.Context, runID, name string, data []byte) error {
	finishHook("put " + name)
	return h.RunObjects.PutRunObject(ctx, runID, name, data)
}

func hook(step string) {
	if finishHook != nil {
		finishHook(step)
	}
}
