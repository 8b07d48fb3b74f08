package surface

import (
	"strconv"
	"strings"
)

// Handlers held in an options literal, and awaited results (since 2.3.18,
// part lin). Two routes of returnCallers (schematext_mut_ret.go) that used
// to keep the gap "the object is (put into a literal that is) returned":
//
//   - An unnamed function returning the object, written as the value of a
//     pair `K: () => …` of an object literal that is itself an argument of a
//     call of a function of the package (`run({ init: async () => ({ tools
//     }) })`): the literal is only reachable through that function's
//     parameter, so the parameter's uses are enumerated. `p.K(…)` is a call
//     of the handler: its result (awaited or not) is classified as the
//     object by useChanges, under the keys leading to it (the return of a
//     request-handler registration's callback only serialises it, a read; a
//     write through it is a change). A parameter whose member K is never
//     called gives the object to nobody: a read. Accepted too: a member
//     under another key read as a value, a method under another key called
//     when it cannot reach its receiver (thislessMethod: an arrow, a
//     function without this), K tested (`if (p.K)`, `!p.K`, `typeof p.K`,
//     `p.K && …`, a comparison). Everything else is a gap: p used other
//     than through a member (stored, returned, handed to any call, put into
//     a literal, destructured), p.K not called (handed on, stored, bound),
//     p[k] with k not named, a member of p written or deleted, a method of p
//     that may reach it through this, a getter or setter or __proto__ in
//     the literal, the callee not a function of the package, the parameter
//     not a plain name, the function reading arguments, a spread argument,
//     and a literal held by a name (not followed here).
//   - `await f()` where f is followed by returnCallers (a named, unexported
//     function of the package) or is such a handler: the awaited value is
//     the returned value itself when that value cannot be a thenable (an
//     object literal with no member then that could be a function, no
//     spread and no computed key; an array literal; a name of either). A
//     thenable's then is called by await with the literal as this, so it
//     stays a gap. Without await the call's result is still classified as
//     the object (a promise's then called on it is a method not read).
//
// Bounded like the other follows: mutNestLimit levels, mutStepLimit uses.

