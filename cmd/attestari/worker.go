package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/attestari/attestari/internal/queue"
)

// The worker command is wired through extraCommands, like population.
func init() {
	prev := extraCommands
	extraCommands = func() []*command { return append(prev(), workerCommand()) }
}

func workerCommand() *command {
	var workers *int
	var jobTimeout, rescueAfter, retryBase, stopTimeout, sweepInterval, fetchCooldown *time.Duration
	var jsonLogs *bool
	return &command{
		name:    "worker",
		args:    "[--workers N]",
		summary: "Drain the examination jobs 'attestari run --queue' enqueued: any number of workers, on any machine.",
		detail: `
A worker takes examine jobs from the PostgreSQL queue (River) and runs, for each, exactly the
stages 'attestari run' runs for a package (fetch, surface in a child process, checks, gate,
delegation), under the header the run recorded. The package's result (the bytes 'attestari run'
writes as runs/<id>/packages/<h>.json) is written to the database in the job's own transaction;
blobs go to the evidence store. The job that completes a wave enqueues a finish job, which the
next free worker runs: it enqueues the wave of delegation targets, or assembles the seven run
files into $ATTESTARI_HOME/runs/<id>/ on its machine, byte for byte what 'attestari run' writes
over the same inputs, and, when the evidence store is not that home's own directory, puts
run.json, candidates.json and the seven into the store (runs/<id>/<name>) before the run is
marked finished, for 'attestari pull <id>' on any other machine.

A worker only takes the jobs of runs whose versions, checks, analyzer and code are its own: a
run's jobs go to a queue named after them (the queue is printed at start).

Failures: a registry that answers 5xx or 429, or a transport that fails, after the client's own
retries, is retried with backoff (--retry-base, doubling) until the last of 5 attempts, which
records the failure row; any other failure is the package's row at once. A worker killed mid-job
leaves the job running; after --rescue-after River's rescuer hands it to another worker, and a
package whose extraction was started twice without finishing is recorded extractor_abandoned.
A job whose every attempt fails or is killed outside the package's stages (the worker dies
while fetching or writing, the job passes --job-timeout) is discarded by River; every
--sweep-interval the elected leader among the running workers records such a package as a
failure row (pipeline / job_discarded), counts it done, and the run finishes as for any other
failure row. The same sweep enqueues again the finish job of a run that has no package pending
and no live finish job (one River discarded after its 5 attempts failed, for example on a full
disk or an unreachable evidence store, or one an operator removed): the run finishes once the
fault clears. A finish job is unique per run and wave while it waits or runs, and a finish that
died half-way is run again whole (the same seven files).
Ctrl-C or SIGTERM stops taking jobs and lets those in flight finish for --stop-timeout.

Needs ATTESTARI_DATABASE_URL (or DATABASE_URL), migrated with 'attestari db migrate', and the
same registry, analyzer and evidence configuration as 'attestari run'.`,
		example: "ATTESTARI_DATABASE_URL=postgres://attestari@db.internal:5432/attestari attestari worker --workers 2\nattestari run --queue --candidates candidates/weekly.json   # on the operator's machine",
		flags: func(fs *flag.FlagSet) {
			workers = fs.Int("workers", 1, "jobs worked at once by this process (each extraction is a child process)")
			jobTimeout = fs.Duration("job-timeout", queue.DefaultJobTimeout, "bound on one execution of a job")
			rescueAfter = fs.Duration("rescue-after", queue.DefaultRescueAfter, "a job running longer is taken for its worker's death and retried (must exceed --job-timeout)")
			retryBase = fs.Duration("retry-base", queue.DefaultRetryBase, "delay before the first retry of a transient failure; doubles each attempt")
			stopTimeout = fs.Duration("stop-timeout", time.Minute, "on Ctrl-C or SIGTERM, how long jobs in flight may finish before they are cancelled (and retried elsewhere)")
			sweepInterval = fs.Duration("sweep-interval", queue.DefaultSweepInterval, "how often the leader among the workers records the packages of discarded jobs as failure rows")
			fetchCooldown = fs.Duration("fetch-cooldown", 0, "least time between two fetches of jobs by this process (0: River's default, 100 ms, which bounds a process to --workers jobs per 100 ms; docs/benchmarks.md)")
			jsonLogs = fs.Bool("json-logs", false, "structured JSON logs")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 0 {
				return usageError{"worker takes no arguments"}
			}
			if *workers < 1 {
				return usageError{"--workers must be at least 1"}
			}
			if *fetchCooldown < 0 {
				return usageError{"--fetch-cooldown must not be negative"}
			}
			if _, err := queueDatabaseURL(e); err != nil {
				return err
			}
			rf := runFlags{concurrency: workers, jsonLogs: jsonLogs, demo: new(bool)}
			o, err := pipelineOptions(ctx, e, rf, "")
			if err != nil {
				return err
			}
			if *jsonLogs {
				e.log = newLogger(e.stderr, "json")
			}
			o.Logger, o.Progress = e.log, nil
			st, err := openQueueStore(ctx, e, int32(2**workers+6))
			if err != nil {
				return err
			}
			defer st.Close()
			w, err := queue.NewWorker(queue.WorkerOptions{
				Store: st, Pipeline: o, Workers: *workers, JobTimeout: *jobTimeout, RescueAfter: *rescueAfter,
				RetryBase: *retryBase, SweepInterval: *sweepInterval, FetchCooldown: *fetchCooldown, Logger: e.log,
				Progress: func(runID, pkg string, done, total int) {
					fmt.Fprintf(e.stdout, "run %s: %d/%d packages done (%s)\n", runID, done, total, pkg)
				},
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "worker: draining queue %s with %d at once (Ctrl-C stops)\n", w.Queue(), *workers)
			return w.Run(ctx, *stopTimeout)
		},
	}
}
