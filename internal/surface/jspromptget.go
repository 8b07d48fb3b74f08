package surface

import "strconv"

// The messages of a prompt listed by a prompts/list handler
// (setRequestHandler(ListPromptsRequestSchema, ...)) are what the package's
// prompts/get handler (setRequestHandler(GetPromptRequestSchema, ...))
// returns for that prompt's name. The handler is called as the SDK calls it,
// with request.params.name bound to the listed name (its own literal, as a
// client sends it back) and request.params.arguments to the client's
// arguments, which are not the package's text (a substitution of one is a
// hole). While it runs, a function's result is read from the returns its
// body can reach under the bindings of the call: an if whose condition is
// decided (two literal texts compared with ===, !==, == or !=; a literal's
// truthiness; !, && and || of decided parts) takes one branch, a switch
// whose discriminant and case values are literal texts starts at the case
// that matches (or default) and falls through to a break, return or throw.
// Anything else keeps every return it contains, so an undecided branch is
// one more alternative, never a guess: the dispatch on the prompt's name
// that every such handler is built on is what gets decided.

// getPromptHandler is one setRequestHandler(GetPromptRequestSchema, h) of
// the package.
type getPromptHandler struct {
	f *file
	h nid
}

// promptGetHandlers lists the package's runnable prompts/get handlers, in
// file order; bundled third-party code (the SDK's own McpServer, inlined)
// is not the package's handler.
func (x *extractor) promptGetHandlers() []getPromptHandler {
	if x.getPromptDone {
		return x.getPrompt
	}
	x.getPromptDone = true
	for _, g := range x.files {
		if g.lang == LangPython || g.facts == nil || !g.runnable() {
			continue
		}
		for _, n := range g.facts.calls["setRequestHandler"] {
			if g.kind(n) != "call_expression" || g.kind(g.field(n, "function")) != "member_expression" {
				continue
			}
			args := g.args(n)
			if len(args) < 2 || g.inVendoredRegion(n) {
				continue
			}
			if !isGetPromptSchema(g, args[0]) {
				continue
			}
			x.getPrompt = append(x.getPrompt, getPromptHandler{g, args[1]})
		}
	}
	return x.getPrompt
}

func isGetPromptSchema(f *file, n nid) bool {
	if s, ok := f.stringValue(n); ok {
		return s == "prompts/get"
	}
	return f.calleeName(n) == "GetPromptRequestSchema"
}

// promptGetTexts records the messages the package's prompts/get handler
// returns for the prompt named name (nameV, as listed). It reports false
// when the package has no prompts/get handler, which leaves the prompt's
// text to the caller.
func (x *extractor) promptGetTexts(f *file, at nid, name string, nameV val, e *env, c *collector) bool {
	hs := x.promptGetHandlers()
	if len(hs) == 0 {
		return false
	}
	var pick []getPromptHandler
	for _, h := range hs {
		if h.f == f {
			pick = append(pick, h)
		}
	}
	if len(pick) == 0 {
		pick = hs
	}
	if len(pick) != 1 {
		c.unreadMessages(f, at, name, "several prompts/get handlers; the one that answers this server is not determined")
		return true
	}
	hf, hn := pick[0].f, pick[0].h
	var he *env
	if hf == f {
		he = e
	}
	h := x.eval(hf, hn, he)
	if c.needs(h) {
		return true
	}
	if h.k != vFunc {
		c.unreadMessages(f, at, name, "prompts/get handler not resolved: "+reasonOf(h))
		return true
	}
	params := val{k: vObject, n: none,
		keys:  []string{"name", "arguments"},
		props: []val{nameV, clientArguments("the prompt's arguments, given by the client")}} // jsclientargs.go
	req := val{k: vObject, n: none,
		keys:  []string{"method", "params"},
		props: []val{unknown("the request's method"), params}}
	extra := unknown("the request's context")
	// The result's members are read lazily, so the decided reading lasts
	// until its messages are read.
	x.decidedReturns++
	defer func() { x.decidedReturns-- }()
	x.clientArgText++
	defer func() { x.clientArgText-- }()
	ret := x.call(h, []thunk{{v: &req}, {v: &extra}}, nil, he)
	if c.needs(ret) {
		return true
	}
	if ret.k == vUndefined {
		// Every path for this name throws or returns nothing: the client
		// gets no messages, and nothing here says none are sent.
		c.unreadMessages(f, at, name, "the prompts/get handler returns no messages for this name")
		return true
	}
	x.promptResultTexts(f, at, name, ret, e, c)
	return true
}

