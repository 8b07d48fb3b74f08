package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/rundirtest"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// asCLIEnv makes the test binary the attestari CLI (TestMain), so a test
// can start `attestari worker` as a real process and kill it.
const asCLIEnv = "ATTESTARI_TEST_AS_CLI"

func workerTGZ(t *testing.T, name, tool string) []byte {
	t.Helper()
	files := []string{"package.json", `{"name": "` + name + `", "version": "1.0.0", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"}}`,
		"index.js", "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nconst server = new McpServer({ name: \"" + name + "\", version: \"1.0.0\" });\n" +
			"server.tool(\"" + tool + "\", \"Returns the " + tool + " of a city.\", async () => ({ content: [] }));\n"}
	return rundirtest.TGZ(t, files...)
}

func workerNormalise(t *testing.T, b []byte) string {
	t.Helper()
	return rundirtest.Normalise(t, b)
}

// queueCLI is the setup the queue's process tests share: a stand-in
// registry serving alpha-mcp and beta-mcp, the database, a candidates file
// of the two, and the operator's home; cli runs the CLI in this process,
// worker starts `attestari worker` as a process of its own.
type queueCLI struct {
	dbURL, cands, home string
}

// newQueueCLI builds it. hold, when set, sees every request for beta-mcp's
// packument first and answers it itself when it returns true.
func newQueueCLI(t *testing.T, hold func(w http.ResponseWriter, r *http.Request) bool) *queueCLI {
	t.Helper()
	q := &queueCLI{dbURL: dbtest.URL(t), home: t.TempDir()}
	fake := fakeregistry.New()
	fake.AddNPM("alpha-mcp", "1.0.0", workerTGZ(t, "alpha-mcp", "get_alpha"), fakeregistry.NPMOptions{})
	fake.AddNPM("beta-mcp", "1.0.0", workerTGZ(t, "beta-mcp", "get_beta"), fakeregistry.NPMOptions{})
	held := fakeregistry.NPMPackumentPath("beta-mcp")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hold != nil && r.URL.Path == held && hold(w, r) {
			return
		}
		fake.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("ATTESTARI_NPM_REGISTRY", srv.URL)
	t.Setenv("ATTESTARI_PYPI_URL", srv.URL)
	t.Setenv("ATTESTARI_DATABASE_URL", q.dbURL)
	q.cands = filepath.Join(t.TempDir(), "candidates.json")
	doc := `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "a test's list", "page_size": 0, "window": null, "fetched_at": [], "datasets": []},
 "candidates": [{"registry": "npm", "name": "alpha-mcp", "version": "1.0.0", "rank": 1}, {"registry": "npm", "name": "beta-mcp", "version": "1.0.0", "rank": 2}], "excluded": []}`
	if err := os.WriteFile(q.cands, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return q
}

// cli runs the CLI in this process with home as $ATTESTARI_HOME.
func (q *queueCLI) cli(home string, args ...string) (int, string) {
	var out bytes.Buffer
	e := &env{stdout: &out, stderr: &out, getenv: func(k string) string {
		if k == "ATTESTARI_HOME" {
			return home
		}
		return os.Getenv(k)
	}}
	return runMain(context.Background(), e, args), out.String()
}

// worker starts `attestari worker --workers 1 flags...` with home as its
// $ATTESTARI_HOME, killed at the test's end; its log (shown when the test
// fails) is the returned file.
func (q *queueCLI) worker(t *testing.T, name, home string, flags ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"worker", "--workers", "1"}, flags...)...)
	cmd.Env = append(os.Environ(), asCLIEnv+"=1", "ATTESTARI_HOME="+home)
	log, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		log.Close()
		if t.Failed() {
			b, _ := os.ReadFile(log.Name())
			t.Logf("%s's log:\n%s", name, b)
		}
	})
	return cmd, log.Name()
}

// store opens the queue's database, closed at the test's end.
func (q *queueCLI) store(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), q.dbURL, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// waitFinished polls the run's row until it says finished, for at most
// four minutes; what says what the run went through.
func waitFinished(t *testing.T, st *store.Store, id, what string) {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for {
		row, err := st.QueueRun(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if row.Status == vocab.QueueRunFinished {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not finish %s: status %s, wave %d, %d pending", what, row.Status, row.Wave, row.Pending)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// sameSeven compares the seven files of run id under two homes.
func sameSeven(t *testing.T, single, queued, id, what string) {
	t.Helper()
	for _, name := range rundir.SevenFiles {
		want, err := os.ReadFile(filepath.Join(single, "runs", id, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(queued, "runs", id, name))
		if err != nil {
			t.Fatal(err)
		}
		if workerNormalise(t, want) != workerNormalise(t, got) {
			t.Errorf("%s differs between the single-process run and the queued run %s:\nsingle %s\nqueued %s", name, what, want, got)
		}
	}
}

// TestKilledWorkerJobIsRetried: `attestari worker` as a real process is
// killed with SIGKILL while a job runs (the stand-in registry holds the
// package's first request until the kill); the job stays running, River's
// rescuer hands it to a second worker process, and the run finishes with
// the seven files of a single-process `attestari run` over the same inputs.
func TestKilledWorkerJobIsRetried(t *testing.T) {
	hit, release := make(chan struct{}), make(chan struct{})
	var first sync.Once
	q := newQueueCLI(t, func(w http.ResponseWriter, r *http.Request) bool {
		held := false
		first.Do(func() { held = true })
		if held {
			close(hit)
			<-release
		}
		return held
	})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	if code, out := q.cli(q.home, "run", "--queue", "--candidates", q.cands, "--run-id", "k1"); code != 0 || !strings.Contains(out, "run k1 queued: 2 packages") {
		t.Fatalf("run --queue: exit %d\n%s", code, out)
	}
	flags := []string{"--job-timeout", "20s", "--rescue-after", "21s", "--retry-base", "100ms"}
	w1, _ := q.worker(t, "worker1", q.home, flags...)
	select {
	case <-hit:
	case <-time.After(2 * time.Minute):
		t.Fatal("the first worker never asked for the held package")
	}
	if err := w1.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = w1.Wait()
	close(release)

	ctx := context.Background()
	st := q.store(t)
	if n, err := st.QueueResultCount(ctx, "k1"); err != nil || n > 1 {
		t.Fatalf("after the kill: %d results (%v); the held package must have none", n, err)
	}
	q.worker(t, "worker2", q.home, flags...)
	waitFinished(t, st, "k1", "after the kill")

	single := t.TempDir()
	if code, out := q.cli(single, "run", "--candidates", q.cands, "--run-id", "k1"); code != 0 {
		t.Fatalf("single-process run: exit %d\n%s", code, out)
	}
	sameSeven(t, single, q.home, "k1", "with a killed worker")
}

// TestQueueNeedsADatabase: without a database URL, run --queue and worker
// say what to set, and change nothing.
func TestQueueNeedsADatabase(t *testing.T) {
	cands := filepath.Join(t.TempDir(), "candidates.json")
	if err := os.WriteFile(cands, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for _, args := range [][]string{{"worker"}, {"run", "--queue", "--candidates", cands}} {
		code, _, errs := runCLI(t, home, args...)
		if code == 0 || !strings.Contains(errs, "ATTESTARI_DATABASE_URL") {
			t.Errorf("%v without a database: exit %d, %s", args, code, errs)
		}
	}
	if code, _, errs := runCLI(t, home, "run", "--queue", "--resume", "r1"); code != 2 || !strings.Contains(errs, "not --resume") {
		t.Errorf("--queue with --resume: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(home, "runs")); err == nil {
		t.Errorf("a refused --queue left a run directory")
	}
}
