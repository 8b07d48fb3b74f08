package surface

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// Reachability from what the package runs (methodology §5.2,
// "Reachability", 2.3.8).
//
// A package with a `bin` is run as that program: `npx pkg` and every MCP
// client configuration start a bin, so the bin entries are the roots of
// the load closure, and `main`, `module` and `exports` are what another
// program imports, not what this one runs. A package with no bin is run
// through whatever imports it, so every entry point stays a root.
//
// Code in a function body runs only when the function is called. A
// registration inside a module-level function of a package run as a bin
// is not made when nothing in the package can call that function: its
// name (under every name it is exported or imported by) occurs nowhere in
// the package outside its own declaration, export clauses and import
// specifiers, no module that exports it is loaded as a namespace object
// (`import * as`, `require`, `import()`, `export * as`), and its own
// module has no `eval`. Every such use is read generously (an identifier,
// a property name, a word of a string or template: anything through which
// a table or a computed member could reach it), so only a function no
// route of the package could call is uncalled. A use inside the body of an
// uncalled function does not count (what calls it never runs). A library
// export of a bin-run package (`export function addExtraTools(server)`)
// is called by another program's server, never by this one.

// maxUncalledCandidates bounds the functions followed from the entries'
// own functions to the functions that use them.
const maxUncalledCandidates = 256

// maxUncalledRounds bounds the rounds of the uncalled fixpoint (a chain of
// functions each used only by the previous one).
const maxUncalledRounds = 16

// runRoots are the modules the package runs: its bin entries when it has
// any, else every entry point package.json names. paths are the declared
// paths (to check each is a parsed member); byBin says which.
func (x *extractor) runRoots() (roots []*file, paths []string, byBin bool) {
	bins := x.pkg.binPaths()
	if len(bins) == 0 {
		return x.entryFiles, x.pkg.entryPoints(), false
	}
	for _, b := range bins {
		if f := x.resolvePath(pathJoinRoot(x.root, b), false); f != nil && f.parsed != nil {
			roots = append(roots, f)
		}
	}
	return roots, bins, true
}

