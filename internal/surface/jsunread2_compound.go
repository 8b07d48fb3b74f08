package surface

import (
	"strconv"
	"strings"
)

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
//
// Since 2.3.19 (part cmp) the form is wider, for a description a server
// builds at module level under its configuration (mysql's):
//
//	let d = `[${v}] Run SQL queries`;
//	if (isMultiDbMode) { d += " (Multi-DB mode enabled)"; }
//	if (ALLOW_INSERT || ALLOW_DELETE) {
//	    d += " with support for:";
//	    if (ALLOW_INSERT) { d += " INSERT,"; }
//	    if (ALLOW_DELETE) { d += " DELETE,"; }
//	    d = d.replace(/,$/, "") + " and READ operations";
//	} else {
//	    d += " (READ-ONLY)";
//	}
//
//   - a `var` declared once, as a statement of the module or of a
//     function's body, is read as a `let` is;
//   - an `if` may have an `else` (or `else if`), and ifs nest to
//     compoundMaxDepth; each branch holds only writes of the local,
//     declarations and such ifs; at most compoundMaxWrites writes;
//   - a write is `name += value` or `name = name + v1 + …`, whose leftmost
//     operand is the local itself or `name.replace(/P$/, "")` with P
//     characters that match themselves, no flags and an empty replacement
//     (replaceTrailing: the end is cut where its bytes are literal; a hole
//     there leaves the local unreadable); any other `=` refuses the form;
//   - a test is decided first by the caller's values (decideTest), else
//     under the default configuration (jsCond). A test decided so that read
//     configuration is a choice of the site's reading (jsbranches.go): the
//     text by default is read, and each branch not taken is read again as
//     an entry off by default, with the test in its conditions, as a
//     ternary's arms are; the tests in a branch not taken are visited too
//     (reach), so that a reading that flips the test above them reaches
//     them. More than compoundMaxConfTests such tests in the form leave the
//     text (not the site) unread, with the count; beyond that, more than
//     maxArmReadings readings of a site leave the site not read (2.3.11).
//
// A read inside a function created after the last write (a request
// handler) sees the final value: every write is a statement of the
// declaring block or of its ifs, none in a function, so no write can run
// after the block has run. A read in a function declaration after the last
// write (hoisted) is read for a `let` when nothing between the declaration
// and the last write runs code of the package (compoundRegionInert).

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
	// The tests first, on the path the decided tests take: one not decided
	// settles the reading without the cost of the values.
	var writes []nid
	// reach visits the tests of configuration in a branch not taken, so
	// that each is a choice of the site in every reading (a reading that
	// flips the test above it must still reach it: jbArmsNotTaken); a test
	// not decided there is not on the path and does not matter.
	var reach func(steps []compoundStep)
	reach = func(steps []compoundStep) {
		for _, s := range steps {
			if s.a >= 0 {
				continue
			}
			if _, ok := x.decideTest(f, s.test, e); !ok {
				if c, conf := x.compoundConfTest(f, s.test, e); c.ok && conf {
					x.jbChooses(f, s.ifNode, c)
				}
			}
			reach(s.then)
			reach(s.els)
		}
	}
	// More tests of configuration than compoundMaxConfTests would give the
	// site more readings than its bound (maxArmReadings): the text is not
	// read, and the site is, rather than the site failing.
	confTests := 0
	var count func(steps []compoundStep)
	count = func(steps []compoundStep) {
		for _, s := range steps {
			if s.a >= 0 {
				continue
			}
			if _, ok := x.decideTest(f, s.test, e); !ok {
				if _, conf := x.compoundConfTest(f, s.test, e); conf {
					confTests++
				}
			}
			count(s.then)
			count(s.els)
		}
	}
	count(form.steps)
	if confTests > compoundMaxConfTests {
		return unknown("variable " + name + " is built under " + strconv.Itoa(confTests) + " tests of configuration (more than " +
			strconv.Itoa(compoundMaxConfTests) + ": the texts a configured server sends are not all read)"), true
	}
	var path func(steps []compoundStep) bool
	path = func(steps []compoundStep) bool {
		for _, s := range steps {
			if s.a >= 0 {
				writes = append(writes, s.a)
				continue
			}
			t, ok := x.decideTest(f, s.test, e)
			if !ok {
				// A test of configuration: the branch the present
				// reading of the site takes (the default's, and each
				// branch not taken in a reading of its own, as a
				// ternary's arms: jsbranches.go).
				c, conf := x.compoundConfTest(f, s.test, e)
				switch {
				case c.ok && conf:
					t, ok = x.jbChooses(f, s.ifNode, c)
				case c.ok:
					t, ok = c.truth(), true // decided without configuration
				}
			}
			if !ok {
				return false
			}
			taken, other := s.then, s.els
			if !t {
				taken, other = other, taken
			}
			if !path(taken) {
				return false
			}
			reach(other)
		}
		return true
	}
	if !path(form.steps) {
		return unknown("variable " + name + " is appended to under a condition not decided"), true
	}
	out := x.eval(f, f.field(d, "value"), e)
	if out.k == vNeed {
		return out, true
	}
	if out.k != vText {
		return unknown("variable " + name + " is appended to, and its first value is not text"), true
	}
	for _, a := range writes {
		var pieces []nid
		if f.kind(a) == "augmented_assignment_expression" {
			pieces = []nid{f.field(a, "right")}
		} else {
			// name = name + p1 + p2, or name = name.replace(/lit$/, "") + …:
			// the current value (perhaps trimmed), then each piece.
			base, ps := compoundSpine(f, f.field(a, "right"))
			if f.kind(base) == "call_expression" {
				out = replaceTrailing(f, base, out)
				if out.k != vText {
					return unknown("variable " + name + " is cut by .replace where its end is not known"), true
				}
			}
			pieces = ps
		}
		for _, p := range pieces {
			r := x.eval(f, p, e)
			if r.k == vNeed {
				return r, true
			}
			if r.k != vText {
				return unknown("variable " + name + " is appended a value that is not text"), true
			}
			out = concatText(out, r)
		}
	}
	return out, true
}

