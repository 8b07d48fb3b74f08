package corpus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

func TestTarballPath(t *testing.T) {
	got := TarballPath("/c", Package{Name: "@scope/x", Version: "1.2.3"})
	if got != filepath.Join("/c", "scope__x@1.2.3.tgz") {
		t.Fatalf("TarballPath = %s", got)
	}
}

func TestExtractAll(t *testing.T) {
	dir := t.TempDir()
	good := []byte("tarball bytes")
	bad := []byte("other bytes")
	l := &List{Packages: []Package{
		{Name: "@s/a", Version: "1.0.0", TarballSHA256: vocab.SHA256Hex(good)},
		{Name: "b", Version: "2.0.0", TarballSHA256: vocab.SHA256Hex(good)},
	}}
	if err := os.WriteFile(TarballPath(dir, l.Packages[0]), good, 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []string
	extract := func(_ context.Context, p Package, data []byte) rundir.Surface {
		seen = append(seen, p.Key()+":"+string(data))
		return rundir.Surface{Outcome: "parsed", Files: []rundir.SourceFile{{Size: 7}}, Budget: rundir.Budget{WallMs: 3}}
	}
	surfaces, costs, missing, err := ExtractAll(context.Background(), l, dir, extract, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(surfaces) != 1 || surfaces["@s/a@1.0.0"].Outcome != "parsed" {
		t.Errorf("surfaces = %+v", surfaces)
	}
	if len(missing) != 1 || missing[0] != "b@2.0.0" {
		t.Errorf("missing = %v", missing)
	}
	if len(costs) != 1 || costs[0].SourceBytes != 7 || costs[0].WallMs != 3 || costs[0].TarballBytes != int64(len(good)) {
		t.Errorf("costs = %+v", costs)
	}
	if len(seen) != 1 || seen[0] != "@s/a@1.0.0:tarball bytes" {
		t.Errorf("extract saw %v", seen)
	}

	// A tarball whose bytes are not the pinned ones is never evaluated.
	if err := os.WriteFile(TarballPath(dir, l.Packages[1]), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	seen = nil
	_, _, _, err = ExtractAll(context.Background(), l, dir, extract, 1)
	if !errors.Is(err, ErrTarballMismatch) {
		t.Fatalf("err = %v, want ErrTarballMismatch", err)
	}
	for _, s := range seen {
		if strings.HasPrefix(s, "b@") {
			t.Errorf("a mismatched tarball was extracted: %s", s)
		}
	}
}

func TestEvaluateAdvertised(t *testing.T) {
	truths := []Truth{
		started("p", ToolTruth{Name: "read"}, ToolTruth{Name: "write"}),
		started("q", ToolTruth{Name: "x"}),
		started("r", ToolTruth{Name: "y"}),
		{Name: "s", Version: "1.0.0"}, // did not start: outside
	}
	surfaces := map[string]rundir.Surface{
		"p@1.0.0": {Outcome: "parsed", Tools: []rundir.Entry{entry("read", "readable", "")},
			AdvertisedTools: []rundir.Advertised{{Name: "read", Source: "README.md", Line: 3}, {Name: "write", Source: "README.md", Line: 4}, {Name: "Category", Source: "README.md", Line: 9}}},
		"q@1.0.0": {Outcome: "parsed", Tools: []rundir.Entry{entry("x", "readable", "")},
			AdvertisedTools: []rundir.Advertised{{Name: "bogus", Source: "manifest.json"}}},
		"r@1.0.0": {Outcome: "parsed", Tools: []rundir.Entry{entry("y", "readable", "")},
			AdvertisedTools: []rundir.Advertised{{Name: "y", Source: "server.json"}}},
		"s@1.0.0": {Outcome: "parsed", AdvertisedTools: []rundir.Advertised{{Name: "z", Source: "README.md"}}},
	}
	a := EvaluateAdvertised(truths, surfaces)
	if a.Packages != 3 || a.Names != 5 || a.ListedAtRuntime != 3 {
		t.Errorf("counts = %+v", a)
	}
	if a.Refused != 2 || a.RefusedOnlyByFalse != 1 || a.ParsedRefused != 2 || a.ParsedRefusedOnlyByFalse != 1 {
		t.Errorf("refusals = %+v", a)
	}
	if len(a.UnparsedListedNames) != 1 || a.UnparsedListedNames[0].Name != "write" || len(a.FalseNames) != 2 {
		t.Errorf("names = %+v / %+v", a.UnparsedListedNames, a.FalseNames)
	}
	if a.BySource["README"] != 3 || a.BySource["manifest.json"] != 1 || a.BySource["server.json"] != 1 {
		t.Errorf("by source = %v", a.BySource)
	}

	r := Evaluate(truths, surfaces)
	md := EvalMarkdown(EvalHeader{Command: "make corpus-eval", Date: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		ExtractorVersion: "syntax-tree-4", Listed: 4, Extracted: 4, Truths: 4, Missing: []string{"t@1.0.0"}},
		r, a, surfaces, []Extracted{{Key: "p@1.0.0", WallMs: 5, SourceBytes: 1 << 20, RSSBytes: 2 << 20}})
	for _, want := range []string{
		"Produced by `make corpus-eval` on 2026-11-30 with extractor `syntax-tree-4`",
		"Not fetched, so not evaluated: t@1.0.0.",
		"### On parsed packages",
		"#### p@1.0.0",
		"Among packages whose outcome is parsed, where the rule decides: 2 refused, 1 of them only",
		"| p@1.0.0 | parsed | 1: write | 1: Category (README.md:9) |",
		"Wall time per package: median 5 ms",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestAnnotateDelegation(t *testing.T) {
	r := Report{Misses: []Miss{{Package: "a@1", Kind: MissNotParsed, Detail: "no_registration_site"}, {Package: "b@1", Kind: MissNotParsed, Detail: "x"}}}
	AnnotateDelegation(&r, map[string]rundir.Surface{
		"a@1": {DelegatesTo: &rundir.Delegation{Name: "core", Specifier: "^1.0.0"}},
		"b@1": {},
	})
	if r.Misses[0].Detail != "no_registration_site; delegates to core@^1.0.0" || r.Misses[1].Detail != "x" {
		t.Errorf("misses = %+v", r.Misses)
	}
}
