package surface

// A text a function builds in a local with `+=` (methodology §5.2, 2.3.9,
// part JN). A package's helper often starts a description and appends to it
// under tests its caller settles:
//
//	let d = options.description;
//	if (options.idField && options.mode !== "create") {
//	    const more = `\nEither '${options.idField}' identifies the target.`;
//	    d += more;
//	}
//	server.tool(options.name, d, shape, cb);
//
// Under 2.3.8 any compound assignment left the local unreadable. The local
// is now read as its initialiser followed by every append that runs, when
// the order of the writes and of the reads is fixed by the code's own
// structure and every test is decided (section 5.2's decide):
//
//   - the local is a `let` with an initialiser, declared as a statement of
//     a block (or of the module), and never assigned with `=`, incremented
//     or written by a pattern: its file writes the name only by the appends
//     read here;
//   - every append is `name += value`, a statement of that same block after
//     the declaration, or a statement of the block (or the lone statement)
//     of an `if` with no `else` that is itself a statement of that block;
//     such an `if` block holds nothing but declarations and appends to the
//     local (no return, throw, loop or other branch inside it);
//   - every read of the local lies after the last append ends, so each read
//     sees the whole sequence (a read in a test, in an appended value or
//     before an append refuses the form);
//   - the initialiser and every appended value that runs is text (holes in
//     it stay holes, as in any concatenation), and every test is decided
//     under the caller's values; one undecided test, one value that is not
//     text, leaves the local unreadable with the reason given.
//
// The appends are joined as `+` joins text, so each literal piece keeps the
// span where it is written and the verifier checks every quoted byte there.

// compoundText reads the local of binding b declared by declarator d (a
// `let` the file appends to with `+=`). ok is false when the form above does
// not hold: the caller then records the local unreadable as before. A value
// returned with ok true may itself be unknown (an undecided test, a value
// that is not text), with the reason.
func (x *extractor) compoundText(f *file, b binding, d nid, e *env) (val, bool) {
	form := x.compoundFormOf(f, b, d)
	if form == nil {
		return val{}, false
	}
	name := f.text(b.id)
	// The tests first: one not decided settles the reading without the
	// cost of the values.
	runs := make([]bool, len(form.steps))
	for i, s := range form.steps {
		runs[i] = true
		if s.test >= 0 {
			t, ok := x.decideTest(f, s.test, e)
			if !ok {
				return unknown("variable " + name + " is appended to under a condition not decided"), true
			}
			runs[i] = t
		}
	}
	out := x.eval(f, f.field(d, "value"), e)
	if out.k == vNeed {
		return out, true
	}
	if out.k != vText {
		return unknown("variable " + name + " is appended to, and its first value is not text"), true
	}
	for i, s := range form.steps {
		if !runs[i] {
			continue
		}
		r := x.eval(f, f.field(s.a, "right"), e)
		if r.k == vNeed {
			return r, true
		}
		if r.k != vText {
			return unknown("variable " + name + " is appended a value that is not text"), true
		}
		out = concatText(out, r)
	}
	return out, true
}

type compoundKey struct {
	f *file
	d nid
}

// compoundForm is the order of a local's appends: each append and the test
// of the if it is under (none when it is not).
type compoundForm struct {
	steps []compoundStep
}

type compoundStep struct {
	a    nid // the augmented assignment
	test nid // the if's condition, or none
}

// compoundFormOf checks the form once per declarator (it does not depend on
// the values the caller binds) and caches it: nil when it does not hold.
// The check walks the declaring block once, so its cost is bounded by the
// file's size and is not charged to the step budget of every read.
func (x *extractor) compoundFormOf(f *file, b binding, d nid) *compoundForm {
	k := compoundKey{f, d}
	if form, ok := x.compoundForms[k]; ok {
		return form
	}
	form := x.compoundFormCheck(f, b, d)
	if x.compoundForms == nil {
		x.compoundForms = map[compoundKey]*compoundForm{}
	}
	x.compoundForms[k] = form
	return form
}

