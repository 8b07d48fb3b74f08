package surface

import (
	"strconv"
	"strings"
)

// The other ways Python writes an attribute from outside a class
// (methodology §5.2, identifier resolution; since 2.3.18, part wr). Until
// 2.3.17 only `X.key = …`, `X.key += …` and `setattr(X, "key", …)` were
// looked for (pyoutwrite.go); these forms left the class's text read for a
// text the server does not send (fail-opens):
//
//   - `object.__setattr__(X, "key", …)`, `X.__setattr__("key", …)`;
//   - `vars(X)["key"] = …`, `X.__dict__["key"] = …` (also `+=`);
//   - `X.__dict__.update(…)`, `vars(X).update(…)`: the keys of a dict
//     literal and the keywords given, every key when an argument is
//     anything else;
//   - `setattr(X, name, …)`, `vars(X)[k] = …` with a key not written as a
//     literal: every key.
//
// And the writes of a class attribute through the class: `C.key = …`,
// `setattr(C, "key", …)`, `type(X).key = …`, `X.__class__.key = …` (X an
// instance of C, or `self` in a method of C), `cls.key = …` in a
// @classmethod of C. Such a write changes what every instance of C and of
// its subclasses reads from C (an over-approximation where a subclass
// between them assigns the attribute itself: refused, never read wrong),
// and what `C.key` reads. Inside a class, the dictionary forms on `self`
// (`self.__dict__.update(kw)`, `setattr(self, k, v)`,
// `object.__setattr__(self, "key", …)`) write any instance of the class or
// of a subclass; `self.key = …` stays read by pyinstattr.go.

// anyKey indexes a write whose key is not written as a literal.
const anyKey = "*"

// pyOtherOutWrites adds to idx the writes of node n of the forms above.
func pyOtherOutWrites(f *file, n nid, idx map[string][]outsideWrite) {
	add := func(k string, on nid) { idx[k] = append(idx[k], outsideWrite{f: f, site: n, on: on}) }
	litKey := func(k nid) string {
		if kv := pyStringText(f, k); kv.k == vText {
			if s, ok := plainText(kv); ok {
				return s
			}
		}
		return anyKey
	}
	switch f.kind(n) {
	case "type_alias_statement":
		// `type(X).key = …` parses as a type alias statement whose left
		// is the attribute `(X).key`.
		if ts := f.named(n); len(ts) == 2 && strings.HasPrefix(f.text(n), "type") {
			if l := pyOnlyChild(f, ts[0]); f.kind(l) == "attribute" {
				if on := f.field(l, "object"); f.kind(on) == "parenthesized_expression" {
					add(f.text(f.field(l, "attribute")), on)
				}
			}
		}
	case "assignment", "augmented_assignment":
		l := f.field(n, "left")
		if f.kind(l) == "subscript" {
			if on := pyDictOf(f, f.field(l, "value")); on >= 0 {
				add(litKey(f.field(l, "subscript")), on) // vars(X)["key"] = …
			}
		}
	case "call":
		fn := f.field(n, "function")
		a := f.named(f.field(n, "arguments"))
		switch {
		case f.text(fn) == "setattr" && len(a) >= 2:
			if f.text(a[0]) == "self" || litKey(a[1]) == anyKey {
				add(litKey(a[1]), a[0]) // (X, "key") of self; (X, name) of any X
			}
		case f.text(fn) == "object.__setattr__" && len(a) >= 2:
			add(litKey(a[1]), a[0])
		case f.kind(fn) == "attribute" && f.text(f.field(fn, "attribute")) == "__setattr__" && len(a) >= 1:
			add(litKey(a[0]), f.field(fn, "object"))
		case f.kind(fn) == "attribute" && f.text(f.field(fn, "attribute")) == "update":
			on := pyDictOf(f, f.field(fn, "object"))
			if on < 0 {
				return
			}
			for _, arg := range a {
				switch f.kind(arg) {
				case "keyword_argument":
					add(f.text(f.field(arg, "name")), on)
				case "dictionary":
					for _, p := range f.named(arg) {
						if f.kind(p) == "pair" {
							add(litKey(f.field(p, "key")), on)
						} else if f.kind(p) != "comment" {
							add(anyKey, on)
						}
					}
				case "comment":
				default:
					add(anyKey, on)
				}
			}
		}
	}
}

// pyOnlyChild is n's one named child, none when it has another number.
func pyOnlyChild(f *file, n nid) nid {
	if c := f.named(n); len(c) == 1 {
		return c[0]
	}
	return none
}

// pyDictOf is X of `vars(X)` or `X.__dict__`; none for anything else.
func pyDictOf(f *file, n nid) nid {
	switch f.kind(n) {
	case "call":
		if a := f.named(f.field(n, "arguments")); f.text(f.field(n, "function")) == "vars" && len(a) == 1 {
			return a[0]
		}
	case "attribute":
		if f.text(f.field(n, "attribute")) == "__dict__" {
			return f.field(n, "object")
		}
	}
	return none
}