// binPaths lists package.json's bin targets.
func (p *packageJSON) binPaths() []string {
	var out []string
	var bin any
	if json.Unmarshal(p.Bin, &bin) == nil {
		switch b := bin.(type) {
		case string:
			if b != "" {
				out = append(out, b)
			}
		case map[string]any:
			keys := make([]string, 0, len(b))
			for k := range b {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if s, ok := b[k].(string); ok && s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// uncalledFn is a module-level function nothing in the package can call.
type uncalledFn struct {
	f    *file
	fn   nid // the function node (its body is what does not run)
	name string
}

// fnCand is a module-level function considered by uncalledFunctions.
type fnCand struct {
	f     *file
	fn    nid
	decl  nid // the identifier the declaration binds
	name  string
	names map[string]bool // every name it may be reached by
	uses  []useSite       // where those names occur, or its module escapes
}

type useSite struct {
	f *file
	n nid
}

// declarationFile reports a TypeScript declaration file: types, never run.
func declarationFile(f *file) bool {
	p := strings.ToLower(f.path)
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// jsRunFiles are the package's parsed JavaScript and TypeScript members
// that can run (declaration files excepted).
func (x *extractor) jsRunFiles() []*file {
	var out []*file
	for _, f := range x.files {
		if f.parsed == nil || f.facts == nil || f.lang == LangPython || declarationFile(f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// topFunction is the module-level function whose body holds n: a function
// declaration at the top of the program (exported or not), or a function
// or arrow bound by a top-level variable declarator. The name is the one
// it is declared under.
func topFunction(f *file, n nid) (fn, decl nid, name string) {
	stmt := n
	for stmt >= 0 {
		p := f.parent(stmt)
		if p < 0 {
			return -1, -1, ""
		}
		if f.kind(p) == "program" {
			break
		}
		stmt = p
	}
	if stmt < 0 || stmt == n {
		return -1, -1, ""
	}
	if f.kind(stmt) == "export_statement" {
		stmt = f.field(stmt, "declaration")
		if stmt < 0 {
			return -1, -1, ""
		}
	}
	switch f.kind(stmt) {
	case "function_declaration", "generator_function_declaration":
		nm := f.field(stmt, "name")
		if nm < 0 || f.contains(nm, n) {
			return -1, -1, ""
		}
		return stmt, nm, f.text(nm)
	case "lexical_declaration", "variable_declaration":
		for _, d := range f.named(stmt) {
			if f.kind(d) != "variable_declarator" || !f.contains(d, n) {
				continue
			}
			nm, v := f.field(d, "name"), f.field(d, "value")
			switch f.kind(v) {
			case "arrow_function", "function_expression", "function", "generator_function":
			default:
				return -1, -1, ""
			}
			if f.kind(nm) != "identifier" || !f.contains(v, n) {
				return -1, -1, ""
			}
			return v, nm, f.text(nm)
		}
	}
	return -1, -1, ""
}

// entryPlace is where an entry's registration or text lies: its
// registration line, or the first byte of one of its spans or holes.
type entryPlace struct {
	file string
	line int // 0: use off
	off  int
}

func entryPlaces(e *rundir.Entry) []entryPlace {
	out := []entryPlace{{file: e.File, line: e.Line}}
	for _, sp := range e.Spans {
		out = append(out, entryPlace{file: sp.File, off: sp.Start})
	}
	for _, h := range e.Holes {
		out = append(out, entryPlace{file: h.File, off: h.Start})
	}
	return out
}

// inBody reports whether the place lies inside fn's body: a byte offset
// inside the function, or a registration line strictly between the
// function's first and last lines (every byte of such a line is inside).
func inBody(f *file, fn nid, p entryPlace) bool {
	if p.file != f.path {
		return false
	}
	if p.line > 0 {
		return p.line > f.lineOf(fn) && p.line < f.line(f.end(fn))
	}
	return p.off > f.start(fn) && p.off < f.end(fn)
}

// nodeAt is the smallest node of f containing byte off. The flat copy is
// in preorder, so starts never decrease: the last node starting at or
// before off, or one of its ancestors, is it.
func nodeAt(f *file, off int) nid {
	i := sort.Search(len(f.nodes), func(i int) bool { return f.start(nid(i)) > off }) - 1
	for n := nid(i); n >= 0; n = f.parent(n) {
		if f.start(n) <= off && off < f.end(n) {
			return n
		}
	}
	return -1
}

// uncalledFunctions lists the module-level functions holding an entry (or
// calling one that does) that nothing in the package can call.
func (x *extractor) uncalledFunctions(entries []*rundir.Entry) []uncalledFn {
	files := x.jsRunFiles()
	byPath := map[string]*file{}
	for _, f := range files {
		byPath[f.path] = f
	}
	cands := map[nid]*fnCand{}
	var order []*fnCand
	candOf := map[*file]map[nid]*fnCand{}
	add := func(f *file, n nid) *fnCand {
		fn, decl, name := topFunction(f, n)
		if fn < 0 || name == "" {
			return nil
		}
		if c := candOf[f][fn]; c != nil {
			return c
		}
		if len(order) >= maxUncalledCandidates {
			return nil
		}
		c := &fnCand{f: f, fn: fn, decl: decl, name: name}
		if candOf[f] == nil {
			candOf[f] = map[nid]*fnCand{}
		}
		candOf[f][fn] = c
		cands[fn] = c
		order = append(order, c)
		return c
	}
	for _, e := range entries {
		for _, p := range entryPlaces(e) {
			f := byPath[p.file]
			if f == nil {
				continue
			}
			off := p.off
			if p.line > 0 {
				f.line(0) // builds lineStarts
				if p.line > len(f.lineStarts) {
					continue
				}
				// the first byte of the line that is not blank
				off = f.lineStarts[p.line-1]
				for off < len(f.src) && (f.src[off] == ' ' || f.src[off] == '\t') {
					off++
				}
			}
			if n := nodeAt(f, off); n >= 0 {
				add(f, n)
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	idx := newUseIndex(x, files)
	for i := 0; i < len(order); i++ { // order grows as users are found
		c := order[i]
		c.names, c.uses = idx.usesOf(c)
		for _, u := range c.uses {
			add(u.f, u.n)
		}
	}
	// The fixpoint: a function is uncalled when every use of it lies in
	// its own body or in the body of a function already uncalled.
	uncalled := map[*fnCand]bool{}
	for round := 0; round < maxUncalledRounds; round++ {
		grew := false
		for _, c := range order {
			if uncalled[c] {
				continue
			}
			live := false
			for _, u := range c.uses {
				inDead := false
				if fn, _, _ := topFunction(u.f, u.n); fn >= 0 {
					if d := candOf[u.f][fn]; d != nil && (d == c || uncalled[d]) {
						inDead = true
					}
				}
				if !inDead {
					live = true
					break
				}
			}
			if !live {
				uncalled[c] = true
				grew = true
			}
		}
		if !grew {
			break
		}
	}
	var out []uncalledFn
	for _, c := range order {
		if uncalled[c] {
			out = append(out, uncalledFn{f: c.f, fn: c.fn, name: c.name})
		}
	}
	return out
}

// useIndex finds, over the package's runnable JS members, every place a
// name may be used and every load of a module as a namespace object.
type useIndex struct {
	x     *extractor
	files []*file
	// words maps a name to the nodes where it occurs as an identifier, a
	// property name or a word of a string or template.
	words map[string][]useSite
	// nsLoads maps a module to the nodes that load it as an object.
	nsLoads map[*file][]useSite
	// evals lists the files that call eval.
	evals map[*file][]useSite
}

func newUseIndex(x *extractor, files []*file) *useIndex {
	ix := &useIndex{x: x, files: files, words: map[string][]useSite{}, nsLoads: map[*file][]useSite{}, evals: map[*file][]useSite{}}
	for _, f := range files {
		for i := range f.nodes {
			n := nid(i)
			switch f.kind(n) {
			case "identifier", "property_identifier", "shorthand_property_identifier",
				"shorthand_property_identifier_pattern", "private_property_identifier":
				if inImportExportClause(f, n) {
					continue
				}
				t := f.text(n)
				ix.words[t] = append(ix.words[t], useSite{f, n})
				if t == "eval" {
					ix.evals[f] = append(ix.evals[f], useSite{f, n})
				}
			case "template_string", "string":
				// every word of the text, a template's substitutions
				// included: a computed member or eval names a function so
				if inImportExportClause(f, n) {
					continue
				}
				for _, w := range wordsOf(f.text(n)) {
					ix.words[w] = append(ix.words[w], useSite{f, n})
				}
			}
		}
		for _, im := range f.facts.imports {
			if !loadsAsObject(f, im) {
				continue
			}
			if t := x.resolveModule(f, im.spec); t != nil {
				ix.nsLoads[t] = append(ix.nsLoads[t], useSite{f, im.node})
			}
		}
	}
	return ix
}

// loadsAsObject reports an import that hands the module's namespace to
// code: `import * as`, require(), import(), `export * as ns from`. A plain
// `export * from` re-exports names, followed by name.
func loadsAsObject(f *file, im importFact) bool {
	if im.req {
		return true
	}
	switch f.kind(im.node) {
	case "import_statement":
		cl := f.childOfKind(im.node, "import_clause")
		return cl >= 0 && f.hasChildKind(cl, "namespace_import")
	case "export_statement":
		return f.hasChildKind(im.node, "namespace_export")
	}
	return false
}

// inImportExportClause reports a node inside an import statement or an
// export clause (`export { a as b }`), the name `export default F;`
// exports, or the module an `export ... from` names: there a name is
// bound or re-bound, not used.
func inImportExportClause(f *file, n nid) bool {
	if p := f.parent(n); f.kind(p) == "export_statement" && (f.field(p, "value") == n && f.kind(n) == "identifier" || f.field(p, "source") == n) {
		return true // export default F; the module specifier of export ... from
	}
	for p := f.parent(n); p >= 0; p = f.parent(p) {
		switch f.kind(p) {
		case "import_statement", "export_clause", "namespace_export":
			return true
		case "export_statement", "program", "statement_block":
			return false
		}
	}
	return false
}

// wordsOf splits text into identifier-shaped words.
func wordsOf(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && (s[i] == '_' || s[i] == '$' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] >= 0x80) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	return out
}

// usesOf is every name c may be reached by and every place one is used:
// its own name, the names modules export it under (through `export {..}
// from` and `export *`, transitively), the local names imports bind it
// to; a load of a module exporting it as an object, and an eval in its
// own module, are uses too.
func (ix *useIndex) usesOf(c *fnCand) (map[string]bool, []useSite) {
	x := ix.x
	names := map[string]bool{c.name: true}
	exported := map[*file]map[string]bool{}
	mark := func(f *file, name string) bool {
		if exported[f] == nil {
			exported[f] = map[string]bool{}
		}
		if exported[f][name] {
			return false
		}
		exported[f][name] = true
		if name != "default" {
			names[name] = true
		}
		return true
	}
	for name, r := range c.f.facts.exports {
		switch r.kind {
		case exLocal:
			if r.local == c.name {
				mark(c.f, name)
			}
		case exExpr:
			if c.f.kind(r.node) == "identifier" && c.f.text(r.node) == c.name {
				mark(c.f, name)
			}
		}
	}
	for round := 0; round < len(ix.files)+1 && round < 64; round++ {
		grew := false
		for _, g := range ix.files {
			for name, r := range g.facts.exports {
				if r.kind != exReexport {
					continue
				}
				if t := x.resolveModule(g, r.spec); t != nil && exported[t][r.name] && mark(g, name) {
					grew = true
				}
			}
			for _, spec := range g.facts.stars {
				t := x.resolveModule(g, spec)
				if t == nil {
					continue
				}
				for name := range exported[t] {
					if name != "default" && mark(g, name) {
						grew = true
					}
				}
			}
		}
		if !grew {
			break
		}
	}
	var uses []useSite
	// Local names imports bind it to.
	for _, g := range ix.files {
		for _, im := range g.facts.imports {
			if g.kind(im.node) != "import_statement" {
				continue
			}
			t := x.resolveModule(g, im.spec)
			if t == nil || len(exported[t]) == 0 {
				continue
			}
			cl := g.childOfKind(im.node, "import_clause")
			if cl < 0 {
				continue
			}
			for _, ch := range g.named(cl) {
				switch g.kind(ch) {
				case "identifier":
					if exported[t]["default"] {
						names[g.text(ch)] = true
					}
				case "named_imports":
					for _, s := range g.named(ch) {
						nm := exportSpecName(g, g.field(s, "name"))
						if !exported[t][nm] {
							continue
						}
						if a := g.field(s, "alias"); a >= 0 {
							names[g.text(a)] = true
						} else {
							names[nm] = true
						}
					}
				}
			}
		}
	}
	for t := range exported {
		uses = append(uses, ix.nsLoads[t]...)
	}
	uses = append(uses, ix.evals[c.f]...)
	for nm := range names {
		for _, u := range ix.words[nm] {
			if u.f == c.f && u.n == c.decl {
				continue
			}
			uses = append(uses, u)
		}
	}
	return names, uses
}

// markUncalled marks the entries made inside a function nothing in the
// package can call, and lists those functions for the row.
func (x *extractor) markUncalled(lists []*[]rundir.Entry, uncalled []uncalledFn) (int, []rundir.Site) {
	n := 0
	held := map[int]bool{}
	for _, list := range lists {
		for i := range *list {
			e := &(*list)[i]
			if e.Unreachable {
				continue
			}
			for j, u := range uncalled {
				hit := false
				for _, p := range entryPlaces(e) {
					if inBody(u.f, u.fn, p) {
						hit = true
						break
					}
				}
				if hit {
					e.Unreachable = true
					held[j] = true
					n++
					break
				}
			}
		}
	}
	var sites []rundir.Site
	for j, u := range uncalled {
		if held[j] && len(sites) < reachNote {
			sites = append(sites, u.f.site(u.fn, "function "+u.name+" is called by no code the package runs"))
		}
	}
	return n, sites
}
