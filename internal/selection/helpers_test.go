package selection

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
)

// t0 is the selection time of every test.
var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// tick is a clock that advances a second a call, so fetch times are
// distinct and reproducible.
type tick struct {
	mu sync.Mutex
	t  time.Time
}

func (c *tick) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// world is a fake registry (npm, PyPI and the downloads API on one server)
// and clients pointed at it.
type world struct {
	fake  *fakeregistry.Fake
	srv   *httptest.Server
	clock *tick
	opts  registry.Options
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{fake: fakeregistry.New(), clock: &tick{t: t0}}
	w.srv = httptest.NewServer(w.fake)
	t.Cleanup(w.srv.Close)
	w.opts = registry.Options{Now: w.clock.now, MaxAttempts: 3, Jitter: func() float64 { return 0 },
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
	return w
}

func (w *world) npm(t *testing.T) *registry.NPM {
	c, err := registry.NewNPM(w.srv.URL, w.opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (w *world) downloads(t *testing.T) *registry.NPMDownloads {
	c, err := registry.NewNPMDownloads(w.srv.URL, w.opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (w *world) pypi(t *testing.T) *registry.PyPI {
	c, err := registry.NewPyPI(w.srv.URL, w.opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// options is a search selection over one npm query.
func (w *world) options(t *testing.T, queries ...string) Options {
	t.Helper()
	rec, err := Create(filepath.Join(t.TempDir(), "rec"), t0, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	return Options{
		Queries:   QuerySet{Name: "test-queries", NPM: queries, PyPI: []string{"mcp"}},
		SearchNPM: true, NPM: w.npm(t), Recording: rec, Clock: w.clock.now,
	}
}

func n64(n int64) *int64 { return &n }

func input(path string, b string) *Input {
	in := &Input{Path: path, Bytes: []byte(b)}
	in.SHA256 = sha(in.Bytes)
	return in
}

// exclusionOf returns the exclusion of name, or fails.
func exclusionOf(t *testing.T, c *pipeline.Candidates, name string) pipeline.Exclusion {
	t.Helper()
	for _, e := range c.Excluded {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("%s is not excluded; excluded: %+v; selected: %+v", name, c.Excluded, c.Candidates)
	return pipeline.Exclusion{}
}

func selected(c *pipeline.Candidates) []string {
	var out []string
	for _, x := range c.Candidates {
		out = append(out, x.Name+"@"+x.Version)
	}
	return out
}