// compoundConfTest decides test under the default configuration (jsCond)
// and reports whether it read configuration: only such a test chooses a
// text a configured server sends instead; one decided by the package's own
// values (a parameter its only call site binds) has one branch only. The
// configuration read is kept for the entries of the site (jvDecide).
func (x *extractor) compoundConfTest(f *file, test nid, e *env) (jcv, bool) {
	if f.lang == LangPython || f.facts == nil {
		return jUnknown(), false
	}
	mark := len(x.pyConf)
	t := x.jsCond(f, test, e, 0)
	conf := len(x.pyConf) > mark
	if t.ok {
		x.jvReads = append(x.jvReads, x.pyConf[mark:]...)
	}
	x.pyConf = x.pyConf[:mark]
	return t, conf
}

type compoundKey struct {
	f *file
	d nid
}

// compoundForm is the order of a local's writes: each write, and each if
// (its test and the steps of each branch) that holds writes.
type compoundForm struct {
	steps []compoundStep
}

type compoundStep struct {
	a         nid // the write (`+=` or `name = name + …`), or none for an if
	ifNode    nid // the if statement
	test      nid // the if's condition
	then, els []compoundStep
}

// compoundMaxDepth bounds the nesting of ifs around a write, and
// compoundMaxWrites the writes one local may have.
const (
	compoundMaxDepth  = 4
	compoundMaxWrites = 64
	// compoundMaxConfTests: each test of configuration doubles the texts;
	// three give at most 15 readings of the site with branches not taken
	// (the order of flips counts in jbArmsNotTaken), within maxArmReadings.
	compoundMaxConfTests = 3
)

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

