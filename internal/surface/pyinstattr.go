package surface

// An instance's attribute that its class body also assigns (methodology
// §5.2, identifier resolution; since 2.3.16). `class Spec: description =
// "Reads files."` gives every instance that text only until something sets
// the instance's own attribute: its __init__ (`self.description = d`),
// another method, or a constructor the package does not define (a pydantic
// model's or a dataclass's fields are the constructor's keywords, the class
// body holding only their defaults). Until 2.3.15 the class body's value
// was read for every instance, whatever the constructor was given: a
// fail-open (`Spec(name="a", description="…")` listed with the default).

// pyClassAttrOfInstance reads attribute key of instance this that class
// cls (this's own class, or a package base of it) assigns at clsAt, read
// under clsEnv: the union of the values that can set the instance's own
// attribute (cls's __init__ init, when it runs, under ie; cls's other
// methods; for this's own class without an __init__, a package base's
// methods) and, unless __init__ sets it on every path, the class
// attribute; unknown when the constructor is another package's and may be
// handed the attribute.
func (x *extractor) pyClassAttrOfInstance(this, cls val, init nid, args []thunk, known, runs bool, ie *env, clsAt nid, clsEnv *env, key string, e *env) val {
	f := cls.f
	if why := x.pyForeignConstructor(this, key); why != "" {
		return unknown(why)
	}
	var alts []val
	shadowed := false
	if init >= 0 && runs {
		alts, shadowed = x.pySelfWriteValues(f, init, key, ie)
	}
	alts = append(alts, x.pyMemberElsewhere(f, cls.n, init, key, e)...)
	if x.pyBaseWritesSelf(cls, key, runs, map[scopeRef]bool{{cls.f, cls.n}: true}) {
		// A package base's method sets the attribute (an __init__ the
		// construction reaches, or another method), whether cls is this's
		// own class or a base of it (since 2.3.17; until 2.3.16 only for
		// this's own class without an __init__): any of its values.
		seen := map[scopeRef]bool{{cls.f, cls.n}: true, {this.f, this.n}: true}
		if inh, found := x.pyBasesMember(this, f, cls.n, cls.env, args, known && runs, key, e, seen); found {
			alts = append(alts, inh)
		} else {
			alts = append(alts, unknown("attribute "+key+" set by a base class the extractor does not read"))
		}
	}
	if !shadowed {
		alts = append(alts, x.eval(f, f.field(clsAt, "right"), clsEnv))
	}
	return union(alts...)
}

// pyInitEnv is the environment __init__ init of file f runs in for the
// instance this: its parameters bound to args when known, else e as it is.
func pyInitEnv(this val, f *file, init nid, args []thunk, known bool, e *env) *env {
	if !known || init < 0 {
		return e
	}
	return e.push(env{scope: scopeRef{f, init}, args: args, this: &this, hasThis: true})
}

// pySelfWriteValues reads the values `self.key = …` assigns in __init__
// init, under ie; every is true when one of them is a statement of
// __init__'s own block, which runs on every construction.
func (x *extractor) pySelfWriteValues(f *file, init nid, key string, ie *env) (vals []val, every bool) {
	body := f.field(init, "body")
	for _, a := range pySelfWrites(f, init, key) {
		vals = append(vals, x.eval(f, f.field(a, "right"), ie))
		if st := f.parent(a); f.kind(st) == "expression_statement" && f.parent(st) == body {
			every = true
		}
	}
	return vals, every
}

// pySelfWrites lists the assignments `self.key = …` of function def's body
// (not of functions or classes nested in it).
func pySelfWrites(f *file, def nid, key string) []nid {
	var found []nid
	f.walk(f.field(def, "body"), func(n nid) bool {
		if f.kind(n) == "assignment" {
			l := f.field(n, "left")
			if f.kind(l) == "attribute" && f.text(f.field(l, "object")) == "self" && f.text(f.field(l, "attribute")) == key {
				found = append(found, n)
			}
		}
		return !pyFunctionKind(f.kind(n)) && f.kind(n) != "class_definition"
	})
	return found
}

