package surface

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestParserPointer pins the layout parserPtr relies on: the TSParser a
// go-tree-sitter Parser wraps is reachable and carries the language set on it.
func TestParserPointer(t *testing.T) {
	g := loadGrammars()[LangJS]
	p := g.pool.Get().(*ts.Parser)
	defer g.pool.Put(p)
	if got := parserLanguagePtr(p); got != unsafe.Pointer(g.lang.Inner) {
		t.Fatalf("parser language pointer %p, want %p", got, g.lang.Inner)
	}
}

// TestFlatCopyMatchesTree checks the flat copy against go-tree-sitter's own
// walk: the same named nodes in the same order with the same ranges.
func TestFlatCopyMatchesTree(t *testing.T) {
	src := []byte("const a = { b: [1, `x${y}z`], c: f(\"s\\n\") };\nclass K extends L { m() { return this.a } }\n")
	p, err := parseFile(LangJS, src, time.Minute, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := loadGrammars()[LangJS]
	tp := g.pool.Get().(*ts.Parser)
	defer g.pool.Put(tp)
	tree := tp.Parse(src, nil)
	defer tree.Close()
	var want []string
	var rec func(n *ts.Node)
	rec = func(n *ts.Node) {
		if n.IsNamed() && n.Kind() != "comment" {
			want = append(want, n.Kind()+"@"+itoa(int(n.StartByte()))+"-"+itoa(int(n.EndByte())))
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			rec(n.Child(i))
		}
	}
	rec(tree.RootNode())
	f := &file{src: src, parsed: p}
	var got []string
	for i := range p.nodes {
		if f.isNamed(nid(i)) {
			got = append(got, f.kind(nid(i))+"@"+itoa(f.start(nid(i)))+"-"+itoa(f.end(nid(i))))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("flat copy differs from the tree:\ngot  %v\nwant %v", got, want)
	}
}

func TestLanguageOf(t *testing.T) {
	cases := map[string]string{
		"a.js": LangJS, "a.mjs": LangJS, "a.cjs": LangJS, "a.jsx": LangJS,
		"a.ts": LangTS, "a.mts": LangTS, "a.cts": LangTS, "a.tsx": LangTSX,
		"a.py": LangPython, "a.d.ts": "", "a.d.mts": "", "a.json": "", "README.md": "",
	}
	for p, want := range cases {
		if got := languageOf(p); got != want {
			t.Errorf("languageOf(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestIsMinified(t *testing.T) {
	long := strings.Repeat("a", 801)
	if !IsMinified([]byte(long)) {
		t.Error("a line over 800 bytes is minified")
	}
	if IsMinified([]byte(strings.Repeat("x = 1;\n", 100))) {
		t.Error("short lines are not minified")
	}
	avg := strings.Repeat(strings.Repeat("b", 250)+"\n", 4)
	if !IsMinified([]byte(avg)) {
		t.Error("lines averaging over 200 bytes are minified")
	}
}

func extractMap(t testing.TB, files map[string]string, opts Options) rundir.Surface {
	t.Helper()
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	members, err := ClassifyFS(m)
	if err != nil {
		t.Fatal(err)
	}
	return Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "t", Version: "1"}, m, members, opts)
}

func TestBudgetWallTime(t *testing.T) {
	// A clock that jumps past the budget on every reading.
	now := time.Unix(0, 0)
	clock := func() time.Time { now = now.Add(time.Hour); return now }
	s := extractMap(t, map[string]string{
		"index.js": `server.tool("a", "A.", async () => ({}));`,
	}, Options{WallBudget: time.Minute, Now: clock})
	if s.Outcome != vocab.OutcomeExtractionBudgetExceeded {
		t.Fatalf("outcome %s, want %s", s.Outcome, vocab.OutcomeExtractionBudgetExceeded)
	}
	if len(s.Tools) != 0 {
		t.Fatalf("a surface past the budget presents %d tools; nothing read in part is presented as whole", len(s.Tools))
	}
	if s.Budget.WallMsLimit != time.Minute.Milliseconds() || s.Budget.WallMs <= s.Budget.WallMsLimit {
		t.Fatalf("budget figures %+v do not record the overrun", s.Budget)
	}
}

func TestBudgetMemory(t *testing.T) {
	s := extractMap(t, map[string]string{
		"index.js": `server.tool("a", "` + strings.Repeat("x", 4096) + `", async () => ({}));`,
	}, Options{RSSBudget: 1024})
	if s.Outcome != vocab.OutcomeExtractionBudgetExceeded {
		t.Fatalf("outcome %s, want %s", s.Outcome, vocab.OutcomeExtractionBudgetExceeded)
	}
	if s.Budget.RSSBytes <= 1024 {
		t.Fatalf("measured bytes %d do not pass the limit", s.Budget.RSSBytes)
	}
}

func TestResolutionCycleTerminates(t *testing.T) {
	s := extractMap(t, map[string]string{
		"a.js": `import { b } from "./b.js"; export const a = b; server.tool("cyc", a, async () => ({}));
function f(x) { return g(x) } function g(y) { return f(y) }
server.tool("rec", f("x"), async () => ({}));`,
		"b.js": `import { a } from "./a.js"; export const b = a;`,
	}, Options{})
	if s.Outcome != vocab.OutcomeParsed {
		t.Fatalf("outcome %s", s.Outcome)
	}
	for _, tool := range s.Tools {
		if tool.DescriptionState != vocab.StateUnreadable {
			t.Errorf("tool %s: state %s, want unreadable", tool.Name, tool.DescriptionState)
		}
	}
}

// TestDeepNesting: nesting under the limit is read like any file; 20,000
// nested arrays (about 40,000 levels of tree) are past it, and the package
// is extraction_budget_exceeded rather than read in part.
func TestDeepNesting(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[\n", n) + strings.Repeat("]\n", n) }
	s := extractMap(t, map[string]string{
		"index.js": "const x = " + nest(4000) + ";\nserver.tool(\"a\", \"A.\", async () => ({}));\n",
		"deep.py":  "x = " + strings.Repeat("(\n", 5000) + strings.Repeat(")\n", 5000) + "\n",
	}, Options{})
	if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1 {
		t.Fatalf("outcome %s with %d tools", s.Outcome, len(s.Tools))
	}
	s = extractMap(t, map[string]string{
		"index.js": "const x = " + nest(20000) + ";\nserver.tool(\"a\", \"A.\", async () => ({}));\n",
	}, Options{})
	if s.Outcome != vocab.OutcomeExtractionBudgetExceeded || len(s.Tools) != 0 || !strings.Contains(s.OutcomeDetail, "past the limit of 10000") {
		t.Fatalf("outcome %s (%s) with %d tools", s.Outcome, s.OutcomeDetail, len(s.Tools))
	}
}

func TestInvalidUTF8Description(t *testing.T) {
	s := extractMap(t, map[string]string{
		"index.js": "server.tool(\"a\", \"bad \xff byte\", async () => ({}));\n",
	}, Options{})
	if len(s.Tools) != 1 || s.Tools[0].DescriptionState != vocab.StateUnreadable || !strings.Contains(s.Tools[0].UnreadableReason, "UTF-8") {
		t.Fatalf("tools %+v", s.Tools)
	}
}

func TestDeterministic(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, p := range paths {
		a := readArchive(t, p)
		one := extractArchive(t, a)
		two := extractArchive(t, a)
		one.Budget, two.Budget = rundir.Budget{}, rundir.Budget{}
		b1, _ := rundir.Marshal(one)
		b2, _ := rundir.Marshal(two)
		if !bytes.Equal(b1, b2) {
			t.Errorf("%s: two extractions differ", p)
		}
	}
}

func TestRenderTable(t *testing.T) {
	a := readArchive(t, filepath.Join(goldenDir, "js_description_states.txtar"))
	s := extractArchive(t, a)
	var buf bytes.Buffer
	if err := RenderTable(&buf, s); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"outcome   parsed", "tool", "escapes", "partial", "(environment variable)", `Line one.\nLine two.`} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestRenderTableCapabilities(t *testing.T) {
	s := rundir.Surface{Outcome: "parsed", Capabilities: []rundir.Capability{
		{Kind: "network", Tag: "fetch", Target: "api.example.com", File: "index.js", Line: 3, Count: 2},
		{Kind: "process", Tag: "exec", Target: "dynamic", File: "dist/b.min.js", Line: 1, Count: 1, Bundle: true},
	}, CapabilitiesOmitted: 7}
	var buf bytes.Buffer
	if err := RenderTable(&buf, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"capabilities", "api.example.com", "index.js:3", "dist/b.min.js:1 (bundle)", "7 more beyond the row cap"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestExtractDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "package", "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "package", "package.json"), []byte(`{"name":"dirpkg","version":"1.2.3","main":"dist/index.js"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "package", "dist", "index.js"), []byte(`server.registerTool("t", {description: "D."}, h);`), 0o644)
	s, err := ExtractDir(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Package.Name != "dirpkg" || s.Package.Version != "1.2.3" || s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1 {
		t.Fatalf("surface %+v", s)
	}
	if s.Files[0].SHA256 == "" || s.ExtractorVersion != ExtractorVersion {
		t.Fatalf("files %+v", s.Files)
	}
	if _, err := ExtractDir(context.Background(), filepath.Join(dir, "missing"), Options{}); err == nil {
		t.Fatal("a missing directory is an error")
	}
}

func TestSiteStepLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("const a0 = \"x\";\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("const a" + itoa(i) + " = a" + itoa(i-1) + " + a" + itoa(i-1) + ";\n")
	}
	b.WriteString("server.tool(\"boom\", a40, async () => ({}));\nserver.tool(\"fine\", \"Fine.\", async () => ({}));\n")
	s := extractMap(t, map[string]string{"index.js": b.String()}, Options{MaxSiteSteps: 10_000})
	if s.Outcome != vocab.OutcomeDeclarationNotParsed {
		t.Fatalf("outcome %s, want %s", s.Outcome, vocab.OutcomeDeclarationNotParsed)
	}
	var fine bool
	for _, tool := range s.Tools {
		if tool.Name == "fine" && tool.DescriptionState == vocab.StateReadable {
			fine = true
		}
	}
	if !fine {
		t.Fatalf("the site after the costly one was not read: %+v", s.Tools)
	}
}
