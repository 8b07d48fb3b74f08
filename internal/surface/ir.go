package surface

import (
	"sort"
)

// nid indexes a node of one file's flat copy; -1 is no node.
type nid = int32

const none nid = -1

// file is one source member as the extractor keeps it between files: its
// bytes, its flat node copy and the facts computed from it. The tree-sitter
// tree itself never outlives parseFile.
type file struct {
	path     string
	lang     string
	src      []byte
	sha256   string
	minified bool
	vendored bool
	notRun   bool // a test, spec or example file: never a source of sites
	vregions []vendoredRegion
	*parsed
	lineStarts []int
	facts      *facts
	pyFacts    *pyFacts
	pyKinds    *pyKindIndex // built on first use (pykinds.go)
}

func (f *file) kind(n nid) string {
	if n < 0 {
		return ""
	}
	return f.g.kindName(f.nodes[n].sym)
}

// kindName maps a symbol to its kind; the error symbol (65535) is outside
// the grammar's table.
func (g *grammar) kindName(sym uint16) string {
	if int(sym) >= len(g.kinds) {
		return "ERROR"
	}
	return g.kinds[sym]
}

func (f *file) text(n nid) string {
	if n < 0 {
		return ""
	}
	return string(f.src[f.nodes[n].start:f.nodes[n].end])
}

func (f *file) bytesOf(n nid) []byte {
	if n < 0 {
		return nil
	}
	return f.src[f.nodes[n].start:f.nodes[n].end]
}

func (f *file) parent(n nid) nid {
	if n < 0 {
		return none
	}
	return f.nodes[n].parent
}

// named returns the children of n that are named nodes of the grammar.
func (f *file) named(n nid) []nid {
	if n < 0 {
		// A field the grammar leaves out (a lambda's parameters) is no
		// node; callers read it as having no children.
		return nil
	}
	var out []nid
	for c := f.nodes[n].first; c >= 0; c = f.nodes[c].next {
		if f.isNamed(c) {
			out = append(out, c)
		}
	}
	return out
}

func (f *file) isNamed(n nid) bool {
	sym := f.nodes[n].sym
	return int(sym) >= len(f.g.named) || f.g.named[sym]
}

// field returns the first child of n in the named field.
func (f *file) field(n nid, name string) nid {
	if n < 0 {
		return none
	}
	for c := f.nodes[n].first; c >= 0; c = f.nodes[c].next {
		if f.g.fields[f.nodes[c].field] == name {
			return c
		}
	}
	return none
}

// fieldAll returns every child of n in the named field.
func (f *file) fieldAll(n nid, name string) []nid {
	if n < 0 {
		return nil
	}
	var out []nid
	for c := f.nodes[n].first; c >= 0; c = f.nodes[c].next {
		if f.g.fields[f.nodes[c].field] == name {
			out = append(out, c)
		}
	}
	return out
}

// childOfKind returns the first child of n of the given kind.
func (f *file) childOfKind(n nid, kind string) nid {
	if n < 0 {
		return none
	}
	for c := f.nodes[n].first; c >= 0; c = f.nodes[c].next {
		if f.kind(c) == kind {
			return c
		}
	}
	return none
}

func (f *file) hasChildKind(n nid, kind string) bool { return f.childOfKind(n, kind) >= 0 }

// line returns the 1-based line of byte offset off.
func (f *file) line(off int) int {
	if f.lineStarts == nil {
		f.lineStarts = []int{0}
		for i, b := range f.src {
			if b == '\n' {
				f.lineStarts = append(f.lineStarts, i+1)
			}
		}
	}
	return sort.Search(len(f.lineStarts), func(i int) bool { return f.lineStarts[i] > off })
}

func (f *file) lineOf(n nid) int {
	if n < 0 {
		return 0
	}
	return f.line(int(f.nodes[n].start))
}

func (f *file) start(n nid) int { return int(f.nodes[n].start) }
func (f *file) end(n nid) int   { return int(f.nodes[n].end) }

// contains reports whether node a contains node b (or is b).
func (f *file) contains(a, b nid) bool {
	for b >= 0 {
		if a == b {
			return true
		}
		b = f.nodes[b].parent
	}
	return false
}

// inVendoredRegion reports whether node n lies in bundled third-party code.
func (f *file) inVendoredRegion(n nid) bool {
	if f.vendored {
		return true
	}
	if len(f.vregions) == 0 {
		return false
	}
	l := f.lineOf(n)
	for _, r := range f.vregions {
		if l >= r.StartLine && l <= r.EndLine {
			return true
		}
	}
	return false
}

// walk calls fn for every node of the file in preorder; returning false
// skips the node's children.
func (f *file) walk(root nid, fn func(n nid) bool) {
	if root < 0 {
		return
	}
	// The flat copy is in preorder, so a subtree is a contiguous range that
	// ends where the next node outside it starts.
	end := len(f.nodes)
	for p := root; p >= 0; p = f.nodes[p].parent {
		if nx := f.nodes[p].next; nx >= 0 {
			end = int(nx)
			break
		}
	}
	for i := int(root); i < end; {
		if fn(nid(i)) {
			i++
			continue
		}
		// Skip the subtree of i.
		j := nid(i)
		next := end
		for p := j; p >= 0 && int(p) >= int(root); p = f.nodes[p].parent {
			if nx := f.nodes[p].next; nx >= 0 {
				next = int(nx)
				break
			}
			if p == root {
				break
			}
		}
		i = next
	}
}
