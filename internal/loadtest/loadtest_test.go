package loadtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/loadtest"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

// A small run end to end: both servers answer every request, and the
// section is written without touching the rest of the file.
func TestSmallRun(t *testing.T) {
	st := dbtest.Open(t)
	res, err := loadtest.Run(context.Background(), st, loadtest.Options{
		Versions: 120, PerPub: 50, Concurrency: 4, Duration: 300 * time.Millisecond, Warmup: 50 * time.Millisecond, Rounds: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []loadtest.Figures{res.API, res.APINoCache, res.Bare} {
		if f.Requests == 0 || f.Errors != 0 {
			t.Fatalf("api %+v api-nocache %+v bare %+v", res.API, res.APINoCache, res.Bare)
		}
	}
	if res.API.P50ms <= 0 || res.API.P99ms < res.API.P50ms || res.Ratio <= 0 {
		t.Fatalf("figures: %+v ratio %v", res.API, res.Ratio)
	}
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	other := "# Benchmarks\n\n## Extraction\n\nsomeone else's figures\n"
	if err := os.WriteFile(path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 { // writing twice replaces the section, it does not append it again
		if err := loadtest.WriteSection(path, res.Markdown("test")); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), other) || strings.Count(string(b), "## API load") != 1 || !strings.Contains(string(b), "| api, round 1 | 4 |") || !strings.Contains(string(b), "| api-nocache, round 1 | 4 |") {
		t.Fatalf("benchmarks.md:\n%s", b)
	}
	if err := os.WriteFile(path, []byte("# B\n\n## API load\nold\n\n## Later\nkept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := loadtest.WriteSection(path, "## API load\nnew\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "# B\n\n## API load\nnew\n\n## Later\nkept\n" {
		t.Fatalf("replacing a middle section:\n%q", b)
	}
}

// A small starvation run end to end: every phase measures the readers, the
// hammer phase measures the hammer, and one client alone fetches the large
// manifest whole.
func TestStarveSmallRun(t *testing.T) {
	st := dbtest.Open(t)
	res, err := loadtest.Starve(context.Background(), st, loadtest.StarveOptions{
		Tools: 3000, Small: 20, Hammers: 4, Readers: 2, Duration: 400 * time.Millisecond, Warmup: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.FullFetchCold.Status != 200 || res.FullFetchCold.Bytes < 3000*50 || res.FullFetchWarm.Bytes != res.FullFetchCold.Bytes {
		t.Fatalf("full fetch: cold %+v warm %+v", res.FullFetchCold, res.FullFetchWarm)
	}
	// The manifest comes in pages (3,000 tools: three), the second fetch
	// from the cache.
	if res.FullFetchCold.Requests != 3 || res.FullFetchWarm.Requests != 3 {
		t.Fatalf("pages: cold %+v warm %+v", res.FullFetchCold, res.FullFetchWarm)
	}
	if len(res.Phases) != 3 || res.Phases[0].Hammer != nil || res.Phases[1].Hammer == nil || res.Phases[2].Hammer == nil {
		t.Fatalf("phases: %+v", res.Phases)
	}
	for _, ph := range res.Phases {
		// Whatever the hammer does, every reader's request is answered 200.
		if ph.Readers.Requests == 0 || ph.Readers.Errors != 0 {
			t.Fatalf("%s: readers %+v", ph.Name, ph.Readers)
		}
		// The hammer is refused (429) or served, never failed (500).
		if h := ph.Hammer; h != nil && (h.Requests == 0 || h.Statuses[200] == 0 || h.Statuses[500] != 0 || h.Statuses[0] != 0) {
			t.Fatalf("%s: hammer %+v", ph.Name, h)
		}
	}
	// Paced at 10 requests a second for 400 ms, the hammer made a handful.
	if h := res.Phases[1].Hammer; h.Requests > 10 {
		t.Fatalf("paced hammer made %d requests", h.Requests)
	}
	if md := res.Markdown("cmd", "test"); !strings.Contains(md, "| hammer unpaced | hammer | 4 |") {
		t.Fatalf("markdown:\n%s", md)
	}
}
