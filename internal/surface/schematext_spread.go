package surface

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
