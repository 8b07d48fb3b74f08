package queue

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// oneRun is a queued run's row with one package pending in wave 0, and an
// insert-only River client (no worker takes its jobs).
func oneRun(t *testing.T) (*store.Store, *river.Client[pgx.Tx], ExamineArgs) {
	t.Helper()
	ctx := context.Background()
	st := dbtest.Open(t)
	c, err := river.NewClient(newDriver(st), &river.Config{})
	if err != nil {
		t.Fatal(err)
	}
	pkg := pipeline.QueuedPackage{Candidate: pipeline.Candidate{Registry: "npm", Name: "one-mcp", Version: "1.0.0", Rank: 1}}
	a := ExamineArgs{RunID: "f1", File: pkg.FileName(), Pkg: pkg}
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	q := store.InQueueTx(tx)
	if _, err := q.InsertRun(ctx, store.QueueRun{RunID: "f1", Header: []byte(`{}`), Candidates: []byte(`{}`),
		CandidatesSHA256: strings.Repeat("0", 64), Queue: "attestari_test", Status: vocab.QueueRunQueued}); err != nil {
		t.Fatal(err)
	}
	if err := q.SetWave(ctx, "f1", 0, 1, 1); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return st, c, a
}

// finishJobs lists the run's finish jobs in the given states (all when none).
func finishJobs(t *testing.T, c *river.Client[pgx.Tx], tx pgx.Tx, states ...rivertype.JobState) []*rivertype.JobRow {
	t.Helper()
	p := river.NewJobListParams().Kinds(vocab.JobFinish).First(100)
	if len(states) > 0 {
		p = p.States(states...)
	}
	var res *river.JobListResult
	var err error
	if tx != nil {
		res, err = c.JobListTx(context.Background(), tx, p)
	} else {
		res, err = c.JobList(context.Background(), p)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res.Jobs
}

// commitLast runs commitResult for the run's one package in a transaction
// of its own, under the run's lock, as a worker's complete does.
func commitLast(t *testing.T, st *store.Store, c *river.Client[pgx.Tx], a ExamineArgs) pgx.Tx {
	t.Helper()
	ctx := context.Background()
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	q := store.InQueueTx(tx)
	row, err := q.LockRun(ctx, a.RunID)
	if err != nil {
		t.Fatal(err)
	}
	inserted, pending, err := commitResult(ctx, c, tx, q, row, a, &pipeline.Examined{FileName: a.File, Key: a.Pkg.Key(), Data: []byte(`{"package":{}}`)})
	if err != nil || !inserted || pending != 0 {
		t.Fatalf("commitResult: inserted %v, pending %d, %v; want the wave's last result", inserted, pending, err)
	}
	return tx
}

// TestLastResultAndFinishCommitTogether: the wave's last result, its count
// and its finish job are one transaction, so a worker that dies after
// writing the result cannot leave a run without its finish job. Inside the
// transaction the finish job is there; outside it neither the result nor
// the job is, and the run still has one package pending; the connection
// then dies before the commit (what a killed worker's connection does):
// nothing of it stays. Committed, the result, the count and exactly one
// finish job appear together.
func TestLastResultAndFinishCommitTogether(t *testing.T) {
	ctx := context.Background()
	st, c, a := oneRun(t)
	tx := commitLast(t, st, c, a)
	if n := len(finishJobs(t, c, tx)); n != 1 {
		t.Fatalf("inside the last result's transaction: %d finish jobs; want 1", n)
	}
	if n := len(finishJobs(t, c, nil)); n != 0 {
		t.Fatalf("outside the uncommitted transaction: %d finish jobs visible", n)
	}
	if n, err := st.QueueResultCount(ctx, "f1"); err != nil || n != 0 {
		t.Fatalf("outside the uncommitted transaction: %d results (%v)", n, err)
	}
	if err := tx.Conn().Close(ctx); err != nil {
		t.Fatal(err)
	}
	_ = tx.Rollback(ctx)
	row, err := st.QueueRun(ctx, "f1")
	if err != nil {
		t.Fatal(err)
	}
	n, err := st.QueueResultCount(ctx, "f1")
	if err != nil || n != 0 || row.Pending != 1 || len(finishJobs(t, c, nil)) != 0 {
		t.Fatalf("after the connection died uncommitted: %d results (%v), %d pending, %d finish jobs; want 0, 1, 0",
			n, err, row.Pending, len(finishJobs(t, c, nil)))
	}

	tx = commitLast(t, st, c, a)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	row, err = st.QueueRun(ctx, "f1")
	if err != nil {
		t.Fatal(err)
	}
	jobs := finishJobs(t, c, nil)
	n, err = st.QueueResultCount(ctx, "f1")
	if err != nil || n != 1 || row.Pending != 0 || len(jobs) != 1 {
		t.Fatalf("after the commit: %d results (%v), %d pending, %d finish jobs; want 1, 0, 1", n, err, row.Pending, len(jobs))
	}
	var fa FinishArgs
	if err := json.Unmarshal(jobs[0].EncodedArgs, &fa); err != nil || fa.RunID != "f1" || fa.Wave != 0 {
		t.Fatalf("the finish job's arguments: %s (%v)", jobs[0].EncodedArgs, err)
	}
}

// TestSweepFinishesReplacesALostFinishJob: a run with a package pending is
// not the sweep's; once its last result is committed its finish job is
// live and the sweep adds none. With the job removed (as River's cleaner or
// an operator may) or cancelled, the sweep inserts one, and a second sweep
// none (the first is live); a finished run gets none.
func TestSweepFinishesReplacesALostFinishJob(t *testing.T) {
	ctx := context.Background()
	st, c, a := oneRun(t)
	log := slog.New(slog.DiscardHandler)
	sweep := func(want int, when string) {
		t.Helper()
		n, err := sweepFinishes(ctx, st, c, log)
		if err != nil || n != want {
			t.Fatalf("%s: the sweep enqueued %d finish jobs (%v); want %d", when, n, err, want)
		}
	}
	sweep(0, "a package pending")
	tx := commitLast(t, st, c, a)
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	sweep(0, "the last result's finish job live")
	jobs := finishJobs(t, c, nil)
	if len(jobs) != 1 {
		t.Fatalf("%d finish jobs; want 1", len(jobs))
	}
	if _, err := c.JobDelete(ctx, jobs[0].ID); err != nil {
		t.Fatal(err)
	}
	sweep(1, "the finish job deleted")
	sweep(0, "the replacement live")
	live := finishJobs(t, c, nil, rivertype.JobStateAvailable)
	if len(live) != 1 {
		t.Fatalf("%d available finish jobs after two sweeps; want 1", len(live))
	}
	if _, err := c.JobCancel(ctx, live[0].ID); err != nil {
		t.Fatal(err)
	}
	sweep(1, "the finish job cancelled")
	if n := len(finishJobs(t, c, nil, rivertype.JobStateAvailable)); n != 1 {
		t.Fatalf("%d available finish jobs; want 1", n)
	}
	tx, err := st.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.InQueueTx(tx).FinishRun(ctx, "f1", vocab.QueueRunFinished); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for _, j := range finishJobs(t, c, nil, rivertype.JobStateAvailable) {
		if _, err := c.JobDelete(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
	}
	sweep(0, "the run finished")
}
