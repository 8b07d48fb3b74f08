package surface

import (
	"slices"
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/literal"
)

// Writes on getProp's own route (methodology §5.2, identifier resolution;
// since 2.3.18, part pw). Part wr (jsoutwrite.go) made a literal's member
// read through an expression (`O.k`, evalMember) not read when a write of
// the package reaches the literal. Four readings still took the literal's
// text whatever was written to it:
//
//   - an array literal's element: `const A = ["a", "right"]; A[1] = …;
//     server.tool("t1", A[1], …)` listed "right" (jsMemberWrite looks at
//     object literals and instances only);
//   - a member getProp reads without an expression, chiefly a tool
//     definition handed to the SDK (`server.registerTool("t", def, …)`
//     reads def.description, fillFromConfig): `def["description"] = …`,
//     `Object.assign(def, {description: …})`, `delete def.description`
//     left "right" listed and nothing recorded, since only `.description
//     = …`, `+=` and Object.defineProperty are reassignment sites (§5.4);
//   - a literal read as a whole: an array's elements (a loop over it,
//     map/forEach/join/Array.from/concat, a spread, an array pattern) and
//     an object's entries (Object.entries/values, for-in) took every
//     element and member as written in the literal;
//   - an array changed in place by a method (reverse, sort, splice, fill,
//     copyWithin, shift, unshift, pop) or by `A.length = …`: its elements
//     were read in the literal's order.
//
// Two neighbouring readings took a text the server does not send whatever
// was written: an array pattern's holes (`const [, d] = A` read A[0]) and
// an array literal's elisions (`["a", , "b"][1]` read "b"); and a Map key
// set twice (`new Map([["t1", "right"]])`, `m.set("t1", …)`) was two
// entries, the constructor's read.
//
// getProp now asks the same index (every write form of jsOutWrites, in the
// files that run with the server, vendored regions skipped) for an object
// literal's and an array literal's member, and elements and entries ask
// it for each element and member (pwElements, pwEntries): a write whose
// object resolves to the same literal node makes the member not read,
// with the write's FILE:N. For an array, a write of "length" and a call
// changing it in place (indexed under pwMutKey by pwIndexMutation, hooked
// in jsIndexWrite) reach every element; a push does not (pushedElements
// follows it). Kept read, as before: a write to another literal or a copy, to
// another key (an array's index is the key String(n) names), a write
// whose object is not resolved (wr's Not done), and a `.description`
// write to a tool definition that checkReassignments records as
// reassigned_at_runtime (the entry keeps its text and carries the
// reassignment; turning it into a gap would hide the rewrite). The tsc
// enum's own `E[E["A"] = 0] = "A"` builds a synthesized object (jsenum.go),
// never a literal node, so it is not seen here.

// pwWritten is why member key of v (an object or array literal of a
// JavaScript file) is not read by getProp; "" when no write reaches it.
func (x *extractor) pwWritten(v val, key string) string {
	if v.f == nil || v.n < 0 || v.f.lang == LangPython || x.jsOutBusy > 0 || len(v.parts) > 0 {
		return ""
	}
	switch {
	case v.k == vObject && v.f.kind(v.n) == "object":
	case v.k == vArray && v.f.kind(v.n) == "array":
	default:
		return ""
	}
	lit := progKey{v.f, v.n, nil}
	keys := []string{key, anyKey}
	if v.k == vArray {
		keys = append(keys, "length", pwMutKey) // A.length = 0, A.reverse(), A.splice(…)
	}
	for _, k := range keys {
		for _, w := range x.pwReached(k)[lit] {
			if k == "description" && v.k == vObject && x.toolObjects[lit] && pwRecordedSite(w) {
				continue // recorded as reassigned_at_runtime (checkReassignments)
			}
			at := w.f.path + ":" + strconv.Itoa(w.f.lineOf(w.site))
			if k == pwMutKey {
				return "element " + key + " of an array changed in place at " + at
			}
			if v.k == vArray {
				return "element " + key + " of an array written at " + at
			}
			return "member " + key + " of an object written at " + at
		}
	}
	return ""
}