// pyForeignConstructor is why the constructor of instance v may set
// attribute key although no __init__ of the package does: the class runs
// no package __init__, and it or a package base derives from another
// package's class (other than object and the abc and typing helpers) or is
// decorated (a dataclass), so the constructor is that package's or
// generated; and the call that made v hands it key, a positional argument,
// an unpacked argument, or is not one the extractor read. "" otherwise.
func (x *extractor) pyForeignConstructor(v val, key string) string {
	if r := x.pyInitOf(v, map[scopeRef]bool{}); r.f != nil {
		return ""
	}
	by := x.pyForeignBase(v, map[scopeRef]bool{})
	if by == "" {
		return ""
	}
	if v.args == nil {
		return "attribute " + key + " of an instance of a class built by " + by + ", made by a call the extractor did not read"
	}
	for _, a := range v.args {
		switch a.name {
		case key:
			return "attribute " + key + " handed to the constructor of a class built by " + by
		case "":
			return "attribute " + key + " of an instance built by " + by + " from a positional argument"
		case "*", "**":
			return "attribute " + key + " of an instance built by " + by + " from an unpacked argument"
		}
	}
	return ""
}

// pyForeignBase names what builds class cls's constructor when the package
// does not: another package's base class, or a class decorator; "" when
// neither cls nor a package base has one.
func (x *extractor) pyForeignBase(cls val, seen map[scopeRef]bool) string {
	at := scopeRef{cls.f, cls.n}
	if cls.f == nil || seen[at] || len(seen) > 64 {
		return ""
	}
	seen[at] = true
	f := cls.f
	if p := f.parent(cls.n); f.kind(p) == "decorated_definition" {
		for _, d := range f.named(p) {
			if f.kind(d) == "decorator" {
				return "the decorator " + f.text(d)
			}
		}
	}
	bases, _, external, _ := x.pyBasesWritten(f, cls.n, cls.env)
	if external != "" {
		return external
	}
	for _, b := range bases {
		if by := x.pyForeignBase(b, seen); by != "" {
			return by
		}
	}
	return ""
}

// pyBaseWritesSelf reports whether a method of a package base of class v
// (any depth) assigns self.key: a method other than __init__ (it may be
// called at any time), or the __init__ of a base that the construction
// reaches. runs tells whether v's own __init__ runs (or, v having none,
// whether the construction reaches v); a base's __init__ runs when v's
// runs and v has none or calls the base's (super().__init__(...),
// Base.__init__(self, ...)). The walk follows the bases written, depth
// first, bounded by a seen set of 64 classes.
func (x *extractor) pyBaseWritesSelf(v val, key string, runs bool, seen map[scopeRef]bool) bool {
	if v.f == nil || v.n < 0 || v.f.kind(v.n) != "class_definition" {
		return false
	}
	bases, nodes, _, _ := x.pyBasesWritten(v.f, v.n, v.env)
	init := pyClassMethodDef(v.f, v.n, "__init__")
	for i, b := range bases {
		at := scopeRef{b.f, b.n}
		if b.f == nil || seen[at] || len(seen) > 64 {
			continue
		}
		seen[at] = true
		brun := runs
		if init >= 0 {
			_, _, ok := pySuperInitCall(v.f, init, pyFirstBase(v.f, v.n, nodes[i]), nodes[i])
			brun = runs && ok
		}
		for _, st := range b.f.named(b.f.field(b.n, "body")) {
			def := st
			if b.f.kind(def) == "decorated_definition" {
				def = b.f.field(def, "definition")
			}
			if b.f.kind(def) != "function_definition" {
				continue
			}
			if b.f.text(b.f.field(def, "name")) == "__init__" && !brun {
				continue
			}
			if len(pySelfWrites(b.f, def, key)) > 0 {
				return true
			}
		}
		if x.pyBaseWritesSelf(b, key, brun, seen) {
			return true
		}
	}
	return false
}
