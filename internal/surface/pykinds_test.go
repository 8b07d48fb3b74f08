package surface

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/rundir"
)

// TestPyKindTable proves that comparing pyKinds is comparing kind names:
// for every symbol id of every grammar, and the error symbol, f.pk(n) is k
// exactly when f.kind(n) is pyKindNames[k], and pkOther exactly when the
// kind is none of them. It also checks that every name is a kind of the
// Python grammar and that no two pyKinds share a name, so a misspelt name
// cannot make a pass silently match nothing.
func TestPyKindTable(t *testing.T) {
	gs := loadGrammars()
	names := map[string]pyKind{}
	for k := pkOther + 1; k < pkCount; k++ {
		name := pyKindNames[k]
		if name == "" {
			t.Fatalf("pyKind %d has no name", k)
		}
		if prev, ok := names[name]; ok {
			t.Fatalf("pyKinds %d and %d both name %q", prev, k, name)
		}
		names[name] = k
		if !slices.Contains(gs[LangPython].kinds, name) {
			t.Errorf("%q (pyKind %d) is no kind of the Python grammar", name, k)
		}
	}
	for _, lang := range []string{LangPython, LangJS, LangTS, LangTSX} {
		g := gs[lang]
		syms := []uint16{65535}
		for i := range g.kinds {
			syms = append(syms, uint16(i))
		}
		multi := 0
		for _, sym := range syms {
			f := &file{parsed: &parsed{g: g, nodes: []flatNode{{sym: sym, parent: -1, first: -1, next: -1}}}}
			got, kind := f.pk(0), f.kind(0)
			want, ok := names[kind]
			if !ok {
				want = pkOther
			}
			if got != want {
				t.Errorf("%s symbol %d (%q): pk %d, want %d", lang, sym, kind, got, want)
			}
			if got != pkOther && sym != 65535 && g.lang.IdForNodeKind(kind, g.named[sym]) != sym {
				multi++ // one of several ids of this name: mapped by name all the same
			}
		}
		if lang == LangPython && multi == 0 {
			t.Errorf("the Python grammar gives no kind two ids: the by-name mapping's reason is gone, check the comment in pykinds.go")
		}
	}
	if (&file{parsed: &parsed{g: gs[LangPython]}}).pk(none) != pkOther {
		t.Errorf("no node is not pkOther")
	}
}

