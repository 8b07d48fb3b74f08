package main

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/selection"
)

var updateSelect = flag.Bool("update-select", false, "record testdata/select again from the fake registry")

// The committed selection fixture: a recording made against the fake
// registry (metadata only, no package code) and the candidates file it
// drew.
var (
	selectDir       = filepath.Join("testdata", "select")
	selectRecording = filepath.Join(selectDir, "recording")
	selectExpected  = filepath.Join(selectDir, "candidates.json")
	selectArgs      = []string{"--registries", "npm,pypi",
		"--pypi-downloads", filepath.Join(selectDir, "pypi-downloads.csv"),
		"--window", "2026-11-01:2026-11-30",
		"--conflicts", filepath.Join(selectDir, "conflicts.json")}
)

func n64(n int64) *int64 { return &n }

// selectFake is the population the fixture is drawn from: the query set's
// npm queries answered a page at a time, the downloads API, the PyPI index.
func selectFake() *fakeregistry.Fake {
	f := fakeregistry.New()
	res := func(names ...string) []fakeregistry.SearchResult {
		var out []fakeregistry.SearchResult
		for i, n := range names {
			out = append(out, fakeregistry.SearchResult{Name: n, Monthly: n64(int64(1000 - i))})
		}
		return out
	}
	q := selection.Queries1.NPM
	f.SetSearch(q[0], res("@acme/server-vault", "server-vault", "forecast-mcp", "mcp-kit-sdk", "ghost-mcp"))
	f.SetSearch(q[1], res("forecast-mcp", "notes-mcp-server", "attestari-probe-mcp"))
	f.SetSearch(q[2], res("@acme/server-vault", "beta-only-mcp"))
	f.SetSearch(q[3], nil)
	f.SetSearch(q[4], res("notes-mcp-server", "tiny-mcp"))
	f.SetSearch(q[5], nil)
	add := func(name, version, repo string, p *fakeregistry.Person) {
		o := fakeregistry.NPMOptions{Repository: repo, Publisher: p}
		if p != nil {
			o.Maintainers = []fakeregistry.Person{{Name: "a-maintainer"}}
		}
		f.AddNPM(name, version, []byte(name+version), o)
	}
	add("@acme/server-vault", "1.2.0", "git+https://code.example/acme/servers.git", nil)
	add("server-vault", "0.9.0", "https://code.example/acme/servers", nil)
	add("forecast-mcp", "2.0.0", "https://code.example/fc/forecast-mcp", nil)
	add("forecast-mcp", "2.1.0-next.1", "https://code.example/fc/forecast-mcp", nil)
	add("mcp-kit-sdk", "5.0.1", "https://code.example/kit/sdk", nil)
	add("notes-mcp-server", "0.1.0", "", nil)
	add("attestari-probe-mcp", "0.0.1", "", &fakeregistry.Person{Name: "attestari-release"})
	add("beta-only-mcp", "0.1.0-beta.2", "", nil)
	add("tiny-mcp", "1.0.0", "", nil)
	for i, n := range []string{"@acme/server-vault", "server-vault", "forecast-mcp", "mcp-kit-sdk", "notes-mcp-server", "attestari-probe-mcp", "beta-only-mcp", "ghost-mcp"} {
		f.SetDownloads(n, "2026-11-01", "2026-11-30", int64(5000-100*i))
	}
	file := func(n string) []fakeregistry.PyPIFile {
		return []fakeregistry.PyPIFile{{Filename: n + ".tar.gz", Content: []byte(n)}}
	}
	f.AddPyPI("mcp-server-clock", "0.6.2", file("t"), fakeregistry.PyPIOptions{})
	f.AddPyPI("mcp-server-clock", "0.7.0rc1", file("t2"), fakeregistry.PyPIOptions{})
	f.AddPyPI("Agenda_MCP", "1.3", file("c"), fakeregistry.PyPIOptions{})
	f.AddPyPI("quickmcp", "2.0", file("f"), fakeregistry.PyPIOptions{})
	f.AddPyPI("requests", "2.32.0", file("r"), fakeregistry.PyPIOptions{})
	return f
}

