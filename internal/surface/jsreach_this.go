package surface

// Writes through `this` outside a constructor, and configuration tables no
// `this` can be (methodology §5.2, Configuration of JavaScript and
// TypeScript servers, 2.3.8).
//
// `this[k] = v`, `delete this[k]`, `Object.assign(this, ...)` in an
// ordinary function or method write whatever object the function is called
// on. Until 2.3.8 such a write made every table of the package unknown to a
// test of configuration, and bundles inline libraries full of them (an ES5
// constructor copying options, a headers class's `set`, a descriptor's
// setter). The object a function runs on is its receiver: a member call's
// object, the first argument of `.call`, `.apply`, `.bind` or
// `Reflect.apply`, the object a method was copied to. A configuration table
// can be a receiver only if a reference to it, or to an object inside it,
// reaches one of those places. tableNeverReceiver proves that no reference
// does: the table is an object literal of data only (no function, method,
// getter, spread, computed key or name among its values, at any depth), its
// name is not exported, and every occurrence of its name is `Object.keys(T)`,
// `k in T`, or a chain of property reads `T[k].p` that is not called and
// either reaches the literal's leaves (a primitive) or ends in a test
// (`!`, `typeof`, a comparison, `in`) or in a `const` alias whose own
// occurrences obey the same rule. Then no `this` anywhere is that table, and
// writes through `this` are not writes of it. Any other occurrence leaves
// the table unknown as before.

// thisWriteName is the name writes through `this` outside a constructor are
// recorded under; no identifier can spell it.
const thisWriteName = "<this of a function>"

// maxAliasDepth bounds the const aliases followed from a table's name.
const maxAliasDepth = 4

// writtenThroughThis reports whether n, the object a computed write or a
// builtin writes, is `this` outside a constructor, through subscripts.
func writtenThroughThis(f *file, n nid) bool {
	for i := 0; i < 64 && f.kind(n) == "subscript_expression"; i++ {
		n = f.field(n, "object")
	}
	return f.kind(n) == "this" && !jsConstructorThis(f, n)
}

// freshObjectExpr reports an expression that creates the object it
// evaluates to: `new X(...)` or `Object.create(...)`. A write to it changes
// no object of the package.
func freshObjectExpr(f *file, n nid) bool {
	for f.kind(n) == "parenthesized_expression" {
		n = constInner(f, n)
	}
	switch f.kind(n) {
	case "new_expression":
		return true
	case "call_expression":
		return f.text(f.field(n, "function")) == "Object.create"
	}
	return false
}

// constObjectWrittenFor is constObjectWritten for the object literal obj
// bound to name, a table read by a test of configuration: writes through
// `this` do not count when no `this` can be the table.
func (x *extractor) constObjectWrittenFor(f *file, obj nid, name string) bool {
	this := false
	for _, g := range x.files {
		if g.facts == nil {
			continue
		}
		w := x.constWritesOf(g)
		if w.objects[name] || w.objects[""] {
			return true
		}
		if w.objects[thisWriteName] {
			this = true
		}
	}
	return this && !x.tableNeverReceiver(f, obj, name)
}

// tableNeverReceiver is the proof described above, once per table.
func (x *extractor) tableNeverReceiver(f *file, obj nid, name string) bool {
	return provedOnce(&x.neverReceiver, progKey{f, obj, nil}, func() bool { return x.proveNeverReceiver(f, obj, name) })
}

// provedOnce memoises a per-table proof in *idx: a table reached again
// while it is being proved is not proved.
func provedOnce(idx *map[progKey]bool, key progKey, prove func() bool) bool {
	if v, ok := (*idx)[key]; ok {
		return v
	}
	if *idx == nil {
		*idx = map[progKey]bool{}
	}
	(*idx)[key] = false
	v := prove()
	(*idx)[key] = v
	return v
}

func (x *extractor) proveNeverReceiver(f *file, obj nid, name string) bool {
	id, depth, ok := dataTableBinding(f, obj, name)
	if !ok {
		return false
	}
	b, bound := x.lookup(f, id, name)
	if !bound {
		return false
	}
	return x.usesNeverReceive(f, b, depth, 0)
}

// dataTableBinding is what the table proofs (this file's and
// jsvalues_writes.go's) share: obj is an object literal of data only, bound
// by a declarator (through parentheses, `as`, `satisfies`) to name, which
// the file does not export. It returns the declarator's identifier and the
// literal's depth.
func dataTableBinding(f *file, obj nid, name string) (id nid, depth int, ok bool) {
	decl := f.parent(obj)
	for f.kind(decl) == "parenthesized_expression" || f.kind(decl) == "as_expression" || f.kind(decl) == "satisfies_expression" {
		decl = f.parent(decl)
	}
	if f.kind(decl) != "variable_declarator" {
		return 0, 0, false
	}
	id = f.field(decl, "name")
	if f.kind(id) != "identifier" || f.text(id) != name {
		return 0, 0, false
	}
	depth, ok = dataLiteralDepth(f, obj, 0)
	if !ok {
		return 0, 0, false
	}
	if _, exported := f.facts.exports[name]; exported {
		return 0, 0, false
	}
	for _, r := range f.facts.exports {
		if r.kind == exLocal && r.local == name {
			return 0, 0, false
		}
	}
	return id, depth, true
}