// handlerMemberCallers classifies the calls of fn (an unnamed function of
// file f returning the object at ret, path below the returned value) when
// fn is the value of a pair of an object literal handed to a function of
// the package. known false when fn is not of that shape.
func (r *schemaRead) handlerMemberCallers(f *file, fn, ret nid, path []string) (ch mutChange, ok, known bool) {
	if c, good, known := r.esbuildExportGetter(f, fn, ret, path); known { // schematext_mut_top.go
		return c, good, true
	}
	key, obj, call := memberOfArgument(f, fn) // schematext_mut_top.go
	if call < 0 || key == "__proto__" {
		return mutChange{}, false, false
	}
	gap := func(g *file, at nid, why string) (mutChange, bool, bool) {
		return mutChange{g, at, why}, false, true
	}
	idx, oo := -1, mutOuter(f, obj)
	for i, a := range f.args(call) {
		if f.kind(a) == "spread_element" {
			return gap(f, a, "the literal holding the handler returning the object is handed on with a spread argument")
		}
		if a == oo {
			idx = i
		}
	}
	v := r.x.eval(f, f.field(call, "function"), nil)
	if idx < 0 || v.f == nil || v.n < 0 || !functionKind(v.f.kind(v.n)) || v.f.lang == LangPython {
		return gap(f, call, "the literal holding the handler returning the object is handed to a call not of the package")
	}
	for _, c := range f.named(obj) {
		switch f.kind(c) {
		case "method_definition":
			if g := f.field(c, "name"); g >= 0 && f.start(g) > f.start(c) {
				if pre := f.src[f.start(c):f.start(g)]; mutAccessorPrefix(string(pre)) {
					return gap(f, c, "the literal holding the handler returning the object has a getter or setter")
				}
			}
		case "pair":
			if k := f.field(c, "key"); f.kind(k) != "computed_property_name" && propKeyName(f, k) == "__proto__" {
				return gap(f, c, "the literal holding the handler returning the object sets its prototype")
			}
		}
	}
	g, cfn := v.f, v.n
	pid := mutParamID(g, cfn, idx)
	if pid < 0 {
		return gap(g, cfn, "the literal holding the handler returning the object is handed to a parameter that is not a plain name")
	}
	for _, n := range r.x.usesOf(g, cfn, "arguments") {
		if b, found := r.x.lookup(g, n, "arguments"); !found || b.kind == bParam && b.fn == cfn {
			return gap(g, n, "a function handed the handler returning the object reads its arguments")
		}
	}
	if r.mutDepth >= mutNestLimit {
		return gap(f, call, "the object is followed through more than "+strconv.Itoa(mutNestLimit)+" calls")
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	// The literal, for the methods called on the parameter (thislessMethod).
	if r.mutArgs == nil {
		r.mutArgs = map[progKey]val{}
	}
	k := progKey{g, pid, nil}
	prev, had := r.mutArgs[k]
	r.mutArgs[k] = val{f: f, n: obj}
	defer func() {
		if had {
			r.mutArgs[k] = prev
		} else {
			delete(r.mutArgs, k)
		}
	}()
	name := g.text(pid)
	ch, ok = r.bindingUses(g, cfn, pid, name, func(b binding) bool { return b.kind == bParam && b.id == pid }, func(n nid) (mutChange, bool) {
		return r.handlerParamUse(g, n, key, f, ret, path)
	})
	return ch, ok, true
}

// mutAccessorPrefix reports whether the text before a method's name makes
// it a getter or a setter.
func mutAccessorPrefix(pre string) bool {
	for _, w := range strings.Fields(pre) {
		if w == "get" || w == "set" {
			return true
		}
	}
	return false
}

// handlerParamUse classifies one use n (in file g) of the parameter bound
// to the literal holding the handler under key (of file f, returning the
// object at ret, path below the returned value).
func (r *schemaRead) handlerParamUse(g *file, n nid, key string, f *file, ret nid, path []string) (mutChange, bool) {
	no := func(at nid, why string) (mutChange, bool) { return mutChange{g, at, why}, false }
	if g.kind(n) != "identifier" {
		return no(n, "the literal holding the handler returning the object is handed on")
	}
	o := mutOuter(g, n)
	m := g.parent(o)
	if m < 0 || (g.kind(m) != "member_expression" && g.kind(m) != "subscript_expression") || g.field(m, "object") != o {
		return no(o, "the literal holding the handler returning the object is used other than through its members")
	}
	mk := mutKey(g, m)
	mo := mutOuter(g, m)
	q := g.parent(mo)
	if q < 0 {
		return no(m, "a member of the literal holding the handler is used where the reading does not follow")
	}
	switch g.kind(q) {
	case "assignment_expression", "augmented_assignment_expression":
		if g.field(q, "left") == mo {
			return no(q, "a member of the literal holding the handler returning the object is written")
		}
	case "update_expression":
		return no(q, "a member of the literal holding the handler returning the object is incremented")
	case "unary_expression":
		if g.text(g.field(q, "operator")) == "delete" {
			return no(q, "a member of the literal holding the handler returning the object is deleted")
		}
	}
	called := g.kind(q) == "call_expression" && g.field(q, "function") == mo
	if mk == "*" {
		return no(m, "a member of the literal holding the handler returning the object is used under a key not named")
	}
	if mk != key {
		if called && !r.thislessMethod(g, m) {
			return no(q, "a method of the literal holding the handler returning the object is called, which may reach it through this")
		}
		return mutChange{}, true // another member read as a value
	}
	if !called {
		if handlerTested(g, mo, q) {
			return mutChange{}, true
		}
		return no(m, "the handler returning the object is handed on")
	}
	if r.mutDepth >= mutNestLimit {
		return no(q, "the object is followed through more than "+strconv.Itoa(mutNestLimit)+" calls")
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	_, c, good := r.useChanges(g, r.awaitedResult(g, q, f, ret), path)
	return c, good
}

// handlerTested reports whether the member mo (parent q) is only tested:
// an if's or a ternary's condition, !, typeof, a comparison, or the left of
// && (whose value is then falsy, never the function).
func handlerTested(g *file, mo, q nid) bool {
	switch g.kind(q) {
	case "if_statement", "while_statement":
		return g.field(q, "condition") == mo
	case "ternary_expression":
		return g.field(q, "condition") == mo
	case "unary_expression":
		switch g.text(g.field(q, "operator")) {
		case "!", "typeof":
			return true
		}
	case "binary_expression":
		switch g.text(g.field(q, "operator")) {
		case "===", "!==", "==", "!=":
			return true
		case "&&":
			return g.field(q, "left") == mo
		}
	}
	return false
}

// awaitedResult is the node standing for the value a call of the function
// returning at ret (of file f) gives: the await around the call (in file g)
// when the returned value cannot be a thenable, else the call itself.
func (r *schemaRead) awaitedResult(g *file, call nid, f *file, ret nid) nid {
	p := g.parent(mutOuter(g, call))
	if p < 0 || g.kind(p) != "await_expression" || !r.notThenable(f, ret) {
		return call
	}
	return p
}

// notThenable reports whether the value returned at ret (a return
// statement, or an arrow function's expression body) is written as an
// object literal that has no member then that could be a function, no
// spread and no computed key, an array literal, or a name of one of them.
func (r *schemaRead) notThenable(f *file, ret nid) bool {
	var e nid = none
	switch f.kind(ret) {
	case "return_statement":
		if c := nonComment(f, ret); len(c) == 1 {
			e = c[0]
		}
	case "arrow_function":
		e = f.field(ret, "body")
	}
	if e < 0 {
		return false
	}
	e = unparen(f, e)
	if f.kind(e) == "identifier" {
		v := r.x.eval(f, e, nil)
		if v.f == nil || v.n < 0 || v.f.lang == LangPython {
			return false
		}
		f, e = v.f, v.n
	}
	switch f.kind(e) {
	case "array":
		return true
	case "object":
	default:
		return false
	}
	for _, c := range f.named(e) {
		switch f.kind(c) {
		case "comment":
		case "pair":
			k := f.field(c, "key")
			if f.kind(k) == "computed_property_name" || propKeyName(f, k) == "" {
				return false
			}
			if propKeyName(f, k) == "then" {
				switch f.kind(unparen(f, f.field(c, "value"))) {
				case "object", "array", "string", "number", "true", "false", "null":
				default:
					return false
				}
			}
		case "shorthand_property_identifier":
			if f.text(c) == "then" {
				return false
			}
		case "method_definition":
			if nm := f.field(c, "name"); nm < 0 || f.kind(nm) == "computed_property_name" || propKeyName(f, nm) == "then" || propKeyName(f, nm) == "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// mutMemoKey names one declChanges question asked from the top of a
// schema's check: the declared name and the path below it.
type mutMemoKey struct {
	f    *file
	decl nid
	path string
}

// mutMemoEntry is its answer.
type mutMemoEntry struct {
	del []string
	ch  mutChange
	ok  bool
}

// declMemo answers a declChanges question asked from the top (mutDepth 0,
// no parameter bound) that this schema's reading already asked: a schema
// spreading one object under several keys checks the same name each time,
// and the check, now followed further, would pass the reading's step
// limit on the repeats. hit true fills the results; otherwise put, when
// not nil, keeps the answer once declChanges has it. The answer depends on
// the package only (the walks evaluate with no site environment), so it is
// the same for each repeat.
func (r *schemaRead) declMemo(f *file, decl nid, path []string, del *[]string, ch *mutChange, ok *bool) (hit bool, put func()) {
	if r.mutDepth != 0 || len(r.mutArgs) != 0 {
		return false, nil
	}
	k := mutMemoKey{f, decl, strings.Join(path, "\x00")}
	if e, found := r.mutMemo[k]; found {
		*del, *ch, *ok = append([]string(nil), e.del...), e.ch, e.ok
		return true, nil
	}
	return false, func() {
		if r.mutMemo == nil {
			r.mutMemo = map[mutMemoKey]mutMemoEntry{}
		}
		r.mutMemo[k] = mutMemoEntry{append([]string(nil), (*del)...), *ch, *ok}
	}
}
