package surface

// A class field read for an instance (methodology §5.2, identifier
// resolution; since 2.3.16). `class Spec { description = "Reads files.";
// constructor(d) { if (d) this.description = d; } }` gives an instance the
// field's initialiser only until an assignment to this.description replaces
// it. Until 2.3.15 the initialiser was read for every instance, whatever the
// constructor or a method assigned: a fail-open (`new Spec("…")` listed
// with "Reads files.").

// fieldOfInstance reads member key of v, which class's body declares as a
// field initialised by the expression at field: the union of the field and
// of every this.key = … of the class (the constructor's under the call that
// made v), the field left out when the constructor assigns the member as a
// statement of its own block (it runs after the field is initialised, on
// every construction).
func (x *extractor) fieldOfInstance(v val, f *file, class, ctor, field nid, key string, e *env) val {
	var alts []val
	every := false
	for _, a := range f.facts.propAssigns[key] {
		left := f.field(a, "left")
		if f.kind(f.field(left, "object")) != "this" || thisClassOf(f, a) != class {
			continue
		}
		if ctor >= 0 && f.contains(ctor, a) {
			alts = append(alts, x.eval(f, f.field(a, "right"), x.ctorEnv(v, f, ctor, e)))
			if st := f.parent(a); f.kind(st) == "expression_statement" && f.parent(st) == f.field(ctor, "body") {
				every = true
			}
			continue
		}
		av := x.eval(f, f.field(a, "right"), e)
		if av.k == vNeed {
			return av
		}
		alts = append(alts, av)
	}
	if !every {
		alts = append(alts, x.eval(f, field, e))
	}
	return union(alts...)
}

// jsOutsideWrite is why member key of instance v of a package class is not
// read (since 2.3.17): a write from outside the class, in a file that runs
// with the server, whose object resolves to an instance of v's class not
// made by another call (pySameInstance); since 2.3.18 every form of write
// (jsoutwrite.go). Until 2.3.16 the class's value was read (`const t = new
// Spec(); t.description = "…"` listed with the field's text). "" when there
// is none; a write whose object is not resolved is not counted.
func (x *extractor) jsOutsideWrite(v val, key string) string {
	if v.k != vInstance {
		return ""
	}
	return x.jsMemberWrite(v, key)
}
