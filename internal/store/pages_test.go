package store_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
	"github.com/attestari/attestari/internal/vocab"
)

// manyTools are n trivial tools, and every tenth of those has a description
// of desc bytes.
func manyTools(n, every, desc int) []publish.Tool {
	ts := make([]publish.Tool, 0, n)
	for i := range n {
		d := "Tool " + strconv.Itoa(i) + "."
		if every > 0 && i%every == 0 {
			d += strings.Repeat("x", desc)
		}
		ts = append(ts, storetest.Tool("t"+strconv.Itoa(i), "readable", d, "none", ""))
	}
	return ts
}

// pages reads every page of name@version and checks each is within the
// size rule; it returns the tools joined and the number of pages.
func pages(t *testing.T, s *store.Store, name, version string) ([]api.ToolHash, int) {
	t.Helper()
	ctx := context.Background()
	var all []api.ToolHash
	cursor, n := "", 0
	var first *api.Manifest
	for {
		m, err := s.Manifest(ctx, "npm", name, version, cursor)
		if err != nil {
			t.Fatalf("page %d (cursor %q): %v", n+1, cursor, err)
		}
		n++
		if first == nil {
			first = m
		}
		if m.ToolCount != first.ToolCount || *m.ManifestHash != *first.ManifestHash {
			t.Fatalf("page %d has another header: %d tools, %s", n, m.ToolCount, *m.ManifestHash)
		}
		text := 0
		for _, tl := range m.Tools {
			text += len(tl.Name) + len(*tl.Description)
		}
		if len(m.Tools) == 0 && m.ToolCount > 0 || len(m.Tools) > api.ManifestPageTools || text > api.ManifestPageBytes && len(m.Tools) > 1 {
			t.Fatalf("page %d: %d tools, %d bytes of text", n, len(m.Tools), text)
		}
		all = append(all, m.Tools...)
		if m.NextCursor == nil {
			return all, n
		}
		cursor = *m.NextCursor
	}
}

