package surface

// Alternatives the package writes around the client's own prompt argument
// (methodology §5.4, 2.3.8). A prompt's message often substitutes the
// client's argument with a fallback of the package's: `args.ns || "all"`,
// `args.id ?? "<id>"`, a destructuring default `{ depth = "basic" } = args`,
// or a choice `args.focus ? `Focus on ${args.focus}.` : ""`. The client then
// receives one of a few texts: the client's own string, or one of the
// package's. The package's texts are the publisher's and can be read exactly,
// so they are read, each where it is written, and every byte of them is
// examined; the client's string stays a hole filled by the client (2.3.7).
//
// Such a substitution is recorded, in a template read while a prompt's
// messages are read, as a run of segments:
//
//   - `C || L`, `C ?? L` and the default `{ x = L }` of the client's argument
//     C: the client's hole (filled_by client_argument), then L's literal
//     segments, each with its own span;
//   - `t ? A : B` whose test is not decided: for each arm that is not empty,
//     a hole marking where the package's alternative begins (filled_by
//     package_alternative), then the arm's segments; an empty arm adds
//     nothing.
//
// L, A and B must each be text read exactly: literals and constants of the
// package by the routes of §5.2, templates of them, and holes that are
// themselves the client's argument or such a run. Anything else (a call, a
// concatenation with a value not read, a number, a value of the run time)
// leaves the substitution an ordinary hole, as before.
//
// The run keeps the verifier's one rule true without changing it: every
// stretch of the recorded text with no hole in it is a stretch of one text
// the client can receive. Before each alternative of the package there is a
// hole (the client's, or the alternative's mark), so no quote can run from
// the text before the choice into an alternative, or from one alternative
// into another; the last alternative runs on into the text after the choice,
// as it does when it is the one sent. A quote may therefore miss a sentence
// that only some choice forms, but never joins bytes that are not sent
// together, and the literal segments of each alternative keep their own
// spans, so the verifier (verify-3) checks every quoted byte where it is
// written, piece by piece.
//
// The alternatives travel on the value as alt, beside the unknown that every
// other reader of the value sees as before: only a template substitution
// read while a prompt's messages are read uses them. Whatever drops the
// client's mark (a write of the name or property, a merge, a concatenation)
// drops them too (jsclientargs.go, notClient).

// clientHoleAt is the hole of the client's own argument written at n.
func clientHoleAt(f *file, n nid) seg {
	return seg{hole: true, f: f, start: f.start(n), end: f.end(n), expr: none, client: true}
}

// alternativeHoleAt marks where the package's alternative written at n
// begins.
func alternativeHoleAt(f *file, n nid) seg {
	return seg{hole: true, f: f, start: f.start(n), end: f.end(n), expr: none, alt: true}
}

// alternativeText is the text v stands for as one alternative: a text whose
// every hole is the client's or an alternative's mark, or a value carrying
// alternatives of its own. ok is false for anything else.
func alternativeText(v val) (*textv, bool) {
	if v.alt != nil {
		return v.alt, true
	}
	if v.k != vText || v.txt == nil {
		return nil, false
	}
	for _, s := range v.txt.segs {
		if s.hole && !s.client && !s.alt {
			return nil, false
		}
	}
	return v.txt, true
}

// isClientArgument: the client's own argument, unchanged and with nothing
// of the package's around it.
func isClientArgument(v val) bool { return v.k == vUnknown && v.client && v.alt == nil }

// emptyAlternative: an alternative that adds no bytes and no hole.
func emptyAlternative(t *textv) bool {
	for _, s := range t.segs {
		if s.hole || s.text != "" {
			return false
		}
	}
	return true
}

// withAlternatives is the unknown every other reader sees, carrying segs.
func withAlternatives(why string, segs []seg) val {
	v := unknown(why)
	v.alt = &textv{segs: segs}
	return v
}

// alternativeOf reads expression n, whose value v the caller has already
// evaluated (each expression is evaluated once, so nested choices cost what
// their size does), as one alternative of the package's: the client's
// argument itself (client true), a value carrying alternatives, a template
// read as a prompt's message is read (its substitutions constants, the
// client's argument or such alternatives), or text of the package by the
// constant routes of §5.2 (constText: a literal, a constant, a number as
// String renders it). Anything else is not an alternative read exactly.
func (x *extractor) alternativeOf(f *file, n nid, v val, e *env) (t *textv, client, ok bool) {
	for i := 0; i < 16 && n >= 0 && f.kind(n) == "parenthesized_expression"; i++ {
		n = constInner(f, n)
	}
	if n < 0 {
		return nil, false, false
	}
	switch {
	case isClientArgument(v):
		return nil, true, true
	case v.alt != nil:
		return v.alt, false, true
	case f.kind(n) == "template_string":
		t, ok := alternativeText(v)
		return t, false, ok
	}
	if cv := x.constText(f, n, e); cv.k == vText {
		return cv.txt, false, true
	}
	return nil, false, false
}

