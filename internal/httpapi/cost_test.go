package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// gatedReader holds every ListPackages and Package read until release is
// closed, and says on entered when one starts.
type gatedReader struct {
	Reader
	entered chan struct{}
	release chan struct{}
}

func (g *gatedReader) ListPackages(ctx context.Context, f api.PackageFilter) (*api.PackageList, error) {
	g.entered <- struct{}{}
	<-g.release
	return g.Reader.ListPackages(ctx, f)
}

func (g *gatedReader) Package(ctx context.Context, registry, name, version string) (*api.PackageDetail, error) {
	g.entered <- struct{}{}
	<-g.release
	return g.Reader.Package(ctx, registry, name, version)
}

func from(addr, path string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.RemoteAddr = addr
	return r
}

// TestClientBoundOnDatabaseReads: a client with its bound of database-bound
// requests in flight is refused the next at once (429, Retry-After, the
// contract's problem or the site's error page), while another client is
// served and the first client's answers that read no database (a cached
// manifest, health, static files) still are; once its reads finish, the
// client is served again.
func TestClientBoundOnDatabaseReads(t *testing.T) {
	t.Parallel()
	plain, dbURL := seeded(t)
	st, err := store.Open(context.Background(), dbURL, store.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	g := &gatedReader{Reader: st, entered: make(chan struct{}, 16), release: make(chan struct{})}
	ts := newTestServer(t, g)
	ts.PublicationsChanged(true)
	const a, b = "192.0.2.1:1000", "198.51.100.7:2000"
	if res := ts.do(from(a, "/manifest/@acme/files/1.0.0")); res.StatusCode != 200 {
		t.Fatalf("warming the cache: %d", res.StatusCode)
	}
	var wg sync.WaitGroup
	codes := make(chan string, 16)
	serve := func(addr, path string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			ts.ServeHTTP(rec, from(addr, path))
			codes <- fmt.Sprint(addr, " ", path, " ", rec.Code)
		}()
	}
	for range defaultClientInFlight {
		serve(a, "/packages")
	}
	for range defaultClientInFlight {
		<-g.entered
	}
	// Over the bound: refused without waiting for the database.
	for _, path := range []string{"/packages", "/packages/npm/@acme/files/1.0.0", "/manifest/@acme/files/1.1.0", "/runs"} {
		res := ts.do(from(a, path))
		if res.StatusCode != 429 || res.Header.Get("Retry-After") != "1" || res.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s over the bound: %d, Retry-After %q, %s", path, res.StatusCode, res.Header.Get("Retry-After"), res.Header.Get("Content-Type"))
		}
	}
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, from(a, "/package/npm/@acme/files/1.0.0"))
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "1" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Errorf("a page over the bound: %d, Retry-After %q, %s", rec.Code, rec.Header().Get("Retry-After"), rec.Header().Get("Content-Type"))
	}
	// What reads no database is served.
	for _, path := range []string{"/manifest/@acme/files/1.0.0", "/healthz", "/methodology", "/static/style.css"} {
		rec := httptest.NewRecorder()
		ts.ServeHTTP(rec, from(a, path))
		if rec.Code != 200 {
			t.Errorf("%s at the bound: %d", path, rec.Code)
		}
	}
	// Another client is not held by the first one's bound.
	serve(b, "/packages/npm/@acme/files/1.0.0")
	<-g.entered
	close(g.release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if !strings.HasSuffix(c, " 200") {
			t.Errorf("held request: %s", c)
		}
	}
	if res := ts.do(from(a, "/packages")); res.StatusCode != 200 {
		t.Errorf("after its reads finished: %d", res.StatusCode)
	}
	ts.cost.mu.Lock()
	left := len(ts.cost.flying)
	ts.cost.mu.Unlock()
	if left != 0 {
		t.Errorf("clients still counted: %d", left)
	}
	if _, metrics := ts.get("/metrics"); !strings.Contains(metrics, "\nattestari_client_busy_total 5\n") {
		t.Errorf("the refusals are not counted as 5 in /metrics")
	}
	// The bound is an option: negative lifts it.
	off, err := New(Options{Reader: plain.opts.Reader, RequestsPerMinute: 100000, ClientInFlight: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !off.cost.acquire("x") || off.cost.limit > 0 {
		t.Error("a negative ClientInFlight still bounds")
	}
}

// unavailableReader answers as a store does when PostgreSQL cancels a read
// at its statement timeout.
type unavailableReader struct{ Reader }

var errTimedOutRead = fmt.Errorf("manifest x@1: %w: canceling statement due to statement timeout", vocab.ErrTimeout)

func (unavailableReader) Manifest(context.Context, string, string, string, string) (*api.Manifest, error) {
	return nil, errTimedOutRead
}

func (unavailableReader) ListPackages(context.Context, api.PackageFilter) (*api.PackageList, error) {
	return nil, errTimedOutRead
}

// TestTimedOutReadIsATimeout: a read the database did not answer in time is
// a 504 with Retry-After (problem+json as the contract says, or the site's
// error page), never a 500.
func TestTimedOutReadIsATimeout(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, unavailableReader{})
	ts.PublicationsChanged(true)
	for _, path := range []string{"/manifest/@acme/files/1.0.0", "/manifest?purl=pkg:npm/x@1", "/packages"} {
		res, body := ts.get(path)
		if res.StatusCode != 504 || res.Header.Get("Retry-After") != strconv.Itoa(retryAfterFault) || !strings.Contains(body, detailTimeout) || strings.Contains(body, "statement") {
			t.Errorf("%s: %d Retry-After %q %s", path, res.StatusCode, res.Header.Get("Retry-After"), body)
		}
	}
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != 504 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") || strings.Contains(rec.Body.String(), "statement") {
		t.Errorf("the home page: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}