// TestSelectReplaysCommittedFixture: `attestari select --replay` over the
// committed recording writes the committed candidates file byte for byte,
// with no network. -update-select records the fixture again from the fake
// registry (then review the diff).
func TestSelectReplaysCommittedFixture(t *testing.T) {
	if *updateSelect {
		srv := httptest.NewServer(selectFake())
		defer srv.Close()
		t.Setenv(registry.EnvNPMRegistry, srv.URL)
		t.Setenv(registry.EnvPyPIURL, srv.URL)
		t.Setenv(registry.EnvNPMDownloadsURL, srv.URL)
		if err := os.RemoveAll(selectRecording); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"select", "--record", selectRecording, "--out", selectExpected, "--now", "2026-12-01T09:00:00Z"}, selectArgs...)
		if code, out, errs := runCLI(t, t.TempDir(), args...); code != 0 {
			t.Fatalf("recording the fixture: exit %d\n%s\n%s", code, out, errs)
		}
	}
	t.Setenv(registry.EnvNPMDownloadsURL, "")
	out := filepath.Join(t.TempDir(), "candidates.json")
	args := append([]string{"select", "--replay", selectRecording, "--out", out}, selectArgs...)
	code, stdout, errs := runCLI(t, t.TempDir(), args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(selectExpected)
	if err != nil {
		t.Fatalf("%v (run with -update-select)", err)
	}
	if string(got) != string(want) {
		t.Fatalf("the replay differs from %s:\n%s", selectExpected, got)
	}
	c, err := pipeline.ParseCandidates(want)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture exercises what it claims to: both registries, the
	// downloads API's window, and these exclusions.
	reasons := map[string]string{}
	for _, e := range c.Excluded {
		reasons[e.Name] = e.Reason
	}
	for name, reason := range map[string]string{
		"server-vault": "duplicate_of_scoped_variant", "ghost-mcp": "not_found_at_registry", "tiny-mcp": "no_download_figure",
		"attestari-probe-mcp": "conflict_of_interest_publisher", "beta-only-mcp": "no_release_version",
	} {
		if reasons[name] != reason {
			t.Errorf("%s: excluded as %q, want %q", name, reasons[name], reason)
		}
	}
	if c.Selection.Window == nil || c.Selection.Window.From != "2026-11-01" || len(c.Selection.Datasets) != 2 {
		t.Errorf("selection record: %+v", c.Selection)
	}
	// A replay with other inputs is refused, not answered from the network.
	args = append([]string{"select", "--replay", selectRecording, "--out", out, "--top", "1"}, selectArgs[:len(selectArgs)-2]...)
	if code, _, errs := runCLI(t, t.TempDir(), args...); code != 1 || !strings.Contains(errs, "made with the conflicts list") {
		t.Errorf("replay without the recorded conflicts list: exit %d, %s", code, errs)
	}
}

// TestSelectNamesInvocation is the weekly pass's invocation: select from a
// name list, top 200, into a file under the home. A registry failing
// halfway leaves no file and a message naming --resume, and --resume
// finishes from the recording.
func TestSelectNamesInvocation(t *testing.T) {
	f := fakeregistry.New()
	var names strings.Builder
	names.WriteString("# drawn by hand for this test\n")
	for i := 0; i < 205; i++ {
		n := fmt.Sprintf("srv-%03d", i)
		f.AddNPM(n, "1.0.0", []byte(n), fakeregistry.NPMOptions{})
		names.WriteString(n + "\n")
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	t.Setenv(registry.EnvNPMRegistry, srv.URL)
	t.Setenv(registry.EnvNPMDownloadsURL, "")
	home := t.TempDir()
	list := filepath.Join(home, "npm-names.txt")
	if err := os.WriteFile(list, []byte(names.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(home, "candidates.json")
	f.Inject(fakeregistry.NPMPackumentPath("srv-100"), fakeregistry.Fault{Status: 502, Times: 4})
	code, _, errs := runCLI(t, home, "select", "--names", list, "--top", "200", "--out", out)
	if code != 1 || !strings.Contains(errs, "npm packument srv-100") || !strings.Contains(errs, "HTTP 502") || !strings.Contains(errs, "--resume") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a failed selection left %s (%v)", out, err)
	}
	code, stdout, errs := runCLI(t, home, "select", "--names", list, "--top", "200", "--out", out, "--resume")
	if code != 0 || !strings.Contains(stdout, "selected 200 npm") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, errs)
	}
	c, _, err := pipeline.LoadCandidates(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Candidates) != 200 || c.Candidates[199].Name != "srv-199" || len(c.Excluded) != 5 || c.Excluded[0].Reason != "below_cut" {
		t.Errorf("%d selected, last %s, %d excluded", len(c.Candidates), c.Candidates[len(c.Candidates)-1].Name, len(c.Excluded))
	}
	if f.Count(fakeregistry.NPMPackumentPath("srv-000")) != 1 {
		t.Error("the resumed selection fetched again what was recorded")
	}
}

// TestSelectUsage: what cannot be run is said before anything is fetched.
func TestSelectUsage(t *testing.T) {
	for _, args := range [][]string{
		{"select"},
		{"select", "--out", "x", "--top", "0"},
		{"select", "--out", "x", "--window", "2026-11-30:2026-11-01"},
		{"select", "--out", "x", "--registries", "crates"},
		{"select", "--out", "x", "--replay", "r", "--resume"},
	} {
		if code, _, errs := runCLI(t, t.TempDir(), args...); code != 2 || !strings.Contains(errs, "Usage: attestari select") {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}