// reachableReturns lists the return statements of a function body that the
// call bound in ne can reach (see the file comment). A shape it does not
// follow, or a depth or step limit, gives every return of the body.
func (x *extractor) reachableReturns(f *file, body nid, ne *env) []nid {
	w := returnWalk{x: x, f: f, e: ne}
	rets, _, _ := w.stmts(f.named(body), 0)
	if w.bad {
		return returnsOf(f, body)
	}
	return rets
}

type returnWalk struct {
	x   *extractor
	f   *file
	e   *env
	bad bool // a shape not followed: every return counts
}

// stmts walks statements in order: falls says control can pass the last
// one, breaks that a break can leave the enclosing switch.
func (w *returnWalk) stmts(list []nid, depth int) (rets []nid, falls, breaks bool) {
	for _, s := range list {
		r, fl, br := w.stmt(s, depth)
		rets = append(rets, r...)
		breaks = breaks || br
		if !fl || w.bad {
			return rets, false, breaks
		}
	}
	return rets, true, breaks
}

func (w *returnWalk) stmt(s nid, depth int) (rets []nid, falls, breaks bool) {
	f := w.f
	if depth > w.x.opts.MaxDepth || !w.x.step() {
		w.bad = true
		return nil, false, false
	}
	switch f.kind(s) {
	case "return_statement":
		return []nid{s}, false, false
	case "throw_statement":
		return nil, false, false
	case "break_statement":
		if len(f.named(s)) > 0 { // a labelled break
			w.bad = true
		}
		return nil, false, true
	case "continue_statement", "labeled_statement":
		w.bad = true
		return nil, false, false
	case "statement_block":
		return w.stmts(f.named(s), depth+1)
	case "if_statement":
		cons := f.field(s, "consequence")
		alt := none
		if a := f.field(s, "alternative"); a >= 0 {
			if ch := f.named(a); len(ch) > 0 {
				alt = ch[len(ch)-1]
			}
		}
		branch := func(n nid) ([]nid, bool, bool) {
			if n < 0 {
				return nil, true, false
			}
			return w.stmt(n, depth+1)
		}
		if truth, ok := w.x.decide(f, f.field(s, "condition"), w.e, 0); ok {
			if truth {
				return branch(cons)
			}
			return branch(alt)
		}
		r1, f1, b1 := branch(cons)
		r2, f2, b2 := branch(alt)
		return append(r1, r2...), f1 || f2, b1 || b2
	case "switch_statement":
		return w.switchStmt(s, depth)
	case "try_statement":
		if f.field(s, "finalizer") >= 0 {
			w.bad = true
			return nil, false, false
		}
		// The catch clause runs if anything in the block throws: both are
		// alternatives.
		r1, f1, b1 := w.stmt(f.field(s, "body"), depth+1)
		h := f.field(s, "handler")
		if h < 0 {
			return r1, f1, b1
		}
		r2, f2, b2 := w.stmt(f.field(h, "body"), depth+1)
		return append(r1, r2...), f1 || f2, b1 || b2
	}
	// A loop, a declaration, an expression: its returns (a loop's) are all
	// alternatives, and control may pass it.
	return returnsOf(f, s), true, false
}

func (w *returnWalk) switchStmt(s nid, depth int) (rets []nid, falls, breaks bool) {
	f := w.f
	body := f.field(s, "body")
	var cases []nid
	for _, c := range f.named(body) {
		if k := f.kind(c); k == "switch_case" || k == "switch_default" {
			cases = append(cases, c)
		}
	}
	// The statements of the cases from i on, as control falls through them.
	from := func(i int) []nid {
		var out []nid
		for _, c := range cases[i:] {
			value := f.field(c, "value")
			for _, st := range f.named(c) {
				if st != value && f.kind(st) != "comment" {
					out = append(out, st)
				}
			}
		}
		return out
	}
	run := func(i int) ([]nid, bool) {
		r, fl, br := w.stmts(from(i), depth+1)
		return r, fl || br
	}
	start, decided := w.matchCase(f.field(s, "value"), cases)
	if decided {
		if start < 0 {
			return nil, true, false
		}
		r, fl := run(start)
		return r, fl, false
	}
	falls = true // no case may match
	for i := range cases {
		r, fl := run(i)
		rets = append(rets, r...)
		falls = falls || fl
	}
	return rets, falls, false
}

