package httpapi

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkManifestServiceCached is GET /manifest as attestari-api serves a
// gateway's repeated request: through every middleware, answered from the
// live cache (the hot path of docs/benchmarks.md, "API load").
func BenchmarkManifestServiceCached(b *testing.B) {
	s, err := New(Options{Reader: fixedReader{m: benchManifest()}, Logger: slog.New(slog.DiscardHandler), RequestsPerMinute: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	s.PublicationsChanged(true)
	req := httptest.NewRequest(http.MethodGet, "/manifest/lt-server-00001/1.0.0", nil)
	req.RemoteAddr = "127.0.0.1:1234"
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
