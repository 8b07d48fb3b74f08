package surface

// A name read inside the right side of its own assignment, `x = g(x)`,
// refers to the value x had before that statement ran: the other bindings
// of x in its scope, never this one, unless a loop can carry this one's
// result back to it. Without this rule the name's bindings are read as one
// union (every assignment of the scope), the union holds the assignment
// being read, and the reading ends in a resolution cycle.
//
// The rule reads the other bindings (the same union, this assignment left
// out) only when this assignment cannot reach itself: it is in no loop of
// its scope, or the innermost loop holding it binds x again, for certain,
// before it on every path through the loop's body (a plain `x = ...` among
// the statements before it, at its level or an enclosing one inside that
// loop, or a `try` whose body does so and whose every handler leaves the
// iteration). A `global` or `nonlocal` statement naming x in the file, a
// chained assignment and a statement kind the walk does not know keep the
// reading as it was (the cycle, refused).

// pySelfRefDecls returns the bindings of name a use at n reads when n lies
// in the right side of one of ds (a plain assignment to name): applies is
// false when n is in no such right side. reason, when set, is why the rule
// does not read it.
func (x *extractor) pySelfRefDecls(f *file, n, scope nid, name string, ds []nid) (out []nid, applies bool, reason string) {
	self := none
	for _, d := range ds {
		if f.kind(d) != "assignment" {
			continue
		}
		l, r := f.field(d, "left"), f.field(d, "right")
		if r >= 0 && f.kind(l) == "identifier" && f.text(l) == name && f.contains(r, n) {
			self = d
			break
		}
	}
	if self < 0 {
		return nil, false, ""
	}
	// A use inside a lambda, a def or a generator expression of the right
	// side runs later, when x may be this assignment's own value: read as
	// before (the union, this one included).
	for a := f.parent(n); a >= 0 && a != f.field(self, "right"); a = f.parent(a) {
		switch f.kind(a) {
		case "lambda", "function_definition", "generator_expression", "class_definition":
			return nil, false, ""
		}
	}
	if x.pyGlobalIn(f, name) || x.pyNonlocalIn(f, name) {
		return nil, true, "a global or nonlocal statement names " + name
	}
	stmt := f.parent(self)
	if f.kind(stmt) != "expression_statement" {
		return nil, true, "a chained assignment of " + name
	}
	if r := pyReachesItself(f, stmt, scope, name); r != "" {
		return nil, true, r
	}
	for _, d := range ds {
		if d != self {
			out = append(out, d)
		}
	}
	return out, true, ""
}

// pyReachesItself is why statement stmt (of scope) may run after itself
// with no binding of name between: "" when it cannot.
func pyReachesItself(f *file, stmt, scope nid, name string) string {
	body := scope
	if k := f.kind(scope); k == "function_definition" {
		body = f.field(scope, "body")
	}
	cur := stmt
	for steps := 0; steps < 1024; steps++ {
		p := f.parent(cur)
		if p < 0 {
			return "a statement outside its scope"
		}
		// A certain binding before cur, at this level, runs on every path
		// to it: no loop above can carry the assignment's own value back.
		for _, s := range f.named(p) {
			if s == cur {
				break
			}
			if pyBindsForCertain(f, s, name) {
				return ""
			}
		}
		if p == body || p == scope {
			return "" // the top of the scope, no loop passed
		}
		owner := f.parent(p)
		switch f.kind(owner) {
		case "for_statement", "while_statement":
			return "a loop may carry the value of " + name + " back to its own assignment"
		case "if_statement", "with_statement", "try_statement":
			cur = owner
		case "elif_clause", "else_clause", "except_clause", "finally_clause":
			stmtOf := f.parent(owner)
			switch f.kind(stmtOf) {
			case "if_statement", "try_statement":
				cur = stmtOf
			default:
				return "an assignment of " + name + " in the else clause of a loop"
			}
		default:
			return "an assignment of " + name + " inside a " + f.kind(owner) + " is not followed"
		}
	}
	return "an assignment nested too deep"
}

// pyBindsForCertain reports whether statement s, once run to its end, has
// bound name: `name = ...`, or a try (or with) whose body does so directly
// and whose handlers all leave the iteration (continue, break, return,
// raise as their last statement).
func pyBindsForCertain(f *file, s nid, name string) bool {
	switch f.kind(s) {
	case "expression_statement":
		kids := f.named(s)
		if len(kids) != 1 || f.kind(kids[0]) != "assignment" {
			return false
		}
		l := f.field(kids[0], "left")
		return f.kind(l) == "identifier" && f.text(l) == name && f.field(kids[0], "right") >= 0
	case "with_statement":
		return pyBlockBinds(f, f.field(s, "body"), name)
	case "try_statement":
		if !pyBlockBinds(f, f.field(s, "body"), name) {
			return false
		}
		for _, c := range f.named(s) {
			switch f.kind(c) {
			case "except_clause", "except_group_clause":
				var blk nid = none
				for _, b := range f.named(c) {
					if f.kind(b) == "block" {
						blk = b
					}
				}
				st := f.named(blk)
				if blk < 0 || len(st) == 0 {
					return false
				}
				switch f.kind(st[len(st)-1]) {
				case "continue_statement", "break_statement", "return_statement", "raise_statement":
				default:
					return false
				}
			}
		}
		return true
	}
	return false
}

// pyBlockBinds reports whether a statement directly in block blk is a plain
// `name = ...`.
func pyBlockBinds(f *file, blk nid, name string) bool {
	if blk < 0 {
		return false
	}
	for _, s := range f.named(blk) {
		if f.kind(s) == "expression_statement" && pyBindsForCertain(f, s, name) {
			return true
		}
	}
	return false
}

// pyNonlocalIn reports whether a nonlocal statement of file f names name.
func (x *extractor) pyNonlocalIn(f *file, name string) bool {
	if x.pyNonlocal == nil {
		x.pyNonlocal = map[*file]map[string]bool{}
	}
	g, ok := x.pyNonlocal[f]
	if !ok {
		g = map[string]bool{}
		for i := range f.nodes {
			if f.kind(nid(i)) != "nonlocal_statement" {
				continue
			}
			for _, c := range f.named(nid(i)) {
				g[f.text(c)] = true
			}
		}
		x.pyNonlocal[f] = g
	}
	return g[name]
}
