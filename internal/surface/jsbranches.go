package surface

// Branches a decided test does not take (methodology §5.2, Configuration of
// JavaScript and TypeScript servers; 2.3.11, part FO).
//
// A test decided under the default configuration chooses what the server
// as installed sends; what it does not take is what a configured server
// sends, and is the publisher's too. It is examined, or the site is not
// read:
//
//   - A choice between two of the package's own texts or definitions
//     (`lite ? LITE_TEXT : TEXT`, `registerTool(lite ? LITE : FULL)`,
//     `${verbose ? "All." : "Some."}` in a template) is read as the arm
//     taken, and the site is read again with the arm not taken: the entries
//     that reading gives and the first does not (the other text, the other
//     definition) are recorded as entries off by default, with the test in
//     `conditions` (the arm's side, not holding), so the text check
//     examines them and their findings count, as for a registration under a
//     test that does not hold. An arm not taken whose reading fails, needs
//     a binding the first did not, or is not reached leaves the site not
//     read (declaration_not_parsed).
//   - A list's `test ? a : b` whose branch not taken cannot be read, and an
//     assignment that cannot be read made only under a test that does not
//     hold (jsfilter.go), are set aside only when what was not read is a
//     subset of the list read (jbSubsetOf): the taken branch's very binding
//     filtered or sliced (`all.filter(cb)`, `all.slice(0, n)`, a chain of
//     them), or `x = x.filter(...)`. Anything else is not set aside and
//     leaves the value unresolved.

import (
	"strconv"

	"github.com/attestari/attestari/internal/rundir"
)

// maxArmReadings bounds the readings of one site with arms not taken; a
// site with more choices than this is not read.
const maxArmReadings = 16

// maxSubsetChain bounds a chain of filter and slice calls read by jbSubsetOf.
const maxSubsetChain = 8

// jbKey is one choice: the ternary's node.
type jbKey struct {
	f *file
	n nid
}

// jbChoice is a choice read as its arm taken while a site was read.
type jbChoice struct {
	key   jbKey
	truth bool // the test's value under the default configuration
}

// jbState is the extractor's record of choices (extract.go holds one).
type jbState struct {
	active  int            // readings of JS sites under way
	flip    map[jbKey]bool // choices read with the arm not taken
	applied map[jbKey]int  // times a flipped choice was reached
	pending []jbChoice     // choices read as the arm taken, for the site
}

// jbChooses reports whether the choice n, whose test is t, is read with
// the arm not taken in the present reading, and otherwise records it for
// the site. It reports false when no site reading is under way (the choice
// is then not read: the caller leaves its value as before).
func (x *extractor) jbChooses(f *file, n nid, t jcv) (consequence bool, ok bool) {
	if x.jb.active == 0 {
		return false, false
	}
	k := jbKey{f, n}
	if x.jb.flip[k] {
		x.jb.applied[k]++
		return !t.truth(), true
	}
	x.jb.pending = append(x.jb.pending, jbChoice{key: k, truth: t.truth()})
	return t.truth(), true
}

// jbTextChoice reads `test ? a : b` whose arms (c and a, evaluated) are two
// texts, or two object literals (whole definitions), that differ, when the
// test is decided under the default configuration: the arm of the present
// reading (jbChooses). A choice between lists is left to jsTernaryByDefault.
func (x *extractor) jbTextChoice(f *file, n nid, c, a val, e *env) (val, bool) {
	if x.jb.active == 0 || c.k != a.k || c.k != vText && c.k != vObject {
		return val{}, false
	}
	if _, ok := sameText([]val{c, a}); ok {
		return val{}, false // one text either way
	}
	t := x.jvDecide(f, f.field(n, "condition"), e)
	if !t.ok {
		return val{}, false
	}
	cons, ok := x.jbChooses(f, n, t)
	if !ok {
		return val{}, false
	}
	if cons {
		return c, true
	}
	return a, true
}

