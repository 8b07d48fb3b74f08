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
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

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
