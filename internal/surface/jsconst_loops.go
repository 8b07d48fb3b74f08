package surface

import "strings"

// A substitution that reads a property of the element a loop over a
// constant table is at (methodology §5.3, constants substituted into
// templates, since 2.3.5). The idiom is a package's tool table handed to
// the SDK in a loop, each description wrapped on the way:
//
//	export const TOOLS = [searchTool, fetchTool];          // tools.js
//	TOOLS.forEach((tool) => {                              // index.js
//	  server.tool(tool.name, withNote(tool.description), ...);
//	});
//	function withNote(d) { return `${d}${NOTE}`; }
//
// The extractor reads one registration per element already; what the
// substitution `${d}` then reads is `tool.description` of that element. The
// loop variable (`tool`, the first parameter of a forEach / map / filter /
// flatMap / some / every / find / findIndex callback, or the `const` of a
// `for (const tool of TOOLS)`) leads to the element only when all of this
// holds, and the substitution stays a hole otherwise:
//
//   - the iterated expression is a constant table by the routes of
//     jsconst.go: an array literal with no spread and no hole, bound
//     `const` (or never written again), imported from a sibling module,
//     through Object.freeze, parentheses or `as`;
//   - the element this instance is at, followed by those same routes, is an
//     object literal or a string or number literal of the package;
//   - the general resolution, which chose the instance, chose that same
//     element: for an object, the same object literal node (so the
//     substitution and the registration's name read one element, never a
//     neighbour).
//
// The element is then read like any constant: `tool.description` is
// constProp's property of an object no file writes, and each segment's span
// is the element's own source.

// constLoopElement is the element a loop frame fr binds the variable b to.
func (x *extractor) constLoopElement(f *file, b binding, e *env, fr *env) constTarget {
	var iterated nid
	var general []val
	switch {
	case b.kind == bParam:
		if b.index != 0 || b.decl != b.id {
			return constFail("callback parameter that is not the element")
		}
		args := f.parent(b.fn)
		call := f.parent(args)
		if f.kind(args) != "arguments" || f.kind(call) != "call_expression" {
			return constFail("callback not passed to a call")
		}
		if a := f.args(call); len(a) == 0 || a[0] != b.fn {
			return constFail("callback that is not the first argument")
		}
		callee := f.field(call, "function")
		if f.kind(callee) != "member_expression" {
			return constFail("callback not passed to an array method")
		}
		switch f.text(f.field(callee, "property")) {
		case "forEach", "map", "filter", "flatMap", "some", "every", "find", "findIndex":
		default:
			return constFail("callback of a method that is not an array's iteration")
		}
		iterated = f.field(callee, "object")
		recv := x.callbackReceiver(f, b.fn, e)
		if recv.k != vArray {
			return constFail("callback over a value that is not an array")
		}
		els, ok := x.elements(recv, e)
		if !ok {
			return constFail("callback over an unresolved array")
		}
		general = els
	case b.kind == bLoop:
		loop := b.decl
		if f.field(loop, "left") != b.id {
			return constFail("loop variable that is destructured")
		}
		if op := f.field(loop, "operator"); op < 0 || f.text(op) != "of" {
			return constFail("loop that is not for...of")
		}
		if k := f.field(loop, "kind"); k < 0 || f.text(k) != "const" {
			return constFail("loop variable that is not const")
		}
		iterated = f.field(loop, "right")
		its, ok := x.loopItems(f, loop, e)
		if !ok {
			return constFail("loop over an unresolved value")
		}
		general = its
	default:
		return constFail("a loop binding, not a constant")
	}
	elems, why := x.constArray(f, iterated, e, 0)
	if why != "" {
		return constFail(why)
	}
	if len(elems) != len(general) || fr.index >= len(elems) {
		return constFail("loop over a table read differently")
	}
	t := elems[fr.index]
	// Follow names to the element's own expression.
	for i := 0; i < 16 && t.f != nil && (t.f.kind(t.n) == "identifier" || t.f.kind(t.n) == "member_expression"); i++ {
		c := x.constRef(t.f, t.n, t.e)
		if c.why != "" || c.mod != nil || c.f == nil {
			return constFail("loop element that is not a constant")
		}
		t = c
	}
	if t.f == nil {
		return constFail("loop element that is not a constant")
	}
	g := general[fr.index]
	switch t.f.kind(t.n) {
	case "object":
		if g.k != vObject || g.f != t.f || g.n != t.n {
			return constFail("loop over a table read differently")
		}
	case "string", "number":
		if g.k != vText && g.k != vNumber {
			return constFail("loop over a table read differently")
		}
	default:
		return constFail("loop element of kind " + t.f.kind(t.n) + " is not a constant")
	}
	return t
}

