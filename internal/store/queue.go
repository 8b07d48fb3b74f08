package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/attestari/attestari/internal/store/internal/dbq"
)

// The queued run's rows (db/migrations/0008_queue.sql) for internal/queue.
// River drives the jobs over the same pool (Pool) and the same
// transactions: an examine job's result row, its run's count and the job's
// completion commit together (QueueTx), so a result is written exactly
// once whatever a worker's death or a retry does.

// QueueRun is a queued run's header row.
type QueueRun struct {
	RunID string
	// Header and Candidates are run.json and candidates.json byte for byte.
	Header, Candidates []byte
	CandidatesSHA256   string
	// Queue is the River queue the run's jobs go to.
	Queue string
	// Wave is the wave being examined, Pending how many of its packages
	// have no result, Packages how many were enqueued over all waves.
	Wave, Pending, Packages int
	Status                  string
	QueuedAt                time.Time
	FinishedAt              *time.Time
}

func queueRun(r dbq.QueueRun) QueueRun {
	out := QueueRun{RunID: r.RunID, Header: r.Header, Candidates: r.Candidates, CandidatesSHA256: r.CandidatesSha256,
		Queue: r.Queue, Wave: int(r.Wave), Pending: int(r.Pending), Packages: int(r.Packages), Status: r.Status,
		QueuedAt: r.QueuedAt.Time}
	if r.FinishedAt.Valid {
		t := r.FinishedAt.Time
		out.FinishedAt = &t
	}
	return out
}

// Pool is the connection pool, for River's driver (riverpgxv5), which runs
// the job tables' queries itself.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// QueueRun reads a queued run's header row; vocab.ErrNotFound when the run
// was never queued.
func (s *Store) QueueRun(ctx context.Context, runID string) (QueueRun, error) {
	r, err := s.q.QueueRunGet(ctx, runID)
	if err != nil {
		return QueueRun{}, fmt.Errorf("queued run %s: %w", runID, notFound(err))
	}
	return queueRun(r), nil
}

// QueueResultCount is how many packages of a queued run have their result.
func (s *Store) QueueResultCount(ctx context.Context, runID string) (int, error) {
	n, err := s.q.QueueResultCount(ctx, runID)
	if err != nil {
		return 0, fmt.Errorf("queued run %s: count results: %w", runID, err)
	}
	return int(n), nil
}

// queueResultsPage bounds one read of QueueResults.
const queueResultsPage = 200

// QueueResults calls yield with every per-package result of a run, in file
// name order, a page at a time.
func (s *Store) QueueResults(ctx context.Context, runID string, yield func(name string, body []byte) error) error {
	after := ""
	for {
		rows, err := s.q.QueueResultsPage(ctx, dbq.QueueResultsPageParams{RunID: runID, After: after, Lim: queueResultsPage})
		if err != nil {
			return fmt.Errorf("queued run %s: read results: %w", runID, err)
		}
		for _, r := range rows {
			if err := yield(r.FileName, r.Body); err != nil {
				return err
			}
			after = r.FileName
		}
		if len(rows) < queueResultsPage {
			return nil
		}
	}
}

// QueueAttemptStart returns how many extractions of a package were started
// before without its result being written and, below max, counts this one.
// It commits at once: the count must outlive a worker killed mid-extraction.
func (s *Store) QueueAttemptStart(ctx context.Context, runID, file string, max int) (int, error) {
	n := 0
	v, err := s.q.QueueAttemptGet(ctx, dbq.QueueAttemptGetParams{RunID: runID, FileName: file})
	switch {
	case err == nil:
		n = int(v)
	case !errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("queued run %s: read attempts of %s: %w", runID, file, err)
	}
	if n >= max {
		return n, nil
	}
	if err := s.q.QueueAttemptCount(ctx, dbq.QueueAttemptCountParams{RunID: runID, FileName: file}); err != nil {
		return 0, fmt.Errorf("queued run %s: count attempt of %s: %w", runID, file, err)
	}
	return n, nil
}

// QueueAttemptClear forgets a package's extraction attempts.
func (s *Store) QueueAttemptClear(ctx context.Context, runID, file string) error {
	if err := s.q.QueueAttemptClear(ctx, dbq.QueueAttemptClearParams{RunID: runID, FileName: file}); err != nil {
		return fmt.Errorf("queued run %s: clear attempts of %s: %w", runID, file, err)
	}
	return nil
}

