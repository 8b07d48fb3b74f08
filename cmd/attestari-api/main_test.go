package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		main() // an API process a scale-out test started (scaleout_test.go)
		return
	}
	os.Exit(dbtest.Main(m))
}

func TestPortInUseIsClear(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = run(context.Background(), []string{"--addr", ln.Addr().String()}, io.Discard, io.Discard, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "choose another with --addr") {
		t.Fatalf("want a clear port-in-use error, got %v", err)
	}
}

// TestCheckAddr is what make run calls before the cycle: a free address
// passes without touching a database, a taken one fails with the same clear
// message the server gives.
func TestCheckAddr(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), []string{"--check-addr", "--addr", "127.0.0.1:0"}, &out, io.Discard, func(string) string { return "" }); err != nil {
		t.Fatalf("free address: %v", err)
	}
	if !strings.Contains(out.String(), "is free") {
		t.Fatalf("free address output %q", out.String())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = run(context.Background(), []string{"--check-addr", "--addr", ln.Addr().String()}, io.Discard, io.Discard, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "choose another with --addr or ATTESTARI_ADDR") {
		t.Fatalf("taken address: want the port-in-use message, got %v", err)
	}
}

func TestNoDatabaseIsClear(t *testing.T) {
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0"}, io.Discard, io.Discard, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "set DATABASE_URL, or pass --start-postgres") {
		t.Fatalf("got %v", err)
	}
}

func TestBadTrustedProxyIsClear(t *testing.T) {
	env := func(k string) string {
		if k == "ATTESTARI_TRUSTED_PROXIES" {
			return "10.0.0.0/8, proxy.local"
		}
		return ""
	}
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0"}, io.Discard, io.Discard, env)
	if err == nil || !strings.Contains(err.Error(), `"proxy.local" is not a CIDR prefix`) {
		t.Fatalf("got %v", err)
	}
}

// TestRequestDeadlineIsChecked: a deadline the server could not answer
// within (longer than its write timeout less its read timeout), or no
// duration at all, is refused before anything starts, with a message that
// says what to choose; one within the bound is taken.
func TestRequestDeadlineIsChecked(t *testing.T) {
	for flagOrEnv, want := range map[[2]string]string{
		{"--request-deadline=25s", ""}:       "longer than 20s, the server's 30s write timeout less its 10s read timeout",
		{"", "31s"}:                          "longer than 20s",
		{"--request-deadline=0s", ""}:        "not a positive duration",
		{"--request-deadline=soon", ""}:      "not a positive duration",
		{"--request-deadline=20s", ""}:       "set DATABASE_URL",
		{"--request-deadline=1500ms", "99s"}: "set DATABASE_URL", // the flag wins over the environment
	} {
		args := []string{"--addr", "127.0.0.1:0"}
		if flagOrEnv[0] != "" {
			args = append(args, flagOrEnv[0])
		}
		env := func(k string) string {
			if k == "ATTESTARI_REQUEST_DEADLINE" {
				return flagOrEnv[1]
			}
			return ""
		}
		err := run(context.Background(), args, io.Discard, io.Discard, env)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: want an error containing %q, got %v", flagOrEnv, want, err)
		}
	}
}

// TestServesAndShutsDown starts the binary's run against a real database,
// reads /readyz, then cancels: run must return nil after draining.
func TestServesAndShutsDown(t *testing.T) {
	url := dbtest.URL(t)
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return url
		}
		return ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--migrate"}, out, io.Discard, env) }()
	re := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/readyz`)
	var base string
	for i := 0; i < 100 && base == ""; i++ {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
		time.Sleep(50 * time.Millisecond)
	}
	if base == "" {
		cancel()
		t.Fatalf("server never printed its URLs: %s", out.String())
	}
	res, err := http.Get(base + "/readyz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("readyz: %v %v", res, err)
	}
	res.Body.Close()
	checkManifestCacheWiring(t, url, base)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not shut down")
	}
}

// checkManifestCacheWiring: the binary serves manifests from its cache
// (the metrics count hits) and a load made by another process is seen at
// once, which is the watcher run wires to the store.
func checkManifestCacheWiring(t *testing.T, url, base string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, url, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	p1 := storetest.Publication("pub-1", "run-1", at)
	p1.Packages = append(p1.Packages, storetest.Package("npm", "wired", "1.0.0", "graded", "F", nil,
		storetest.Tool("t", "readable", "A tool.", "none", "")))
	if err := st.LoadPublication(ctx, p1); err != nil {
		t.Fatal(err)
	}
	get := func(path string) string {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	hits := regexp.MustCompile(`attestari_manifest_cache_total\{result="hit"\} (\d+)`)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if body := get("/manifest/wired/1.0.0"); !strings.Contains(body, `"grade":"F"`) {
			t.Fatalf("manifest: %s", body)
		}
		if m := hits.FindStringSubmatch(get("/metrics")); m != nil && m[1] != "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no manifest was ever served from the cache: is the watcher wired?")
		}
		time.Sleep(50 * time.Millisecond)
	}
	p2 := storetest.Publication("pub-2", "run-2", at.Add(24*time.Hour))
	p2.Header.Supersedes = "pub-1"
	p2.Packages = append(p2.Packages, storetest.Package("npm", "wired", "1.0.0", "graded", "A", nil,
		storetest.Tool("t", "readable", "A tool.", "none", "")))
	if err := st.LoadPublication(ctx, p2); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(get("/manifest/wired/1.0.0"), `"grade":"A"`) {
		if time.Now().After(deadline.Add(20 * time.Second)) {
			t.Fatal("the cache kept serving the row a later load replaced")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }
