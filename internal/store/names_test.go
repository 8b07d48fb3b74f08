package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store/storetest"
	"github.com/attestari/attestari/internal/vocab"
)

// TestPyPINamesMatchUnderAnySpelling: a PyPI project is found under every
// spelling PEP 503 makes equal, by every read, and is answered under the name
// it was published with; npm names stay exact.
func TestPyPINamesMatchUnderAnySpelling(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	p1 := storetest.Publication("pub-a", "run-a", t0)
	p1.Packages = append(p1.Packages,
		storetest.Package("pypi", "Mcp_Server.Fetch", "1.0", "graded", "A", nil, storetest.Tool("fetch", "readable", "Fetches a URL.", "none", "")),
		storetest.Package("npm", "LegacyName", "1.0.0", "graded", "A", nil))
	p2 := storetest.Publication("pub-b", "run-b", t0.Add(24*time.Hour))
	p2.Header.Supersedes = "pub-a"
	p2.Packages = append(p2.Packages,
		storetest.Package("pypi", "Mcp_Server.Fetch", "1.1", "graded", "B", nil, storetest.Tool("fetch", "readable", "Fetches a URL and its links.", "none", "")))
	if err := s.LoadPublication(ctx, p1); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadPublication(ctx, p2); err != nil {
		t.Fatal(err)
	}
	for _, spelling := range []string{"Mcp_Server.Fetch", "mcp-server-fetch", "MCP--server__fetch", "mcp.server.fetch"} {
		for _, reg := range []string{"pypi", ""} {
			m, err := s.Manifest(ctx, reg, spelling, "1.0", "")
			if err != nil || m.Name != "Mcp_Server.Fetch" || m.Registry != "pypi" {
				t.Fatalf("manifest %q on %q: %+v %v", spelling, reg, m, err)
			}
		}
		d, err := s.Package(ctx, "pypi", spelling, "1.1")
		if err != nil || d.Name != "Mcp_Server.Fetch" {
			t.Fatalf("package %q: %v", spelling, err)
		}
		h, err := s.History(ctx, "pypi", spelling)
		if err != nil || len(h) != 2 {
			t.Fatalf("history %q: %d entries, %v", spelling, len(h), err)
		}
		if _, err := s.VersionDiff(ctx, "", spelling, "1.0", "1.1"); err != nil {
			t.Fatalf("diff %q: %v", spelling, err)
		}
		items, err := s.Lookup(ctx, []api.PackageKey{{Registry: "pypi", Name: spelling, Version: "1.1"}})
		if err != nil || !items[0].Found {
			t.Fatalf("lookup %q: %+v %v", spelling, items, err)
		}
		var nf *api.VersionNotFoundError
		if _, err := s.Manifest(ctx, "", spelling, "9.9", ""); !errors.As(err, &nf) || nf.Registry != "pypi" || len(nf.KnownVersions) != 2 {
			t.Fatalf("unknown version of %q: %v", spelling, err)
		}
	}
	// npm compares names exactly.
	if _, err := s.Manifest(ctx, "npm", "LegacyName", "1.0.0", ""); err != nil {
		t.Fatal(err)
	}
	for _, spelling := range []string{"legacyname", "Legacy_Name"} {
		if _, err := s.Manifest(ctx, "npm", spelling, "1.0.0", ""); !errors.Is(err, vocab.ErrNotFound) {
			t.Fatalf("npm %q found: %v", spelling, err)
		}
	}
}

// TestPyPIVersionsMatchUnderPEP440: a PyPI version is found under any
// spelling PEP 440 makes the same version, and answered as published;
// npm versions stay exact.
func TestPyPIVersionsMatchUnderPEP440(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	p := storetest.Publication("pub-v", "run-v", t0)
	p.Packages = append(p.Packages,
		storetest.Package("pypi", "mcp-server-time", "2025.1.7", "graded", "A", nil, storetest.Tool("now", "readable", "Tells the time.", "none", "")),
		storetest.Package("pypi", "mcp-server-time", "2.0rc1", "graded", "B", nil, storetest.Tool("now", "readable", "Tells the time.", "none", "")),
		storetest.Package("npm", "npm-server", "1.0.0", "graded", "A", nil))
	if err := s.LoadPublication(ctx, p); err != nil {
		t.Fatal(err)
	}
	for asked, published := range map[string]string{
		"2025.01.07": "2025.1.7", "2025.1.7.0": "2025.1.7", "v2025.1.7": "2025.1.7", "2.0RC1": "2.0rc1", "2.0.0-rc.1": "2.0rc1",
	} {
		for _, reg := range []string{"pypi", ""} {
			m, err := s.Manifest(ctx, reg, "mcp-server-time", asked, "")
			if err != nil || m.Version != published {
				t.Fatalf("manifest %s on %q: %+v %v", asked, reg, m, err)
			}
		}
		if d, err := s.Package(ctx, "pypi", "mcp-server-time", asked); err != nil || d.Version != published {
			t.Fatalf("package %s: %v", asked, err)
		}
	}
	if _, err := s.VersionDiff(ctx, "pypi", "mcp-server-time", "2025.01.07", "2.0RC1"); err != nil {
		t.Fatalf("diff across spellings: %v", err)
	}
	var nf *api.VersionNotFoundError
	if _, err := s.Manifest(ctx, "pypi", "mcp-server-time", "2025.1.8", ""); !errors.As(err, &nf) || len(nf.KnownVersions) != 2 {
		t.Fatalf("another version is still unknown: %v", err)
	}
	if _, err := s.Manifest(ctx, "npm", "npm-server", "1.0", ""); !errors.Is(err, vocab.ErrNotFound) {
		t.Fatalf("npm version 1.0 found 1.0.0: %v", err)
	}
	items, err := s.Lookup(ctx, []api.PackageKey{
		{Registry: "pypi", Name: "MCP_Server_Time", Version: "2025.01.07"},
		{Registry: "npm", Name: "npm-server", Version: "1.0"},
		{Registry: "pypi", Name: "mcp-server-time", Version: "2.0rc1"},
		{Registry: "pypi", Name: "mcp-server-time", Version: "9.9"},
		{Registry: "pypi", Name: "mcp-server-time", Version: "2.0.0rc1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var found []bool
	for _, it := range items {
		found = append(found, it.Found)
	}
	if want := []bool{true, false, true, false, true}; !slices.Equal(found, want) {
		t.Fatalf("lookup found %v, want %v", found, want)
	}
	if *items[0].Grade != "A" || *items[4].Grade != "B" || items[0].Version != "2025.01.07" {
		t.Fatalf("lookup answers for the key asked, with the published row: %+v %+v", items[0], items[4])
	}
}