// pwReached is, once per key, the literal nodes the writes of key (every
// write of jsOutWrites, `this` left to the class reading) resolve to. The
// receivers are resolved once for the package, not on the bound of the
// site that first asks: every later read is a look-up. Each write's object
// is resolved within pwWriteSteps, and all of them within pwPackageSteps;
// a write not resolved within them is not counted, as a write whose
// object is not resolved is not (jsoutwrite.go; Not done in
// docs/versions/2.3.18/pw.md). Past the package's step budget the package
// is refused as a whole, as everywhere.
func (x *extractor) pwReached(key string) map[progKey][]outsideWrite {
	if m, ok := x.pw[key]; ok {
		return m
	}
	if x.pw == nil {
		x.pw = map[string]map[progKey][]outsideWrite{}
	}
	m := map[progKey][]outsideWrite{}
	x.pw[key] = m
	ws := x.jsOutWrites()[key]
	if len(ws) == 0 {
		return m
	}
	x.jsOutBusy++
	limit, over := x.siteLimit, x.siteOver
	x.siteLimit, x.siteOver = 0, false
	defer func() { x.jsOutBusy--; x.siteLimit, x.siteOver = limit, over }()
	for _, w := range ws {
		if w.f.kind(w.on) == "this" {
			continue // an instance (jsWriteHits), or the class reading's
		}
		seen := map[progKey]bool{}
		for _, o := range x.pwObjects(w) {
			pwLiterals(o, 0, func(l progKey) {
				if !seen[l] {
					seen[l] = true
					m[l] = append(m[l], w)
				}
			})
		}
	}
	return m
}

// pwWriteSteps bounds the resolution of one write's object, and
// pwPackageSteps all of them in a package: a bundle holds thousands of
// writes through a computed key, each object a parameter of a helper
// called from everywhere. A write whose object is not resolved within
// them is not counted, as a write whose object is not resolved at all is
// not (jsoutwrite.go).
const (
	pwWriteSteps   = 2000
	pwPackageSteps = 300_000
)

// pwObjects is outWriteObjects under those bounds, not cached there (a
// bounded answer is not the answer jsMemberWrite reads).
func (x *extractor) pwObjects(w outsideWrite) []val {
	if x.pwSpent >= pwPackageSteps || x.exceeded {
		return nil
	}
	start := x.steps
	x.siteLimit, x.siteOver = x.steps+pwWriteSteps, false
	defer func() { x.pwSpent += x.steps - start; x.siteLimit, x.siteOver = 0, false }()
	var os []val
	if o := x.eval(w.f, w.on, nil); o.k != vNeed {
		os = []val{o}
	} else if frames, _, need2 := x.instances(o.need, nil); need2 == nil {
		for i, fr := range frames {
			if i >= 256 || x.exceeded || x.siteOver {
				break
			}
			os = append(os, x.eval(w.f, w.on, (*env)(nil).push(fr)))
		}
	}
	return os
}

// pwLiterals calls add for each object or array literal node o is (or may
// be, as one of several values).
func pwLiterals(o val, depth int, add func(progKey)) {
	switch o.k {
	case vUnion:
		if depth > 16 {
			return
		}
		for _, a := range o.elems {
			pwLiterals(a, depth+1, add)
		}
	case vObject, vArray:
		if o.f != nil && o.n >= 0 && len(o.parts) == 0 {
			add(progKey{o.f, o.n, nil})
		}
	}
}

// pwRecordedSite reports whether w is one of the reassignment sites §5.4
// records for a tool definition (`.description = …`, `+=`,
// Object.defineProperty(t, "description", …)): siteReassign, outside a
// vendored region of a file that runs with the server, as
// checkReassignments reads them.
func pwRecordedSite(w outsideWrite) bool {
	if w.f.facts == nil || !w.f.runnable() || w.f.inVendoredRegion(w.site) {
		return false
	}
	for _, s := range w.f.facts.sites {
		if s.kind == siteReassign && s.n == w.site {
			return true
		}
	}
	return false
}

// pwMutKey is the key under which jsOutWrites holds the calls that change
// an array in place other than push (whose elements pushedElements
// follows): no property name is spelt so.
const pwMutKey = "\x00changed in place"

// pwIndexMutation adds call n to the index under pwMutKey when it is
// `R.m(…)` with m an array method that moves, replaces or removes
// elements in place (reverse, sort, splice, fill, copyWithin, shift,
// unshift, pop): R's elements are then not the literal's.
func pwIndexMutation(g *file, n nid, add func(string, nid)) {
	fn := g.field(n, "function")
	if g.kind(fn) != "member_expression" {
		return
	}
	if m := g.text(g.field(fn, "property")); m != "push" && arrayMutators[m] {
		add(pwMutKey, g.field(fn, "object"))
	}
}

// pwElements is what elements gives for an array literal's elements els
// (before the pushed ones): an element a write reaches is not read, with
// the write's place.
func (x *extractor) pwElements(v val, els []val) []val {
	var out []val
	for i := range els {
		if why := x.pwWritten(v, strconv.Itoa(i)); why != "" {
			if out == nil {
				out = slices.Clone(els)
			}
			out[i] = unknown(why)
		}
	}
	if out == nil {
		return els
	}
	return out
}

