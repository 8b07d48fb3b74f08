package registry_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/registry"
)

// TestParseSearchPage reads downloads.monthly where the answer carries it
// as a whole number, and gives no figure for any other shape.
func TestParseSearchPage(t *testing.T) {
	p, err := registry.ParseSearchPage([]byte(`{"objects": [
	  {"package": {"name": "a", "version": "1.0.0"}, "downloads": {"monthly": 120, "weekly": 30}},
	  {"package": {"name": "b"}, "downloads": {"monthly": 1.5}},
	  {"package": {"name": "c"}, "downloads": "many"},
	  {"package": {"name": "d"}}
	], "total": 4, "time": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Total != 4 || len(p.Objects) != 4 || p.Objects[0].MonthlyDownloads == nil || *p.Objects[0].MonthlyDownloads != 120 {
		t.Fatalf("%+v", p)
	}
	for _, o := range p.Objects[1:] {
		if o.MonthlyDownloads != nil {
			t.Errorf("%s: figure %d read from a figure that is not a whole number", o.Name, *o.MonthlyDownloads)
		}
	}
	for _, bad := range []string{`[]`, `{}`, `{"objects": {}}`, `{"objects": [{"package": {}}]}`, `{"objects": [1]}`, `{"objects": [], "total": "x"}`} {
		if _, err := registry.ParseSearchPage([]byte(bad)); !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", bad, err)
		}
	}
}

// TestSearchPageSendsFromAndSize: the page is asked for with text, size
// and from, in that order.
func TestSearchPageSendsFromAndSize(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.RawQuery
		_, _ = w.Write([]byte(`{"objects": [], "total": 0}`))
	}))
	defer srv.Close()
	c, _ := registry.NewNPM(srv.URL, registry.Options{})
	if _, err := c.SearchPage(context.Background(), "keywords:mcp", 500, 250); err != nil {
		t.Fatal(err)
	}
	if got != "text=keywords%3Amcp&size=250&from=500" {
		t.Fatalf("query %q", got)
	}
	if _, err := c.SearchPage(context.Background(), "x", 0, 251); !errors.Is(err, registry.ErrInvalidRequest) {
		t.Fatalf("a page past the API's size: %v", err)
	}
}

// TestParseDownloadsPoint reads a figure only for the package and window
// asked.
func TestParseDownloadsPoint(t *testing.T) {
	ok := `{"downloads": 42, "start": "2026-10-01", "end": "2026-10-31", "package": "@s/x"}`
	if n, err := registry.ParseDownloadsPoint([]byte(ok), "2026-10-01", "2026-10-31", "@s/x"); err != nil || n != 42 {
		t.Fatalf("%d %v", n, err)
	}
	for _, bad := range []string{
		`{"downloads": 42, "start": "2026-10-02", "end": "2026-10-31", "package": "@s/x"}`,
		`{"downloads": 42, "start": "2026-10-01", "end": "2026-10-31", "package": "x"}`,
		`{"downloads": -1, "start": "2026-10-01", "end": "2026-10-31", "package": "@s/x"}`,
		`{"start": "2026-10-01", "end": "2026-10-31", "package": "@s/x"}`,
		`[]`,
	} {
		if _, err := registry.ParseDownloadsPoint([]byte(bad), "2026-10-01", "2026-10-31", "@s/x"); !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if p, err := registry.DownloadsPointPath("2026-10-01", "2026-10-31", "@s/x"); err != nil || p != "/downloads/point/2026-10-01:2026-10-31/@s/x" {
		t.Errorf("%q %v", p, err)
	}
	if _, err := registry.DownloadsPointPath("last-month", "2026-10-31", "x"); !errors.Is(err, registry.ErrInvalidRequest) {
		t.Errorf("a window that is not two days: %v", err)
	}
}

// TestParseSimpleProjects reads the root page as PEP 691 JSON or PEP 503
// HTML by its media type, and refuses a name it cannot take exactly.
func TestParseSimpleProjects(t *testing.T) {
	names, err := registry.ParseSimpleProjects([]byte(`{"meta": {"api-version": "1.1"}, "projects": [{"name": "Frob"}, {"name": "mcp-x"}]}`), "application/vnd.pypi.simple.v1+json")
	if err != nil || !slices.Equal(names, []string{"Frob", "mcp-x"}) {
		t.Fatalf("%v %v", names, err)
	}
	page := "<!DOCTYPE html><html><body>\n<a href=\"/simple/frob/\">Frob</a>\n<a href=\"/simple/mcp-x/\"> mcp-x </a><br/>\n</body></html>"
	names, err = registry.ParseSimpleProjects([]byte(page), "text/html; charset=utf-8")
	if err != nil || !slices.Equal(names, []string{"Frob", "mcp-x"}) {
		t.Fatalf("%v %v", names, err)
	}
	for _, tc := range []struct{ body, ctype string }{
		{`{"projects": [{"name": "bad name"}]}`, "application/vnd.pypi.simple.v1+json"},
		{`{"meta": {}}`, "application/vnd.pypi.simple.v1+json"},
		{`<a href="/x/">not a name!</a>`, "text/html"},
		{`frob`, "text/plain"},
	} {
		if _, err := registry.ParseSimpleProjects([]byte(tc.body), tc.ctype); !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("%s (%s): %v", tc.body, tc.ctype, err)
		}
	}
}

// FuzzSelectionParsers: no answer of the search API, the downloads API or
// the simple index root ends the process.
func FuzzSelectionParsers(f *testing.F) {
	f.Add([]byte(`{"objects": [{"package": {"name": "a"}, "downloads": {"monthly": 1}}], "total": 1}`))
	f.Add([]byte(`<a href="/x/">x</a>`))
	f.Add([]byte(`{"projects": [{"name": "x"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = registry.ParseSearchPage(b)
		_, _ = registry.ParseDownloadsPoint(b, "2026-10-01", "2026-10-31", "x")
		_, _ = registry.ParseSimpleProjects(b, "text/html")
		_, _ = registry.ParseSimpleProjects(b, "application/vnd.pypi.simple.v1+json")
		_, _ = registry.ParsePackument(b)
		_, _ = registry.ParsePyPIProject(b)
	})
}

// TestParseDownloadsBulk: null is no figure, an unasked key or another
// window is malformed; scoped names and batches of one are not sent in bulk.
func TestParseDownloadsBulk(t *testing.T) {
	got, err := registry.ParseDownloadsBulk([]byte(`{"a": {"downloads": 3, "start": "2026-10-01", "end": "2026-10-31", "package": "a"}, "b": null}`),
		"2026-10-01", "2026-10-31", []string{"a", "b", "c"})
	if err != nil || len(got) != 1 || got["a"] != 3 {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{`{"z": null}`, `{"a": {"downloads": 3, "start": "2026-09-01", "end": "2026-10-31", "package": "a"}}`, `[]`, `null`} {
		if _, err := registry.ParseDownloadsBulk([]byte(bad), "2026-10-01", "2026-10-31", []string{"a", "b"}); !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	for _, names := range [][]string{{"a"}, {"a", "@s/b"}} {
		if _, err := registry.DownloadsBulkPath("2026-10-01", "2026-10-31", names); !errors.Is(err, registry.ErrInvalidRequest) {
			t.Errorf("%v: %v", names, err)
		}
	}
}
