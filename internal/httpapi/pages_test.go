package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

// seededLarge is seeded with, besides seedPublications, a version of
// "@acme/large" with n trivial tools.
func seededLarge(t *testing.T, n int) (*testServer, *store.Store, publish.Package) {
	t.Helper()
	ts, dbURL := seeded(t)
	st, err := store.Open(context.Background(), dbURL, store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	tools := make([]publish.Tool, n)
	for i := range tools {
		tools[i] = storetest.Tool("t"+strconv.Itoa(i), "readable", "Tool "+strconv.Itoa(i)+".", "none", "")
	}
	large := storetest.Package("npm", "@acme/large", "1.0.0", "graded", "A", nil, tools...)
	p := storetest.Publication("pub-large", "run-large", t0.Add(20*24*60*60*1e9))
	p.Header.Supersedes = "pub-2"
	p.Packages = append(p.Packages, large)
	if err := st.LoadPublication(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return ts, st, large
}

// TestManifestPagesOverHTTP: a gateway following next_cursor (or the Link
// header) from the first page reads every tool once, in order, in pages
// the contract allows, by path and by purl, cached or not; a cursor the
// service did not issue, or one another version's, is a 400.
func TestManifestPagesOverHTTP(t *testing.T) {
	t.Parallel()
	ts, st, large := seededLarge(t, 2345)
	cached := newTestServer(t, st)
	cached.PublicationsChanged(true)
	for _, srv := range []*testServer{ts, cached, cached} {
		for _, first := range []string{"/manifest/@acme/large/1.0.0", "/manifest/@acme%2Flarge/1.0.0?registry=npm", "/manifest?purl=" + url.QueryEscape("pkg:npm/%40acme/large@1.0.0")} {
			var got []api.ToolHash
			path, pages := first, 0
			for path != "" {
				res, body := srv.get(path)
				if res.StatusCode != 200 {
					t.Fatalf("%s: %d %s", path, res.StatusCode, body)
				}
				var m api.Manifest
				if err := json.Unmarshal([]byte(body), &m); err != nil {
					t.Fatal(err)
				}
				pages++
				if m.ToolCount != 2345 || m.ManifestHash == nil || *m.ManifestHash != large.ManifestHash {
					t.Fatalf("%s: header %d %v", path, m.ToolCount, m.ManifestHash)
				}
				got = append(got, m.Tools...)
				link := res.Header.Get("Link")
				if m.NextCursor == nil {
					if link != "" {
						t.Fatalf("%s: the last page has a Link %q", path, link)
					}
					break
				}
				// The Link header is the request's own address with the
				// cursor (a scoped name in its encoded form).
				u, _ := url.Parse(first)
				q := u.Query()
				q.Set("cursor", *m.NextCursor)
				want := "<" + strings.Replace(u.EscapedPath(), "@acme/", "@acme%2F", 1) + "?" + q.Encode() + `>; rel="next"`
				if link != want {
					t.Fatalf("%s: Link %q, want %q", path, link, want)
				}
				path = strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
			}
			if pages != 3 || len(got) != 2345 {
				t.Fatalf("%s: %d pages, %d tools", first, pages, len(got))
			}
			for i, tl := range got {
				if tl.Name != large.Tools[i].Name {
					t.Fatalf("%s: tool %d is %s", first, i, tl.Name)
				}
			}
		}
	}
	res, body := ts.get("/manifest/@acme/large/1.0.0")
	var m api.Manifest
	if err := json.Unmarshal([]byte(body), &m); err != nil || res.StatusCode != 200 {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(*m.NextCursor, ".")
	for _, c := range []struct {
		path, detail string
	}{
		{"/manifest/@acme/large/1.0.0?cursor=" + id + ".zzzz", detailBadCursor},   // past the last tool
		{"/manifest/@acme/files/1.0.0?cursor=" + *m.NextCursor, detailBadCursor},  // another version's
		{"/manifest/@acme/large/1.0.0?cursor=" + "x.1", detailBadCursor},          // no such row
		{"/manifest/@acme/large/1.0.0?cursor=" + "a%2Fb", `parameter \"cursor\"`}, // not the contract's form
		{"/manifest?purl=pkg:npm/%2540acme/large@1.0.0&cursor=" + id + ".0", detailBadCursor},
	} {
		res, body := ts.get(c.path)
		if res.StatusCode != 400 || res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(body, c.detail) {
			t.Errorf("%s: %d %s", c.path, res.StatusCode, body)
		}
	}
	// A small manifest is one page, as before, with its count.
	res, body = ts.get("/manifest/@acme/files/1.0.0")
	if res.StatusCode != 200 || !strings.Contains(body, `"tool_count":3,`) || !strings.Contains(body, `"next_cursor":null`) || res.Header.Get("Link") != "" {
		t.Fatalf("small manifest: %d %s", res.StatusCode, body)
	}
}

// TestClientFetchesEveryPage: api.Client.Manifest against the service
// returns the whole manifest, verified against its hash; pages that do not
// add up (a page dropped, a tool changed, a page of another manifest) are
// refused with ErrManifestIncomplete.
func TestClientFetchesEveryPage(t *testing.T) {
	t.Parallel()
	_, st, large := seededLarge(t, 2100)
	s, err := New(Options{Reader: st, RequestsPerMinute: 100000})
	if err != nil {
		t.Fatal(err)
	}
	// tamper rewrites the answers of the pages after the first (of every
	// page with all) before the client sees them.
	tamper := func(name string, all bool, f func(m *api.Manifest)) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Header.Del("Accept-Encoding")
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, r)
			if f == nil || !all && r.URL.Query().Get("cursor") == "" || rec.Code != 200 {
				w.WriteHeader(rec.Code)
				_, _ = w.Write(rec.Body.Bytes())
				return
			}
			var m api.Manifest
			if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			f(&m)
			_ = json.NewEncoder(w).Encode(m)
		}))
	}
	honest := tamper("honest", false, nil)
	defer honest.Close()
	c, _ := api.NewClient(honest.URL, honest.Client())
	m, err := c.Manifest(context.Background(), "npm", "@acme/large", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tools) != 2100 || m.ToolCount != 2100 || m.NextCursor != nil || *m.ManifestHash != large.ManifestHash || m.Tools[2099].Name != "t2099" {
		t.Fatalf("joined: %d tools of %d, next %v", len(m.Tools), m.ToolCount, m.NextCursor)
	}
	if m2, err := c.ManifestByPURL(context.Background(), "pkg:npm/%40acme/large@1.0.0"); err != nil || len(m2.Tools) != 2100 {
		t.Fatalf("by purl: %v", err)
	}
	other := "0000000000000000000000000000000000000000000000000000000000000000"
	for name, c := range map[string]struct {
		all bool
		f   func(m *api.Manifest)
	}{
		"a tool dropped":        {false, func(m *api.Manifest) { m.Tools = m.Tools[1:] }},
		"a tool's hash changed": {false, func(m *api.Manifest) { m.Tools[5].ToolHash = &other }},
		"a tool duplicated":     {false, func(m *api.Manifest) { m.Tools[1] = m.Tools[0] }},
		"another manifest":      {false, func(m *api.Manifest) { m.ManifestHash = &other }},
		"an empty page":         {false, func(m *api.Manifest) { m.Tools = m.Tools[:0] }},
		"more pages than tools": {true, func(m *api.Manifest) { m.ToolCount = 3 }},
	} {
		srv := tamper(name, c.all, c.f)
		cl, _ := api.NewClient(srv.URL, srv.Client())
		if m, err := cl.Manifest(context.Background(), "npm", "@acme/large", "1.0.0"); m != nil || !errors.Is(err, api.ErrManifestIncomplete) {
			t.Errorf("%s: %v", name, err)
		}
		srv.Close()
	}
}