// pwEntries is what entries gives for an object literal's members: the
// value of a member a write reaches is not read, with the write's place.
func (x *extractor) pwEntries(v val, keys, vals []val) []val {
	var out []val
	for i := range keys {
		k, ok := plainText(keys[i])
		if !ok {
			continue
		}
		if why := x.pwWritten(v, k); why != "" {
			if out == nil {
				out = slices.Clone(vals)
			}
			out[i] = unknown(why)
		}
	}
	if out == nil {
		return vals
	}
	return out
}

// arrayPatternIndex is the index of element cur of array pattern p: the
// commas before it, holes included (`const [, d] = A` binds d to A[1];
// until 2.3.17 the named children were counted and d read A[0]). Commas
// are counted in the gaps between the children only, as arrayHasHole
// does; -1 when cur is not a child of p.
func arrayPatternIndex(f *file, p, cur nid) int {
	src := f.bytesOf(p)
	base := f.start(p)
	prev, i := 1, 0
	for _, c := range f.named(p) {
		if f.start(c)-base >= prev {
			i += strings.Count(string(src[prev:f.start(c)-base]), ",")
		}
		if c == cur {
			return i
		}
		prev = f.end(c) - base
	}
	return -1
}

// pwMapKeys is a Map's entries with a key set more than once (`new
// Map([["t1", "right"]])` and `m.set("t1", …)`) as one entry, at the
// first key's place (a Map keeps the order of first insertion), whose
// value is one of the values set: until 2.3.17 each set was an entry of
// its own, and a loop over the Map listed the constructor's "right"
// beside the value set over it. A Set's elements are left as they are.
func pwMapKeys(v val, keys, vals []val) ([]val, []val, bool) {
	if v.spec == "Set" || len(keys) < 2 {
		return keys, vals, true
	}
	at := map[string]int{}
	var ks, vs []val
	var alts [][]val
	for i, k := range keys {
		s, ok := plainText(k)
		if !ok {
			ks, vs, alts = append(ks, k), append(vs, vals[i]), append(alts, nil)
			continue
		}
		if j, seen := at[s]; seen {
			alts[j] = append(alts[j], vals[i])
			continue
		}
		at[s] = len(ks)
		ks, vs, alts = append(ks, k), append(vs, vals[i]), append(alts, nil)
	}
	if len(ks) == len(keys) {
		return keys, vals, true
	}
	for j := range vs {
		if alts[j] != nil {
			vs[j] = union(append([]val{vs[j]}, alts[j]...)...)
		}
	}
	return ks, vs, true
}

// pwArraySlots is the elements of array literal arr, none for each hole
// (`["a", , "b"]` holds "a", undefined, "b"; until 2.3.17 the named
// children were taken as the elements and A[1] read "b"). Comments are
// kept as they were (elements skips nothing else). ok is false when arr
// has no hole: its named children are its elements.
func pwArraySlots(f *file, arr nid) (slots []nid, ok bool) {
	if !arrayHasHole(f, arr) {
		return nil, false
	}
	src := f.bytesOf(arr)
	base := f.start(arr)
	prev, commas, first := 1, 0, true
	for _, c := range f.named(arr) {
		commas += strings.Count(string(src[prev:f.start(c)-base]), ",")
		prev = f.end(c) - base
		if f.kind(c) == "comment" {
			slots = append(slots, c)
			continue
		}
		holes := commas
		if !first {
			holes = commas - 1
		}
		for ; holes > 0; holes-- {
			slots = append(slots, none)
		}
		slots = append(slots, c)
		first, commas = false, 0
	}
	if prev <= len(src)-1 {
		commas += strings.Count(string(src[prev:len(src)-1]), ",")
	}
	holes := commas - 1 // a trailing comma ends the last element
	if first {
		holes = commas
	}
	for ; holes > 0; holes-- {
		slots = append(slots, none)
	}
	return slots, true
}

// pwNumberKey is the key a number written as a write's key names: String(n)
// (`A[0x1] = …` and `Q[1.0] = …` write "1"; until 2.3.17 the source text
// was the key, and "0x1" named no member the extractor reads); a number
// not rendered exactly is every key.
func pwNumberKey(g *file, k nid) string {
	if s, ok := literal.RenderJSNumber([]byte(g.text(k))); ok {
		return s
	}
	return anyKey
}
