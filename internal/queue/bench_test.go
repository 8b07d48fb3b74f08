package queue_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/queue"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// Examination on a queue (issue 22 item 4), docs/benchmarks.md:
//
//	ATTESTARI_QB_PACKAGES=100 go test -run '^$' -bench 'QueuePass|QueueJobs' -benchtime 1x -timeout 30m ./internal/queue/
//
// BenchmarkQueuePass examines N small synthetic packages (a stand-in
// registry; the real extractor) in one run of the test binary: first
// single-process (pipeline.Run with one package at a time, the baseline,
// after one unmeasured warm-up pass),
// then queued with 1, 2 and 4 workers, each a River client of its own
// working one job at a time, all in this process against the test's one
// PostgreSQL: with River's default fetch cadence (wN), then with
// WorkerOptions.FetchCooldown 5 ms (wNf5ms). It reports, per worker count, packages/s, packages/s per
// worker, and the queue's overhead per job: worker time per job (workers x
// wall / N) minus the single-process time per package.
//
// BenchmarkQueueJobs is how many jobs one PostgreSQL carries: M trivial jobs
// inserted in one transaction (enqueue jobs/s), then completed by a client
// whose worker does nothing (complete jobs/s).

func benchPackages() int {
	if n, err := strconv.Atoi(os.Getenv("ATTESTARI_QB_PACKAGES")); err == nil && n > 0 {
		return n
	}
	return 40
}