// TestManifestPages: a manifest is read in pages of at most 1,000 tools
// and 256 KiB of text that join, in order, to every tool of the version;
// tool_count is the whole count; a cursor of another row, past the last
// tool, or not issued is refused.
func TestManifestPages(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	p := storetest.Publication("pub-1", "run-1", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	many := storetest.Package("npm", "many", "1.0.0", "graded", "A", nil, manyTools(2500, 0, 0)...)
	// Every tenth tool with 100 KiB of description: two such tools and
	// the small ones between fill a page; a 300 KiB one is a page alone.
	wide := storetest.Package("npm", "wide", "1.0.0", "graded", "A", nil, append(manyTools(40, 10, 100<<10), storetest.Tool("huge", "readable", strings.Repeat("h", 300<<10), "none", ""))...)
	p.Packages = append(p.Packages, many, wide, storetest.Package("npm", "none", "1.0.0", "graded", "A", nil))
	if err := s.LoadPublication(ctx, p); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pkg       publish.Package
		wantPages int
	}{{many, 3}, {wide, 3}} {
		got, n := pages(t, s, c.pkg.Package.Name, "1.0.0")
		if n != c.wantPages || len(got) != len(c.pkg.Tools) {
			t.Fatalf("%s: %d pages, %d tools; want %d pages, %d tools", c.pkg.Package.Name, n, len(got), c.wantPages, len(c.pkg.Tools))
		}
		for i, tl := range got {
			if w := c.pkg.Tools[i]; tl.Name != w.Name || tl.ToolHash == nil || *tl.ToolHash != w.ToolHash {
				t.Fatalf("%s: tool %d is %s, want %s", c.pkg.Package.Name, i, tl.Name, w.Name)
			}
		}
	}
	m, err := s.Manifest(ctx, "npm", "none", "1.0.0", "")
	if err != nil || m.ToolCount != 0 || m.Tools == nil || len(m.Tools) != 0 || m.NextCursor != nil {
		t.Fatalf("no tools: %+v %v", m, err)
	}
	first, err := s.Manifest(ctx, "npm", "many", "1.0.0", "")
	if err != nil || first.ToolCount != 2500 || len(first.Tools) != 1000 || first.NextCursor == nil {
		t.Fatalf("first page: %d of %d, next %v, %v", len(first.Tools), first.ToolCount, first.NextCursor, err)
	}
	id, _, _ := strings.Cut(*first.NextCursor, ".")
	for _, bad := range []string{
		"nonsense", "1", "." + "10", id + ".", id + ".0", id + ".-1", id + ".1x!", // not issued
		id + "." + strconv.FormatInt(2500, 36), // past the last tool
		strconv.FormatInt(1<<40, 36) + ".1",    // another row
	} {
		if _, err := s.Manifest(ctx, "npm", "many", "1.0.0", bad); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("cursor %q: %v", bad, err)
		}
	}
	// A cursor of one version does not page another.
	if _, err := s.Manifest(ctx, "npm", "wide", "1.0.0", *first.NextCursor); !errors.Is(err, store.ErrBadCursor) {
		t.Errorf("a cursor of many on wide: %v", err)
	}
	// Publishing the version again makes its cursors stale.
	p2 := storetest.Publication("pub-2", "run-2", time.Date(2026, 11, 8, 0, 0, 0, 0, time.UTC))
	p2.Header.Supersedes = "pub-1"
	p2.Packages = append(p2.Packages, storetest.Package("npm", "many", "1.0.0", "graded", "B", nil, manyTools(2500, 0, 0)...))
	if err := s.LoadPublication(ctx, p2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Manifest(ctx, "npm", "many", "1.0.0", *first.NextCursor); !errors.Is(err, store.ErrBadCursor) {
		t.Errorf("a cursor of the row before the new publication: %v", err)
	}
	if got, n := pages(t, s, "many", "1.0.0"); n != 3 || len(got) != 2500 {
		t.Errorf("after the new publication: %d pages, %d tools", n, len(got))
	}
}

// TestLockedReadsTimeOut: a read PostgreSQL cancels at the statement timeout
// (here behind a table lock, as reads wait behind a database too busy to
// answer) is ErrTimeout (the API's 504 with Retry-After), whether the query
// returns rows or one row, and reads answer again once the database does.
func TestLockedReadsTimeOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := store.Open(ctx, dbtest.URL(t), store.Options{MaxConns: 4, StatementTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	p := storetest.Publication("pub-1", "run-1", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	p.Packages = append(p.Packages, storetest.Package("npm", "slow", "1.0.0", "graded", "A", nil, manyTools(3, 0, 0)...))
	if err := s.LoadPublication(ctx, p); err != nil {
		t.Fatal(err)
	}
	unlock, err := store.LockTable(ctx, s, "current_versions")
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]func() error{
		"Manifest (rows)":   func() error { _, err := s.Manifest(ctx, "npm", "slow", "1.0.0", ""); return err },
		"Package (one row)": func() error { _, err := s.Package(ctx, "npm", "slow", "1.0.0"); return err },
		"ListPackages":      func() error { _, err := s.ListPackages(ctx, api.PackageFilter{}); return err },
	}
	for name, read := range reads {
		if err := read(); !errors.Is(err, vocab.ErrTimeout) {
			t.Errorf("%s behind a lock: %v", name, err)
		}
	}
	unlock()
	for name, read := range reads {
		if err := read(); err != nil {
			t.Errorf("%s after the lock: %v", name, err)
		}
	}
	// Other errors keep their own kind.
	if _, err := s.Manifest(ctx, "npm", "absent", "1.0.0", ""); !errors.Is(err, vocab.ErrNotFound) || errors.Is(err, vocab.ErrTimeout) {
		t.Errorf("a missing version: %v", err)
	}
}