// QueueTx is the queued run's writes inside a transaction the caller owns
// (River's job transaction).
type QueueTx struct{ q *dbq.Queries }

// InQueueTx binds the queue's writes to tx.
func InQueueTx(tx pgx.Tx) QueueTx { return QueueTx{q: dbq.New(tx)} }

// InsertRun records a queued run's header row; false when the run id is
// already queued (the row is left as it is).
func (q QueueTx) InsertRun(ctx context.Context, r QueueRun) (bool, error) {
	n, err := q.q.QueueRunInsert(ctx, dbq.QueueRunInsertParams{RunID: r.RunID, Header: r.Header, Candidates: r.Candidates,
		CandidatesSha256: r.CandidatesSHA256, Queue: r.Queue, Status: r.Status})
	if err != nil {
		return false, fmt.Errorf("queued run %s: insert: %w", r.RunID, err)
	}
	return n == 1, nil
}

// LockRun reads a queued run's row and locks it until the transaction ends;
// vocab.ErrNotFound when there is none.
func (q QueueTx) LockRun(ctx context.Context, runID string) (QueueRun, error) {
	r, err := q.q.QueueRunLock(ctx, runID)
	if err != nil {
		return QueueRun{}, fmt.Errorf("queued run %s: lock: %w", runID, notFound(err))
	}
	return queueRun(r), nil
}

// SetWave records the wave being examined, how many of its packages have
// no result, and how many packages were enqueued now.
func (q QueueTx) SetWave(ctx context.Context, runID string, wave, pending, added int) error {
	if err := q.q.QueueRunSetWave(ctx, dbq.QueueRunSetWaveParams{RunID: runID, Wave: int32(wave), Pending: int32(pending), Added: int32(added)}); err != nil {
		return fmt.Errorf("queued run %s: set wave: %w", runID, err)
	}
	return nil
}

// Missing returns the names among names that have no result in the run.
func (q QueueTx) Missing(ctx context.Context, runID string, names []string) ([]string, error) {
	out, err := q.q.QueueResultsMissing(ctx, dbq.QueueResultsMissingParams{RunID: runID, Names: names, Lim: int32(len(names))})
	if err != nil {
		return nil, fmt.Errorf("queued run %s: missing results: %w", runID, err)
	}
	return out, nil
}

// ResultExists says whether a package of the run has its result.
func (q QueueTx) ResultExists(ctx context.Context, runID, file string) (bool, error) {
	ok, err := q.q.QueueResultExists(ctx, dbq.QueueResultExistsParams{RunID: runID, FileName: file})
	if err != nil {
		return false, fmt.Errorf("queued run %s: result of %s: %w", runID, file, err)
	}
	return ok, nil
}

// InsertResult writes a package's result once; false when it was already
// written (by an earlier execution of the same job).
func (q QueueTx) InsertResult(ctx context.Context, runID, file string, hop int, key string, failures int, body []byte) (bool, error) {
	n, err := q.q.QueueResultInsert(ctx, dbq.QueueResultInsertParams{RunID: runID, FileName: file, Hop: int32(hop),
		PackageKey: key, Failures: int32(failures), Body: body})
	if err != nil {
		return false, fmt.Errorf("queued run %s: insert result of %s: %w", runID, file, err)
	}
	return n == 1, nil
}

// CompleteOne counts one result of wave hop against its run and returns
// how many packages of the wave being examined are still pending, and which
// wave that is. The row's lock serialises concurrent completions, so
// exactly one of them sees zero.
func (q QueueTx) CompleteOne(ctx context.Context, runID string, hop int) (pending, wave int, err error) {
	r, err := q.q.QueueRunCompleteOne(ctx, dbq.QueueRunCompleteOneParams{RunID: runID, Hop: int32(hop)})
	if err != nil {
		return 0, 0, fmt.Errorf("queued run %s: complete one: %w", runID, notFound(err))
	}
	return int(r.Pending), int(r.Wave), nil
}

// FinishRun marks a queued run finished (status).
func (q QueueTx) FinishRun(ctx context.Context, runID, status string) error {
	if err := q.q.QueueRunFinish(ctx, dbq.QueueRunFinishParams{RunID: runID, Status: status}); err != nil {
		return fmt.Errorf("queued run %s: finish: %w", runID, err)
	}
	return nil
}