// jbConstChoice is constText for `test ? a : b` whose test is decided: the
// constant text of the arm of the present reading. Both arms must be read
// as constant texts, so the arm not taken is one when it is read.
func (x *extractor) jbConstChoice(f *file, n nid, e *env) (val, bool) {
	if x.jb.active == 0 || f.lang == LangPython || f.facts == nil {
		return val{}, false
	}
	cn, an := f.field(n, "consequence"), f.field(n, "alternative")
	cv := x.constText(f, cn, e)
	av := x.constText(f, an, e)
	if cv.k != vText || av.k != vText {
		return val{}, false
	}
	t := x.jvDecide(f, f.field(n, "condition"), e)
	if !t.ok {
		return val{}, false
	}
	if _, same := sameText([]val{cv, av}); same {
		return cv, true // one text either way
	}
	cons, ok := x.jbChooses(f, n, t)
	if !ok {
		return val{}, false
	}
	if cons {
		return cv, true
	}
	return av, true
}

// jbBegin starts one reading of a site: choices it reads are recorded from
// the mark it returns.
func (x *extractor) jbBegin() int {
	if x.jb.flip == nil {
		x.jb.flip, x.jb.applied = map[jbKey]bool{}, map[jbKey]int{}
	}
	x.jb.active++
	return len(x.jb.pending)
}

// jbArmsNotTaken reads the site again once for each arm not taken of the
// choices the reading c read (from mark on), and adds to c the entries each
// such reading gives that c does not hold, off by default. A reading that
// fails, or that does not reach the arm, fails the site.
func (x *extractor) jbArmsNotTaken(f *file, site nid, e *env, c *collector, mark int, fn func(e *env, c *collector)) {
	pend := append([]jbChoice(nil), x.jb.pending[mark:]...)
	x.jb.pending = x.jb.pending[:mark]
	if c.need != nil || len(pend) == 0 {
		return
	}
	have := map[string]bool{}
	for _, en := range c.entries {
		have[jbEntryKey(en)] = true
	}
	type flipSet []jbChoice
	var queue []flipSet
	queued := map[string]bool{}
	push := func(base flipSet, ch jbChoice) {
		for _, b := range base {
			if b.key == ch.key {
				return
			}
		}
		s := append(append(flipSet(nil), base...), ch)
		id := ""
		for _, b := range s {
			id += strconv.Itoa(int(b.key.n)) + b.key.f.path + "\x00"
		}
		if !queued[id] {
			queued[id] = true
			queue = append(queue, s)
		}
	}
	for _, p := range pend {
		push(nil, p)
	}
	var added []rundir.Entry
	for readings := 0; len(queue) > 0; readings++ {
		if readings >= maxArmReadings {
			c.failures = append(c.failures, "more than "+strconv.Itoa(maxArmReadings)+" texts chosen by configuration at this site (the arms not taken are not all read)")
			return
		}
		set := queue[0]
		queue = queue[1:]
		for _, s := range set {
			x.jb.flip[s.key] = true
			x.jb.applied[s.key] = 0
		}
		c2 := &collector{file: f, site: site}
		m2, p2 := len(x.jvReads), len(x.jb.pending)
		fn(e, c2)
		x.jvAttachReads(c2, m2)
		more := append([]jbChoice(nil), x.jb.pending[p2:]...)
		x.jb.pending = x.jb.pending[:p2]
		reached := true
		for _, s := range set {
			reached = reached && x.jb.applied[s.key] > 0
			delete(x.jb.flip, s.key)
			delete(x.jb.applied, s.key)
		}
		last := set[len(set)-1].key
		what := "the arm not taken by default of `" + truncate(last.f.text(last.f.field(last.n, "condition")), 80) + "`"
		switch {
		case !reached:
			c.failures = append(c.failures, what+" is not reached when the site is read again")
			return
		case c2.need != nil:
			c.failures = append(c.failures, what+" needs a binding the arm taken does not")
			return
		case len(c2.failures) > 0:
			c.failures = append(c.failures, what+" could not be read: "+truncate(c2.failures[0], 160))
			return
		}
		c.runtime = append(c.runtime, c2.runtime...)
		c.notes = append(c.notes, c2.notes...)
		for _, en := range c2.entries {
			k := jbEntryKey(en)
			if have[k] {
				continue
			}
			have[k] = true
			for _, s := range set {
				g := s.key.f
				test := g.field(s.key.n, "condition")
				shown := test
				if g.kind(test) == "parenthesized_expression" {
					if in := constInner(g, test); in >= 0 {
						shown = in
					}
				}
				en.Conditions = append(append([]rundir.Condition(nil), en.Conditions...), rundir.Condition{
					File: g.path, Line: g.lineOf(test), Test: truncate(g.text(shown), 200), When: !s.truth, Holds: rundir.HoldsFalse})
			}
			added = append(added, en)
		}
		for _, p := range more {
			push(set, p)
		}
	}
	if len(added) > 0 {
		x.pyAnyOff = true // a later reading listing one by default turns it on (mergeConfiguration)
	}
	c.entries = append(c.entries, added...)
}

