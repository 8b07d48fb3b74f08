package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// TestWorkerKilledOnEveryAttempt: `attestari worker` processes are killed
// with SIGKILL on every attempt of one package's job, while its fetch waits
// on the stand-in registry (outside the extraction, so no extraction
// attempt is counted). River's rescuer retries the job after the first
// kill and discards it after the last (run --queue --max-attempts 2); a
// third worker's sweep records the package's failure row (pipeline /
// job_discarded) and the run finishes. Its seven files equal a
// single-process `attestari run --resume` of a directory holding that row,
// which examines the other package itself.
func TestWorkerKilledOnEveryAttempt(t *testing.T) {
	dbURL := dbtest.URL(t)
	fake := fakeregistry.New()
	fake.AddNPM("alpha-mcp", "1.0.0", workerTGZ(t, "alpha-mcp", "get_alpha"), fakeregistry.NPMOptions{})
	fake.AddNPM("beta-mcp", "1.0.0", workerTGZ(t, "beta-mcp", "get_beta"), fakeregistry.NPMOptions{})
	hold := fakeregistry.NPMPackumentPath("beta-mcp")
	hits := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == hold {
			hits <- struct{}{}
			<-r.Context().Done() // until the asker is killed
			return
		}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	t.Setenv("ATTESTARI_NPM_REGISTRY", srv.URL)
	t.Setenv("ATTESTARI_PYPI_URL", srv.URL)
	t.Setenv("ATTESTARI_DATABASE_URL", dbURL)
	cands := filepath.Join(t.TempDir(), "candidates.json")
	doc := `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "a test's list", "page_size": 0, "window": null, "fetched_at": [], "datasets": []},
 "candidates": [{"registry": "npm", "name": "alpha-mcp", "version": "1.0.0", "rank": 1}, {"registry": "npm", "name": "beta-mcp", "version": "1.0.0", "rank": 2}], "excluded": []}`
	if err := os.WriteFile(cands, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cli := func(home string, args ...string) (int, string) {
		var out bytes.Buffer
		e := &env{stdout: &out, stderr: &out, getenv: func(k string) string {
			if k == "ATTESTARI_HOME" {
				return home
			}
			return os.Getenv(k)
		}}
		return runMain(context.Background(), e, args), out.String()
	}
	if code, out := cli(home, "run", "--queue", "--max-attempts", "2", "--candidates", cands, "--run-id", "d1"); code != 0 || !strings.Contains(out, "run d1 queued: 2 packages") {
		t.Fatalf("run --queue: exit %d\n%s", code, out)
	}
	worker := func(name string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "worker", "--workers", "1", "--job-timeout", "10s", "--rescue-after", "11s",
			"--retry-base", "100ms", "--sweep-interval", "1s")
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
		return cmd
	}
	for _, name := range []string{"worker1", "worker2"} {
		w := worker(name)
		select {
		case <-hits:
		case <-time.After(3 * time.Minute):
			t.Fatalf("%s never asked for the held package", name)
		}
		if err := w.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = w.Wait()
	}
	worker("worker3")
	ctx := context.Background()
	st, err := store.Open(ctx, dbURL, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deadline := time.Now().Add(4 * time.Minute)
	for {
		row, err := st.QueueRun(ctx, "d1")
		if err != nil {
			t.Fatal(err)
		}
		if row.Status == vocab.QueueRunFinished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not finish after its job was killed on every attempt: %+v", row)
		}
		time.Sleep(250 * time.Millisecond)
	}
	select {
	case <-hits:
		t.Errorf("the held package was asked a third time; its job has 2 attempts")
	default:
	}

	var betaFile string
	var betaRow []byte
	var fails []rundir.Failure
	if err := st.QueueResults(ctx, "d1", func(name string, body []byte) error {
		var pf struct {
			Package rundir.PackageRef     `json:"package"`
			Summary rundir.PackageSummary `json:"summary"`
		}
		if err := json.Unmarshal(body, &pf); err != nil {
			return err
		}
		if pf.Package.Name == "beta-mcp" {
			betaFile, betaRow, fails = name, body, pf.Summary.Failures
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(fails) != 1 || fails[0].Stage != vocab.StagePipeline || fails[0].Kind != vocab.FailureJobDiscarded || !strings.Contains(fails[0].Message, "after 2 attempt(s)") {
		t.Fatalf("the killed package's failure rows: %+v; want one, pipeline / job_discarded after 2 attempts", fails)
	}
	qr, err := st.QueueRun(ctx, "d1")
	if err != nil {
		t.Fatal(err)
	}
	single := t.TempDir()
	if _, err := pipeline.SeedRunDir(single, "d1", qr.Header, qr.Candidates, func(yield func(string, []byte) error) error {
		return yield(betaFile, betaRow)
	}); err != nil {
		t.Fatal(err)
	}
	if code, out := cli(single, "run", "--resume", "d1"); code != 0 {
		t.Fatalf("single-process run: exit %d\n%s", code, out)
	}
	for _, name := range rundir.SevenFiles {
		want, err := os.ReadFile(filepath.Join(single, "runs", "d1", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(home, "runs", "d1", name))
		if err != nil {
			t.Fatal(err)
		}
		if workerNormalise(t, want) != workerNormalise(t, got) {
			t.Errorf("%s differs between the single-process run and the queued run whose job was killed on every attempt:\nsingle %s\nqueued %s", name, want, got)
		}
	}
}