// dataLiteralDepth reports whether the literal holds data only, and how
// deep its objects and arrays nest (a flat object is 1).
func dataLiteralDepth(f *file, n nid, level int) (int, bool) {
	if level > 32 {
		return 0, false
	}
	switch f.kind(n) {
	case "string", "number", "true", "false", "null", "undefined":
		return level, true
	case "template_string":
		return level, len(f.named(n)) == 0 || onlyFragments(f, n)
	case "parenthesized_expression":
		return dataLiteralDepth(f, constInner(f, n), level)
	case "unary_expression":
		if op := f.text(f.field(n, "operator")); op == "-" || op == "+" {
			return dataLiteralDepth(f, f.field(n, "argument"), level)
		}
		return 0, false
	case "object", "array":
		max := level + 1
		for _, c := range f.named(n) {
			v := c
			if f.kind(n) == "object" {
				if f.kind(c) != "pair" {
					return 0, false // spread, method, shorthand name, getter
				}
				k := f.field(c, "key")
				if f.kind(k) == "computed_property_name" || propKeyName(f, k) == "__proto__" {
					return 0, false
				}
				v = f.field(c, "value")
			} else if f.kind(c) == "comment" {
				continue
			}
			d, ok := dataLiteralDepth(f, v, level+1)
			if !ok {
				return 0, false
			}
			if d > max {
				max = d
			}
		}
		return max, true
	}
	return 0, false
}

func onlyFragments(f *file, n nid) bool {
	for _, c := range f.named(n) {
		if f.kind(c) != "string_fragment" && f.kind(c) != "escape_sequence" {
			return false
		}
	}
	return true
}

// usesNeverReceive checks every occurrence of binding b in f (depth: how
// many property reads reach a leaf from it).
func (x *extractor) usesNeverReceive(f *file, b binding, depth, alias int) bool {
	name := f.text(b.id)
	for i := range f.nodes {
		n := nid(i)
		k := f.kind(n)
		if k != "identifier" && k != "shorthand_property_identifier" || f.text(n) != name || n == b.id {
			continue
		}
		if rb, ok := x.lookup(f, n, name); !ok || rb.id != b.id && rb.decl != b.decl {
			continue // another variable of the same name
		}
		if k == "shorthand_property_identifier" || !x.safeOccurrence(f, n, depth, alias) {
			return false
		}
	}
	return true
}

// safeOccurrence is one occurrence of the table (or an alias of an object
// inside it) that hands no reference to a receiver position.
func (x *extractor) safeOccurrence(f *file, n nid, depth, alias int) bool {
	p := f.parent(n)
	if f.kind(p) == "arguments" {
		if call := f.parent(p); f.kind(call) == "call_expression" && f.text(f.field(call, "function")) == "Object.keys" && len(f.args(call)) == 1 {
			_, shadowed := x.lookup(f, f.field(f.field(call, "function"), "object"), "Object")
			return !shadowed
		}
		return false
	}
	cur, steps := n, 0
	for {
		q := f.parent(cur)
		switch f.kind(q) {
		case "member_expression", "subscript_expression":
			if f.field(q, "object") != cur {
				return false // the table as a key: `o[T]`
			}
			cur, steps = q, steps+1
			continue
		case "parenthesized_expression", "non_null_expression":
			cur = q
			continue
		}
		break
	}
	q := f.parent(cur)
	if f.kind(q) == "call_expression" && f.field(q, "function") == cur {
		return false // a method call's receiver
	}
	if steps >= depth {
		// a leaf (or undefined): a primitive is no object of the package
		return !writeTarget(f, cur)
	}
	if writeTarget(f, cur) {
		return false
	}
	switch f.kind(q) {
	case "unary_expression":
		op := f.text(f.field(q, "operator"))
		return op == "!" || op == "typeof"
	case "binary_expression":
		switch f.text(f.field(q, "operator")) {
		case "===", "!==", "==", "!=", "in":
			return true
		}
		return false
	case "variable_declarator":
		if f.field(q, "value") != cur || alias >= maxAliasDepth {
			return false
		}
		decl := f.parent(q)
		nm := f.field(q, "name")
		if f.kind(decl) != "lexical_declaration" || f.kind(nm) != "identifier" || len(f.text(decl)) < 5 || f.text(decl)[:5] != "const" {
			return false
		}
		b, ok := x.lookup(f, nm, f.text(nm))
		return ok && x.usesNeverReceive(f, b, depth-steps, alias+1)
	}
	return false
}

// writeTarget reports whether n is written: an assignment's left side, an
// update, a delete.
func writeTarget(f *file, n nid) bool {
	p := f.parent(n)
	switch f.kind(p) {
	case "assignment_expression", "augmented_assignment_expression":
		return f.field(p, "left") == n
	case "update_expression":
		return true
	case "unary_expression":
		return f.text(f.field(p, "operator")) == "delete"
	}
	return false
}