// jbEntryKey is what tells two readings' entries apart: an entry of the
// reading with an arm not taken that the reading by default also gave is
// not a second entry.
func jbEntryKey(e rundir.Entry) string {
	k := e.Kind + "\x00" + e.Parent + "\x00" + e.Name + "\x00" + e.NameState + "\x00" + e.URI + "\x00" + e.DescriptionState + "\x00" +
		e.DescriptionRaw + "\x00" + e.SchemaKind + "\x00" + e.SchemaRaw + "\x00" + e.UnreadableReason
	for _, s := range e.Spans {
		k += "\x00" + s.File + ":" + strconv.Itoa(s.Start) + "-" + strconv.Itoa(s.End)
	}
	for _, h := range e.Holes {
		k += "\x00hole:" + strconv.Itoa(h.RawOffset) + ":" + h.File + ":" + strconv.Itoa(h.Start)
	}
	return k
}

// jbEnd ends the reading jbBegin started (also when it panicked): the
// choices it recorded are dropped, and with no reading left no arm is
// flipped.
func (x *extractor) jbEnd(mark int) {
	x.jb.active--
	if mark <= len(x.jb.pending) {
		x.jb.pending = x.jb.pending[:mark]
	}
	if x.jb.active <= 0 {
		x.jb.active = 0
		clear(x.jb.flip)
		clear(x.jb.applied)
	}
}

// jbSubsetOf reports whether the list expression sub is proved to hold only
// elements of the list expression of holds: sub is, through a chain of at
// least one and at most maxSubsetChain calls of `filter` (with a callback
// whose own body writes nothing) and `slice`, a receiver that is the same
// list as of (jbSameList). A filter or slice copies elements of its
// receiver and adds none, so what such a branch lists was listed by of.
func (x *extractor) jbSubsetOf(f *file, sub, of nid, e *env) bool {
	n := jbBare(f, sub)
	calls := 0
	for ; calls < maxSubsetChain && n >= 0 && f.kind(n) == "call_expression"; calls++ {
		callee := f.field(n, "function")
		if f.kind(callee) != "member_expression" {
			return false
		}
		args := f.args(n)
		switch f.text(f.field(callee, "property")) {
		case "filter":
			if len(args) == 0 || !jbWritesNothing(f, args[0], true) {
				return false
			}
			if f.kind(args[0]) == "identifier" {
				if _, bound := x.lookup(f, args[0], "Boolean"); bound {
					return false // not the global Boolean
				}
			}
		case "slice":
			for _, a := range args {
				if !jbWritesNothing(f, a, false) {
					return false
				}
			}
		default:
			return false
		}
		n = jbBare(f, f.field(callee, "object"))
	}
	if calls == 0 || n < 0 {
		return false
	}
	return x.jbSameList(f, n, of, e)
}

