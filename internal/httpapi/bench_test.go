package httpapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store/storetest"
)

// fixedReader answers every manifest with the same value, so the benchmarks
// below measure the service around the store, not the database.
type fixedReader struct {
	Reader
	m *api.Manifest
}

func (f fixedReader) Manifest(context.Context, string, string, string, string) (*api.Manifest, error) {
	return f.m, nil
}

func benchManifest() *api.Manifest {
	pkg := storetest.Package("npm", "lt-server-00001", "1.0.0", "graded", "A", nil,
		storetest.Tool("read_file", "readable", "Reads a file from the workspace.", "json", `{"type":"object"}`),
		storetest.Tool("list_files", "readable", "Lists the files of a directory.", "source", "z.object({ dir: z.string() })"))
	m := &api.Manifest{Registry: "npm", Name: pkg.Package.Name, Version: "1.0.0", ArtifactSHA256: pkg.ArtifactSHA256, ManifestHash: &pkg.ManifestHash, Verdict: "graded"}
	for _, t := range pkg.Tools {
		h, d := t.ToolHash, t.DescriptionRaw
		m.Tools = append(m.Tools, api.ToolHash{Name: t.Name, DescriptionState: t.DescriptionState, Description: &d, SchemaKind: t.SchemaKind, ToolHash: &h})
	}
	return m
}

// BenchmarkManifestService is GET /manifest through every middleware;
// BenchmarkManifestBare is the same answer written by a bare handler. Their
// ratio is the service's overhead (docs/benchmarks.md measures it over a
// real database and the network).
func BenchmarkManifestService(b *testing.B) {
	s, err := New(Options{Reader: fixedReader{m: benchManifest()}, Logger: slog.New(slog.DiscardHandler), RequestsPerMinute: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
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

// cpuPerOp reports the process's CPU time per operation, which a busy
// machine inflates far less than wall time.
func cpuPerOp(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() { b.ReportMetric(float64((cpu()-start).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}

func BenchmarkManifestBare(b *testing.B) {
	m := benchManifest()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := json.Marshal(m)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	req := httptest.NewRequest(http.MethodGet, "/manifest/lt-server-00001/1.0.0", nil)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
	}
}
