package selection

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/vocab"
)

var sha = vocab.SHA256Hex

// TestSearchRanksPagesAndExcludes: every page of a query is read (260
// results at 250 a page), packages are ranked by the search answer's
// monthly figure (ties by name), each selected at its newest release that
// is not a pre-release, and every other package that surfaced is excluded
// with its reason.
func TestSearchRanksPagesAndExcludes(t *testing.T) {
	w := newWorld(t)
	var results []fakeregistry.SearchResult
	for i := 0; i < 255; i++ {
		results = append(results, fakeregistry.SearchResult{Name: fmt.Sprintf("filler-%03d", i), Monthly: n64(int64(i))})
	}
	results = append(results,
		fakeregistry.SearchResult{Name: "srv-b", Monthly: n64(5000)},
		fakeregistry.SearchResult{Name: "srv-a", Monthly: n64(5000)},
		fakeregistry.SearchResult{Name: "srv-c", Monthly: n64(9000)},
		fakeregistry.SearchResult{Name: "gone", Monthly: n64(7000)},
		fakeregistry.SearchResult{Name: "nofigure"},
	)
	w.fake.SetSearch("q1", results)
	// A second query surfaces srv-a again with another figure: the first
	// answer that carries one is the figure.
	w.fake.SetSearch("q2", []fakeregistry.SearchResult{{Name: "srv-a", Monthly: n64(1)}, {Name: "pre-only", Monthly: n64(8000)}})
	w.fake.AddNPM("srv-a", "1.0.0", []byte("a"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("srv-a", "1.5.0", []byte("a"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("srv-a", "2.0.0-rc.1", []byte("a"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("srv-b", "0.3.1", []byte("b"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("srv-c", "3.0.0", []byte("c"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("pre-only", "1.0.0-beta.1", []byte("p"), fakeregistry.NPMOptions{})

	o := w.options(t, "q1", "q2")
	o.Top = 3
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Candidates
	if got, want := selected(c), []string{"srv-c@3.0.0", "srv-a@1.5.0", "srv-b@0.3.1"}; !slices.Equal(got, want) {
		t.Fatalf("selected %v, want %v", got, want)
	}
	if c.Candidates[0].Rank != 1 || c.Candidates[1].Rank != 4 || *c.Candidates[1].Downloads != 5000 {
		t.Errorf("ranks/figures: %+v", c.Candidates)
	}
	for name, reason := range map[string]string{
		"gone": vocab.ExcludedNotFoundAtRegistry, "pre-only": vocab.ExcludedNoReleaseVersion,
		"nofigure": vocab.ExcludedNoDownloadFigure, "filler-254": vocab.ExcludedBelowCut, "filler-000": vocab.ExcludedBelowCut,
	} {
		if got := exclusionOf(t, c, name); got.Reason != reason {
			t.Errorf("%s excluded as %s (%s), want %s", name, got.Reason, got.Detail, reason)
		}
	}
	if n := len(c.Candidates) + len(c.Excluded); n != 261 {
		t.Errorf("%d packages accounted for, want every one of the 261 that surfaced", n)
	}
	if got := w.fake.Count(fakeregistry.NPMSearchPath); got != 3 {
		t.Errorf("%d search requests, want 3 (two pages of q1, one of q2)", got)
	}
	for _, name := range []string{"filler-254", "filler-000"} {
		if w.fake.Count(fakeregistry.NPMPackumentPath(name)) != 0 {
			t.Errorf("the packument of %s, below the cut, was fetched", name)
		}
	}
	sel := c.Selection
	if sel.PageSize != 250 || len(sel.Queries) != 2 || sel.Queries[0].Text != "q1" {
		t.Errorf("selection record: %+v", sel)
	}
	if sel.Window == nil || sel.Window.From != "2026-11-01" || sel.Window.To != "2026-11-30" {
		t.Errorf("window %+v, want the 30 days before the first search page (2026-12-01)", sel.Window)
	}
	if !strings.Contains(sel.FetchedAt[1].Source, `"q1" from 250 size 250`) || len(sel.FetchedAt) != 3+5 {
		t.Errorf("fetched_at: %+v", sel.FetchedAt)
	}
	if !strings.Contains(sel.RankingRule, "test-queries") || !strings.Contains(sel.RankingRule, "no conflicts list configured") {
		t.Errorf("ranking rule does not name the query set and the conflicts list: %s", sel.RankingRule)
	}
	if _, err := pipeline.ParseCandidates(res.Bytes); err != nil {
		t.Fatalf("the file written does not validate: %v", err)
	}
}

// TestDownloadsAPIConfirms: with the downloads API configured, its figure
// for the window ranks npm packages, not the search answer's; a package
// the API has no figure for is excluded as no_download_figure.
func TestDownloadsAPIConfirms(t *testing.T) {
	w := newWorld(t)
	w.fake.SetSearch("q", []fakeregistry.SearchResult{{Name: "a", Monthly: n64(10)}, {Name: "b", Monthly: n64(20)}, {Name: "c", Monthly: n64(30)}})
	for _, n := range []string{"a", "b", "c"} {
		w.fake.AddNPM(n, "1.0.0", []byte(n), fakeregistry.NPMOptions{})
	}
	w.fake.SetDownloads("a", "2026-11-01", "2026-11-30", 900)
	w.fake.SetDownloads("b", "2026-11-01", "2026-11-30", 100)
	w.fake.SetDownloads("c", "2026-10-01", "2026-10-31", 5) // another window: no figure for this one
	o := w.options(t, "q")
	rec, err := Create(filepath.Join(t.TempDir(), "rec"), t0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	o.Recording, o.Downloads = rec, w.downloads(t)
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Candidates
	if got := selected(c); !slices.Equal(got, []string{"a@1.0.0", "b@1.0.0"}) || *c.Candidates[0].Downloads != 900 {
		t.Fatalf("selected %v (%+v), want a then b by the downloads API", got, c.Candidates)
	}
	if e := exclusionOf(t, c, "c"); e.Reason != vocab.ExcludedNoDownloadFigure || !strings.Contains(e.Detail, "2026-11-01") {
		t.Errorf("c: %+v", e)
	}
	if w := c.Selection.Window; w == nil || w.From != "2026-11-01" || w.To != "2026-11-30" {
		t.Errorf("window %+v, want the last whole month before the selection time", w)
	}
}

// TestConflictsEachField: each field of methodology §4's conflicts rule,
// alone, excludes a package under its own code; a package matching none is
// selected beside them.
func TestConflictsEachField(t *testing.T) {
	w := newWorld(t)
	pkgs := map[string]fakeregistry.NPMOptions{
		"ours-by-name":       {},
		"@ours/by-scope":     {},
		"by-maintainer":      {Maintainers: []fakeregistry.Person{{Name: "someone"}, {Name: "attestari-bot"}}},
		"by-publisher":       {Publisher: &fakeregistry.Person{Name: "attestari-release"}, Maintainers: []fakeregistry.Person{{Name: "other"}}},
		"by-author":          {Extra: map[string]any{"author": "Attestari Project <x@elsewhere.example> (https://elsewhere.example)"}},
		"by-contact-address": {Publisher: &fakeregistry.Person{Name: "p1", Email: "Security@Attestari.example"}},
		"by-contact-domain":  {Publisher: &fakeregistry.Person{Name: "p2", Email: "dev@mail.ours.example"}},
		"by-repository":      {Repository: "git+https://CodeHost.example/attestari/tool.git"},
		"clean":              {Repository: "https://codehost.example/attestari-fan/tool"},
	}
	var results []fakeregistry.SearchResult
	for name, opts := range pkgs {
		results = append(results, fakeregistry.SearchResult{Name: name, Monthly: n64(100)})
		w.fake.AddNPM(name, "1.0.0", []byte(name), opts)
	}
	w.fake.SetSearch("q", results)
	list := `{"schema": "attestari.conflicts/v1", "names": ["ours-by-name"], "scopes": ["@ours"],
	  "accounts": ["attestari-bot", "attestari-release"], "people": ["attestari project"],
	  "addresses": ["security@attestari.example"], "domains": ["ours.example"],
	  "repositories": ["https://codehost.example/attestari"]}`
	o := w.options(t, "q")
	o.Conflicts = input("conflicts.json", list)
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range map[string]string{
		"ours-by-name": vocab.ExcludedConflictName, "@ours/by-scope": vocab.ExcludedConflictScope,
		"by-maintainer": vocab.ExcludedConflictMaintainer, "by-publisher": vocab.ExcludedConflictPublisher,
		"by-author": vocab.ExcludedConflictAuthor, "by-contact-address": vocab.ExcludedConflictContact,
		"by-contact-domain": vocab.ExcludedConflictContact, "by-repository": vocab.ExcludedConflictRepository,
	} {
		if e := exclusionOf(t, res.Candidates, name); e.Reason != code {
			t.Errorf("%s excluded as %s (%s), want %s", name, e.Reason, e.Detail, code)
		}
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"clean@1.0.0"}) {
		t.Errorf("selected %v, want only clean (a repository owner whose name only begins like ours is not ours)", got)
	}
	// The name and scope fields need no registry document.
	for _, name := range []string{"ours-by-name", "@ours/by-scope"} {
		if w.fake.Count(fakeregistry.NPMPackumentPath(name)) != 0 {
			t.Errorf("the packument of %s was fetched", name)
		}
	}
	if ds := res.Candidates.Selection.Datasets; len(ds) != 1 || ds[0].Snapshot != "sha256:"+sha([]byte(list)) {
		t.Errorf("datasets %+v: the conflicts list is not recorded by its SHA-256", ds)
	}
}

// TestConflictsListRefusedWhenMalformed: an unknown member is an error
// naming the file, not a list silently read without it.
func TestConflictsListRefusedWhenMalformed(t *testing.T) {
	w := newWorld(t)
	o := w.options(t, "q")
	o.Conflicts = input("conflicts.json", `{"schema": "attestari.conflicts/v1", "maintainers": ["x"]}`)
	_, err := Select(context.Background(), o)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "conflicts.json") || !strings.Contains(err.Error(), "maintainers") {
		t.Fatalf("err = %v", err)
	}
}

// TestDuplicateOfScopedVariant: an unscoped package whose scoped variant
// surfaced with the same repository is excluded, whichever ranks higher;
// one with another repository is not a duplicate.
func TestDuplicateOfScopedVariant(t *testing.T) {
	w := newWorld(t)
	w.fake.SetSearch("q", []fakeregistry.SearchResult{
		{Name: "server-x", Monthly: n64(900)}, {Name: "@org/server-x", Monthly: n64(100)},
		{Name: "server-y", Monthly: n64(800)}, {Name: "@org/server-y", Monthly: n64(50)},
	})
	w.fake.AddNPM("server-x", "1.0.0", []byte("x"), fakeregistry.NPMOptions{Repository: "git+https://host.example/org/servers.git"})
	w.fake.AddNPM("@org/server-x", "2.0.0", []byte("x"), fakeregistry.NPMOptions{Repository: "https://host.example/org/servers"})
	w.fake.AddNPM("server-y", "1.0.0", []byte("y"), fakeregistry.NPMOptions{Repository: "https://host.example/someone/y"})
	w.fake.AddNPM("@org/server-y", "1.0.0", []byte("y"), fakeregistry.NPMOptions{Repository: "https://host.example/org/servers"})
	res, err := Select(context.Background(), w.options(t, "q"))
	if err != nil {
		t.Fatal(err)
	}
	if e := exclusionOf(t, res.Candidates, "server-x"); e.Reason != vocab.ExcludedDuplicateOfScoped || !strings.HasPrefix(e.Detail, "@org/server-x") {
		t.Errorf("server-x: %+v", e)
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"server-y@1.0.0", "@org/server-x@2.0.0", "@org/server-y@1.0.0"}) {
		t.Errorf("selected %v", got)
	}
}

// TestSearchFailsHalfwayThenResumes: a page answered 503 past the retries
// stops the selection with a message that says what to do, nothing is
// written, and --resume asks only for what the recording lacks.
func TestSearchFailsHalfwayThenResumes(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string
	}{
		{503, "HTTP 503 after 3 attempts"},
		{429, "limiting the request rate (HTTP 429 after 3 attempts)"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			w := newWorld(t)
			var results []fakeregistry.SearchResult
			for i := 0; i < 300; i++ {
				results = append(results, fakeregistry.SearchResult{Name: fmt.Sprintf("p%03d", i), Monthly: n64(int64(i))})
			}
			w.fake.SetSearch("q", results)
			w.fake.AddNPM("p299", "1.0.0", []byte("p"), fakeregistry.NPMOptions{})
			// The first request passes; the three attempts at page 2 fail.
			w.fake.Inject(fakeregistry.NPMSearchPath, fakeregistry.Fault{Times: 1}, fakeregistry.Fault{Status: tc.status, Times: 3, RetryAfter: "1"})
			o := w.options(t, "q")
			o.Top = 1
			_, err := Select(context.Background(), o)
			var fe *FetchError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--resume") ||
				!strings.Contains(err.Error(), `"q" from 250`) {
				t.Fatalf("err = %v", err)
			}
			if o.Recording.Len() != 1 {
				t.Fatalf("%d answers recorded, want the first page", o.Recording.Len())
			}
			o.Recording.Close()
			rec, err := Resume(o.Recording.Dir())
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Close()
			o.Recording = rec
			res, err := Select(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if got := selected(res.Candidates); !slices.Equal(got, []string{"p299@1.0.0"}) {
				t.Errorf("selected %v", got)
			}
			if n := w.fake.Count(fakeregistry.NPMSearchPath); n != 1+3+1 {
				t.Errorf("%d search requests; the resumed selection should ask for page 2 alone", n)
			}
		})
	}
}

// TestMalformedAnswers: a search page that is not the search API's JSON
// stops the selection (and is not recorded, so a resume asks again); a
// package's own malformed packument excludes that package only.
func TestMalformedAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/-/v1/search":
			if r.URL.Query().Get("text") == "bad" {
				_, _ = w.Write([]byte(`{"objects": "not a list"}`))
				return
			}
			_, _ = w.Write([]byte(`{"objects": [{"package": {"name": "broken"}, "downloads": {"monthly": 3}}, {"package": {"name": "fine"}, "downloads": {"monthly": 2}}], "total": 2}`))
		case "/broken":
			_, _ = w.Write([]byte(`["not", "a", "packument"]`))
		case "/fine":
			_, _ = w.Write([]byte(`{"name": "fine", "versions": {"1.0.0": {"name": "fine", "version": "1.0.0"}}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	w := newWorld(t)
	npm, err := registry.NewNPM(srv.URL, w.opts)
	if err != nil {
		t.Fatal(err)
	}
	o := w.options(t, "bad")
	o.NPM = npm
	_, err = Select(context.Background(), o)
	if !errors.Is(err, registry.ErrMalformed) || !strings.Contains(err.Error(), "not the document") || o.Recording.Len() != 0 {
		t.Fatalf("err = %v, %d recorded", err, o.Recording.Len())
	}
	o = w.options(t, "good")
	o.NPM = npm
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if e := exclusionOf(t, res.Candidates, "broken"); e.Reason != vocab.ExcludedMalformedAtRegistry {
		t.Errorf("broken: %+v", e)
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"fine@1.0.0"}) {
		t.Errorf("selected %v", got)
	}
}

// TestSearchNotServed: a registry that answers the search API 404 (as a
// proxy that serves only packuments does) is told apart, with the name
// list as the way on.
func TestSearchNotServed(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	w := newWorld(t)
	npm, _ := registry.NewNPM(srv.URL, w.opts)
	o := w.options(t, "q")
	o.NPM = npm
	if _, err := Select(context.Background(), o); err == nil || !strings.Contains(err.Error(), "--names FILE") {
		t.Fatalf("err = %v", err)
	}
}

// TestReplayIsByteForByte: replaying a recording writes the same bytes and
// fetches nothing; a replay asked something the recording lacks says so.
func TestReplayIsByteForByte(t *testing.T) {
	w := newWorld(t)
	w.fake.SetSearch("q", []fakeregistry.SearchResult{{Name: "a", Monthly: n64(3)}, {Name: "b", Monthly: n64(2)}, {Name: "c"}})
	w.fake.AddNPM("a", "1.0.0", []byte("a"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("b", "1.0.0", []byte("b"), fakeregistry.NPMOptions{})
	o := w.options(t, "q")
	first, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Recording.Close()
	before := len(w.fake.Requests())
	rec, err := Replay(o.Recording.Dir())
	if err != nil {
		t.Fatal(err)
	}
	o.Recording, o.NPM = rec, nil
	o.Clock = func() (z time.Time) { t.Fatal("a replay read the clock"); return }
	again, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Bytes) != string(first.Bytes) {
		t.Fatalf("replay differs:\n%s\n---\n%s", again.Bytes, first.Bytes)
	}
	if len(w.fake.Requests()) != before {
		t.Error("the replay fetched")
	}
	o.Queries.NPM = []string{"q", "other"}
	if _, err := Select(context.Background(), o); !errors.Is(err, ErrNotRecorded) {
		t.Fatalf("replay of another query: %v", err)
	}
}

// TestRecordingSurvivesATornLine: a last index line cut short (a process
// killed while appending) is dropped on resume and its answer fetched
// again; a damaged body is refused, not read.
func TestRecordingSurvivesATornLine(t *testing.T) {
	w := newWorld(t)
	w.fake.SetSearch("q", []fakeregistry.SearchResult{{Name: "a", Monthly: n64(3)}})
	w.fake.AddNPM("a", "1.0.0", []byte("a"), fakeregistry.NPMOptions{})
	o := w.options(t, "q")
	first, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Recording.Close()
	index := filepath.Join(o.Recording.Dir(), indexFile)
	b, _ := os.ReadFile(index)
	if err := os.WriteFile(index, b[:len(b)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := Resume(o.Recording.Dir())
	if err != nil {
		t.Fatal(err)
	}
	o.Recording = rec
	if _, err := Select(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if n := w.fake.Count(fakeregistry.NPMPackumentPath("a")); n != 2 {
		t.Errorf("packument fetched %d times, want again after the torn line", n)
	}
	rec.Close()
	if _, err := Replay(o.Recording.Dir()); err != nil {
		t.Fatalf("the resumed recording does not open: %v", err)
	}
	bodies, _ := os.ReadDir(filepath.Join(o.Recording.Dir(), bodiesDir))
	for _, b := range bodies {
		_ = os.WriteFile(filepath.Join(o.Recording.Dir(), bodiesDir, b.Name()), []byte("tampered"), 0o644)
	}
	rec, _ = Replay(o.Recording.Dir())
	o.Recording = rec
	if _, err := Select(context.Background(), o); !errors.Is(err, ErrRecording) {
		t.Fatalf("replay over damaged bodies: %v", err)
	}
	_ = first
}

// TestCreateRefusesAForeignDirectory: a recording directory is emptied
// only when it holds a recording.
func TestCreateRefusesAForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, t0, false); !errors.Is(err, ErrRecording) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal("the foreign file was removed")
	}
}

// TestNamesSource: a name list is ranked in its order (no figure, no
// window), a repeated name keeps its first place, the list is
// recorded by its SHA-256, and an invalid line is an error naming it.
func TestNamesSource(t *testing.T) {
	w := newWorld(t)
	w.fake.AddNPM("second", "1.0.0", []byte("s"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("first", "2.1.0", []byte("f"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("third", "1.0.0", []byte("t"), fakeregistry.NPMOptions{})
	names := "# rule: by hand\nfirst\n\nmissing\nsecond\nfirst\nthird\n"
	o := w.options(t)
	o.SearchNPM, o.Names, o.Top = false, input("names.txt", names), 2
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Candidates
	if got := selected(c); !slices.Equal(got, []string{"first@2.1.0", "second@1.0.0"}) || c.Candidates[0].Downloads != nil {
		t.Fatalf("selected %v", got)
	}
	if e := exclusionOf(t, c, "missing"); e.Reason != vocab.ExcludedNotFoundAtRegistry {
		t.Errorf("missing: %+v", e)
	}
	if e := exclusionOf(t, c, "third"); e.Reason != vocab.ExcludedBelowCut {
		t.Errorf("third: %+v", e)
	}
	for _, e := range c.Excluded {
		if e.Name == "first" {
			t.Errorf("the repeated name is excluded beside its selection: %+v", e)
		}
	}
	sel := c.Selection
	if len(sel.Queries) != 0 || sel.PageSize != 0 || sel.Window != nil || len(sel.Datasets) != 1 || sel.Datasets[0].Snapshot != "sha256:"+sha([]byte(names)) {
		t.Errorf("selection record: %+v", sel)
	}
	o.Names = input("names.txt", "fine\nNot A Name\n@bad\n")
	if _, err := Select(context.Background(), o); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("invalid names: %v", err)
	}
}

// TestPyPISource: the simple index's names matching the PyPI queries are
// ranked by the dataset; a project with no row has no figure; one whose
// only release is wholly yanked has no release version; a conflict on the
// ownership roles excludes.
func TestPyPISource(t *testing.T) {
	for _, format := range []string{"json", "csv"} {
		t.Run(format, func(t *testing.T) {
			w := newWorld(t)
			file := func(n string) []fakeregistry.PyPIFile {
				return []fakeregistry.PyPIFile{{Filename: n + "-1.0.tar.gz", Content: []byte(n)}}
			}
			w.fake.AddPyPI("mcp-server-vcs", "1.0", file("a"), fakeregistry.PyPIOptions{})
			w.fake.AddPyPI("mcp-server-vcs", "2.0b1", file("a2"), fakeregistry.PyPIOptions{})
			w.fake.AddPyPI("forecast_mcp", "0.4", file("b"), fakeregistry.PyPIOptions{})
			w.fake.AddPyPI("quickmcp", "2.0", file("c"), fakeregistry.PyPIOptions{}) // not a whole word
			w.fake.AddPyPI("mcp-yanked", "1.0", file("d"), fakeregistry.PyPIOptions{Yanked: true})
			w.fake.AddPyPI("mcp-nofigure", "1.0", file("e"), fakeregistry.PyPIOptions{})
			w.fake.AddPyPI("mcp-ours", "1.0", file("f"), fakeregistry.PyPIOptions{Owners: []string{"attestari"}})
			dataset := `{"last_update": "x", "rows": [{"project": "forecast-mcp", "download_count": 50}, {"project": "mcp-server-vcs", "download_count": 40},
			  {"project": "mcp-yanked", "download_count": 99}, {"project": "mcp-ours", "download_count": 98}, {"project": "quickmcp", "download_count": 1000}]}`
			if format == "csv" {
				dataset = "download_count,project\n50,forecast-mcp\n40,mcp-server-vcs\n99,mcp-yanked\n98,mcp-ours\n1000,quickmcp\n"
			}
			o := w.options(t)
			o.SearchNPM, o.SearchPyPI, o.NPM, o.PyPI = false, true, nil, w.pypi(t)
			o.PyPIDownloads = input("top."+format, dataset)
			o.Window = &pipeline.Window{From: "2026-10-01", To: "2026-10-31"}
			o.Conflicts = input("c.json", `{"schema": "attestari.conflicts/v1", "accounts": ["attestari"]}`)
			res, err := Select(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			c := res.Candidates
			if got := selected(c); !slices.Equal(got, []string{"forecast_mcp@0.4", "mcp-server-vcs@1.0"}) {
				t.Fatalf("selected %v", got)
			}
			for name, reason := range map[string]string{"mcp-yanked": vocab.ExcludedNoReleaseVersion, "mcp-nofigure": vocab.ExcludedNoDownloadFigure,
				"mcp-ours": vocab.ExcludedConflictMaintainer} {
				if e := exclusionOf(t, c, name); e.Reason != reason {
					t.Errorf("%s: %+v, want %s", name, e, reason)
				}
			}
			for _, e := range c.Excluded {
				if e.Name == "quickmcp" {
					t.Errorf("quickmcp surfaced: %+v", e)
				}
			}
			if len(c.Selection.Datasets) != 2 || c.Selection.Window.From != "2026-10-01" || c.Selection.Queries[0].Registry != "pypi" {
				t.Errorf("selection record: %+v", c.Selection)
			}
		})
	}
}

// TestDatasetRefusesWhatItCannotReadExactly: a count that is not a whole
// number, a project listed twice and a CSV without the columns are errors
// naming the row.
func TestDatasetRefusesWhatItCannotReadExactly(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"rows": [{"project": "a", "download_count": 1.5}]}`, "row 1 (a)"},
		{`{"rows": [{"project": "a-b", "download_count": 1}, {"project": "A_B", "download_count": 2}]}`, "row 2: A_B is listed twice"},
		{"name,count\na,1\n", "names no project and download_count columns"},
		{"project,downloads\na,-3\n", "row 1 (a)"},
	} {
		if _, err := parseDataset(input("d", tc.body)); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
}

func TestNormalizeRepository(t *testing.T) {
	for in, want := range map[string]string{
		"git+https://Host.example/Owner/Repo.git#main": "host.example/Owner/Repo",
		"git@Host.example:Owner/Repo.git":              "host.example/Owner/Repo",
		"ssh://git@host.example/owner/repo":            "host.example/owner/repo",
		"owner/repo":                                   "owner/repo",
		"https://host.example/owner/":                  "host.example/owner",
		"":                                             "",
	} {
		if got := normalizeRepository(in); got != want {
			t.Errorf("normalizeRepository(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatchesPyPIQuery(t *testing.T) {
	for _, tc := range []struct {
		name, q string
		want    bool
	}{
		{"mcp-server-vcs", "mcp", true}, {"Forecast_MCP", "mcp", true}, {"quickmcp", "mcp", false},
		{"my.model-context_protocol", "model-context-protocol", true}, {"model-protocol", "model-context-protocol", false},
	} {
		if got := matchesPyPIQuery(tc.name, tc.q); got != tc.want {
			t.Errorf("matchesPyPIQuery(%q, %q) = %v", tc.name, tc.q, got)
		}
	}
}

// TestIllTypedConflictFields: with a conflicts list configured, a package
// whose maintainers cannot be read cannot be shown not to be Attestari's,
// so it is excluded as malformed_at_registry; an ill-typed dist is not
// such a field.
func TestIllTypedConflictFields(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/-/v1/search":
			_, _ = w.Write([]byte(`{"objects": [{"package": {"name": "odd"}, "downloads": {"monthly": 3}}, {"package": {"name": "dist-odd"}, "downloads": {"monthly": 2}}], "total": 2}`))
		case "/odd":
			_, _ = w.Write([]byte(`{"name": "odd", "maintainers": 7, "versions": {"1.0.0": {"name": "odd", "version": "1.0.0"}}}`))
		case "/dist-odd":
			_, _ = w.Write([]byte(`{"name": "dist-odd", "versions": {"1.0.0": {"name": "dist-odd", "version": "1.0.0", "dist": 5}}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	w := newWorld(t)
	npm, _ := registry.NewNPM(srv.URL, w.opts)
	o := w.options(t, "q")
	o.NPM = npm
	o.Conflicts = input("c.json", `{"schema": "attestari.conflicts/v1", "accounts": ["attestari"]}`)
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if e := exclusionOf(t, res.Candidates, "odd"); e.Reason != vocab.ExcludedMalformedAtRegistry || !strings.Contains(e.Detail, "maintainers") {
		t.Errorf("odd: %+v", e)
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"dist-odd@1.0.0"}) {
		t.Errorf("selected %v", got)
	}
}

// TestPageCapIsStated: a query read to --max-pages says so in the ranking
// rule, with how much it read of its total.
func TestPageCapIsStated(t *testing.T) {
	w := newWorld(t)
	var results []fakeregistry.SearchResult
	for i := 0; i < 600; i++ {
		results = append(results, fakeregistry.SearchResult{Name: fmt.Sprintf("p%03d", i), Monthly: n64(int64(i))})
	}
	w.fake.SetSearch("q", results)
	w.fake.AddNPM("p499", "1.0.0", []byte("p"), fakeregistry.NPMOptions{})
	o := w.options(t, "q")
	o.MaxPages, o.Top = 2, 1
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Candidates.Selection.RankingRule, `read to the page cap: "q" (600 results, 500 read)`) {
		t.Errorf("ranking rule: %s", res.Candidates.Selection.RankingRule)
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"p499@1.0.0"}) {
		t.Errorf("selected %v", got)
	}
}

// TestNothingSelected: a selection whose every package is excluded is an
// error that says so, with the counts, and draws no file.
func TestNothingSelected(t *testing.T) {
	w := newWorld(t)
	o := w.options(t)
	o.SearchNPM, o.Names = false, input("names.txt", "gone-a\ngone-b\n")
	res, err := Select(context.Background(), o)
	if !errors.Is(err, ErrNothingSelected) || !strings.Contains(err.Error(), "not_found_at_registry 2") || res.Bytes != nil {
		t.Fatalf("err = %v", err)
	}
}

// TestCreateReplacesAnOldRecording: a fresh selection over the directory of
// an earlier one starts from nothing (the weekly pass reruns into one home).
func TestCreateReplacesAnOldRecording(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rec")
	rec, err := Create(dir, t0, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Add(Exchange{Kind: vocab.KindNPMPackument, Key: "npm packument a", Outcome: vocab.RecordOK, At: t0}, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	rec, err = Create(dir, t0.Add(time.Hour), false)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if rec.Len() != 0 || !rec.Now().Equal(t0.Add(time.Hour)) {
		t.Fatalf("the new recording holds %d exchanges, now %v", rec.Len(), rec.Now())
	}
	if _, _, ok, _ := rec.Lookup("npm packument a"); ok {
		t.Fatal("an answer of the old recording is still served")
	}
}

// TestPyPIIndexServedAsHTML: an index that answers the root in PEP 503
// HTML whatever is asked is read through its anchors.
func TestPyPIIndexServedAsHTML(t *testing.T) {
	fake := fakeregistry.New()
	fake.AddPyPI("mcp-server-a", "1.0", []fakeregistry.PyPIFile{{Filename: "a-1.0.tar.gz", Content: []byte("a")}}, fakeregistry.PyPIOptions{})
	fake.AddPyPI("other", "1.0", []fakeregistry.PyPIFile{{Filename: "o-1.0.tar.gz", Content: []byte("o")}}, fakeregistry.PyPIOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == fakeregistry.PyPIIndexPath {
			r.Header.Del("Accept") // this index serves HTML only
		}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	w := newWorld(t)
	pypi, _ := registry.NewPyPI(srv.URL, w.opts)
	o := w.options(t)
	o.SearchNPM, o.SearchPyPI, o.PyPI = false, true, pypi
	o.PyPIDownloads = input("d.csv", "project,download_count\nmcp-server-a,5\n")
	o.Window = &pipeline.Window{From: "2026-11-01", To: "2026-11-30"}
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"mcp-server-a@1.0"}) || len(res.Candidates.Excluded) != 0 {
		t.Fatalf("selected %v, excluded %+v", got, res.Candidates.Excluded)
	}
	if ex, _, ok, _ := o.Recording.Lookup("pypi simple index"); !ok || ex.ContentType != "text/html" {
		t.Fatalf("the index root was not read as HTML: %+v", ex)
	}
}

// TestResumeRefusesAnotherInput: answers recorded for one name list are
// not reused for another.
func TestResumeRefusesAnotherInput(t *testing.T) {
	w := newWorld(t)
	w.fake.AddNPM("a", "1.0.0", []byte("a"), fakeregistry.NPMOptions{})
	o := w.options(t)
	o.SearchNPM, o.Names = false, input("names.txt", "a\n")
	if _, err := Select(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o.Recording.Close()
	rec, err := Resume(o.Recording.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	o.Recording, o.Names = rec, input("names.txt", "a\nb\n")
	if _, err := Select(context.Background(), o); !errors.Is(err, ErrRecording) || !strings.Contains(err.Error(), "another name list") {
		t.Fatalf("err = %v", err)
	}
}

// TestWindowWithoutASourceForIt: a window no figure will be read over is
// refused rather than written beside figures of another window.
func TestWindowWithoutASourceForIt(t *testing.T) {
	w := newWorld(t)
	o := w.options(t, "q")
	o.Window = &pipeline.Window{From: "2026-10-01", To: "2026-10-31"}
	if _, err := Select(context.Background(), o); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "drop --window") {
		t.Fatalf("err = %v", err)
	}
}

// TestPackumentPastTheCap: a packument larger than the client's cap
// cannot be read whole; it excludes its package, recorded, and does not
// stop the selection.
func TestPackumentPastTheCap(t *testing.T) {
	w := newWorld(t)
	w.fake.SetSearch("q", []fakeregistry.SearchResult{{Name: "huge", Monthly: n64(9)}, {Name: "small", Monthly: n64(1)}})
	w.fake.AddNPM("huge", "1.0.0", []byte("h"), fakeregistry.NPMOptions{Extra: map[string]any{"readme": strings.Repeat("x", 4096)}})
	w.fake.AddNPM("small", "1.0.0", []byte("s"), fakeregistry.NPMOptions{})
	w.opts.MaxDocumentBytes = 2048
	o := w.options(t, "q")
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if e := exclusionOf(t, res.Candidates, "huge"); e.Reason != vocab.ExcludedMalformedAtRegistry || !strings.Contains(e.Detail, "cap") {
		t.Errorf("huge: %+v", e)
	}
	if got := selected(res.Candidates); !slices.Equal(got, []string{"small@1.0.0"}) {
		t.Errorf("selected %v", got)
	}
}

// TestDownloadsInBulk: unscoped names are asked for 128 at a time (a last
// batch of two still in bulk), scoped ones alone; every figure lands on its
// own package.
func TestDownloadsInBulk(t *testing.T) {
	w := newWorld(t)
	var results []fakeregistry.SearchResult
	for i := 0; i < 130; i++ {
		n := fmt.Sprintf("u%03d", i)
		results = append(results, fakeregistry.SearchResult{Name: n})
		w.fake.SetDownloads(n, "2026-11-01", "2026-11-30", int64(i))
	}
	results = append(results, fakeregistry.SearchResult{Name: "@s/scoped"})
	w.fake.SetDownloads("@s/scoped", "2026-11-01", "2026-11-30", 1000)
	w.fake.SetSearch("q", results)
	w.fake.AddNPM("@s/scoped", "1.0.0", []byte("s"), fakeregistry.NPMOptions{})
	w.fake.AddNPM("u129", "1.0.0", []byte("u"), fakeregistry.NPMOptions{})
	rec, err := Create(filepath.Join(t.TempDir(), "rec"), t0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	o := w.options(t, "q")
	o.Recording, o.Downloads, o.Top = rec, w.downloads(t), 2
	res, err := Select(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Candidates
	if got := selected(c); !slices.Equal(got, []string{"@s/scoped@1.0.0", "u129@1.0.0"}) || *c.Candidates[1].Downloads != 129 {
		t.Fatalf("selected %v", got)
	}
	var asked []string
	for _, r := range w.fake.Requests() {
		if strings.HasPrefix(r.Path, "/downloads/point/") {
			asked = append(asked, strings.TrimPrefix(r.Path, "/downloads/point/2026-11-01:2026-11-30/"))
		}
	}
	if len(asked) != 3 || strings.Count(asked[0], ",") != 127 || asked[1] != "u128,u129" || asked[2] != "@s/scoped" {
		t.Fatalf("downloads requests: %d, %q", len(asked), asked[1:])
	}
}