// jbSameList reports whether expressions r and of are proved to be the same
// list: one binding of the package (two identifiers the lookup leads to one
// declaration), or both read, by the evaluator's routes, to one array
// literal of the package. `[...X]` and `X.slice()` with no argument, as of,
// are copies of X: the same elements.
func (x *extractor) jbSameList(f *file, r, of nid, e *env) bool {
	r, of = jbBare(f, r), jbBare(f, of)
	for i := 0; i < 2 && of >= 0; i++ {
		if f.kind(of) == "array" {
			if els := f.named(of); len(els) == 1 && f.kind(els[0]) == "spread_element" {
				if in := f.named(els[0]); len(in) == 1 {
					of = jbBare(f, in[0])
					continue
				}
			}
		}
		if f.kind(of) == "call_expression" && len(f.args(of)) == 0 {
			if callee := f.field(of, "function"); f.kind(callee) == "member_expression" && f.text(f.field(callee, "property")) == "slice" {
				of = jbBare(f, f.field(callee, "object"))
				continue
			}
		}
		break
	}
	if r < 0 || of < 0 {
		return false
	}
	if f.kind(r) == "identifier" && f.kind(of) == "identifier" && f.text(r) == f.text(of) {
		b1, ok1 := x.lookup(f, r, f.text(r))
		b2, ok2 := x.lookup(f, of, f.text(of))
		if ok1 && ok2 && b1.decl == b2.decl && b1.id == b2.id {
			return true
		}
	}
	k1, k2 := f.kind(r), f.kind(of)
	if k1 != "identifier" && k1 != "member_expression" || k2 != "identifier" && k2 != "member_expression" {
		return false
	}
	mark := len(x.pyConf)
	rv := x.eval(f, r, e)
	ov := x.eval(f, of, e)
	x.pyConf = x.pyConf[:mark]
	return rv.k == vArray && ov.k == vArray && rv.f != nil && rv.f == ov.f && rv.n >= 0 && rv.n == ov.n && rv.f.kind(rv.n) == "array"
}

// jbAssignedSubset reports whether assignment a to a variable assigns a
// subset of the variable's own list: of the variable itself, or of the
// list its declaration initialises it to (`let tools = [...ALL]; ...
// tools = ALL.filter(...)`).
func (x *extractor) jbAssignedSubset(f *file, a nid, e *env) bool {
	left, right := f.field(a, "left"), f.field(a, "right")
	if f.kind(left) != "identifier" {
		return false
	}
	if x.jbSubsetOf(f, right, left, e) {
		return true
	}
	b, ok := x.lookup(f, left, f.text(left))
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
		return false
	}
	init := f.field(b.decl, "value")
	return init >= 0 && x.jbSubsetOf(f, right, init, e)
}

// jbBare is n inside parentheses, `as T`, `satisfies T` and `x!`.
func jbBare(f *file, n nid) nid {
	for i := 0; i < maxSubsetChain && n >= 0; i++ {
		switch f.kind(n) {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
			n = constInner(f, n)
		default:
			return n
		}
	}
	return none
}

// jbMutators are the methods that change their receiver in place.
var jbMutators = map[string]bool{
	"push": true, "pop": true, "shift": true, "unshift": true, "splice": true, "sort": true, "reverse": true,
	"fill": true, "copyWithin": true, "set": true, "add": true, "delete": true, "clear": true,
	"assign": true, "defineProperty": true, "defineProperties": true, "setPrototypeOf": true,
}

// jbWritesNothing reports whether expression n (a filter's callback when fn
// is set: an arrow function or function expression of the package, or the
// global Boolean) holds no assignment, update, `delete` or call of a
// method that changes its receiver. Its nodes are visited within the
// extractor's bound on one walk.
func jbWritesNothing(f *file, n nid, fn bool) bool {
	if fn {
		switch f.kind(n) {
		case "arrow_function", "function_expression", "function":
		case "identifier":
			return f.text(n) == "Boolean"
		default:
			return false
		}
	}
	stack := []nid{n}
	for visited := 0; len(stack) > 0; visited++ {
		if visited > maxFilterElements {
			return false
		}
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch f.kind(c) {
		case "assignment_expression", "augmented_assignment_expression", "update_expression":
			return false
		case "unary_expression":
			if op := f.field(c, "operator"); op >= 0 && f.text(op) == "delete" {
				return false
			}
		case "call_expression":
			if callee := f.field(c, "function"); f.kind(callee) == "member_expression" && jbMutators[f.text(f.field(callee, "property"))] {
				return false
			}
		}
		stack = append(stack, f.named(c)...)
	}
	return true
}