// matchCase is the index of the case a switch starts at (-1: none, no
// default), when the discriminant and every case value before the match
// are literal texts.
func (w *returnWalk) matchCase(disc nid, cases []nid) (int, bool) {
	d, ok := plainText(w.x.eval(w.f, disc, w.e))
	if !ok {
		return 0, false
	}
	def := -1
	for i, c := range cases {
		if w.f.kind(c) == "switch_default" {
			def = i
			continue
		}
		v, ok := plainText(w.x.eval(w.f, w.f.field(c, "value"), w.e))
		if !ok {
			return 0, false
		}
		if v == d {
			return i, true
		}
	}
	return def, true
}

// decide evaluates a condition when its truth follows from literals: it
// reports ok false whenever it does not.
func (x *extractor) decide(f *file, n nid, e *env, depth int) (truth, ok bool) {
	if n < 0 || depth > x.opts.MaxDepth || !x.step() {
		return false, false
	}
	switch f.kind(n) {
	case "parenthesized_expression":
		ch := f.named(n)
		if len(ch) != 1 {
			return false, false
		}
		return x.decide(f, ch[0], e, depth+1)
	case "unary_expression":
		if f.text(f.field(n, "operator")) != "!" {
			return false, false
		}
		t, ok := x.decide(f, f.field(n, "argument"), e, depth+1)
		return !t, ok
	case "binary_expression":
		op := f.text(f.field(n, "operator"))
		l, r := f.field(n, "left"), f.field(n, "right")
		switch op {
		case "&&", "||":
			lt, lok := x.decide(f, l, e, depth+1)
			if lok && (lt == (op == "||")) {
				return lt, true // short-circuit: the right side is not evaluated
			}
			rt, rok := x.decide(f, r, e, depth+1)
			if lok && rok {
				return rt, true
			}
			return false, false
		case "===", "!==", "==", "!=":
			eq, ok := strictlyEqual(x.eval(f, l, e), x.eval(f, r, e))
			if !ok {
				return false, false
			}
			return eq == (op == "===" || op == "=="), true
		}
		return false, false
	}
	return truthiness(x.eval(f, n, e))
}

// strictlyEqual compares two values whose kinds are known: texts by their
// characters, a text against undefined or null (never equal, under == too).
func strictlyEqual(a, b val) (eq, ok bool) {
	as, aok := plainText(a)
	bs, bok := plainText(b)
	switch {
	case aok && bok:
		return as == bs, true
	case aok && (b.k == vUndefined || b.k == vNull), bok && (a.k == vUndefined || a.k == vNull):
		return false, true
	}
	return false, false
}

func truthiness(v val) (truth, ok bool) {
	switch v.k {
	case vUndefined, vNull:
		return false, true
	case vBool:
		return v.boolv, true
	case vObject, vArray, vFunc, vClass:
		return true, true
	}
	if s, ok := plainText(v); ok {
		return s != "", true
	}
	return false, false
}

// decidedFind reads list.find(pred) while a prompts/get handler runs, for a
// predicate written as an arrow function with an expression body
// (`p => p.name === name`): the first element for which the predicate is
// decided true, undefined when it is decided false for every element. A
// predicate undecided on an element before the match leaves the result
// unresolved; any other shape is not handled here.
func (x *extractor) decidedFind(f *file, objNode nid, args []nid, e *env) (val, bool) {
	if len(args) != 1 {
		return val{}, false
	}
	fn := x.eval(f, args[0], e)
	if fn.k != vFunc || fn.f.kind(fn.n) != "arrow_function" {
		return val{}, false
	}
	body := fn.f.field(fn.n, "body")
	if body < 0 || fn.f.kind(body) == "statement_block" {
		return val{}, false
	}
	recv := x.eval(f, objNode, e)
	if recv.k == vNeed {
		return recv, true
	}
	els, ok := x.elements(recv, e)
	if !ok {
		if len(els) == 1 && els[0].k == vNeed {
			return els[0], true
		}
		return unknown("find over an unresolved array: " + reasonOf(recv)), true
	}
	base := e
	if fn.env != nil {
		base = fn.env
	}
	for i, el := range els {
		if el.k == vNeed {
			return el, true
		}
		el := el
		idx := val{k: vNumber, reason: strconv.Itoa(i)}
		ne := base.push(env{scope: scopeRef{fn.f, fn.n}, args: []thunk{{v: &el}, {v: &idx}, {v: &recv}}, calling: true})
		truth, ok := x.decide(fn.f, body, ne, 0)
		if !ok {
			return unknown("find with a predicate not decided on an element"), true
		}
		if truth {
			return el, true
		}
	}
	return val{k: vUndefined}, true
}