// benchFixture serves n small servers of two tools each.
func benchFixture(b *testing.B, n int) *fixture {
	b.Helper()
	fake := fakeregistry.New()
	type cand struct {
		Registry string `json:"registry"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Rank     int    `json:"rank"`
	}
	var cs []cand
	for i := range n {
		name := fmt.Sprintf("synthetic-%03d-mcp", i)
		fake.AddNPM(name, "1.0.0", server(b, name, fmt.Sprintf("get_%03d", i), fmt.Sprintf("list_%03d", i)), fakeregistry.NPMOptions{})
		cs = append(cs, cand{Registry: "npm", Name: name, Version: "1.0.0", Rank: i + 1})
	}
	srv := httptest.NewServer(fake)
	b.Cleanup(srv.Close)
	raw, err := json.Marshal(map[string]any{"schema": "attestari.candidates/v1", "candidates": cs, "excluded": []any{},
		"selection": map[string]any{"queries": []any{}, "ranking_rule": "a benchmark's list", "page_size": 0, "window": nil, "fetched_at": []any{}, "datasets": []any{}}})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "candidates.json")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	return &fixture{fake: fake, url: srv.URL, candidates: path}
}

func BenchmarkQueuePass(b *testing.B) {
	n := benchPackages()
	f := benchFixture(b, n)
	st := dbtest.Open(b)
	ctx := context.Background()
	// One unmeasured single-process pass first: the first packages a
	// process examines pay for its warm-up (parsers, caches), which would
	// otherwise land on the baseline alone.
	warm := f.benchOptions(b, b.TempDir(), "warm")
	warm.Concurrency = 1
	if _, err := pipeline.Run(ctx, warm); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		o := f.benchOptions(b, b.TempDir(), "single")
		o.Concurrency = 1
		start := time.Now()
		res, err := pipeline.Run(ctx, o)
		if err != nil {
			b.Fatal(err)
		}
		if res.Packages != n {
			b.Fatalf("single-process run examined %d packages of %d", res.Packages, n)
		}
		single := time.Since(start)
		perPkg := single.Seconds() / float64(n)
		b.ReportMetric(float64(n)/single.Seconds(), "single_pkg/s")
		b.ReportMetric(perPkg*1000, "single_ms/pkg")
		for _, run := range []struct {
			k        int
			cooldown time.Duration
			tag      string
		}{{1, 0, "w1"}, {2, 0, "w2"}, {4, 0, "w4"}, {1, 5 * time.Millisecond, "w1f5ms"}, {2, 5 * time.Millisecond, "w2f5ms"}, {4, 5 * time.Millisecond, "w4f5ms"}} {
			k := run.k
			id := fmt.Sprintf("%s-%d", run.tag, time.Now().UnixNano())
			o := f.benchOptions(b, b.TempDir(), id)
			start := time.Now()
			if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o}); err != nil {
				b.Fatal(err)
			}
			stop := benchWorkers(b, st, o, k, run.cooldown)
			benchWaitFinished(b, st, id)
			wall := time.Since(start)
			stop()
			if c, err := st.QueueResultCount(ctx, id); err != nil || c != n {
				b.Fatalf("%s: %d results, %v; want %d", run.tag, c, err, n)
			}
			rate := float64(n) / wall.Seconds()
			b.ReportMetric(rate, fmt.Sprintf("%s_pkg/s", run.tag))
			b.ReportMetric(rate/float64(k), fmt.Sprintf("%s_pkg/s/worker", run.tag))
			b.ReportMetric((float64(k)*wall.Seconds()/float64(n)-perPkg)*1000, fmt.Sprintf("%s_overhead_ms/job", run.tag))
			b.ReportMetric(rate/(float64(n)/single.Seconds()), fmt.Sprintf("%s_x_single", run.tag))
		}
	}
}

func (f *fixture) benchOptions(b *testing.B, home, id string) pipeline.Options {
	o := f.options(b, home)
	o.RunID = id
	return o
}

// benchWorkers starts k workers of one job at a time; stop ends them.
func benchWorkers(b *testing.B, st *store.Store, o pipeline.Options, k int, cooldown time.Duration) (stop func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, k)
	for range k {
		w, err := queue.NewWorker(queue.WorkerOptions{Store: st, Pipeline: o, Workers: 1, RetryBase: 20 * time.Millisecond,
			JobTimeout: time.Minute, RescueAfter: 2 * time.Minute, FetchCooldown: cooldown, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			b.Fatal(err)
		}
		go func() { done <- w.Run(ctx, 10*time.Second) }()
	}
	return func() {
		cancel()
		for range k {
			if err := <-done; err != nil {
				b.Errorf("worker: %v", err)
			}
		}
	}
}

func benchWaitFinished(b *testing.B, st *store.Store, id string) {
	b.Helper()
	deadline := time.Now().Add(20 * time.Minute)
	for time.Now().Before(deadline) {
		row, err := st.QueueRun(context.Background(), id)
		if err != nil {
			b.Fatal(err)
		}
		if row.Status == vocab.QueueRunFinished {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatalf("run %s did not finish", id)
}

// nopArgs is a job that does nothing.
type nopArgs struct {
	I int `json:"i"`
}

func (nopArgs) Kind() string { return "qb_nop" }

type nopWorker struct {
	river.WorkerDefaults[nopArgs]
}

func (nopWorker) Work(context.Context, *river.Job[nopArgs]) error { return nil }

// BenchmarkQueueJobs runs twice: with River's default fetch cadence and 20
// job slots, and with 200 slots fetched every 5 ms, so the figure says
// whether the client's polling or PostgreSQL is the bound.
func BenchmarkQueueJobs(b *testing.B) {
	st := dbtest.Open(b)
	for _, c := range []struct {
		name     string
		slots    int
		cooldown time.Duration
	}{{"default-fetch-20-slots", 20, 0}, {"fetch-5ms-200-slots", 200, 5 * time.Millisecond}} {
		b.Run(c.name, func(b *testing.B) { benchJobs(b, st, c.slots, c.cooldown) })
	}
}

func benchJobs(b *testing.B, st *store.Store, slots int, cooldown time.Duration) {
	const m = 5000
	ctx := context.Background()
	workers := river.NewWorkers()
	river.AddWorker(workers, nopWorker{})
	cfg := &river.Config{
		Queues:  map[string]river.QueueConfig{"qb_nop": {MaxWorkers: slots}},
		Workers: workers,
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if cooldown > 0 {
		cfg.FetchCooldown, cfg.FetchPollInterval = cooldown, cooldown
	}
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), cfg)
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		params := make([]river.InsertManyParams, m)
		for i := range params {
			params[i] = river.InsertManyParams{Args: nopArgs{I: i}, InsertOpts: &river.InsertOpts{Queue: "qb_nop"}}
		}
		start := time.Now()
		tx, err := st.Pool().Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.InsertManyTx(ctx, tx, params); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		enq := time.Since(start)
		events, cancelSub := client.SubscribeConfig(&river.SubscribeConfig{ChanSize: 2 * m, Kinds: []river.EventKind{river.EventKindJobCompleted}})
		start = time.Now()
		if err := client.Start(ctx); err != nil {
			b.Fatal(err)
		}
		for done := 0; done < m; {
			select {
			case <-events:
				done++
			case <-time.After(5 * time.Minute):
				b.Fatalf("%d of %d jobs completed", done, m)
			}
		}
		work := time.Since(start)
		cancelSub()
		if err := client.Stop(ctx); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(m/enq.Seconds(), "enqueue_jobs/s")
		b.ReportMetric(m/work.Seconds(), "complete_jobs/s")
		b.ReportMetric(m/(enq+work).Seconds(), "enqueue+complete_jobs/s")
	}
}