// TestPyKindIndex checks, on every Python source of the golden cases, that
// ofKind(k) is exactly the nodes whose kind is named pyKindNames[k], in
// preorder, and that eachOfKinds over a set of kinds visits exactly the
// nodes of those kinds in preorder, as a walk over the whole flat copy does.
func TestPyKindIndex(t *testing.T) {
	sets := [][]pyKind{
		{pkCall},
		{pkImportStatement, pkImportFromStatement},
		{pkCall, pkAssignment, pkDecoratedDefinition, pkExpressionStatement, pkImportFromStatement, pkClassDefinition},
		{pkAssignment, pkForStatement, pkForInClause, pkNamedExpression, pkAsPattern, pkFunctionDefinition, pkClassDefinition, pkLambda},
		{pkOther, pkString},
		{pkGlobalStatement, pkRelativeImport},
		{},
	}
	n := 0
	for name, src := range flattenSources(t) {
		if languageOf(name) != LangPython {
			continue
		}
		n++
		p, err := parseFile(LangPython, src, time.Minute, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f := &file{path: name, lang: LangPython, src: src, parsed: p}
		for k := pkOther; k < pkCount; k++ {
			var want []nid
			for i := range f.nodes {
				if k != pkOther && f.kind(nid(i)) == pyKindNames[k] {
					want = append(want, nid(i))
				}
			}
			if got := f.ofKind(k); !slices.Equal(got, want) {
				t.Fatalf("%s: ofKind(%q) = %v, want %v", name, pyKindNames[k], got, want)
			}
		}
		for _, set := range sets {
			var want, got []nid
			for i := range f.nodes {
				for _, k := range set {
					if k != pkOther && f.kind(nid(i)) == pyKindNames[k] {
						want = append(want, nid(i))
					}
				}
			}
			f.eachOfKinds(func(n nid) { got = append(got, n) }, set...)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: eachOfKinds(%v) = %v, want %v", name, set, got, want)
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d Python sources among the golden cases", n)
	}
}

// TestPyScopePK checks pyScopePK against pyScopeKind, and pyComprehensionPK
// against the suffix test it replaces, for every symbol of
// the Python grammar: the same scopes by byte as by name.
func TestPyScopePK(t *testing.T) {
	g := loadGrammars()[LangPython]
	for i, k := range g.kinds {
		if got, want := pyScopePK(g.pk[i]), pyScopeKind(k); got != want {
			t.Errorf("symbol %d (%q): pyScopePK %v, pyScopeKind %v", i, k, got, want)
		}
		if got, want := pyComprehensionPK(g.pk[i]), strings.HasSuffix(k, "comprehension"); got != want {
			t.Errorf("symbol %d (%q): pyComprehensionPK %v, suffix comprehension %v", i, k, got, want)
		}
	}
}

// refImportsModule is the reading pyModuleConditions made of each import
// statement before the import index (pyImportTargets): whether import
// statement n of g loads module f.
func (x *extractor) refImportsModule(g *file, n nid, f *file) bool {
	if g.kind(n) == "import_from_statement" {
		mod := g.text(g.field(n, "module_name"))
		if t := x.pyResolveModule(g, mod); t == f {
			return true
		}
		for _, c := range g.fieldAll(n, "name") {
			name := c
			if g.kind(c) == "aliased_import" {
				name = g.field(c, "name")
			}
			if t := x.pyResolveModule(g, joinModule(mod, g.text(name))); t == f {
				return true
			}
		}
		return false
	}
	for _, c := range g.fieldAll(n, "name") {
		name := c
		if g.kind(c) == "aliased_import" {
			name = g.field(c, "name")
		}
		if t := x.pyResolveModule(g, g.text(name)); t == f {
			return true
		}
	}
	return false
}

// TestPyImporters checks the import index against the walk it replaced, on
// every Python golden case: for every import statement n of every runnable
// Python file g and every file f of the package, pyImportTargets(g, n)
// holds f exactly when refImportsModule(g, n, f); pyImportersOf(f) is the
// list a walk of every node of every file made, in its order; and the
// memoized pyResolveModule answers as the resolution it memoizes.
func TestPyImporters(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(goldenDir, "py_*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Python golden cases: %v", err)
	}
	loaded := 0
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m := archiveFS(a)
		members, err := ClassifyFS(m)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{}.withDefaults()
		x := &extractor{ctx: context.Background(), opts: opts, start: opts.Now(), byPath: map[string]*file{},
			unresolved: map[rundir.Unresolved]bool{}}
		x.deadline = x.start.Add(opts.WallBudget)
		x.s = newSurface(rundir.PackageRef{Registry: "pypi", Name: "golden", Version: "0"})
		x.load(m, members)
		for _, f := range x.files {
			var want []pyImport
			for _, g := range x.files {
				if g.pyFacts == nil || !g.runnable() {
					continue
				}
				for i := range g.nodes {
					n := nid(i)
					k := g.kind(n)
					if k != "import_from_statement" && k != "import_statement" {
						continue
					}
					for _, mod := range []string{g.text(g.field(n, "module_name")), "." + g.text(g.field(n, "module_name")), ".", ".."} {
						// The memo against the resolution it saves, from
						// every file: keys shared across files are hit.
						if got, want := x.pyResolveModule(g, mod), x.pyResolveModuleOnce(g, mod); got != want {
							t.Fatalf("%s: %s resolves %q to %v, unmemoized %v", filepath.Base(p), g.path, mod, got, want)
						}
					}
					targets := x.pyImportTargets(g, n)
					if got, ref := slices.Contains(targets, f), x.refImportsModule(g, n, f); got != ref {
						t.Fatalf("%s: %s line %d loads %s: index %v, walk %v", filepath.Base(p), g.path, g.lineOf(n), f.path, got, ref)
					}
					if x.refImportsModule(g, n, f) {
						want = append(want, pyImport{g, n})
						loaded++
					}
				}
			}
			if got := x.pyImportersOf(f); !slices.Equal(got, want) {
				t.Fatalf("%s: importers of %s: %v, the walk gives %v", filepath.Base(p), f.path, got, want)
			}
		}
	}
	if loaded == 0 {
		t.Fatalf("no golden case imports one of its own modules: the test checks nothing")
	}
}
