package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/methodology"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// downReader answers nothing: only Ping is called on it.
type downReader struct{ Reader }

func (downReader) Ping(context.Context) error { return errors.New("connection refused") }

func TestHealthz(t *testing.T) {
	ts := newTestServer(t, nil)
	res, body := ts.get("/healthz")
	if res.StatusCode != 200 || !strings.Contains(body, `"ok"`) {
		t.Fatalf("healthz: %d %s", res.StatusCode, body)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("security headers missing")
	}
}

func TestReadyzAgainstRealPostgres(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, dbtest.Open(t))
	res, body := ts.get("/readyz")
	if res.StatusCode != 200 || !strings.Contains(body, `"database":"ok"`) {
		t.Fatalf("readyz with a live database: %d %s", res.StatusCode, body)
	}
}

func TestReadyzDatabaseDown(t *testing.T) {
	ts := newTestServer(t, downReader{})
	res, body := ts.get("/readyz")
	if res.StatusCode != 503 || res.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("readyz with the database down: %d %s", res.StatusCode, body)
	}
	if strings.Contains(body, "connection refused") {
		t.Fatal("the internal cause leaked to the client")
	}
}

func TestMetricsCountsRoutes(t *testing.T) {
	ts := newTestServer(t, nil)
	ts.get("/healthz")
	res, body := ts.get("/metrics")
	if res.StatusCode != 200 || !strings.Contains(body, `attestari_http_requests_total{method="GET",route="/healthz",status="200"} 1`) {
		t.Fatalf("metrics do not count the healthz request:\n%s", body[:min(len(body), 2000)])
	}
}

func TestMethodology(t *testing.T) {
	ts := newTestServer(t, nil)
	res, body := ts.get("/methodology")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var m struct {
		Version, SHA256 string
		Versions        []struct{ Version, URL string }
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != methodology.Version || m.SHA256 != methodology.SHA256() || len(m.Versions) == 0 {
		t.Fatalf("methodology: %+v", m)
	}
	res, body = ts.get("/methodology/" + methodology.Version + "?format=markdown")
	if res.StatusCode != 200 || body != string(methodology.Document()) {
		t.Fatalf("markdown of the current version differs from the document (%d)", res.StatusCode)
	}
	if !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Error("a published snapshot is immutable and should say so")
	}
	res, body = ts.get("/methodology/" + methodology.Version)
	if res.StatusCode != 200 || !strings.Contains(body, `"current":true`) {
		t.Fatalf("json form: %d", res.StatusCode)
	}
	res, _ = ts.get("/methodology/9.9.9")
	if res.StatusCode != 404 {
		t.Fatalf("unknown version: %d", res.StatusCode)
	}
}

func TestInvalidParameterIsProblem(t *testing.T) {
	ts := newTestServer(t, nil)
	res, body := ts.get("/methodology/not-a-version")
	if res.StatusCode != 400 || res.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if !strings.Contains(body, `parameter \"version\" in path is invalid`) {
		t.Fatalf("the problem should say which parameter was wrong: %s", body)
	}
	res, body = ts.get("/methodology/2.3.1?format=pdf")
	if res.StatusCode != 400 || !strings.Contains(body, `\"format\"`) {
		t.Fatalf("bad query: %d %s", res.StatusCode, body)
	}
}

func TestUnknownPathAndMethod(t *testing.T) {
	ts := newTestServer(t, nil)
	res, _ := ts.get("/no/such/thing")
	if res.StatusCode != 404 {
		t.Fatalf("%d", res.StatusCode)
	}
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/healthz", nil))
	if rec.Code != 405 || rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("DELETE: %d", rec.Code)
	}
}

func TestScopedNamesJoin(t *testing.T) {
	var got string
	h := joinScopedNames(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.URL.EscapedPath() }))
	for in, want := range map[string]string{
		"/manifest/@scope/server/1.0.0":   "/manifest/@scope%2Fserver/1.0.0",
		"/manifest/@scope%2Fserver/1.0.0": "/manifest/@scope%2Fserver/1.0.0",
		"/manifest/plain/1.0.0":           "/manifest/plain/1.0.0",
		"/packages/npm/@a/b/2":            "/packages/npm/@a%2Fb/2",
	} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, in, nil))
		if got != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
}

func TestPanicRendersProblemWithoutStack(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := s.recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("secret internal state") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") || strings.Contains(rec.Body.String(), "goroutine") {
		t.Fatalf("panic leaked: %d %s", rec.Code, rec.Body.String())
	}
}

// TestReadyzFollowsTheWatcher: once a watcher is wired, the server is ready
// only while it hears the notifications: 503 (problem+json, Retry-After)
// after it stopped listening, 200 with notifications "heard" once it
// listens again.
func TestReadyzFollowsTheWatcher(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, dbtest.Open(t))
	ts.PublicationsChanged(true)
	if res, body := ts.get("/readyz"); res.StatusCode != 200 || !strings.Contains(body, `"notifications":"heard"`) {
		t.Fatalf("readyz while listening: %d %s", res.StatusCode, body)
	}
	ts.PublicationsChanged(false)
	res, body := ts.get("/readyz")
	if res.StatusCode != 503 || res.Header.Get("Content-Type") != "application/problem+json" || res.Header.Get("Retry-After") == "" {
		t.Fatalf("readyz while not listening: %d %v %s", res.StatusCode, res.Header, body)
	}
	ts.PublicationsChanged(true)
	if res, body := ts.get("/readyz"); res.StatusCode != 200 {
		t.Fatalf("readyz after listening again: %d %s", res.StatusCode, body)
	}
}
