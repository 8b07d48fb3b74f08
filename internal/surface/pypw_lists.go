package surface

import (
	"strconv"

	"github.com/attestari/attestari/internal/literal"
)

// A Python list literal's elements the package changes (since 2.3.18,
// part pw; the JavaScript half is jspw_writes.go). Until 2.3.17
// `A = ["a", "right"]; A[1] = …; @mcp.tool(description=A[1])` read
// "right": pyReadAddition reads `A[1] = …` as one more element, unknown,
// after the literal's, so an index read, and the replaced element of a
// whole read, took the literal's text; and `A.reverse()`, `A.sort()`,
// `A.pop()`, `A.remove(…)`, `A.clear()`, `A.insert(i, …)` were not looked
// for (an index read after them took the literal's order). Now a
// replacement `A[i] = …` (the additions pyAddsTo gives for the literal)
// makes element i not read, every element for an index that is not a
// non-negative number; a call of one of those methods on the list makes
// every element not read for an index read (a whole read keeps them: the
// methods move or remove elements, and a loop lists each either way).

// pyListMutators are the list methods that move or remove elements in
// place, or insert before the end.
var pyListMutators = map[string]bool{"reverse": true, "sort": true, "pop": true, "remove": true, "clear": true, "insert": true}

// pyListChanges is what the package does to list literal v after making
// it: why each index is replaced (index "*": every one), and why its
// order is changed ("" when not).
func (x *extractor) pyListChanges(v val) (replaced map[string]string, moved string) {
	f := v.f
	if f == nil || v.n < 0 || f.lang != LangPython || f.kind(v.n) != "list" || f.pyFacts == nil {
		return nil, ""
	}
	key := progKey{f, v.n, nil}
	if c, ok := x.pyListCache[key]; ok {
		return c.replaced, c.moved
	}
	defer func() {
		if x.pyListCache == nil {
			x.pyListCache = map[progKey]pyListChange{}
		}
		x.pyListCache[key] = pyListChange{replaced, moved}
	}()
	asg := f.parent(v.n)
	if f.kind(asg) != "assignment" || f.field(asg, "right") != v.n {
		return nil, ""
	}
	left := f.field(asg, "left")
	if f.pk(left) != pkIdentifier {
		return nil, ""
	}
	name := f.text(left)
	_, scope, found := x.pyLookup(f, left, name)
	if !found {
		return nil, ""
	}
	for _, g := range x.files {
		if g.lang != LangPython || g.pyFacts == nil || !g.runnable() {
			continue
		}
		adds := x.pyNameAdditions(g, name, scope)
		for _, add := range adds {
			if g.kind(add) != "assignment" || !x.pyAddsTo(g, add, name, f, v.n, scope) {
				continue
			}
			at := g.path + ":" + strconv.Itoa(g.lineOf(add))
			k := pyListIndexKey(g, g.field(g.field(add, "left"), "subscript"))
			if replaced == nil {
				replaced = map[string]string{}
			}
			if _, ok := replaced[k]; !ok {
				replaced[k] = at
			}
		}
		for _, c := range x.pyListMutations(g)[name] {
			if moved == "" && x.pyAddsTo(g, c, name, f, v.n, scope) {
				moved = g.path + ":" + strconv.Itoa(g.lineOf(c))
			}
		}
	}
	return replaced, moved
}

type pyListChange struct {
	replaced map[string]string
	moved    string
}

// pyListIndexKey is the element a replacement's subscript names: a
// non-negative integer literal as String(n), "*" for any other.
func pyListIndexKey(g *file, sub nid) string {
	if g.kind(sub) == "integer" {
		if s, ok := literal.RenderJSNumber([]byte(g.text(sub))); ok {
			if i, err := strconv.Atoi(s); err == nil && i >= 0 {
				return s
			}
		}
	}
	return "*"
}

// pyListMutations lists f's calls `NAME.m(…)` with m a pyListMutators
// method, by NAME (module.NAME under ".NAME", as pyAdditionsIndex).
func (x *extractor) pyListMutations(f *file) map[string][]nid {
	if m, ok := x.pyListMuts[f]; ok {
		return m
	}
	if x.pyListMuts == nil {
		x.pyListMuts = map[*file]map[string][]nid{}
	}
	m := map[string][]nid{}
	f.eachOfKinds(func(n nid) {
		fn := f.field(n, "function")
		if f.pk(fn) != pkAttribute || !pyListMutators[string(f.bytesOf(f.field(fn, "attribute")))] {
			return
		}
		if k := pyAdditionKey(f, f.field(fn, "object")); k != "" {
			m[k] = append(m[k], n)
		}
	}, pkCall)
	x.pyListMuts[f] = m
	return m
}

// pyListElementWritten is why element key of Python list literal v is not
// read by an index read; "" when nothing changes it.
func (x *extractor) pyListElementWritten(v val, key string) string {
	replaced, moved := x.pyListChanges(v)
	if at, ok := replaced[key]; ok {
		return "list element " + key + " replaced at " + at
	}
	if at, ok := replaced["*"]; ok {
		return "list element " + key + " replaced at " + at
	}
	if moved != "" {
		return "list element " + key + " of a list changed in place at " + moved
	}
	return ""
}

// pyListElements is pyElements' literal elements els with the replaced
// ones not read.
func (x *extractor) pyListElements(v val, els []val) []val {
	replaced, _ := x.pyListChanges(v)
	if len(replaced) == 0 {
		return els
	}
	out := make([]val, len(els))
	copy(out, els)
	for i := range out {
		k := strconv.Itoa(i)
		if at, ok := replaced[k]; ok {
			out[i] = unknown("list element " + k + " replaced at " + at)
		} else if at, ok := replaced["*"]; ok {
			out[i] = unknown("list element " + k + " replaced at " + at)
		}
	}
	return out
}
