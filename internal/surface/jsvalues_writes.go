package surface

// Property writes that can reach a constant table (methodology §5.2,
// Constants substituted into templates; 2.3.10, part JV).
//
// The property route reads `O.K` of an object literal only when no write
// can change it. Before 2.3.10 every write of a property named K anywhere in
// the package counted, and so did every write through a computed key or
// `this` whose object has no name. A bundle that holds the SDK
// (`registeredTool.description = updates.description`, `target[key] =
// value` in a helper) therefore made every `description` of the package's
// own tables unreadable. A write changes an object only through a
// reference to it, so two readings now excuse such writes:
//
//   - a write `r.K = v` whose receiver r is a name bound once to another
//     fresh object (a `const` initialised by an object, array, function or
//     class expression, or a function or class declaration, never written
//     again: jsFreshPropWrites) changes only that object;
//   - a table that no reference leaves is sealed: an object literal of data
//     only, bound by a declarator to a name that is not exported and
//     declared once in its file, every occurrence of which is a read that
//     hands out no reference to the literal or to an object inside it (the
//     occurrences tableNeverReceiver accepts: `Object.keys(T)`, `k in T`,
//     chains of property reads that reach a leaf or end in a test or in a
//     `const` alias obeying the same rule), or `Object.entries(T)` /
//     `Object.values(T)` mapped or iterated at once by a callback written in
//     place whose value parameter obeys the same rule inside it. No write
//     anywhere in the package, whatever its receiver, can then reach the
//     table or its inner objects: a write through its own name is not one of
//     those occurrences, and any other receiver would need a reference that
//     never leaves. Every other write still counts, as before.

// maxSealedNesting bounds the climb from an inner object to its table.
const maxSealedNesting = 64

// constPropWrittenOn counts the writes of property key across the package
// that can reach the object literal obj of file of.
func (x *extractor) constPropWrittenOn(key string, of *file, obj nid) int {
	if x.jvSealedTable(of, obj) {
		return 0
	}
	return x.constPropWritten(key) - x.jsFreshPropWrites(key, of, obj)
}

// jvSealedTable reports whether obj is, or is nested (as a pair's value)
// in, a sealed table.
func (x *extractor) jvSealedTable(f *file, obj nid) bool {
	if f == nil || f.facts == nil || f.lang == LangPython || f.kind(obj) != "object" {
		return false
	}
	top, child := obj, obj
	for i := 0; i < maxSealedNesting; i++ {
		p := f.parent(child)
		switch f.kind(p) {
		case "parenthesized_expression", "as_expression", "satisfies_expression":
			child = p
			continue
		case "pair":
			if f.field(p, "value") != child {
				return false
			}
			o := f.parent(p)
			if f.kind(o) != "object" {
				return false
			}
			top, child = o, o
			continue
		case "variable_declarator":
			if f.field(p, "value") != child {
				return false
			}
			nm := f.field(p, "name")
			if f.kind(nm) != "identifier" {
				return false
			}
			return x.jvSealed(f, top, f.text(nm))
		}
		return false
	}
	return false
}

// jvSealedName reports whether identifier n names a sealed table.
func (x *extractor) jvSealedName(f *file, n nid) bool {
	if f == nil || f.facts == nil || f.kind(n) != "identifier" {
		return false
	}
	b, ok := x.lookup(f, n, f.text(n))
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" {
		return false
	}
	v := f.field(b.decl, "value")
	for f.kind(v) == "parenthesized_expression" || f.kind(v) == "as_expression" || f.kind(v) == "satisfies_expression" {
		v = constInner(f, v)
	}
	return f.kind(v) == "object" && x.jvSealed(f, v, f.text(n))
}

// jvSealed is the proof, once per table.
func (x *extractor) jvSealed(f *file, obj nid, name string) bool {
	return provedOnce(&x.jvSealedIdx, progKey{f, obj, nil}, func() bool { return x.jvProveSealed(f, obj, name) })
}

