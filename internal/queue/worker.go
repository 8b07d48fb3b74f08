package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// WorkerOptions configures a Worker.
type WorkerOptions struct {
	Store *store.Store
	// Pipeline is how this machine examines: Home (where a finish job
	// writes the run directory), the registry clients, the evidence store,
	// the extractor, the checks and the stamps. Concurrency is ignored:
	// Workers bounds the jobs at once.
	Pipeline pipeline.Options
	// Workers is the number of jobs this process works at once; default 1.
	Workers int
	// JobTimeout, RescueAfter and RetryBase: see the defaults of the same
	// names. RescueAfter must exceed JobTimeout.
	JobTimeout, RescueAfter, RetryBase time.Duration
	// FetchCooldown is the least time between two fetches of jobs by this
	// process (River's FetchCooldown, and its poll interval); zero keeps River's default of 100 ms, which bounds a
	// process to Workers jobs per 100 ms (docs/benchmarks.md, "Examination
	// on a queue").
	FetchCooldown time.Duration
	// SweepInterval is how often the elected leader among the workers
	// records the packages of discarded examine jobs (sweep.go); zero
	// means DefaultSweepInterval.
	SweepInterval time.Duration
	// Logger receives one line per job; default slog.Default().
	Logger *slog.Logger
	// Progress, when set, hears of each examine job committed: the run,
	// the package, and the run's results so far against its packages.
	Progress func(runID, pkg string, done, total int)
}

// Worker drains the examine and finish jobs of the runs whose stamps are
// this machine's.
type Worker struct {
	o      WorkerOptions
	client *river.Client[pgx.Tx]
	queue  string
	log    *slog.Logger
	enq    *enqueuer

	mu   sync.Mutex
	runs map[string]*runState
}

// runState is what a worker keeps of a run it works on.
type runState struct {
	header rundir.Header
	ex     *pipeline.Examiner
}

// NewWorker builds a worker; Run starts it.
func NewWorker(o WorkerOptions) (*Worker, error) {
	if o.Store == nil {
		return nil, errors.New("queue: NewWorker needs a store")
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	o.JobTimeout = cmpOr(o.JobTimeout, DefaultJobTimeout)
	o.RescueAfter = cmpOr(o.RescueAfter, DefaultRescueAfter)
	o.RetryBase = cmpOr(o.RetryBase, DefaultRetryBase)
	o.SweepInterval = cmpOr(o.SweepInterval, DefaultSweepInterval)
	if o.RescueAfter <= o.JobTimeout {
		return nil, fmt.Errorf("queue: the rescue interval (%s) must be longer than the job timeout (%s), or a job still running would be taken for dead", o.RescueAfter, o.JobTimeout)
	}
	if o.Pipeline.Home == "" {
		o.Pipeline.Home = "var"
	}
	stamps, err := pipeline.Stamps(o.Pipeline)
	if err != nil {
		return nil, err
	}
	w := &Worker{o: o, queue: QueueName(stamps), log: o.Logger, runs: map[string]*runState{}}
	if w.log == nil {
		w.log = slog.Default()
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &examineWorker{w: w}); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	if err := river.AddWorkerSafely(workers, &finishWorker{w: w}); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	if err := river.AddWorkerSafely(workers, &sweepWorker{w: w}); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	cfg := &river.Config{
		Queues:               map[string]river.QueueConfig{w.queue: {MaxWorkers: o.Workers}},
		Workers:              workers,
		JobTimeout:           o.JobTimeout,
		RescueStuckJobsAfter: o.RescueAfter,
		RetryPolicy:          retryPolicy{base: o.RetryBase},
		MaxAttempts:          DefaultMaxAttempts,
		Logger:               w.log,
		PeriodicJobs:         []*river.PeriodicJob{sweepJob(w.queue, o.SweepInterval)},
	}
	if o.FetchCooldown > 0 {
		cfg.FetchCooldown, cfg.FetchPollInterval = o.FetchCooldown, o.FetchCooldown
	}
	w.client, err = river.NewClient(newDriver(o.Store), cfg)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	w.enq = &enqueuer{st: o.Store, client: w.client, maxAttempts: DefaultMaxAttempts}
	return w, nil
}

func cmpOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Queue is the River queue this worker drains.
func (w *Worker) Queue() string { return w.queue }

// Run works jobs until ctx ends, then stops: jobs in flight get until
// stopTimeout to finish, then their contexts are cancelled (their packages
// are not saved and River retries them).
func (w *Worker) Run(ctx context.Context, stopTimeout time.Duration) error {
	if err := w.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("queue: start: %w", err)
	}
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	if err := w.client.Stop(sctx); err != nil {
		cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer ccancel()
		if err := w.client.StopAndCancel(cctx); err != nil {
			return fmt.Errorf("queue: stop: %w", err)
		}
	}
	return nil
}

