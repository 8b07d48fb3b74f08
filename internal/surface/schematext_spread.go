package surface

import "strings"

// Spreads in a schema that add nothing (methodology §5.3, since 2.3.12).

// nothingDepthLimit bounds the nesting of blocks and tests the reading of a
// function's body given no value follows.
const nothingDepthLimit = 32

// returnsNothingGivenNothing reports whether the function at fn, called with
// every parameter undefined, provably returns undefined, null or an object
// literal with no member: its body is read statement by statement with the
// parameters (and names declared from them) known undefined; a declaration
// from anything else, a test that is not decided on them, a statement of any
// other kind before the return, or a return of anything else is not read
// (false). A spread of such a result adds nothing to an object.
func returnsNothingGivenNothing(f *file, fn nid) bool {
	if !functionKind(f.kind(fn)) {
		return false
	}
	undef := map[string]bool{}
	if p := f.field(fn, "parameter"); p >= 0 {
		if f.kind(p) != "identifier" {
			return false
		}
		undef[f.text(p)] = true
	}
	if ps := f.field(fn, "parameters"); ps >= 0 {
		for _, p := range f.named(ps) {
			switch f.kind(p) {
			case "comment":
			case "identifier":
				undef[f.text(p)] = true
			case "required_parameter", "optional_parameter":
				// TypeScript: a plain name with a type, no default.
				pat := f.field(p, "pattern")
				if pat < 0 || f.kind(pat) != "identifier" || f.field(p, "value") >= 0 {
					return false
				}
				undef[f.text(pat)] = true
			default:
				return false // a default, a pattern or a rest may hold a value
			}
		}
	}
	body := f.field(fn, "body")
	if body < 0 {
		return false
	}
	if f.kind(body) != "statement_block" {
		return nothingValue(f, body, undef, 0)
	}
	// Falling off the end returns undefined, so only ok matters.
	_, ok := nothingBlock(f, f.named(body), undef, 0)
	return ok
}

// nothingBlock reads statements in order; returned tells whether a return
// was reached, ok whether everything up to it was read and it returns
// nothing.
func nothingBlock(f *file, stmts []nid, undef map[string]bool, depth int) (returned, ok bool) {
	if depth > nothingDepthLimit {
		return false, false
	}
	for _, s := range stmts {
		switch f.kind(s) {
		case "comment", "empty_statement":
		case "lexical_declaration", "variable_declaration":
			for _, d := range f.named(s) {
				if f.kind(d) == "comment" {
					continue
				}
				name := f.field(d, "name")
				if f.kind(d) != "variable_declarator" || f.kind(name) != "identifier" {
					return false, false
				}
				v := f.field(d, "value")
				if v >= 0 && !nothingUndefined(f, v, undef) {
					return false, false
				}
				undef[f.text(name)] = true
			}
		case "return_statement":
			ch := nonComment(f, s)
			if len(ch) == 0 {
				return true, true
			}
			return true, nothingValue(f, ch[0], undef, depth+1)
		case "if_statement":
			t, known := nothingTest(f, f.field(s, "condition"), undef, depth+1)
			if !known {
				return false, false
			}
			var branch nid = -1
			if t {
				branch = f.field(s, "consequence")
			} else if alt := f.field(s, "alternative"); alt >= 0 {
				if ch := nonComment(f, alt); len(ch) == 1 {
					branch = ch[0]
				} else {
					return false, false
				}
			}
			if branch < 0 {
				continue
			}
			list := []nid{branch}
			if f.kind(branch) == "statement_block" {
				list = f.named(branch)
			}
			ret, ok := nothingBlock(f, list, undef, depth+1)
			if !ok || ret {
				return ret, ok
			}
		case "statement_block":
			ret, ok := nothingBlock(f, f.named(s), undef, depth+1)
			if !ok || ret {
				return ret, ok
			}
		default:
			return false, false
		}
	}
	return false, true
}

