package httpapi

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
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

// TestRateLimitBucketsFollowTheTrustModel: without trusted proxies a client
// cannot pick its bucket with X-Forwarded-For; behind a trusted proxy each
// forwarded client has its own bucket, and a peer outside the trusted
// prefixes is its own client whatever it forwards.
func TestRateLimitBucketsFollowTheTrustModel(t *testing.T) {
	statuses := func(s *Server, peer string, xffs ...string) []int {
		var out []int
		for _, xff := range xffs {
			req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
			req.RemoteAddr = peer + ":40000"
			if xff != "" {
				req.Header.Set("X-Forwarded-For", xff)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			out = append(out, rec.Code)
		}
		return out
	}
	direct, err := New(Options{RequestsPerMinute: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(direct, "198.51.100.7", "203.0.113.1", "203.0.113.2", "203.0.113.3"); got[2] != http.StatusTooManyRequests {
		t.Fatalf("no trusted proxy: forged X-Forwarded-For escaped the limit: %v", got)
	}
	proxied, err := New(Options{RequestsPerMinute: 2, TrustedProxies: []string{"192.0.2.0/24"}})
	if err != nil {
		t.Fatal(err)
	}
	got := statuses(proxied, "192.0.2.10", "203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2", "203.0.113.1")
	if want := []int{200, 200, 200, 200, 429}; !slices.Equal(got, want) {
		t.Fatalf("behind a trusted proxy: %v, want %v (one bucket per forwarded client)", got, want)
	}
	if got := statuses(proxied, "198.51.100.9", "203.0.113.5", "203.0.113.6", "203.0.113.7"); got[2] != http.StatusTooManyRequests {
		t.Fatalf("an untrusted peer chose its bucket: %v", got)
	}
	if _, err := New(Options{TrustedProxies: []string{"not-a-cidr"}}); err == nil || !strings.Contains(err.Error(), "CIDR") {
		t.Fatalf("a bad prefix is refused with a clear error: %v", err)
	}
}