func (x *extractor) jvProveSealed(f *file, obj nid, name string) bool {
	id, depth, ok := dataTableBinding(f, obj, name)
	if !ok {
		return false
	}
	if x.constWritesOf(f).decls[name] != 1 || x.constWritesOf(f).names[name] != 0 {
		return false // declared again (`var T` twice) or assigned anywhere in the file
	}
	b, bound := x.lookup(f, id, name)
	if !bound {
		return false
	}
	for i := range f.nodes {
		if !x.step() {
			return false
		}
		n := nid(i)
		k := f.kind(n)
		if k != "identifier" && k != "shorthand_property_identifier" || f.text(n) != name || n == b.id {
			continue
		}
		if rb, ok := x.lookup(f, n, name); !ok || rb.id != b.id && rb.decl != b.decl {
			continue // another variable of the same name
		}
		if k == "shorthand_property_identifier" {
			return false
		}
		if x.jvIteratedSafely(f, n, depth) {
			continue
		}
		if !x.safeOccurrence(f, n, depth, 0) {
			return false
		}
	}
	return true
}

// jvIteratedSafely reports whether occurrence n is `Object.entries(T)` or
// `Object.values(T)` mapped or iterated at once (`.map(cb)`, `.forEach(cb)`)
// by a callback written in place whose value parameter hands out no
// reference inside it: it is read like the table itself, one level down.
func (x *extractor) jvIteratedSafely(f *file, n nid, depth int) bool {
	args := f.parent(n)
	call := f.parent(args)
	if f.kind(args) != "arguments" || f.kind(call) != "call_expression" || len(f.args(call)) != 1 {
		return false
	}
	callee := f.field(call, "function")
	form := f.text(callee)
	if form != "Object.entries" && form != "Object.values" {
		return false
	}
	if _, shadowed := x.lookup(f, f.field(callee, "object"), "Object"); shadowed {
		return false
	}
	m := f.parent(call)
	if f.kind(m) != "member_expression" || f.field(m, "object") != call {
		return false
	}
	if meth := f.text(f.field(m, "property")); meth != "map" && meth != "forEach" {
		return false
	}
	outer := f.parent(m)
	if f.kind(outer) != "call_expression" || f.field(outer, "function") != m || len(f.args(outer)) != 1 {
		return false
	}
	cb := f.args(outer)[0]
	switch f.kind(cb) {
	case "arrow_function", "function_expression", "function":
	default:
		return false
	}
	var params []nid
	if p := f.field(cb, "parameter"); p >= 0 {
		params = []nid{p}
	} else if ps := f.field(cb, "parameters"); ps >= 0 {
		for _, c := range f.named(ps) {
			if f.kind(c) != "comment" {
				params = append(params, c)
			}
		}
	}
	if len(params) == 0 {
		return true // the callback takes nothing
	}
	if len(params) > 2 {
		return false // the third parameter is the list itself
	}
	// A second parameter is the index, a number.
	p := params[0]
	if f.kind(p) == "required_parameter" {
		if len(f.named(p)) != 1 {
			return false
		}
		p = f.named(p)[0]
	}
	var value nid = none
	switch {
	case form == "Object.values" && f.kind(p) == "identifier":
		value = p
	case form == "Object.entries" && f.kind(p) == "array_pattern":
		var names []nid
		for _, c := range f.named(p) {
			if f.kind(c) == "comment" {
				continue
			}
			if f.kind(c) != "identifier" {
				return false // a default, rest or nested pattern
			}
			names = append(names, c)
		}
		if len(names) == 0 || len(names) > 2 || arrayHasHole(f, p) {
			return false
		}
		if len(names) == 2 {
			value = names[1] // names[0] is the key, a string
		}
	default:
		return false
	}
	if value < 0 || depth <= 1 {
		return true // no value taken, or every value a primitive
	}
	vb, ok := x.lookup(f, value, f.text(value))
	if !ok {
		return false
	}
	return x.usesNeverReceive(f, vb, depth-1, 1)
}