func nonComment(f *file, n nid) []nid {
	var out []nid
	for _, c := range f.named(n) {
		if f.kind(c) != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// nothingValue reports whether n is undefined, null or an object literal
// with no member.
func nothingValue(f *file, n nid, undef map[string]bool, depth int) bool {
	if depth > nothingDepthLimit {
		return false
	}
	switch f.kind(n) {
	case "parenthesized_expression":
		ch := nonComment(f, n)
		return len(ch) == 1 && nothingValue(f, ch[0], undef, depth+1)
	case "object":
		return len(nonComment(f, n)) == 0
	case "null":
		return true
	}
	return nothingUndefined(f, n, undef)
}

// nothingUndefined reports whether n is provably undefined: a name known
// undefined, undefined, void of a literal, or a member read through ?. of an
// undefined value.
func nothingUndefined(f *file, n nid, undef map[string]bool) bool {
	for i := 0; i < nothingDepthLimit && n >= 0; i++ {
		switch f.kind(n) {
		case "parenthesized_expression":
			ch := nonComment(f, n)
			if len(ch) != 1 {
				return false
			}
			n = ch[0]
		case "identifier":
			return undef[f.text(n)] || f.text(n) == "undefined"
		case "undefined":
			return true
		case "unary_expression":
			arg := f.field(n, "argument")
			return f.text(f.field(n, "operator")) == "void" && arg >= 0 && literalValue(f, arg)
		case "member_expression":
			obj := f.field(n, "object")
			if !optionalChain(f, n) {
				return false
			}
			n = obj
		default:
			return false
		}
	}
	return false
}

// optionalChain reports whether a member expression reads its object with ?.
func optionalChain(f *file, n nid) bool {
	for _, c := range f.named(n) {
		if f.kind(c) == "optional_chain" {
			return true
		}
	}
	return false
}

// nothingTest decides a test on values known undefined: !x, x, x == null,
// x === undefined, typeof x === "…", && and || of such.
func nothingTest(f *file, n nid, undef map[string]bool, depth int) (value, known bool) {
	if depth > nothingDepthLimit || n < 0 {
		return false, false
	}
	switch f.kind(n) {
	case "parenthesized_expression":
		ch := nonComment(f, n)
		if len(ch) != 1 {
			return false, false
		}
		return nothingTest(f, ch[0], undef, depth+1)
	case "unary_expression":
		if f.text(f.field(n, "operator")) == "!" {
			v, ok := nothingTest(f, f.field(n, "argument"), undef, depth+1)
			return !v, ok
		}
	case "binary_expression":
		op := f.text(f.field(n, "operator"))
		l, r := f.field(n, "left"), f.field(n, "right")
		switch op {
		case "&&", "||":
			lv, ok := nothingTest(f, l, undef, depth+1)
			if !ok {
				return false, false
			}
			if (op == "&&" && !lv) || (op == "||" && lv) {
				return lv, true
			}
			return nothingTest(f, r, undef, depth+1)
		case "==", "!=", "===", "!==":
			eq, ok := nothingEqual(f, l, r, op == "==" || op == "!=", undef)
			if !ok {
				eq, ok = nothingEqual(f, r, l, op == "==" || op == "!=", undef)
			}
			if !ok {
				return false, false
			}
			if op == "!=" || op == "!==" {
				return !eq, true
			}
			return eq, true
		}
	}
	if nothingUndefined(f, n, undef) {
		return false, true
	}
	return false, false
}

// nothingEqual compares a (undefined, or typeof of an undefined value) with
// the literal b.
func nothingEqual(f *file, a, b nid, loose bool, undef map[string]bool) (eq, known bool) {
	if f.kind(a) == "unary_expression" && f.text(f.field(a, "operator")) == "typeof" {
		if !nothingUndefined(f, f.field(a, "argument"), undef) || f.kind(b) != "string" {
			return false, false
		}
		s, lit := f.stringValue(b)
		if !lit {
			return false, false
		}
		return s == "undefined", true
	}
	if !nothingUndefined(f, a, undef) {
		return false, false
	}
	switch {
	case nothingUndefined(f, b, undef):
		return true, true
	case f.kind(b) == "null":
		return loose, true
	case f.kind(b) == "string", f.kind(b) == "number", f.kind(b) == "true", f.kind(b) == "false":
		return false, true
	}
	return false, false
}

// Objects a spread in a schema gives that have no literal node of their own
// (methodology §5.3, since 2.3.12): the rest of a destructuring
// (const { type, ...rest } = def.input_schema), and the parts and members
// the constant routes of §5.2 synthesize, are read member by member, every
// member that the reading leaves out (the rest's omitted keys) left out. A
// local object the package changes after building it is read only when
// every change is a delete of keys the reading can name (a literal key, or
// a loop over a literal list of strings): a member under such a key is
// then a place not read unless it carries no text. Any other use that could
// change the object (a write, a method call, the object handed on) is a
// place not read.

// synthMembers reads the members of an object value that has no literal
// node.
func (r *schemaRead) synthMembers(f *file, at nid, v val, e *env, depth int, each func(key string, g *file, v nid, ge *env)) {
	if depth > schemaDepthLimit {
		r.gap(f, at, "schema nested past the reading's depth")
		return
	}
	keep := each
	if len(v.omit) > 0 {
		keep = func(key string, g *file, m nid, ge *env) {
			for _, o := range v.omit {
				if o == key {
					return
				}
			}
			each(key, g, m, ge)
		}
	}
	for _, p := range v.parts {
		if r.stop() {
			return
		}
		r.spreadValue(f, at, p, e, depth+1, keep)
	}
	for i, k := range v.keys {
		if i >= len(v.props) || r.stop() {
			break
		}
		p := v.props[i]
		switch {
		case p.f != nil && p.n >= 0:
			pe := p.env
			if pe == nil {
				pe = e
			}
			keep(k, p.f, p.n, pe)
		case p.k == vUndefined || p.k == vNull || p.k == vNumber || p.k == vBool:
		default:
			r.gap(f, at, "schema member "+k+" not resolved: "+reasonOf(p))
		}
	}
}

// spreadValue reads the members a spread of v gives.
func (r *schemaRead) spreadValue(f *file, at nid, v val, e *env, depth int, each func(key string, g *file, v nid, ge *env)) {
	if r.need(f, at, v) {
		return
	}
	switch {
	case v.k == vUndefined || v.k == vNull:
	case v.k == vObject && v.f != nil && v.n >= 0 && v.f.kind(v.n) == "object":
		r.members(v.f, v.n, v.env, depth+1, each)
	case v.k == vObject && v.n < 0:
		r.synthMembers(f, at, v, e, depth+1, each)
	default:
		r.gap(f, at, "schema spread not resolved: "+reasonOf(v))
	}
}

// spreadChanges reads how a spread's name is changed after it is built:
// del lists the keys deleted from it, ok is false when the object may be
// changed any other way (or a deleted key is not named). Only a name
// declared inside a function is looked at (the function's body holds all
// its uses); any other name is not changed here (ok, no keys).
func (r *schemaRead) spreadChanges(f *file, id nid, e *env) (del []string, ok bool) {
	if f.kind(id) != "identifier" {
		return nil, true
	}
	b, found := r.x.lookup(f, id, f.text(id))
	if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" {
		return nil, true
	}
	scope := enclosingFunction(f, b.decl)
	if scope < 0 {
		return nil, true
	}
	name := f.text(id)
	ok = true
	f.walk(scope, func(n nid) bool {
		if !ok {
			return false
		}
		if f.kind(n) == "shorthand_property_identifier" && f.text(n) == name {
			// { obj }: the object handed on under another name.
			if ub, found := r.x.lookup(f, n, name); found && ub.decl == b.decl && ub.id == b.id {
				ok = false
				return false
			}
			return true
		}
		if f.kind(n) != "identifier" || f.text(n) != name || n == b.id {
			return true
		}
		if ub, found := r.x.lookup(f, n, name); !found || ub.decl != b.decl || ub.id != b.id {
			return true // another binding of the same name
		}
		p := f.parent(n)
		switch f.kind(p) {
		case "spread_element":
			return true
		case "member_expression", "subscript_expression":
			if f.field(p, "object") != n {
				ok = false
				return false
			}
		default:
			ok = false
			return false
		}
		// n is the object of a member read: follow the chain up.
		top, hops := p, 1
		for {
			q := f.parent(top)
			if q >= 0 && (f.kind(q) == "member_expression" || f.kind(q) == "subscript_expression") && f.field(q, "object") == top {
				top, hops = q, hops+1
				continue
			}
			break
		}
		q := f.parent(top)
		switch f.kind(q) {
		case "unary_expression":
			if f.text(f.field(q, "operator")) == "delete" {
				if hops != 1 {
					ok = false
					return false
				}
				keys, named := r.deletedKey(f, p, e)
				if !named {
					ok = false
					return false
				}
				del = append(del, keys...)
			}
		case "assignment_expression", "augmented_assignment_expression":
			if f.field(q, "left") == top {
				ok = false
			}
		case "update_expression":
			ok = false
		case "call_expression":
			if f.field(q, "function") == top {
				ok = false // a method of the object, or of a member, may change it
			}
		}
		return ok
	})
	return del, ok
}

// deletedKey names the keys `delete o.k` or `delete o[k]` removes: a
// literal key, or the element of a for-of loop over a literal list of
// strings.
func (r *schemaRead) deletedKey(f *file, m nid, e *env) ([]string, bool) {
	if f.kind(m) == "member_expression" {
		prop := f.field(m, "property")
		if f.kind(prop) == "property_identifier" {
			return []string{f.text(prop)}, true
		}
		return nil, false
	}
	idx := f.field(m, "index")
	if s, lit := f.stringValue(idx); lit && f.kind(idx) == "string" {
		return []string{s}, true
	}
	if f.kind(idx) != "identifier" {
		return nil, false
	}
	b, found := r.x.lookup(f, idx, f.text(idx))
	if !found || b.kind != bLoop || f.field(b.decl, "left") < 0 {
		return nil, false
	}
	loop := b.decl
	left, right := f.field(loop, "left"), f.field(loop, "right")
	if right < 0 || strings.TrimSpace(string(f.src[f.end(left):f.start(right)])) != "of" {
		return nil, false
	}
	lv := r.x.eval(f, right, e)
	els, ok := r.x.elements(lv, e)
	if !ok || lv.k != vArray {
		return nil, false
	}
	var keys []string
	for _, el := range els {
		s, ok := plainText(el)
		if !ok {
			return nil, false
		}
		keys = append(keys, s)
	}
	return keys, true
}

// spreadArg reads the members a spread of arg gives (the element at c of
// the literal at n, or an esbuild helper call n's argument): an object
// literal or another esbuild spread call member by member, anything else
// through its value (spreadOf). It reports whether the reading must stop
// because arg's value waits on a binding (need).
func (r *schemaRead) spreadArg(f *file, n, c, arg nid, e *env, depth int, each func(key string, g *file, v nid, ge *env)) (stop bool) {
	if f.kind(arg) == "object" || r.x.esbuildSpreadCall(f, arg) {
		r.members(f, arg, e, depth+1, each)
		return false
	}
	v := r.x.eval(f, arg, e)
	if r.need(f, n, v) {
		return true
	}
	r.spreadOf(f, c, arg, v, e, depth, each)
	return false
}

// spreadOf reads a spread of arg (valued v) in an object literal of a
// schema: the object's members, less what the package deletes from it.
func (r *schemaRead) spreadOf(f *file, c, arg nid, v val, e *env, depth int, each func(key string, g *file, v nid, ge *env)) {
	del, ok := r.spreadChanges(f, arg, e)
	if !ok {
		r.gap(f, c, "schema spread of an object the package changes not read")
		return
	}
	if !r.unchanged(f, arg, v) { // a module-level name, an importer, an alias (schematext_mut.go)
		return
	}
	r.spreadValue(f, c, v, e, depth+1, r.withoutDeleted(del, each)) // schematext_mut.go
}
