package surface

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	"golang.org/x/tools/txtar"
)

// referenceFlat is the flat copy built with go-tree-sitter's own cursor, one
// cgo call per step: the reading at_flatten must reproduce node for node.
func referenceFlat(t *testing.T, g *grammar, src []byte) ([]flatNode, int, bool) {
	t.Helper()
	p := ts.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse(src, nil)
	defer tree.Close()
	c := tree.Walk()
	defer c.Close()
	var out []flatNode
	var last []int32
	stack := []int32{-1}
	maxDepth := 0
	for {
		node := c.Node()
		sym, field := node.KindId(), c.FieldId()
		depth := len(stack) - 1
		parent := stack[depth]
		self := parent
		if (int(sym) < len(g.keep) && g.keep[sym] != 0) || sym == 65535 || field != 0 || depth == 0 {
			i := int32(len(out))
			out = append(out, flatNode{sym: sym, field: field, start: uint32(node.StartByte()), end: uint32(node.EndByte()), parent: parent, first: -1, next: -1})
			last = append(last, -1)
			if parent >= 0 {
				if last[parent] < 0 {
					out[parent].first = i
				} else {
					out[last[parent]].next = i
				}
				last[parent] = i
			}
			self = i
		}
		if c.GotoFirstChild() {
			stack = append(stack, self)
			maxDepth = max(maxDepth, len(stack)-1)
			continue
		}
		for {
			if c.GotoNextSibling() {
				break
			}
			if !c.GotoParent() {
				return out, maxDepth, tree.RootNode().HasError()
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// flattenSources are the source members of every golden case, of every
// language, the extractor fuzzers' stored seeds, a few sources that do not
// parse cleanly, and nestings deeper than the walk's first depth stacks
// (256), so that their growth is compared too.
func flattenSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{
		"broken.py":  []byte("def f(:\n  return [1, 2\nclass C(\n"),
		"broken.js":  []byte("function f( { return `a${ }\nconst = ;\n"),
		"empty.py":   {},
		"nested.tsx": []byte("const a = <div>{[1,[2,[3]]].map(x => <b key={x}>{x}</b>)}</div>;\n"),
		"deep.py":    []byte("x = " + strings.Repeat("[f(a, ", 300) + "1" + strings.Repeat(")]", 300) + "\ny = 2\n"),
		"deep.js":    []byte("const x = " + strings.Repeat("{a: [g(1, ", 300) + "2" + strings.Repeat(")]}", 300) + ";\nlet y = 3;\n"),
	}
	for dir, name := range map[string]string{"FuzzExtractJS": "seed.js", "FuzzExtractPython": "seed.py"} {
		seeds, err := filepath.Glob(filepath.Join("testdata", "fuzz", dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range seeds {
			out[dir+"/"+filepath.Base(p)+"/"+name] = fuzzSeedBytes(t, p)
		}
	}
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if languageOf(f.Name) != "" {
				out[filepath.Base(p)+"/"+f.Name] = f.Data
			}
		}
	}
	return out
}

// fuzzSeedBytes reads a stored fuzz seed of one []byte argument (the
// "go test fuzz v1" file format).
func fuzzSeedBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(strings.TrimSpace(string(data)), "\n", 2)
	if len(lines) != 2 || lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: not a fuzz seed file", path)
	}
	arg, ok := strings.CutPrefix(lines[1], "[]byte(")
	arg, ok2 := strings.CutSuffix(arg, ")")
	if !ok || !ok2 {
		t.Fatalf("%s: not one []byte argument", path)
	}
	src, err := strconv.Unquote(arg)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(src)
}

// TestFlattenMatchesCursorWalk checks the flat copy of every golden source
// against go-tree-sitter's cursor walked from Go: every node's kind, field,
// span, parent and sibling links, the depth and the error flag; and the same
// again when the walk's scratch starts at one node and has to grow.
func TestFlattenMatchesCursorWalk(t *testing.T) {
	gs := loadGrammars()
	srcs := flattenSources(t)
	langs, deep := map[string]bool{}, map[string]bool{}
	for name, src := range srcs {
		lang := languageOf(name)
		langs[lang] = true
		want, wantDepth, wantErr := referenceFlat(t, gs[lang], src)
		if wantDepth > 512 {
			deep[lang] = true
		}
		for _, scratch := range []int{-1, 1, 3} {
			got, err := parseFileScratch(lang, src, time.Minute, 0, scratch)
			if err != nil {
				t.Fatalf("%s (scratch %d): %v", name, scratch, err)
			}
			if got.maxDepth != wantDepth || got.hasError != wantErr {
				t.Fatalf("%s (scratch %d): depth %d error %v, the cursor walk gives %d %v", name, scratch, got.maxDepth, got.hasError, wantDepth, wantErr)
			}
			if len(got.nodes) != len(want) {
				t.Fatalf("%s (scratch %d): %d nodes, the cursor walk keeps %d", name, scratch, len(got.nodes), len(want))
			}
			for i := range want {
				if got.nodes[i] != want[i] {
					t.Fatalf("%s (scratch %d): node %d is %+v, the cursor walk gives %+v", name, scratch, i, got.nodes[i], want[i])
				}
			}
		}
	}
	for _, l := range []string{LangPython, LangJS, LangTS, LangTSX} {
		if !langs[l] {
			t.Errorf("no %s source among the golden cases", l)
		}
	}
	for _, l := range []string{LangPython, LangJS} {
		if !deep[l] {
			t.Errorf("no %s source nests past the walk's depth stacks grown once (512)", l)
		}
	}
}

// TestFlatLimit pins the node bound: a file is refused when it keeps more
// nodes than the first of 1024, 2048, 4096, ... at or past MaxFileNodes.
func TestFlatLimit(t *testing.T) {
	for _, c := range [][2]int{{1, 1024}, {1000, 1024}, {1024, 1024}, {1025, 2048}, {8_000_000, 8_388_608}, {1 << 30, 1 << 30}} {
		if got := flatLimit(c[0]); got != c[1] {
			t.Errorf("flatLimit(%d) = %d, want %d", c[0], got, c[1])
		}
	}
	// A module of k lines "x" keeps 1 + 2k nodes (module, and an
	// expression_statement with its identifier per line); "pass" keeps one.
	exact := []byte(strings.Repeat("x\n", 511) + "pass\n")
	over := []byte(strings.Repeat("x\n", 512))
	p, err := parseFile(LangPython, exact, time.Minute, 1000)
	if err != nil {
		t.Fatalf("1024 kept nodes under a bound of 1000 (limit 1024): %v", err)
	}
	if len(p.nodes) != 1024 {
		t.Fatalf("the exact source keeps %d nodes, want 1024", len(p.nodes))
	}
	if _, err := parseFile(LangPython, over, time.Minute, 1000); !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("1025 kept nodes under a bound of 1000: %v, want ErrTooManyNodes", err)
	}
	if _, err := parseFileScratch(LangPython, over, time.Minute, 1000, 1); !errors.Is(err, ErrTooManyNodes) {
		t.Fatalf("1025 kept nodes, growing scratch: %v, want ErrTooManyNodes", err)
	}
	if _, err := parseFile(LangPython, over, time.Minute, 1025); err != nil {
		t.Fatalf("1025 kept nodes under a bound of 1025 (limit 2048): %v", err)
	}
}

func TestFlatLayoutFits(t *testing.T) {
	if !flatLayoutFits() {
		t.Fatal("flatNode's layout differs from the C walk's at_node")
	}
}