// constArray reads n as a constant array literal of the package: its
// element expressions in order, each to be read under the returned env.
func (x *extractor) constArray(f *file, n nid, e *env, hops int) ([]constTarget, string) {
	if hops > 16 {
		return nil, "array reached through too many names"
	}
	if r, ok := x.enterConst(f, n, "array"); !ok {
		return nil, r.reason
	}
	defer x.leaveConst(f, n, "array")
	switch f.kind(n) {
	case "array":
		var out []constTarget
		for _, c := range f.named(n) {
			switch f.kind(c) {
			case "comment":
				continue
			case "spread_element":
				return nil, "array with a spread"
			}
			out = append(out, constTarget{f: f, n: c, e: e})
		}
		if arrayHasHole(f, n) {
			return nil, "array with a hole"
		}
		return out, ""
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return x.constArray(f, constInner(f, n), e, hops+1)
	case "call_expression":
		if args := f.args(n); len(args) == 1 && f.text(f.field(n, "function")) == "Object.freeze" {
			return x.constArray(f, args[0], e, hops+1)
		}
		return nil, "result of a call"
	case "identifier", "member_expression", "subscript_expression":
		t := x.constRef(f, n, e)
		if t.why != "" {
			return nil, t.why
		}
		if t.mod != nil || t.f == nil {
			return nil, "a module, not an array"
		}
		if x.constArrayWritten(f, n) {
			return nil, "array changed by a method call"
		}
		return x.constArray(t.f, t.n, t.e, hops+1)
	}
	return nil, "value of kind " + f.kind(n) + " is not a constant array"
}

// arrayHasHole reports an elision (`[a, , b]`, `[, a]`): a gap between
// elements that does not hold exactly one comma.
func arrayHasHole(f *file, arr nid) bool {
	src := f.bytesOf(arr)
	base := f.start(arr)
	prev, commas, first := 1, 0, true
	for _, c := range f.named(arr) {
		commas += strings.Count(string(src[prev:f.start(c)-base]), ",")
		prev = f.end(c) - base
		if f.kind(c) == "comment" {
			continue
		}
		if (first && commas != 0) || (!first && commas != 1) {
			return true
		}
		first, commas = false, 0
	}
	if prev <= len(src)-1 {
		commas += strings.Count(string(src[prev:len(src)-1]), ",")
	}
	return commas > 1 || (first && commas > 0)
}

// constArrayWritten reports a method call that changes an array in place
// on the name n reads (`TOOLS.push(x)`, `.splice`, `.sort`, ...), anywhere
// in the package: the literal is then not the table the loop runs over.
func (x *extractor) constArrayWritten(f *file, n nid) bool {
	name := lastName(f, n)
	if name == "" {
		return true
	}
	for _, g := range x.files {
		if g.facts != nil && x.constWritesOf(g).mutated[name] {
			return true
		}
	}
	return false
}

// arrayMutators are the methods that change an array in place.
var arrayMutators = map[string]bool{"push": true, "pop": true, "shift": true, "unshift": true, "splice": true,
	"sort": true, "reverse": true, "fill": true, "copyWithin": true}

// noteMutation records a call of an array's mutating method on the object's
// last name. A call on an object with no name (`Object.keys(o).sort()`)
// changes an array the call made; an alias of the table changed in place
// cannot misplace a text, since the element read is the very object node
// the registration was read from (constLoopElement).
func (w *constWrites) noteMutation(f *file, callee nid) {
	if f.kind(callee) == "member_expression" && collectionMutators[f.text(f.field(callee, "property"))] {
		if w.collections == nil {
			w.collections = map[string]bool{}
		}
		if name := lastName(f, f.field(callee, "object")); name != "" {
			w.collections[name] = true
		}
	}
	if f.kind(callee) != "member_expression" || !arrayMutators[f.text(f.field(callee, "property"))] {
		return
	}
	if w.mutated == nil {
		w.mutated = map[string]bool{}
	}
	if name := lastName(f, f.field(callee, "object")); name != "" {
		w.mutated[name] = true
	}
}

// writtenName is the name an object written through a computed key is
// recorded under: its last name (lastName), and for an element of a named
// object (`grouped[k][j] = v`, `Object.assign(cache[k], ...)`) the name of
// the object it is an element of. Before 2.3.5 such an element had no name,
// which counted as a write of every object of the package. The index is by
// name, so it never sees an alias (`const a = TOOL; a[k] = v` is a write of
// a); the element of a named object is no less a different object than an
// alias is.
func writtenName(f *file, n nid) string {
	for i := 0; i < 64 && f.kind(n) == "subscript_expression"; i++ {
		n = f.field(n, "object")
	}
	return lastName(f, n)
}

// constJoin reads `T.join(sep)` on a constant table T (constArray) with a
// separator written as a constant: each element's own segments with the
// separator's segments between them, every byte with its source span
// (methodology §5.3, since 2.3.5). `T.join()` (the default comma has no
// source bytes), any other call and a table element that is not constant
// text stay holes.
func (x *extractor) constJoin(f *file, n nid, e *env) val {
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "join" {
		return unknown("result of a call")
	}
	args := f.args(n)
	if len(args) != 1 {
		return unknown("join without a written separator")
	}
	var texts []val // the elements already read as text (jskeys.go)
	var elems []constTarget
	if ts, why, ok := x.jskeysList(f, f.field(callee, "object"), e); ok {
		if why != "" {
			return unknown(why)
		}
		texts = ts
	} else {
		var why string
		if elems, why = x.constArray(f, f.field(callee, "object"), e, 0); why != "" {
			return unknown(why)
		}
	}
	sep := x.constText(f, args[0], e)
	if sep.k != vText {
		return sep
	}
	for _, t := range elems {
		v := x.constText(t.f, t.n, t.e)
		if v.k != vText {
			return v
		}
		texts = append(texts, v)
	}
	parts := make([]val, 0, 2*len(texts))
	for i, v := range texts {
		if i > 0 {
			parts = append(parts, sep)
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return val{k: vText, txt: &textv{}}
	}
	return concatText(parts...)
}