// compoundSpine splits `a + b + c` (left-associative) into its leftmost
// operand a and the operands after it in order.
func compoundSpine(f *file, n nid) (nid, []nid) {
	var rev []nid
	for f.kind(n) == "binary_expression" && f.text(f.field(n, "operator")) == "+" {
		rev = append(rev, f.field(n, "right"))
		n = f.field(n, "left")
	}
	out := make([]nid, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return n, out
}

// replaceSuffix is the literal P of a call `.replace(/P$/, "")`: a pattern
// of characters that match themselves, anchored at the end, no flags, and an
// empty replacement. ok is false for any other call.
func replaceSuffix(f *file, call nid) (string, nid, bool) {
	fn := f.field(call, "function")
	if f.kind(fn) != "member_expression" || f.text(f.field(fn, "property")) != "replace" {
		return "", none, false
	}
	args := f.args(call)
	if len(args) != 2 || f.kind(args[0]) != "regex" {
		return "", none, false
	}
	if r, ok := f.stringValue(args[1]); !ok || r != "" || f.kind(args[1]) != "string" {
		return "", none, false
	}
	if fl := f.field(args[0], "flags"); fl >= 0 && f.text(fl) != "" {
		return "", none, false
	}
	pat := f.text(f.field(args[0], "pattern"))
	if len(pat) < 2 || !strings.HasSuffix(pat, "$") {
		return "", none, false
	}
	p := pat[:len(pat)-1]
	for i := 0; i < len(p); i++ {
		c := p[i]
		if strings.IndexByte(`\^$.|?*+()[]{}/`, c) >= 0 || c < 0x20 || c >= 0x7f {
			return "", none, false
		}
	}
	return p, f.field(fn, "object"), true
}

// replaceTrailing applies `.replace(/P$/, "")` (replaceSuffix) to the text
// v: without the g or m flag the pattern matches only at the very end, once.
// The last len(P) bytes must be literal (a hole there could complete the
// match); the kept bytes keep their spans.
func replaceTrailing(f *file, call nid, v val) val {
	p, _, ok := replaceSuffix(f, call)
	if !ok || v.k != vText {
		return unknown("replace not read")
	}
	segs := append([]seg(nil), v.txt.segs...)
	tail := ""
	for i := len(segs) - 1; i >= 0 && len(tail) < len(p); i-- {
		if segs[i].hole {
			return unknown("hole before the end .replace reads")
		}
		tail = segs[i].text + tail
	}
	if !strings.HasSuffix(tail, p) {
		return v // no match: the text as it was
	}
	cut := len(p)
	for cut > 0 {
		last := segs[len(segs)-1]
		if len(last.text) <= cut {
			cut -= len(last.text)
			segs = segs[:len(segs)-1]
			continue
		}
		segs[len(segs)-1] = last.slice(0, len(last.text)-cut)
		cut = 0
	}
	return val{k: vText, txt: &textv{segs: segs}}
}

func (x *extractor) compoundFormCheck(f *file, b binding, d nid) *compoundForm {
	name := f.text(b.id)
	decl := f.parent(d)
	block := f.parent(decl)
	switch {
	case f.kind(decl) == "lexical_declaration" && hasPrefixWord(f.text(decl), "let"):
	case f.kind(decl) == "variable_declaration":
		// A var is the function's (or the module's): declared once, as a
		// statement of the function's body or of the module.
		if x.constWritesOf(f).decls[name] != 1 {
			return nil
		}
		if f.kind(block) == "statement_block" && !functionKind(f.kind(f.parent(block))) {
			return nil
		}
	default:
		return nil
	}
	if f.field(d, "name") != b.id || f.field(d, "value") < 0 || len(f.named(decl)) != 1 {
		return nil
	}
	if k := f.kind(block); k != "statement_block" && k != "program" {
		return nil
	}
	var mine []nid
	for _, a := range f.facts.augAssigns[name] {
		if ob, ok := x.lookup(f, f.field(a, "left"), name); ok && ob.decl == b.decl {
			mine = append(mine, a)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	// The spine reads of `name = name + …` (the value before the write).
	selfReads := map[nid]bool{}
	for _, a := range x.assignmentsTo(f, b.id, b) {
		base, _ := compoundSpine(f, f.field(a, "right"))
		if f.kind(base) == "call_expression" {
			obj := none
			if _, o, ok := replaceSuffix(f, base); ok {
				obj = o
			}
			base = obj
		}
		if base < 0 || f.kind(base) != "identifier" || f.text(base) != name {
			return nil
		}
		if ob, ok := x.lookup(f, base, name); !ok || ob.decl != b.decl {
			return nil
		}
		if f.kind(f.field(a, "left")) != "identifier" {
			return nil
		}
		selfReads[base] = true
		mine = append(mine, a)
	}
	// The file writes the name only by these writes (any other write of a
	// name spelt the same, even of another binding, refuses the form).
	if len(mine) > compoundMaxWrites || x.constWritesOf(f).names[name] != len(mine) {
		return nil
	}
	byStmt := map[nid]bool{}
	for _, a := range mine {
		if f.kind(a) == "augmented_assignment_expression" &&
			(f.text(f.field(a, "operator")) != "+=" || f.kind(f.field(a, "left")) != "identifier") {
			return nil
		}
		st := f.parent(a)
		if f.kind(st) != "expression_statement" || f.start(st) < f.end(decl) {
			return nil
		}
		byStmt[st] = true
	}
	holdsWrite := func(s nid) bool {
		for st := range byStmt {
			if f.start(st) >= f.start(s) && f.end(st) <= f.end(s) {
				return true
			}
		}
		return false
	}
	// body reads the statements of an if's branch: writes, declarations,
	// comments and ifs of the same kind, nothing else (no return, throw,
	// loop or call).
	var ifStep func(s nid, depth int) (compoundStep, bool)
	body := func(n nid, depth int) ([]compoundStep, bool) {
		stmts := []nid{n}
		if f.kind(n) == "statement_block" {
			stmts = f.named(n)
		}
		var out []compoundStep
		for _, c := range stmts {
			switch {
			case byStmt[c]:
				out = append(out, compoundStep{a: f.named(c)[0], test: none})
				delete(byStmt, c)
			case f.kind(c) == "if_statement":
				st, ok := ifStep(c, depth+1)
				if !ok {
					return nil, false
				}
				out = append(out, st)
			case f.kind(c) == "lexical_declaration", f.kind(c) == "comment", f.kind(c) == "empty_statement":
			default:
				return nil, false
			}
		}
		return out, true
	}
	ifStep = func(s nid, depth int) (compoundStep, bool) {
		if depth > compoundMaxDepth {
			return compoundStep{}, false
		}
		cons := f.field(s, "consequence")
		if cons < 0 {
			return compoundStep{}, false
		}
		st := compoundStep{a: none, ifNode: s, test: f.field(s, "condition")}
		var ok bool
		if st.then, ok = body(cons, depth); !ok {
			return compoundStep{}, false
		}
		if alt := f.field(s, "alternative"); alt >= 0 {
			var inner nid = none
			for _, c := range f.named(alt) {
				if f.kind(c) == "comment" {
					continue
				}
				if inner >= 0 {
					return compoundStep{}, false
				}
				inner = c
			}
			if inner < 0 {
				return compoundStep{}, false
			}
			if st.els, ok = body(inner, depth); !ok {
				return compoundStep{}, false
			}
		}
		return st, true
	}
	form := &compoundForm{}
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
		case f.kind(s) == "if_statement" && holdsWrite(s):
			st, ok := ifStep(s, 1)
			if !ok {
				return nil
			}
			form.steps = append(form.steps, st)
			lastEnd = f.end(s)
		}
	}
	if len(byStmt) > 0 {
		return nil // a write somewhere else: a loop, a function, a block
	}
	// A read in a function declaration after the last write (mysql's
	// `export default function createMcpServer`) is hoisted: it may run
	// before the writes only if something between the declaration and the
	// last write calls it. A `let` is in its temporal dead zone before its
	// declaration (a call there throws), so for a `let` it suffices that no
	// code runs between them but the writes' own: no call (but `.replace` of
	// the local and a few builtins), no `new`, no `await` or `yield`.
	hoisted := -1
	hoistedOK := func() bool {
		if hoisted < 0 {
			hoisted = 0
			if f.kind(decl) == "lexical_declaration" && compoundRegionInert(f, block, f.start(decl), lastEnd, name) {
				hoisted = 1
			}
		}
		return hoisted == 1
	}
	// Every read of the local comes after the last write (but the value a
	// write of `name = name + …` reads, at the write).
	readsOK := true
	f.walk(block, func(n nid) bool {
		if !readsOK {
			return false
		}
		if f.kind(n) != "identifier" || f.text(n) != name || n == b.id || selfReads[n] {
			return true
		}
		if p := f.parent(n); (f.kind(p) == "augmented_assignment_expression" || f.kind(p) == "assignment_expression") && f.field(p, "left") == n {
			return true
		}
		if ob, ok := x.lookup(f, n, name); ok && ob.decl == b.decl && (f.start(n) < lastEnd || inHoistedFunction(f, n, block) && !hoistedOK()) {
			readsOK = false
		}
		return true
	})
	if !readsOK {
		return nil
	}
	return form
}

// compoundInertCalls are the calls compoundRegionInert allows: builtins
// that run no code of the package on the values of a configuration.
var compoundInertCalls = map[string]bool{
	"Object.keys": true, "Object.values": true, "Object.entries": true, "Array.isArray": true,
	"Boolean": true, "String": true, "Number": true,
}

// compoundRegionInert reports whether the statements of block within
// [from, to) run no code but their own: no call but `name.replace(…)` and
// compoundInertCalls, no `new`, `await`, `yield` or tagged template.
func compoundRegionInert(f *file, block nid, from, to int, name string) bool {
	ok := true
	f.walk(block, func(n nid) bool {
		if !ok || f.end(n) <= from || f.start(n) >= to {
			return ok
		}
		switch f.kind(n) {
		case "call_expression":
			callee := f.field(n, "function")
			if compoundInertCalls[f.text(callee)] {
				return true
			}
			if f.kind(callee) == "member_expression" && f.text(f.field(callee, "property")) == "replace" &&
				f.text(f.field(callee, "object")) == name && f.kind(f.field(callee, "object")) == "identifier" {
				return true
			}
			ok = false
		case "new_expression", "await_expression", "yield_expression":
			ok = false
		}
		return ok
	})
	return ok
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
