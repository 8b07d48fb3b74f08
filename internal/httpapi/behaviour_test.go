package httpapi

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestRateLimitAnswers429WithRetryAfter(t *testing.T) {
	s, err := New(Options{RequestsPerMinute: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, t: t}
	var last *http.Response
	for range 3 {
		last, _ = ts.get("/healthz")
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("third request in a minute: %d", last.StatusCode)
	}
	if n, err := strconv.Atoi(last.Header.Get("Retry-After")); err != nil || n <= 0 || n > 60 {
		t.Fatalf("Retry-After %q", last.Header.Get("Retry-After"))
	}
}

func TestAccessLogIsStructured(t *testing.T) {
	var buf bytes.Buffer
	s, err := New(Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil)), RequestsPerMinute: 1000})
	if err != nil {
		t.Fatal(err)
	}
	s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/healthz?x=1", nil))
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil {
		t.Fatalf("access log is not one JSON object: %q", buf.String())
	}
	for _, k := range []string{"method", "path", "status", "bytes", "duration", "request_id", "remote"} {
		if _, ok := line[k]; !ok {
			t.Errorf("access log lacks %q: %v", k, line)
		}
	}
	if line["status"] != float64(200) || line["path"] != "/healthz" {
		t.Errorf("access log: %v", line)
	}
}

func TestGzipCORSAndSecurityHeaders(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	req := httptest.NewRequest(http.MethodGet, "/packages", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	h := rec.Header()
	if h.Get("Content-Encoding") != "gzip" {
		t.Errorf("JSON is not compressed: %v", h)
	}
	if h.Get("Access-Control-Allow-Origin") != "*" {
		t.Error("GET answers lack CORS")
	}
	res, _ := ts.get("/")
	for k, want := range map[string]string{
		"Content-Security-Policy": "frame-ancestors 'none'", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
	} {
		if !strings.Contains(res.Header.Get(k), want) {
			t.Errorf("%s: %q", k, res.Header.Get(k))
		}
	}
}