// run returns the worker's state of a run, built from the run's header row
// on first use: the examiner refuses a header this worker would not write.
func (w *Worker) run(ctx context.Context, id string) (*runState, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if rs := w.runs[id]; rs != nil {
		return rs, nil
	}
	row, err := w.o.Store.QueueRun(ctx, id)
	if err != nil {
		return nil, err
	}
	var h rundir.Header
	if err := json.Unmarshal(row.Header, &h); err != nil {
		return nil, fmt.Errorf("queue: run %s: header row: %w", id, err)
	}
	ex, err := pipeline.NewExaminer(w.o.Pipeline, h, attempts{st: w.o.Store, run: id})
	if err != nil {
		return nil, err
	}
	rs := &runState{header: h, ex: ex}
	w.runs[id] = rs
	return rs, nil
}

// attempts keeps a run's extraction attempts in the database, shared by
// every worker (pipeline.Attempts).
type attempts struct {
	st  *store.Store
	run string
}

func (a attempts) Start(ctx context.Context, name string) (int, error) {
	return a.st.QueueAttemptStart(ctx, a.run, name, pipeline.MaxExtractAttempts)
}

func (a attempts) Clear(ctx context.Context, name string) error {
	return a.st.QueueAttemptClear(ctx, a.run, name)
}

type examineWorker struct {
	river.WorkerDefaults[ExamineArgs]
	w *Worker
}

// Work examines one package and writes its result, the run's count and the
// job's completion in one transaction; when this result was the wave's
// last, the finish job is enqueued in the same transaction.
func (x *examineWorker) Work(ctx context.Context, job *river.Job[ExamineArgs]) error {
	w, a := x.w, job.Args
	if a.File != a.Pkg.FileName() {
		return river.JobCancel(fmt.Errorf("queue: job names file %s, its package %s names %s", a.File, a.Pkg.Key(), a.Pkg.FileName()))
	}
	rs, err := w.run(ctx, a.RunID)
	if err != nil {
		return err
	}
	done, err := w.complete(ctx, job, nil)
	if err != nil || done {
		return err
	}
	res, err := rs.ex.Examine(ctx, a.Pkg)
	if err != nil {
		return err
	}
	if res.Transient && job.Attempt < job.MaxAttempts {
		rs.ex.Saved(ctx, a.Pkg)
		w.log.Info("package failed transiently; retried later", "run", a.RunID, "package", res.Key, "attempt", job.Attempt, "of", job.MaxAttempts)
		return fmt.Errorf("%w: %s: %s", ErrTransient, res.Key, failureLine(res.Failures))
	}
	if _, err := w.complete(ctx, job, res); err != nil {
		return err
	}
	rs.ex.Saved(ctx, a.Pkg)
	return nil
}

func failureLine(fs []rundir.Failure) string {
	for _, f := range fs {
		return f.Stage + " " + f.Kind + ": " + f.Message
	}
	return ""
}

