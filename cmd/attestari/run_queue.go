package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/queue"
	"github.com/attestari/attestari/internal/store"
)

// errNoQueueDatabase is what `run --queue` and `worker` say without a
// database: the queue lives there, and a private cluster on this machine
// would be a queue no other machine can reach.
var errNoQueueDatabase = errors.New("the queue is in PostgreSQL: set ATTESTARI_DATABASE_URL (or DATABASE_URL) to a database every worker reaches, and migrate it with 'attestari db migrate'")

// queueDatabaseURL is the queue's database: ATTESTARI_DATABASE_URL, else
// DATABASE_URL.
func queueDatabaseURL(e *env) (string, error) {
	for _, k := range []string{"ATTESTARI_DATABASE_URL", "DATABASE_URL"} {
		if u := e.getenv(k); u != "" {
			return u, nil
		}
	}
	return "", errNoQueueDatabase
}

// openQueueStore opens the queue's database for a long writer: statements
// are not bound by the API's 5 s timeout.
func openQueueStore(ctx context.Context, e *env, conns int32) (*store.Store, error) {
	url, err := queueDatabaseURL(e)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, url, store.Options{MaxConns: conns, StatementTimeout: time.Minute})
}

// runQueued is `attestari run --queue`: prepare the run here, enqueue its
// first wave, and print how to follow it.
func runQueued(ctx context.Context, e *env, o pipeline.Options, runID string, maxAttempts int) error {
	st, err := openQueueStore(ctx, e, 4)
	if err != nil {
		return err
	}
	defer st.Close()
	o.RunID, o.Progress = runID, nil
	res, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o, MaxAttempts: maxAttempts})
	if err != nil {
		if errors.Is(err, pipeline.ErrResumeMismatch) || errors.Is(err, queue.ErrOtherInputs) {
			return fmt.Errorf("%w\n  (a run id names one run: give another --run-id, or the same candidates file and build)", err)
		}
		return err
	}
	switch {
	case res.Finished:
		fmt.Fprintf(e.stdout, "run %s finished: every package has its result; the seven files are in %s\n", res.RunID, res.Dir)
	case res.Existing:
		fmt.Fprintf(e.stdout, "run %s is queued already: %d packages done, wave %d has %d without a result; %d jobs added (the others are queued, running or done)\n",
			res.RunID, res.Done, res.Wave, res.Queued, res.Added)
	default:
		fmt.Fprintf(e.stdout, "run %s queued: %d packages (wave %d) as %d examine jobs\n  %s\n", res.RunID, res.Queued, res.Wave, res.Added, res.Dir)
	}
	if !res.Finished {
		fmt.Fprintf(e.stdout, "  start workers: attestari worker   (any number, on machines that reach this database and the evidence store)\n")
		fmt.Fprintf(e.stdout, "  follow it:     attestari run --queue --run-id %s   (enqueues nothing new; prints progress)\n", res.RunID)
	}
	return nil
}

const queueHelp = `
--queue prepares the run here exactly as above (run.json, candidates.json, the lock while it
does) and enqueues, in one transaction with the run's row, one examine job per package in
PostgreSQL (ATTESTARI_DATABASE_URL, or DATABASE_URL), for 'attestari worker' processes to drain
on any machine. Jobs are unique per run and package: the same command again with --run-id
enqueues nothing new and prints how far the run is (a run id queued with another candidates
file, or under other versions or code, is refused). The seven files are assembled by the
worker that finishes the last package, under its $ATTESTARI_HOME/runs/<id>/, and put into the
evidence store unless that is the worker's own home's directory; 'attestari pull <id>' copies
them from there into this machine's home, or run the same command again on this machine once
the run is done to assemble them here from the database.`

// queueFlags are run's flags for the queued path.
type queueFlags struct {
	queue       *bool
	runID       *string
	maxAttempts *int
}

func addQueueFlags(fs *flag.FlagSet) queueFlags {
	return queueFlags{
		queue:       fs.Bool("queue", false, "enqueue the packages as jobs in PostgreSQL for 'attestari worker' instead of examining them here"),
		runID:       fs.String("run-id", "", "name the run (letters, digits, '.', '_', '-'); with --queue, an id already queued is taken up again"),
		maxAttempts: fs.Int("max-attempts", queue.DefaultMaxAttempts, "with --queue: executions of each examine job before it is retried no more (the last records a transient failure's row; a job whose every attempt fails or is killed without a result becomes the row job_discarded)"),
	}
}

func (q queueFlags) check(resume string, demo bool) error {
	if !*q.queue {
		return nil
	}
	if *q.maxAttempts < 1 {
		return usageError{"--max-attempts must be at least 1"}
	}
	if resume != "" {
		return usageError{"--queue takes --candidates FILE (and --run-id to take up a queued run), not --resume"}
	}
	if demo {
		return usageError{"--queue does not take --demo: the demo's registry lives in this process, where no worker reaches it"}
	}
	return nil
}
