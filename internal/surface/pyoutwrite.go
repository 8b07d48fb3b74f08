package surface

// An attribute assigned on an instance from outside its class (methodology
// §5.2, identifier resolution; since 2.3.17). `spec = Spec(); spec.description
// = "…"` (also `+=` and `setattr(spec, "description", …)`) replaces what the
// class gives the instance: until 2.3.16 the class's value was read (a
// fail-open, section 15's known limit). Every such write of the package
// whose object resolves to an instance of the same package class makes the
// attribute of that class's instances a place not read, with the write's
// place; instances told apart by the call that made them (a different
// first argument node) are not confused. A write whose object the extractor
// does not resolve is not counted (Not done, docs/versions/2.3.17/pyb.md).

// outsideWrite is one assignment to attribute key of an object other than
// self (Python) or this (JavaScript, jsOutsideWrite).
type outsideWrite struct {
	f        *file
	site, on nid // the statement or call; the object written through
}

// pyOutWrites indexes, once per package, the writes `X.key = …`,
// `X.key += …` and `setattr(X, "key", …)` of the Python files, X not
// `self`, by key, of the files that run with the server.
func (x *extractor) pyOutWrites() map[string][]outsideWrite {
	if x.pyReg.outWrites != nil {
		return x.pyReg.outWrites
	}
	idx := map[string][]outsideWrite{}
	for _, f := range x.files {
		if f.lang != LangPython || f.pyFacts == nil || !f.runnable() {
			continue // a test, spec or example file does not run with the server
		}
		f.walk(0, func(n nid) bool {
			if f.inVendoredRegion(n) {
				return false
			}
			pyOtherOutWrites(f, n, idx) // pyoutwrite2.go
			switch f.kind(n) {
			case "assignment", "augmented_assignment":
				l := f.field(n, "left")
				if f.kind(l) == "attribute" {
					if on := f.field(l, "object"); f.text(on) != "self" {
						k := f.text(f.field(l, "attribute"))
						idx[k] = append(idx[k], outsideWrite{f: f, site: n, on: on})
					}
				}
			case "call":
				if f.text(f.field(n, "function")) == "setattr" {
					if a := f.named(f.field(n, "arguments")); len(a) >= 2 && f.text(a[0]) != "self" {
						if kv := pyStringText(f, a[1]); kv.k == vText {
							if k, ok := plainText(kv); ok {
								idx[k] = append(idx[k], outsideWrite{f: f, site: n, on: a[0]})
							}
						}
					}
				}
			}
			return true
		})
	}
	x.pyReg.outWrites = idx
	return idx
}

// pyOutsideWrite is why attribute key of instance v of a package class is
// not read: a write from outside the class to the attribute of an object
// that resolves to an instance of v's class (the same instance as far as
// the extractor can tell); "" when there is none.
func (x *extractor) pyOutsideWrite(v val, key string) string {
	if (v.k != vInstance && v.k != vClass) || v.f == nil || x.pyReg.outBusy > 0 {
		return ""
	}
	idx := x.pyOutWrites()
	ws := append(idx[key][:len(idx[key]):len(idx[key])], idx[anyKey]...)
	if len(ws) == 0 {
		return ""
	}
	x.pyReg.outBusy++
	defer func() { x.pyReg.outBusy-- }()
	for _, w := range ws {
		if hit, viaClass := x.outWriteHits(w, v); hit {
			return pyOutWhy(w, key, viaClass)
		}
	}
	return ""
}

// outWriteObjects is what write w's object resolves to: under no frame,
// or under each frame of the scope it needs (at most 256); kept once per
// write. Python matches them in outWriteHits (pyoutwrite2.go), JavaScript
// in jsWriteHits (jsoutwrite.go). A JavaScript write's object is resolved
// within outWriteSteps, and one not resolved within them is marked cut
// (jsoutwrite_bound.go); an answer resolved past the step limit of the
// site or schema around it is not kept.
func (x *extractor) outWriteObjects(w outsideWrite) []val {
	at := scopeRef{w.f, w.on}
	if os, ok := x.pyReg.outObjects[at]; ok {
		return os
	}
	saved, bounded := x.boundOutWrite(w)
	var os []val
	if o := x.eval(w.f, w.on, nil); o.k != vNeed {
		os = []val{o}
	} else if frames, _, need2 := x.instances(o.need, nil); need2 == nil {
		for i, fr := range frames {
			if i >= 256 || x.exceeded {
				break
			}
			os = append(os, x.eval(w.f, w.on, (*env)(nil).push(fr)))
		}
	}
	cut := x.unboundOutWrite(saved, bounded)
	if x.siteOver || x.exceeded {
		// Resolved past the step limit around it: the objects may be
		// unresolved only for that; not kept (the next check resolves
		// them again under its own limit).
		return os
	}
	if x.pyReg.outObjects == nil {
		x.pyReg.outObjects = map[scopeRef][]val{}
	}
	x.pyReg.outObjects[at] = os
	if cut {
		if x.pyReg.outCut == nil {
			x.pyReg.outCut = map[scopeRef]bool{}
		}
		x.pyReg.outCut[at] = true
	}
	return os
}

// pySameInstance reports whether o (or an alternative of it) is an
// instance of v's class not made by another call: instances whose first
// arguments are different nodes are different objects.
func pySameInstance(o, v val, depth int) bool {
	switch o.k {
	case vUnion:
		if depth > 16 {
			return false
		}
		for _, a := range o.elems {
			if pySameInstance(a, v, depth+1) {
				return true
			}
		}
	case vInstance:
		if o.f != v.f || o.n != v.n {
			return false
		}
		if len(o.args) > 0 && len(v.args) > 0 && (o.args[0].f != v.args[0].f || o.args[0].n != v.args[0].n) {
			return false
		}
		return true
	}
	return false
}
