package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pgcluster"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

// childEnv makes the test binary run attestari-api's main instead of the
// tests (TestMain), so a test can start the API as real processes of its
// own: their own memory, killed and restarted like a deployed server.
const childEnv = "ATTESTARI_API_TEST_CHILD"

// apiProc is one attestari-api process.
type apiProc struct {
	cmd  *exec.Cmd
	base string
}

// startAPI starts an API process over env (the database variables) and
// waits for its URLs.
func startAPI(t *testing.T, env ...string) *apiProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--addr", "127.0.0.1:0", "--rate", "1000000")
	cmd.Env = append(os.Environ(), append([]string{childEnv + "=1"}, env...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &apiProc{cmd: cmd}
	t.Cleanup(p.kill)
	re := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/readyz`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case p.base = <-found:
	case <-time.After(60 * time.Second):
		t.Fatal("the API process never printed its URLs")
	}
	return p
}

func (p *apiProc) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// get is the status and body of GET path.
func (p *apiProc) get(t *testing.T, path string) (int, string) {
	t.Helper()
	res, err := http.Get(p.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// until polls every process's GET path until want is in its body.
func until(t *testing.T, path, want string, ps ...*apiProc) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, p := range ps {
		for {
			if code, body := p.get(t, path); code == 200 && strings.Contains(body, want) {
				break
			}
			if time.Now().After(deadline) {
				_, body := p.get(t, path)
				t.Fatalf("%s: never served %s; last: %s", p.base, want, body)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func wiredPublication(id, supersedes, grade string, at time.Time) *publication.Publication {
	p := storetest.Publication(id, "run-"+id, at)
	p.Header.Supersedes = supersedes
	p.Packages = append(p.Packages, storetest.Package("npm", "scaled", "1.0.0", "graded", grade, nil,
		storetest.Tool("t", "readable", "A tool.", "none", "")))
	return p
}

// TestTwoAPIProcessesOverOnePrimary: two API processes and one loader over
// one database. A load is seen by both; once a process serves the new
// grade it never serves the old one again (its cache, filled before, was
// dropped on the notification); both answer the same bytes; and a process
// killed and started again answers exactly as before and as its peer:
// nothing an answer depends on lives outside Postgres.
func TestTwoAPIProcessesOverOnePrimary(t *testing.T) {
	url := dbtest.URL(t)
	ctx := context.Background()
	st, err := store.Open(ctx, url, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, b := startAPI(t, "DATABASE_URL="+url), startAPI(t, "DATABASE_URL="+url)
	checkScaleOut(t, st, a, b, func() *apiProc { return startAPI(t, "DATABASE_URL="+url) })
}

// checkScaleOut is the scenario both scale-out tests run.
func checkScaleOut(t *testing.T, st *store.Store, a, b *apiProc, restart func() *apiProc) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	const path = "/manifest/scaled/1.0.0"
	if err := st.LoadPublication(ctx, wiredPublication("pub-1", "", "F", at)); err != nil {
		t.Fatal(err)
	}
	until(t, path, `"grade":"F"`, a, b)
	// Fill both caches with the old answer.
	for range 5 {
		a.get(t, path)
		b.get(t, path)
	}
	if err := st.LoadPublication(ctx, wiredPublication("pub-2", "pub-1", "A", at.Add(24*time.Hour))); err != nil {
		t.Fatal(err)
	}
	until(t, path, `"grade":"A"`, a, b)
	for range 20 {
		for _, p := range []*apiProc{a, b} {
			if _, body := p.get(t, path); !strings.Contains(body, `"grade":"A"`) {
				t.Fatalf("%s served the replaced answer after serving the new one: %s", p.base, body)
			}
		}
	}
	_, bodyA := a.get(t, path)
	_, bodyB := b.get(t, path)
	if bodyA != bodyB {
		t.Fatalf("two processes answer differently:\n%s\n%s", bodyA, bodyB)
	}
	a.kill()
	a2 := restart()
	if _, body := a2.get(t, path); body != bodyB {
		t.Fatalf("the restarted process answers differently:\n%s\n%s", body, bodyB)
	}
}

// TestTwoAPIProcessesOverAPausedStandby: the same two processes reading
// from a streaming standby (ATTESTARI_DATABASE_REPLICA_URL) while they
// listen on the primary. With the standby's replay paused, a load is
// committed on the primary: the standby itself still shows the old grade,
// and both processes serve the new one all the same (they read the
// primary until the standby has replayed the position the notification
// announced) and never the old one again. Once replay resumes and the
// standby shows the load, both still serve the new grade, byte-identical;
// a process killed and started again answers the same.
func TestTwoAPIProcessesOverAPausedStandby(t *testing.T) {
	ctx := context.Background()
	primary, standby, st := primaryWithStandby(t)
	direct, err := store.Open(ctx, standby.URL, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	gradeOnStandby := func() string {
		m, err := direct.Manifest(ctx, "npm", "scaled", "1.0.0", "")
		if err != nil {
			return err.Error()
		}
		if m.Grade == nil {
			return "no grade"
		}
		return *m.Grade
	}
	env := []string{"DATABASE_URL=" + primary.URL, "ATTESTARI_DATABASE_REPLICA_URL=" + standby.URL}
	a, b := startAPI(t, env...), startAPI(t, env...)
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	const path = "/manifest/scaled/1.0.0"
	if err := st.LoadPublication(ctx, wiredPublication("pub-1", "", "F", at)); err != nil {
		t.Fatal(err)
	}
	until(t, path, `"grade":"F"`, a, b)
	for deadline := time.Now().Add(30 * time.Second); gradeOnStandby() != "F"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the standby never replayed the first load: %s", gradeOnStandby())
		}
	}
	for range 5 {
		a.get(t, path)
		b.get(t, path)
	}
	if err := standby.PauseReplay(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.LoadPublication(ctx, wiredPublication("pub-2", "pub-1", "A", at.Add(24*time.Hour))); err != nil {
		t.Fatal(err)
	}
	until(t, path, `"grade":"A"`, a, b)
	if g := gradeOnStandby(); g != "F" {
		t.Fatalf("replay was paused, yet the standby shows %q: the test proves nothing", g)
	}
	for range 20 {
		for _, p := range []*apiProc{a, b} {
			if _, body := p.get(t, path); !strings.Contains(body, `"grade":"A"`) {
				t.Fatalf("%s served the standby's old answer after the notification: %s", p.base, body)
			}
		}
	}
	if err := standby.ResumeReplay(ctx); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); gradeOnStandby() != "A"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the standby never replayed the second load: %s", gradeOnStandby())
		}
	}
	_, bodyA := a.get(t, path)
	_, bodyB := b.get(t, path)
	if bodyA != bodyB || !strings.Contains(bodyA, `"grade":"A"`) {
		t.Fatalf("after replay resumed:\n%s\n%s", bodyA, bodyB)
	}
	a.kill()
	if _, body := startAPI(t, env...).get(t, path); body != bodyB {
		t.Fatalf("the restarted process answers differently:\n%s\n%s", body, bodyB)
	}
}

// primaryWithStandby starts a private cluster and a streaming standby of
// it, both stopped when the test ends, and opens a store on the primary.
func primaryWithStandby(t *testing.T) (primary, standby *pgcluster.Cluster, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	primary = dbtest.Private(t)
	standby, err := primary.StartStandby(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = standby.Stop(context.Background()) })
	st, err = store.Open(ctx, primary.URL, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return primary, standby, st
}
