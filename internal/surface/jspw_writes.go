package surface

import "strconv"

// Writes on getProp's own route (methodology §5.2, identifier resolution;
// since 2.3.18, part pw). Part wr (jsoutwrite.go) made a literal's member
// read through an expression (`O.k`, evalMember) not read when a write of
// the package reaches the literal. Two readings still took the literal's
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
//     = …`, `+=` and Object.defineProperty are reassignment sites (§5.4).
//
// getProp now asks the same index (every write form of jsOutWrites, in the
// files that run with the server, vendored regions skipped) for an object
// literal's and an array literal's member: a write whose object resolves
// to the same literal node makes the member not read, with the write's
// FILE:N. Kept read, as before: a write to another literal or a copy, to
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
	idx := x.jsOutWrites()
	ws := append(idx[key][:len(idx[key]):len(idx[key])], idx[anyKey]...)
	if v.k == vArray {
		if i, err := strconv.Atoi(key); err == nil && strconv.Itoa(i) != key {
			return "" // not an index: a key no write spells as one
		}
	}
	if len(ws) == 0 {
		return ""
	}
	x.jsOutBusy++
	defer func() { x.jsOutBusy-- }()
	for _, w := range ws {
		if w.f.kind(w.on) == "this" || !x.pwHits(w, v) {
			continue // `this`: an instance (jsWriteHits), or the class reading's
		}
		if key == "description" && v.k == vObject && x.toolObjects[progKey{v.f, v.n, nil}] && pwRecordedSite(w) {
			continue // recorded as reassigned_at_runtime (checkReassignments)
		}
		at := w.f.path + ":" + strconv.Itoa(w.f.lineOf(w.site))
		if v.k == vArray {
			return "element " + key + " of an array written at " + at
		}
		return "member " + key + " of an object written at " + at
	}
	return ""
}

// pwHits reports whether write w's object resolves to the literal node of v.
func (x *extractor) pwHits(w outsideWrite, v val) bool {
	for _, o := range x.outWriteObjects(w) {
		if pwSameLiteral(o, v, 0) {
			return true
		}
	}
	return false
}

func pwSameLiteral(o, v val, depth int) bool {
	switch o.k {
	case vUnion:
		if depth > 16 {
			return false
		}
		for _, a := range o.elems {
			if pwSameLiteral(a, v, depth+1) {
				return true
			}
		}
	case vObject, vArray:
		return o.k == v.k && o.f == v.f && o.n == v.n
	}
	return false
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