// clientFallback reads `C || L` and `C ?? L` (node n, left value l) where C
// is the client's own prompt argument and L text read exactly: the client's
// hole, then L. Either operator sends the client's string or L.
//
// It reads every `C || R` and `C ?? R` of the client's argument C, so the
// right side is evaluated once: `C || ""` keeps C (2.3.7), and a right side
// that is no alternative gives the unknown evalBinary would.
func (x *extractor) clientFallback(l val, f *file, n nid, op string, e *env) (val, bool) {
	if x.clientArgText == 0 || !l.client || l.k != vUnknown {
		return val{}, false
	}
	right := f.field(n, "right")
	if f.kind(right) == "object" && len(f.named(right)) == 0 {
		// `request.params.arguments || {}`: the client's arguments or an
		// object with no member of the package's.
		return l, true
	}
	r := x.eval(f, right, e)
	if r.k == vNeed {
		return unknown("value chosen at run time (" + op + ")"), true
	}
	if s, ok := plainText(r); ok && s == "" {
		return l, true // args.topic || "": the alternative adds no bytes (2.3.7)
	}
	if nothingAlternative(f, right, r) {
		return l, true // arguments ?? undefined (jsprompt_args.go)
	}
	rt, client, ok := x.alternativeOf(f, right, r, e)
	if !ok {
		return unknown("value chosen at run time (" + op + ")"), true
	}
	segs := []seg{clientHoleAt(f, f.field(n, "left"))}
	switch {
	case client:
		// `args.a || args.b`: the client's string either way.
		segs = append(segs, clientHoleAt(f, right))
	case emptyAlternative(rt):
		return l, true
	default:
		segs = append(segs, rt.segs...)
	}
	return withAlternatives("value chosen at run time ("+op+")", segs), true
}

// clientDefault reads the default def of a destructuring pattern applied to
// the client's own argument v: the client's hole, then the default's text.
// The SDK hands a prompt's callback the client's string or nothing, and the
// default fills only the second.
func (x *extractor) clientDefault(v val, f *file, def nid, e *env) (val, bool) {
	if x.clientArgText == 0 || !v.client || v.k != vUnknown || def < 0 {
		return val{}, false
	}
	dv := x.eval(f, def, e)
	if nothingAlternative(f, def, dv) {
		return v, true // (name, args = {}): nothing of the package's (jsprompt_args.go)
	}
	dt, client, ok := x.alternativeOf(f, def, dv, e)
	if !ok || client || emptyAlternative(dt) {
		return val{}, false
	}
	pat := f.parent(def)
	if pat < 0 {
		pat = def
	}
	segs := append([]seg{clientHoleAt(f, pat)}, dt.segs...)
	return withAlternatives("the client's argument or the package's default", segs), true
}

// ternaryAlternatives reads `t ? c : a` (node n) whose test was not decided
// and whose arms are texts read exactly: each arm that is not empty, after
// the mark of an alternative. The union every other reader sees is kept.
func (x *extractor) ternaryAlternatives(f *file, n nid, c, a val, e *env) (val, bool) {
	if x.clientArgText == 0 || c.k == vNeed || a.k == vNeed {
		return val{}, false
	}
	var segs []seg
	for _, arm := range []struct {
		n nid
		v val
	}{{f.field(n, "consequence"), c}, {f.field(n, "alternative"), a}} {
		t, client, ok := x.alternativeOf(f, arm.n, arm.v, e)
		if !ok {
			return val{}, false
		}
		if client {
			// `t ? args.x : "..."`: the client's string is this choice,
			// and its hole marks where the choice begins.
			segs = append(segs, clientHoleAt(f, arm.n))
			continue
		}
		if emptyAlternative(t) {
			continue
		}
		if len(t.segs) == 0 || !t.segs[0].hole {
			// An arm that begins with a hole (a nested choice, the client's
			// argument) is already preceded by one.
			segs = append(segs, alternativeHoleAt(f, arm.n))
		}
		segs = append(segs, t.segs...)
	}
	if len(segs) == 0 {
		return val{}, false
	}
	u := union(c, a)
	if u.k != vUnion && u.k != vUnknown {
		u = unknown("one of several values (a conditional)")
	}
	u.alt = &textv{segs: segs}
	return u, true
}

// alternativeSubstitution reads a template substitution expr (node c) while
// a prompt's messages are read, evaluating it once: a value carrying the
// package's alternatives is their run of segments; otherwise the hole, marked
// as filled by the client where clientHole would mark it (a name or a member
// access that is the client's argument). ok is false outside a prompt's
// messages, where clientHole reads the substitution as in 2.3.7.
func (x *extractor) alternativeSubstitution(f *file, c, expr nid, e *env) (val, bool) {
	if x.clientArgText == 0 || expr < 0 {
		return val{}, false
	}
	h := holeText(f, c, expr, e)
	switch f.kind(expr) {
	case "identifier", "member_expression", "subscript_expression":
		v := x.eval(f, expr, e)
		if v.alt != nil {
			return val{k: vText, txt: &textv{segs: append([]seg(nil), v.alt.segs...)}}, true
		}
		if v.k == vUnknown && v.client {
			h.txt.segs[0].client = true
		}
		return h, true
	case "binary_expression", "ternary_expression", "parenthesized_expression", "template_string":
		if v := x.eval(f, expr, e); v.alt != nil {
			return val{k: vText, txt: &textv{segs: append([]seg(nil), v.alt.segs...)}}, true
		}
	case "call_expression":
		return x.trimSubstitution(f, expr, h, e), true // ${args.x.trim()} (jsprompt_trim.go)
	}
	return h, true
}

// templateAlternatives marks a template read while a prompt's messages are
// read whose holes are all the client's or alternatives' marks: substituted
// through a name into another message, it is spliced in as it is
// (`const where = `${args.city}${args.state ? `, ${args.state}` : ""}`;`
// then `${where}`), and whatever drops the client's mark on the way drops
// this too.
func (x *extractor) templateAlternatives(v val) val {
	if x.clientArgText == 0 || v.k != vText || v.txt == nil || !v.txt.partial() {
		return v
	}
	if t, ok := alternativeText(v); ok {
		v.alt = t
	}
	return v
}