// pyClassWriteObjects is what the object of write w stands for when it is
// a class or the instances of one: `type(X)` and `X.__class__` (the class
// of X), `cls` of a @classmethod, `self` of a method (a class value with
// boolv set: any instance of the class). ok false for any other object.
func (x *extractor) pyClassWriteObjects(w outsideWrite) (os []val, ok bool) {
	f, on := w.f, w.on
	var inner nid = none
	switch {
	case f.kind(on) == "call" && f.text(f.field(on, "function")) == "type":
		if a := f.named(f.field(on, "arguments")); len(a) == 1 {
			inner = a[0]
		}
	case f.kind(on) == "attribute" && f.text(f.field(on, "attribute")) == "__class__":
		inner = f.field(on, "object")
	case f.kind(on) == "parenthesized_expression" && f.kind(f.parent(f.parent(f.parent(on)))) == "type_alias_statement":
		inner = pyOnlyChild(f, on) // `type(X).key = …` (pyOtherOutWrites)
	case f.kind(on) == "identifier":
		if cls, classm := pyMethodReceiver(f, on); cls >= 0 {
			return []val{{k: vClass, f: f, n: cls, boolv: !classm}}, true
		}
		return nil, false
	default:
		return nil, false
	}
	if inner < 0 {
		return nil, true // type() of nothing read: no object
	}
	if cls, classm := pyMethodReceiver(f, inner); cls >= 0 && !classm {
		return []val{{k: vClass, f: f, n: cls}}, true // type(self)
	}
	for _, o := range x.outWriteObjects(outsideWrite{f: f, site: w.site, on: inner}) {
		os = append(os, pyClassesOf(o, 0)...)
	}
	return os, true
}

// pyClassesOf is the classes of the instances o stands for.
func pyClassesOf(o val, depth int) []val {
	switch o.k {
	case vUnion:
		if depth > 16 {
			return nil
		}
		var out []val
		for _, a := range o.elems {
			out = append(out, pyClassesOf(a, depth+1)...)
		}
		return out
	case vInstance:
		if o.f != nil {
			return []val{{k: vClass, f: o.f, n: o.n, env: o.env}}
		}
	}
	return nil
}

// pyMethodReceiver is the class whose method takes identifier n as its
// first parameter (n used inside that method, or inside a function nested
// in it that does not bind the name), classm true for a @classmethod; none
// when n is not such a receiver.
func pyMethodReceiver(f *file, n nid) (cls nid, classm bool) {
	name := f.text(n)
	def := none
	for p, i := f.parent(n), 0; p >= 0 && i < 256 && def < 0; p, i = f.parent(p), i+1 {
		switch f.kind(p) {
		case "class_definition":
			return none, false
		case "function_definition", "lambda":
			ps := f.named(f.field(p, "parameters"))
			for j, q := range ps {
				if pyParamName(f, q) != name {
					continue
				}
				if j != 0 || f.kind(p) == "lambda" {
					return none, false // another parameter of that name
				}
				def = p
			}
		}
	}
	if def < 0 {
		return none, false
	}
	holder := f.parent(def)
	if f.kind(holder) == "decorated_definition" {
		holder = f.parent(holder)
	}
	if f.kind(holder) != "block" || f.kind(f.parent(holder)) != "class_definition" {
		return none, false
	}
	if pyStaticOrClass(f, def) {
		for _, d := range f.named(f.parent(def)) {
			if f.kind(d) == "decorator" && f.text(d) == "@classmethod" {
				return f.parent(holder), true
			}
		}
		return none, false // a @staticmethod's first parameter is no receiver
	}
	return f.parent(holder), false
}

// pyClassCovers reports whether class value c (a class written, or any
// instance of it) reaches v: v (an instance, or a class read through
// itself) is of c's class or of a subclass of it, found through the
// package bases (depth at most 16, 64 classes).
func (x *extractor) pyClassCovers(c, v val) bool {
	if c.boolv && v.k != vInstance {
		return false // an instance's own attribute is not the class's
	}
	seen := map[scopeRef]bool{}
	var walk func(f *file, cls nid, e *env, depth int) bool
	walk = func(f *file, cls nid, e *env, depth int) bool {
		if f == c.f && cls == c.n {
			return true
		}
		at := scopeRef{f, cls}
		if depth > 16 || seen[at] || len(seen) > 64 || f.kind(cls) != "class_definition" {
			return false
		}
		seen[at] = true
		bases, _, _, _ := x.pyBasesWritten(f, cls, e)
		for _, b := range bases {
			if b.f != nil && walk(b.f, b.n, b.env, depth+1) {
				return true
			}
		}
		return false
	}
	return v.f != nil && walk(v.f, v.n, v.env, 0)
}

// outWriteHits reports whether write w reaches v (an instance, or for
// Python a class read through itself), and whether through a class.
func (x *extractor) outWriteHits(w outsideWrite, v val) (hit, viaClass bool) {
	os, classForm := []val(nil), false
	if w.f.lang == LangPython {
		os, classForm = x.pyClassWriteObjects(w)
	}
	if !classForm {
		os = x.outWriteObjects(w)
	}
	for _, o := range os {
		if h, c := x.outObjectHits(o, v, 0); h {
			return true, c
		}
	}
	return false, false
}

func (x *extractor) outObjectHits(o, v val, depth int) (hit, viaClass bool) {
	switch o.k {
	case vUnion:
		if depth > 16 {
			return false, false
		}
		for _, a := range o.elems {
			if h, c := x.outObjectHits(a, v, depth+1); h {
				return true, c
			}
		}
	case vInstance:
		return v.k == vInstance && pySameInstance(o, v, 0), false
	case vClass:
		if o.f != nil && o.f.lang == LangPython && x.pyClassCovers(o, v) {
			return true, !o.boolv
		}
	}
	return false, false
}

// pyOutWhy is the reason a write w that reaches attribute key gives.
func pyOutWhy(w outsideWrite, key string, viaClass bool) string {
	at := w.f.path + ":" + strconv.Itoa(w.f.lineOf(w.site))
	if viaClass {
		return "class attribute " + key + " written at " + at
	}
	return "attribute " + key + " of an instance assigned from outside its class at " + at
}
