package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

func started(name string, tools ...ToolTruth) Truth {
	return Truth{Name: name, Version: "1.0.0", Started: true, Tools: tools, LowerBound: true,
		Lists: map[string]ListStatus{"tools/list": {Status: ListOK}}}
}

func entry(name, state, raw string) rundir.Entry {
	return rundir.Entry{Kind: "tool", Name: name, DescriptionState: state, DescriptionRaw: raw}
}

func TestEvaluate(t *testing.T) {
	truths := []Truth{
		started("a", ToolTruth{Name: "read", Description: "Read a file."}, ToolTruth{Name: "write", Description: "Write\na file."}, ToolTruth{Name: "gone", Description: "x"}),
		started("b", ToolTruth{Name: "q", Description: "Query."}),
		started("c", ToolTruth{Name: "z", Description: ""}),
		started("d"), // started, no surface row
		{Name: "e", Version: "1.0.0", Started: false, ErrorKind: KindExited}, // outside the population
	}
	truths[0].Instructions = "Be careful."
	truths[0].Prompts = []PromptTruth{{Name: "p1"}}
	surfaces := map[string]rundir.Surface{
		"a@1.0.0": {Outcome: "parsed",
			Tools: []rundir.Entry{
				entry("read", "readable", "Read a file."),
				entry("write", "readable", "Write\\na file."), // escapes not decoded: a miss
				entry("extra", "readable", "?"),
			},
			Prompts:      []rundir.Entry{{Kind: "prompt", Name: "p1", DescriptionState: "absent"}},
			Instructions: []rundir.Entry{{Kind: "instructions", DescriptionState: "readable", DescriptionRaw: "Be careful."}},
		},
		// Keyed the way rundir keys packages: accepted too.
		"npm:b@1.0.0": {Outcome: "parsed", Tools: []rundir.Entry{entry("q", "partial", "Query.")}},
		"c@1.0.0":     {Outcome: "minified_only", OutcomeDetail: "dist/index.js"},
	}
	r := Evaluate(truths, surfaces)
	if r.Started != 4 || r.WithSurface != 3 || r.Parsed != 2 || r.Outcomes["parsed"] != 2 || r.Outcomes["minified_only"] != 1 {
		t.Fatalf("population: %+v", r)
	}
	tc := r.Names["tool"]
	if tc.Truth != 4 || tc.Found != 4 || tc.Matched != 3 {
		t.Errorf("tool names = %+v", tc)
	}
	if r.ReadableDescriptions != 2 || r.EqualDescriptions != 1 || r.NotReadableDescriptions != 1 {
		t.Errorf("descriptions: readable %d equal %d not readable %d", r.ReadableDescriptions, r.EqualDescriptions, r.NotReadableDescriptions)
	}
	if pc := r.Names["prompt"]; pc.Truth != 1 || pc.Matched != 1 {
		t.Errorf("prompt names = %+v", pc)
	}
	kinds := map[string]int{}
	for _, m := range r.Misses {
		kinds[m.Kind]++
	}
	want := map[string]int{MissMissingName: 1, MissExtraName: 1, MissDescriptionDiff: 1, MissDescriptionState: 1, MissNotParsed: 1, MissNoSurface: 1}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("misses of kind %s = %d, want %d (all: %+v)", k, kinds[k], n, r.Misses)
		}
	}
	if len(r.Misses) != 6 {
		t.Errorf("misses = %+v", r.Misses)
	}
	md := r.Markdown()
	for _, s := range []string{"tool-name recall | 75.0% (3/4)", "**not met**", "### a@1.0.0", "missing tool `gone`", "extra tool `extra`", "description_differs tool `write`: byte 5", "not_parsed: minified_only: dist/index.js", "no_surface"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

func TestEvaluateInstructionsMiss(t *testing.T) {
	tr := started("x", ToolTruth{Name: "t", Description: "d"})
	tr.Instructions = "Always obey."
	r := Evaluate([]Truth{tr}, map[string]rundir.Surface{"x@1.0.0": {Outcome: "parsed", Tools: []rundir.Entry{entry("t", "readable", "d")}}})
	if len(r.Misses) != 1 || r.Misses[0].Kind != MissInstructionsDiff || r.Misses[0].Detail != "not found" {
		t.Fatalf("misses = %+v", r.Misses)
	}
	if r.DescriptionEqualShare() != 1 || r.Names["tool"].Recall() != 1 || r.Names["tool"].Precision() != 1 {
		t.Errorf("figures: %+v", r)
	}
}

func TestEvaluateEmpty(t *testing.T) {
	r := Evaluate(nil, nil)
	if r.Started != 0 || r.ParsedShare() != 1 || len(r.Misses) != 0 {
		t.Fatalf("%+v", r)
	}
	if !strings.Contains(r.Markdown(), "Misses (0)") {
		t.Error("markdown of an empty report")
	}
}

func TestSummaryMarkdown(t *testing.T) {
	l := &List{Packages: []Package{
		{Name: "a", Version: "1.0.0", Tier: TierOfficial},
		{Name: "b", Version: "1.0.0", Tier: TierLongTail},
		{Name: "c", Version: "1.0.0", Tier: TierLongTail},
	}}
	ok := started("a", ToolTruth{Name: "t"})
	bad := Truth{Name: "b", Version: "1.0.0", ErrorKind: KindExited, StderrTail: "loading\nError: BRAVE_API_KEY is required\nat x"}
	md := SummaryMarkdown(l, []Truth{ok, bad})
	for _, s := range []string{"Probed: 2. Started and answered initialize: **1**. Did not: 1.", "### exited (1)", "`b@1.0.0` (needs_configuration) — Error: BRAVE_API_KEY is required", "| needs_configuration — refuses to start without configuration the probe does not guess | 1 |", "## Not yet probed (1)", "| long_tail | 1 | 0 |"} {
		if !strings.Contains(md, s) {
			t.Errorf("summary lacks %q:\n%s", s, md)
		}
	}
}

func TestCauseClass(t *testing.T) {
	for _, c := range []struct {
		t    Truth
		want string
	}{
		{Truth{ErrorKind: KindInstallFailed, Error: "npm error command git --no-replace-objects ls-remote ssh://<host>/x.git"}, "dependency_outside_registry"},
		{Truth{ErrorKind: KindInstallFailed, Error: "npm error code E404"}, "dependency_missing"},
		{Truth{ErrorKind: KindExited, StderrTail: "Error: requires Node.js 22 or later"}, "node_version"},
		{Truth{ErrorKind: KindExited, StderrTail: "Error: Cannot find module '../build/Release/keytar.node'"}, "native_module_not_built"},
		{Truth{ErrorKind: KindTimeout, StderrTail: "connect ECONNREFUSED 127.0.0.1:9"}, "needs_backend"},
		{Truth{ErrorKind: KindListToolsFailed, Error: `calling "tools/list": fetch failed`}, "needs_network"},
		{Truth{ErrorKind: KindTimeout, StderrTail: "[INFO] HTTP server listening on port 3333"}, "serves_http"},
		{Truth{ErrorKind: KindExited, StderrTail: "Credentials not found. Please run with 'auth' argument first."}, "needs_real_credentials"},
		{Truth{ErrorKind: KindExited, StderrTail: "Missing required argument: --project-id"}, "needs_configuration"},
		{Truth{ErrorKind: KindExited}, "unexplained"},
	} {
		if got := CauseClass(c.t); got != c.want {
			t.Errorf("CauseClass(%+v) = %s, want %s", c.t, got, c.want)
		}
	}
}

func TestLoadSurfaces(t *testing.T) {
	dir := t.TempDir()
	lines := `{"package":{"registry":"npm","name":"@s/a","version":"1.0.0"},"outcome":"parsed","tools":[{"kind":"tool","name":"x","description_state":"readable","description_raw":"d"}]}
{"package":{"registry":"npm","name":"b","version":"2.0.0"},"outcome":"minified_only"}
`
	p := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := LoadSurfaces(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m["@s/a@1.0.0"].Tools[0].Name != "x" || m["b@2.0.0"].Outcome != "minified_only" {
		t.Fatalf("got %+v", m)
	}
	arr := filepath.Join(dir, "rows.json")
	if err := os.WriteFile(arr, []byte(`[{"package":{"name":"c","version":"1"},"outcome":"parsed"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := LoadSurfaces(arr, nil); err != nil || m["c@1"].Outcome != "parsed" {
		t.Fatalf("array form: %v %v", m, err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"outcome":"parsed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSurfaces(bad, nil); err == nil {
		t.Fatal("a row without a package was accepted")
	}
	// A row read from a bare tarball path is keyed by the listed package of its digest.
	sha := strings.Repeat("ab", 32)
	tgz := filepath.Join(dir, "tgz.jsonl")
	if err := os.WriteFile(tgz, []byte(`{"package":{"registry":"npm","name":"x.tgz","version":""},"artifact_sha256":"`+sha+`","outcome":"parsed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &List{Packages: []Package{{Name: "@s/real", Version: "3.0.0", TarballSHA256: sha}}}
	if m, err := LoadSurfaces(tgz, l); err != nil || m["@s/real@3.0.0"].Outcome != "parsed" {
		t.Fatalf("keyed by digest: %v %v", m, err)
	}
}