func (x *extractor) compoundFormCheck(f *file, b binding, d nid) *compoundForm {
	name := f.text(b.id)
	decl := f.parent(d)
	if f.kind(decl) != "lexical_declaration" || !hasPrefixWord(f.text(decl), "let") {
		return nil
	}
	if f.field(d, "name") != b.id || f.field(d, "value") < 0 || len(f.named(decl)) != 1 {
		return nil
	}
	block := f.parent(decl)
	if k := f.kind(block); k != "statement_block" && k != "program" {
		return nil
	}
	if len(x.assignmentsTo(f, b.id, b)) > 0 {
		return nil
	}
	var mine []nid
	for _, a := range f.facts.augAssigns[name] {
		if ob, ok := x.lookup(f, f.field(a, "left"), name); ok && ob.decl == b.decl {
			mine = append(mine, a)
		}
	}
	// The file writes the name only by these appends (any other write of a
	// name spelt the same, even of another binding, refuses the form).
	if len(mine) == 0 || x.constWritesOf(f).names[name] != len(mine) {
		return nil
	}
	form := &compoundForm{}
	byStmt := map[nid]bool{}
	for _, a := range mine {
		if f.text(f.field(a, "operator")) != "+=" || f.kind(f.field(a, "left")) != "identifier" {
			return nil
		}
		st := f.parent(a)
		if f.kind(st) != "expression_statement" || f.start(st) < f.end(decl) {
			return nil
		}
		byStmt[st] = true
	}
	lastEnd := f.end(decl)
	for _, s := range f.named(block) {
		if f.start(s) < f.end(decl) {
			continue
		}
		switch {
		case byStmt[s]:
			form.steps = append(form.steps, compoundStep{a: f.named(s)[0], test: none})
			delete(byStmt, s)
			lastEnd = f.end(s)
		case f.kind(s) == "if_statement" && x.ifAppends(f, s, byStmt):
			if f.field(s, "alternative") >= 0 {
				return nil
			}
			cons := f.field(s, "consequence")
			body := []nid{cons}
			if f.kind(cons) == "statement_block" {
				body = f.named(cons)
			}
			for _, c := range body {
				if byStmt[c] {
					form.steps = append(form.steps, compoundStep{a: f.named(c)[0], test: f.field(s, "condition")})
					delete(byStmt, c)
				}
			}
			lastEnd = f.end(s)
		}
	}
	if len(byStmt) > 0 {
		return nil // an append somewhere else
	}
	// Every read of the local comes after the last append.
	readsOK := true
	f.walk(block, func(n nid) bool {
		if !readsOK {
			return false
		}
		if f.kind(n) != "identifier" || f.text(n) != name || n == b.id {
			return true
		}
		if p := f.parent(n); f.kind(p) == "augmented_assignment_expression" && f.field(p, "left") == n {
			return true
		}
		if ob, ok := x.lookup(f, n, name); ok && ob.decl == b.decl && (f.start(n) < lastEnd || inHoistedFunction(f, n, block)) {
			readsOK = false
		}
		return true
	})
	if !readsOK {
		return nil
	}
	return form
}

// ifAppends reports whether the if statement s appends to the local (one of
// the statements in appends is its lone statement or a statement of its
// block) and holds nothing else but declarations and those appends.
func (x *extractor) ifAppends(f *file, s nid, appends map[nid]bool) bool {
	cons := f.field(s, "consequence")
	if cons < 0 {
		return false
	}
	if appends[cons] {
		return true
	}
	if f.kind(cons) != "statement_block" {
		return false
	}
	found := false
	for _, c := range f.named(cons) {
		switch {
		case appends[c]:
			found = true
		case f.kind(c) == "lexical_declaration":
		case f.kind(c) == "comment":
		default:
			return false
		}
	}
	return found
}

// hasPrefixWord: s starts with the keyword w followed by a space.
func hasPrefixWord(s, w string) bool {
	return len(s) > len(w) && s[:len(w)] == w && (s[len(w)] == ' ' || s[len(w)] == '\t' || s[len(w)] == '\n')
}

// inHoistedFunction: n lies in a function declaration nested in block. Such
// a function may be called before the appends run (it is hoisted), so a read
// in it may see the local part-built.
func inHoistedFunction(f *file, n, block nid) bool {
	for a := f.parent(n); a >= 0 && a != block; a = f.parent(a) {
		switch f.kind(a) {
		case "function_declaration", "generator_function_declaration":
			return true
		}
	}
	return false
}

// decideTest decides an if's condition as decide does, and also a condition
// that is a name bound by `const` to an expression in the same function
// (`const needsId = opts.idField && opts.mode !== "create"; if (needsId)`):
// a const holds its initialiser's value, read under the same bindings.
func (x *extractor) decideTest(f *file, test nid, e *env) (bool, bool) {
	n := test
	for f.kind(n) == "parenthesized_expression" && len(f.named(n)) == 1 {
		n = f.named(n)[0]
	}
	if f.kind(n) == "identifier" {
		if b, ok := x.lookup(f, n, f.text(n)); ok && b.kind == bDecl && f.kind(b.decl) == "variable_declarator" &&
			f.field(b.decl, "name") == b.id && f.field(b.decl, "value") >= 0 {
			if dl := f.parent(b.decl); f.kind(dl) == "lexical_declaration" && hasPrefixWord(f.text(dl), "const") &&
				enclosingFunction(f, dl) == enclosingFunction(f, test) {
				return x.decide(f, f.field(b.decl, "value"), e, 1)
			}
		}
	}
	return x.decide(f, test, e, 0)
}

// enclosingFunction is the innermost function around n, or none.
func enclosingFunction(f *file, n nid) nid {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if functionKind(f.kind(a)) {
			return a
		}
	}
	return none
}

// nameScope is where a name declared at n can be used: the innermost
// function around n, or the file's root (node 0) at module level.
func nameScope(f *file, n nid) nid {
	if fn := enclosingFunction(f, n); fn >= 0 {
		return fn
	}
	return 0
}