// complete writes res (when not nil) and completes the job in one
// transaction. With res nil it completes the job only if its result is
// already written (an earlier execution committed it), and says so.
func (w *Worker) complete(ctx context.Context, job *river.Job[ExamineArgs], res *pipeline.Examined) (bool, error) {
	a := job.Args
	tx, err := w.o.Store.Pool().Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("queue: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	q := store.InQueueTx(tx)
	row, err := q.LockRun(ctx, a.RunID)
	if err != nil {
		return false, err
	}
	if res == nil {
		ok, err := q.ResultExists(ctx, a.RunID, a.File)
		if err != nil || !ok {
			return false, err
		}
	} else {
		inserted, pending, err := commitResult(ctx, w.client, tx, q, row, a, res)
		if err != nil {
			return false, err
		}
		if inserted {
			row.Pending = pending
		}
	}
	if _, err := river.JobCompleteTx[*driverType](ctx, tx, job); err != nil {
		return false, fmt.Errorf("queue: complete job %d: %w", job.ID, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("queue: commit: %w", err)
	}
	if res != nil {
		n, err := w.o.Store.QueueResultCount(ctx, a.RunID)
		if err == nil {
			total := n + row.Pending
			w.log.Info("package examined", "run", a.RunID, "package", res.Key, "failures", len(res.Failures), "done", n, "of", total)
			if w.o.Progress != nil {
				w.o.Progress(a.RunID, res.Key, n, total)
			}
		}
	}
	return true, nil
}

type finishWorker struct {
	river.WorkerDefaults[FinishArgs]
	w *Worker
}

// Work takes a run past a wave: it seeds the run directory under this
// machine's home from the queue's rows and runs pipeline.Dispatch on it,
// which enqueues the next wave of delegation targets or assembles the
// seven files.
func (x *finishWorker) Work(ctx context.Context, job *river.Job[FinishArgs]) error {
	w, a := x.w, job.Args
	row, err := w.o.Store.QueueRun(ctx, a.RunID)
	if err != nil {
		return err
	}
	if row.Status == vocab.QueueRunFinished {
		return nil
	}
	if _, err := pipeline.SeedRunDir(w.o.Pipeline.Home, a.RunID, row.Header, row.Candidates, func(yield func(string, []byte) error) error {
		return w.o.Store.QueueResults(ctx, a.RunID, yield)
	}); err != nil {
		return err
	}
	po := w.o.Pipeline
	po.Resume, po.CandidatesPath, po.RunID, po.Progress = a.RunID, "", "", nil
	res, err := pipeline.Dispatch(ctx, po, func(ctx context.Context, run pipeline.QueuedRun, wave int, pkgs []pipeline.QueuedPackage) error {
		added, err := w.enq.wave(ctx, run, wave, pkgs)
		if err == nil {
			w.log.Info("wave enqueued", "run", a.RunID, "wave", wave, "packages", len(pkgs), "added", added)
		}
		return err
	})
	if err != nil {
		return err
	}
	if res.Run.Status != rundir.StatusFinished {
		return nil
	}
	hook("assembled")
	// The run's files go to the shared store before its row says finished:
	// a run the database calls finished can be pulled on any machine.
	if ro := runObjectsOf(w.o); ro != nil {
		if finishHook != nil {
			ro = hookedObjects{ro}
		}
		if _, err := pipeline.PutRunObjects(ctx, ro, res.Run.Dir); err != nil {
			return err
		}
	}
	hook("objects")
	if err := finishRow(ctx, w.o.Store, w.enq, res.Run.Dir); err != nil {
		return err
	}
	w.log.Info("run finished", "run", a.RunID, "dir", res.Run.Dir, "packages", res.Run.Packages, "with_failures", res.Run.WithFailures)
	return nil
}

// commitResult writes a package's result into its run (once: a second
// result for the same file is not inserted) and, when it was inserted,
// counts the package done; the wave's last result enqueues the finish job.
// The worker's commit and the sweep of discarded jobs both go through it,
// so a swept failure row is counted exactly as a worker's result is.
func commitResult(ctx context.Context, c *river.Client[pgx.Tx], tx pgx.Tx, q store.QueueTx, row store.QueueRun, a ExamineArgs, res *pipeline.Examined) (inserted bool, pending int, err error) {
	inserted, err = q.InsertResult(ctx, a.RunID, a.File, a.Pkg.Hop, res.Key, len(res.Failures), res.Data)
	if err != nil || !inserted {
		return inserted, 0, err
	}
	pending, wave, err := q.CompleteOne(ctx, a.RunID, a.Pkg.Hop)
	if err != nil {
		return true, 0, err
	}
	if pending == 0 && wave == a.Pkg.Hop {
		if _, err := insertFinish(ctx, c, tx, row, wave); err != nil {
			return true, 0, err
		}
	}
	return true, pending, nil
}
