package queue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/queue"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/rundirtest"
	"github.com/attestari/attestari/internal/s3test"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// TestMain runs the tests once through dbtest.Main, then stops the S3
// server a test may have started; re-executed with finisherChildEnv set,
// the binary is a worker process instead (finish_kill_test.go).
func TestMain(m *testing.M) {
	if cfg := os.Getenv(finisherChildEnv); cfg != "" {
		os.Exit(finisherChild(cfg))
	}
	code := dbtest.Main(m)
	s3test.StopShared()
	os.Exit(code)
}

// tgz packs files (name, text, ...) under package/ with fixed times.
func tgz(t testing.TB, files ...string) []byte {
	t.Helper()
	return rundirtest.TGZ(t, files...)
}

// server is a small synthetic MCP server the real extractor reads.
func server(t testing.TB, name string, tools ...string) []byte {
	var js strings.Builder
	js.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nconst server = new McpServer({ name: \"" + name + "\", version: \"1.0.0\" });\n")
	for _, tl := range tools {
		js.WriteString("server.tool(\"" + tl + "\", \"Returns the " + tl + " of the city it is given.\", async () => ({ content: [] }));\n")
	}
	return tgz(t, "package.json", `{"name": "`+name+`", "version": "1.0.0", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}`,
		"index.js", js.String())
}

// shim delegates to target (its entry point only loads the dependency).
func shim(t testing.TB, name, target string) []byte {
	return tgz(t, "package.json", `{"name": "`+name+`", "version": "1.0.0", "main": "index.js", "dependencies": {"`+target+`": "^1.0.0"}}`,
		"index.js", "#!/usr/bin/env node\nimport \""+target+"/index.js\";\n")
}

type fixture struct {
	fake       *fakeregistry.Fake
	url        string
	candidates string
}

// newFixture serves servers, a shim whose target joins the run by
// delegation, a package the registry does not have, and a tarball that
// cannot be read.
func newFixture(t *testing.T, extra ...string) *fixture {
	t.Helper()
	fake := fakeregistry.New()
	fake.AddNPM("alpha-mcp", "1.0.0", server(t, "alpha-mcp", "get_alpha", "list_alpha"), fakeregistry.NPMOptions{})
	fake.AddNPM("beta-mcp", "1.0.0", server(t, "beta-mcp", "get_beta"), fakeregistry.NPMOptions{})
	fake.AddNPM("gamma-mcp", "1.0.0", server(t, "gamma-mcp", "get_gamma"), fakeregistry.NPMOptions{})
	fake.AddNPM("old-mcp", "1.0.0", shim(t, "old-mcp", "new-mcp"), fakeregistry.NPMOptions{})
	fake.AddNPM("new-mcp", "1.2.0", server(t, "new-mcp", "get_new"), fakeregistry.NPMOptions{})
	broken := server(t, "broken-mcp", "get_broken")
	fake.AddNPM("broken-mcp", "1.0.0", broken[:len(broken)/2], fakeregistry.NPMOptions{})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	names := append([]string{"alpha-mcp", "beta-mcp", "gamma-mcp", "old-mcp", "broken-mcp", "missing-mcp"}, extra...)
	type cand struct {
		Registry string `json:"registry"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Rank     int    `json:"rank"`
	}
	var cs []cand
	for i, n := range names {
		cs = append(cs, cand{Registry: "npm", Name: n, Version: "1.0.0", Rank: i + 1})
	}
	b, err := json.Marshal(map[string]any{"schema": "attestari.candidates/v1", "candidates": cs, "excluded": []any{},
		"selection": map[string]any{"queries": []any{}, "ranking_rule": "a test's list", "page_size": 0, "window": nil, "fetched_at": []any{}, "datasets": []any{}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "candidates.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return &fixture{fake: fake, url: srv.URL, candidates: path}
}

func (f *fixture) options(t testing.TB, home string) pipeline.Options {
	t.Helper()
	npm, err := registry.NewNPM(f.url, registry.Options{MaxAttempts: 2, BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return pipeline.Options{Home: home, CandidatesPath: f.candidates, RunID: "r1", NPM: npm, Extractor: extractor.Surface{},
		Concurrency: 2, CodeCommit: "test-commit"}
}

// startWorkers runs n workers until the test ends.
func startWorkers(t *testing.T, st *store.Store, o pipeline.Options, n int) {
	t.Helper()
	for range n {
		runWorker(t, queue.WorkerOptions{Store: st, Pipeline: o, Workers: 2, RetryBase: 20 * time.Millisecond,
			JobTimeout: time.Minute, RescueAfter: 2 * time.Minute})
	}
}

// runWorker runs one worker with opts until the test ends, and fails the
// test if it ends with an error; it returns the worker.
func runWorker(t *testing.T, opts queue.WorkerOptions) *queue.Worker {
	t.Helper()
	w, err := queue.NewWorker(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, 10*time.Second) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
	})
	return w
}

// waitFinished waits for the run's row to say finished.
func waitFinished(t *testing.T, st *store.Store, id string) store.QueueRun {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		row, err := st.QueueRun(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if row.Status == vocab.QueueRunFinished {
			return row
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("run %s did not finish", id)
	return store.QueueRun{}
}

// normalise is a run file with its times and measured figures replaced,
// run.json's own times too (the run directory's rule: runs over the same
// inputs differ only there).
func normalise(t *testing.T, b []byte) string {
	t.Helper()
	return rundirtest.Normalise(t, b, rundirtest.HeaderTimes...)
}

// runFiles is every file of a run directory but the lock: the header, the
// candidates copy, the package files and the seven, normalised.
func runFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".lock" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = normalise(t, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestQueuedRunEqualsSingleProcess: the same candidates through `run` and
// through the queue with two worker processes' worth of clients in
// parallel give the same run directory, file for file (timestamps and
// measured durations aside), delegation wave included; and the same
// command again enqueues nothing.
func TestQueuedRunEqualsSingleProcess(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	single := t.TempDir()
	res, err := pipeline.Run(ctx, f.options(t, single))
	if err != nil {
		t.Fatal(err)
	}
	if res.Joined != 1 || res.Packages != 7 {
		t.Fatalf("single-process run: %d packages, %d joined; the fixture means 7 and 1", res.Packages, res.Joined)
	}

	st := dbtest.Open(t)
	home := t.TempDir()
	o := f.options(t, home)
	er, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o})
	if err != nil {
		t.Fatal(err)
	}
	if er.Queued != 6 || er.Added != 6 || er.Wave != 0 || er.Existing || er.Finished {
		t.Fatalf("first enqueue: %+v", er)
	}
	again, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o})
	if err != nil {
		t.Fatal(err)
	}
	if again.Added != 0 || !again.Existing {
		t.Fatalf("a second enqueue of the same run must add nothing: %+v", again)
	}
	startWorkers(t, st, o, 2)
	row := waitFinished(t, st, "r1")
	if row.Wave != 1 {
		t.Errorf("the run ended at wave %d; the delegation target is wave 1", row.Wave)
	}
	if n, err := st.QueueResultCount(ctx, "r1"); err != nil || n != 7 {
		t.Fatalf("results: %d, %v; want 7, one per package", n, err)
	}

	want := runFiles(t, res.Dir)
	got := runFiles(t, filepath.Join(home, "runs", "r1"))
	if strings.Join(keys(want), " ") != strings.Join(keys(got), " ") {
		t.Fatalf("files differ:\nsingle %v\nqueued %v", keys(want), keys(got))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s differs:\nsingle: %s\nqueued: %s", name, w, got[name])
		}
	}
	// The package files are the bytes the workers wrote to the database.
	err = st.QueueResults(ctx, "r1", func(name string, body []byte) error {
		disk, err := os.ReadFile(filepath.Join(home, "runs", "r1", pipeline.PackagesDir, name))
		if err != nil || !bytes.Equal(disk, body) {
			t.Errorf("package file %s is not the row's bytes (%v)", name, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// After the run, the same command assembles it again and adds nothing.
	after, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: f.options(t, t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	if !after.Finished || after.Added != 0 || after.Done != 7 {
		t.Fatalf("re-enqueue of a finished run on another machine: %+v", after)
	}
	if got := runFiles(t, after.Dir); got[rundir.SummaryFile] != want[rundir.SummaryFile] {
		t.Errorf("the run assembled again from the rows differs from the single-process run's summary")
	}
}

// TestOtherInputsAreRefused: a run id queued with one candidates file is
// refused with another, and under another code commit.
func TestOtherInputsAreRefused(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st := dbtest.Open(t)
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: f.options(t, t.TempDir())}); err != nil {
		t.Fatal(err)
	}
	other := newFixture(t, "delta-mcp")
	_, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: other.options(t, t.TempDir())})
	if !errors.Is(err, pipeline.ErrResumeMismatch) && !errors.Is(err, queue.ErrOtherInputs) {
		t.Fatalf("another candidates file under the same run id: %v", err)
	}
	o := f.options(t, t.TempDir())
	o.CodeCommit = "another-commit"
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o}); !errors.Is(err, pipeline.ErrResumeMismatch) && !errors.Is(err, queue.ErrOtherInputs) {
		t.Fatalf("another code commit under the same run id: %v", err)
	}
}

// TestTransientRetriedPermanentRecorded: a registry answering 503 for a
// while is retried until it answers; one that always answers 503 ends, on
// the last attempt, as the package's failure row; a package the registry
// does not have is a failure row at once; and the run finishes.
func TestTransientRetriedPermanentRecorded(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	// Each fetch asks the packument first; the client tries twice a call.
	f.fake.Inject(fakeregistry.NPMPackumentPath("beta-mcp"), fakeregistry.Fault{Status: 503, Times: 4})
	f.fake.Inject(fakeregistry.NPMPackumentPath("gamma-mcp"), fakeregistry.Fault{Status: 503, Times: 1000})
	st := dbtest.Open(t)
	home := t.TempDir()
	o := f.options(t, home)
	if _, err := queue.Enqueue(ctx, queue.EnqueueOptions{Store: st, Pipeline: o, MaxAttempts: 3}); err != nil {
		t.Fatal(err)
	}
	startWorkers(t, st, o, 1)
	waitFinished(t, st, "r1")
	files, err := rundir.Read(filepath.Join(home, "runs", "r1"))
	if err != nil {
		t.Fatal(err)
	}
	failures := map[string][]rundir.Failure{}
	for _, p := range files.Summary.Packages {
		failures[p.Package.Name] = p.Failures
	}
	if fl := failures["beta-mcp"]; len(fl) != 0 {
		t.Errorf("beta-mcp answered after 2 calls of 2 tries; it was retried and must have no failure: %+v", fl)
	}
	if fl := failures["gamma-mcp"]; len(fl) != 1 || fl[0].Kind != vocab.RecordHTTPError {
		t.Errorf("gamma-mcp always answers 503: its last attempt is a failure row http_error, got %+v", fl)
	}
	if fl := failures["missing-mcp"]; len(fl) != 1 || fl[0].Kind != vocab.RecordNotFound {
		t.Errorf("missing-mcp: want one failure not_found, got %+v", fl)
	}
	// 3 attempts of 2 tries for gamma; missing was asked once (2 tries at most).
	if n := f.fake.Count(fakeregistry.NPMPackumentPath("gamma-mcp")); n != 6 {
		t.Errorf("gamma-mcp's packument was asked %d times; 3 attempts of 2 tries is 6", n)
	}
	if n := f.fake.Count(fakeregistry.NPMPackumentPath("missing-mcp")); n > 2 {
		t.Errorf("missing-mcp is a permanent answer and must not be retried by the queue: asked %d times", n)
	}
}
