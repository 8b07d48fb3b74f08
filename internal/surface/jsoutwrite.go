package surface

import "strconv"

// The writes JavaScript makes to an object the extractor reads a member of
// (methodology §5.2, identifier resolution; since 2.3.18, part wr). Until
// 2.3.17 only `t.key = …` on a class instance was looked for (jsfields.go),
// and a declared object literal's member read through its name
// (`spec.description`) was read whatever the package wrote to it: a text
// the server does not send, read (fail-opens). Every write of the runnable
// files of the package (vendored regions skipped) is indexed once by the
// key it writes:
//
//   - `X.key = …`, `X.key += …` (any compound assignment), `X.key++`,
//     `X["key"] = …`, `delete X.key`;
//   - `X[k] = …` with k not a literal: every key;
//   - `Object.assign(X, …)`: the keys of the object literals given (every
//     key for a spread in them, a computed key or any other source);
//     `Object.defineProperty(X, "key", …)`, `Reflect.set(X, "key", …)`,
//     `Reflect.defineProperty`, `Reflect.deleteProperty`;
//     `Object.defineProperties(X, {key: …})`; `Object.setPrototypeOf(X, …)`
//     and `Reflect.setPrototypeOf`: every key.
//
// A member key of a class instance (memberOf) or of an object literal
// (evalMember) is not read when a write of key (or of every key) has an
// object that resolves to the same instance (pySameInstance) or to the
// same literal node (a literal evaluated in several calls is taken as one
// object: refused, never read wrong). A copy (`{...spec}`,
// `Object.assign({}, spec)`) is another node and stays read. On `this`,
// the forms other than `this.key = …` (which the class reading follows,
// jsfields.go) write every instance of the method's class and of its
// subclasses. A write through `C.prototype` reaches every instance of C
// and of its subclasses; a write whose object is the class C itself, a
// static member read through C or a subclass of it. A write whose object
// is not resolved is not counted (Not done, docs/versions/2.3.18/wr.md).

// jsOutWrites indexes the writes above, once per package.
func (x *extractor) jsOutWrites() map[string][]outsideWrite {
	if x.jsOut != nil {
		return x.jsOut
	}
	idx := map[string][]outsideWrite{}
	for _, g := range x.files {
		if g.lang == LangPython || g.facts == nil || !g.runnable() {
			continue
		}
		g.walk(0, func(n nid) bool {
			if g.inVendoredRegion(n) {
				return false
			}
			jsIndexWrite(g, n, idx)
			return true
		})
	}
	x.jsOut = idx
	return idx
}

// jsIndexWrite adds the write node n makes, if any, to idx.
func jsIndexWrite(g *file, n nid, idx map[string][]outsideWrite) {
	add := func(k string, on nid) {
		if on >= 0 {
			idx[k] = append(idx[k], outsideWrite{f: g, site: n, on: on})
		}
	}
	target := func(l nid, plain bool) {
		switch g.kind(l) {
		case "member_expression":
			on := g.field(l, "object")
			if plain && g.kind(on) == "this" {
				return // this.key = … : the class reading's (jsfields.go)
			}
			add(g.text(g.field(l, "property")), on)
		case "subscript_expression":
			add(jsLitKey(g, g.field(l, "index")), g.field(l, "object"))
		}
	}
	switch g.kind(n) {
	case "assignment_expression":
		target(g.field(n, "left"), true)
	case "augmented_assignment_expression":
		target(g.field(n, "left"), false)
	case "update_expression":
		target(g.field(n, "argument"), false)
	case "unary_expression":
		if g.text(g.field(n, "operator")) == "delete" {
			target(g.field(n, "argument"), false)
		}
	case "call_expression":
		pwIndexMutation(g, n, add) // an array changed in place (jspw_writes.go)
		a := g.args(n)
		if len(a) == 0 {
			return
		}
		switch g.text(g.field(n, "function")) {
		case "Object.assign":
			for _, src := range a[1:] {
				for _, k := range jsLiteralKeys(g, src) {
					add(k, a[0])
				}
			}
		case "Object.defineProperty", "Reflect.set", "Reflect.defineProperty", "Reflect.deleteProperty":
			if jsTscFieldDeclaration(g, n, a) {
				return
			}
			k := anyKey
			if len(a) > 1 {
				k = jsLitKey(g, a[1])
			}
			add(k, a[0])
		case "Object.defineProperties":
			if len(a) > 1 {
				for _, k := range jsLiteralKeys(g, a[1]) {
					add(k, a[0])
				}
			}
		case "Object.setPrototypeOf", "Reflect.setPrototypeOf":
			add(anyKey, a[0])
		}
	}
}

// jsTscFieldDeclaration reports whether call n (arguments a) is tsc's
// lowering of a field declared without a value, `Object.defineProperty(this,
// "key", { …, value: void 0 })` as a statement of a constructor's own
// block: the instance's member is undefined until the constructor's own
// assignments, which the class reading follows (jsfields.go).
func jsTscFieldDeclaration(g *file, n nid, a []nid) bool {
	if g.text(g.field(n, "function")) != "Object.defineProperty" || len(a) != 3 || g.kind(a[0]) != "this" || g.kind(a[2]) != "object" {
		return false
	}
	st := g.parent(n)
	if g.kind(st) != "expression_statement" {
		return false
	}
	ctor := g.parent(g.parent(st))
	if g.kind(ctor) != "method_definition" || g.text(g.field(ctor, "name")) != "constructor" || g.field(ctor, "body") != g.parent(st) {
		return false
	}
	undef := false
	for _, c := range g.named(a[2]) {
		if g.kind(c) != "pair" {
			return false
		}
		switch propKeyName(g, g.field(c, "key")) {
		case "value":
			undef = isVoid0(g, g.field(c, "value")) || g.text(g.field(c, "value")) == "undefined"
		case "enumerable", "configurable", "writable":
		default:
			return false // a getter or setter
		}
	}
	return undef
}

// jsLitKey is the key a literal index names, anyKey for any other.
func jsLitKey(g *file, k nid) string {
	if g.kind(k) == "string" || g.kind(k) == "template_string" {
		if s, ok := g.stringValue(k); ok {
			return s
		}
	}
	if g.kind(k) == "number" {
		return pwNumberKey(g, k) // A[0x1] writes "1" (jspw_writes.go)
	}
	return anyKey
}

// jsLiteralKeys is the keys an object literal src gives (anyKey among them
// for a spread, a computed key, or src not an object literal).
func jsLiteralKeys(g *file, src nid) []string {
	src = unparen(g, src)
	if g.kind(src) != "object" {
		return []string{anyKey}
	}
	var ks []string
	for _, c := range g.named(src) {
		switch g.kind(c) {
		case "pair", "method_definition":
			k := g.field(c, "key")
			if g.kind(c) == "method_definition" {
				k = g.field(c, "name")
			}
			if g.kind(k) == "computed_property_name" {
				ks = append(ks, anyKey)
				continue
			}
			if g.kind(k) == "number" {
				ks = append(ks, pwNumberKey(g, k))
				continue
			}
			ks = append(ks, propKeyName(g, k))
		case "shorthand_property_identifier":
			ks = append(ks, g.text(c))
		case "comment":
		default:
			ks = append(ks, anyKey)
		}
	}
	return ks
}

// jsLiteralWrite is jsMemberWrite for an object literal's member read
// through an expression (evalMember).
func (x *extractor) jsLiteralWrite(obj val, key string) string {
	if obj.k != vObject && obj.k != vClass {
		return ""
	}
	return x.jsMemberWrite(obj, key)
}

// jsMemberWrite is why member key of v (a class instance, or an object
// literal) is not read: a write of the package reaches it; "" when none
// does.
func (x *extractor) jsMemberWrite(v val, key string) string {
	if v.f == nil || v.n < 0 || x.jsOutBusy > 0 {
		return ""
	}
	switch {
	case v.k == vInstance, v.k == vClass && v.f.lang != LangPython:
	case v.k == vObject && v.f.kind(v.n) == "object" && len(v.parts) == 0:
	default:
		return ""
	}
	if v.k == vClass && !x.jsClassDeclares(v, key) {
		return "" // what the class reading gives is not the body's (undefined, or another route's)
	}
	idx := x.jsOutWrites()
	ws := append(idx[key][:len(idx[key]):len(idx[key])], idx[anyKey]...)
	if len(ws) == 0 {
		return ""
	}
	x.jsOutBusy++
	defer func() { x.jsOutBusy-- }()
	for _, w := range ws {
		if x.jsWriteHits(w, v) {
			if x.jsWriteCut(w) {
				return outCutReason(key, w) // jsoutwrite_bound.go
			}
			at := w.f.path + ":" + strconv.Itoa(w.f.lineOf(w.site))
			switch {
			case v.k == vObject:
				return "member " + key + " of an object written at " + at
			case v.k == vClass:
				return "static member " + key + " of a class written at " + at
			}
			return "member " + key + " of an instance assigned from outside its class at " + at
		}
	}
	return ""
}

// jsWriteHits reports whether write w's object is v: the same instance,
// the same literal node, or (`this`) an instance of the method's class.
func (x *extractor) jsWriteHits(w outsideWrite, v val) bool {
	if w.f.kind(w.on) == "this" {
		cls := thisClassOf(w.f, w.on)
		return v.k == vInstance && cls >= 0 && x.jsClassChain(v, w.f, cls)
	}
	if w.f.kind(w.on) == "member_expression" && w.f.text(w.f.field(w.on, "property")) == "prototype" {
		// C.prototype: every instance of C and of its subclasses.
		if v.k != vInstance {
			return false
		}
		os := x.outWriteObjects(outsideWrite{f: w.f, site: w.site, on: w.f.field(w.on, "object")})
		if x.jsWriteCut(w) {
			return true // not resolved within its bound: fail closed (jsoutwrite_bound.go)
		}
		for _, o := range os {
			if o.k == vClass && o.f != nil && x.jsClassChain(v, o.f, o.n) {
				return true
			}
		}
		return false
	}
	os := x.outWriteObjects(w)
	if x.jsWriteCut(w) {
		return true // not resolved within its bound: fail closed (jsoutwrite_bound.go)
	}
	for _, o := range os {
		if o.k == vClass && o.f != nil && v.k == vClass && x.jsClassChain(v, o.f, o.n) {
			return true // a static member, read through the class or a subclass
		}
		if jsSameObject(o, v, 0) {
			return true
		}
	}
	return false
}

func jsSameObject(o, v val, depth int) bool {
	switch o.k {
	case vUnion:
		if depth > 16 {
			return false
		}
		for _, a := range o.elems {
			if jsSameObject(a, v, depth+1) {
				return true
			}
		}
	case vInstance:
		return v.k == vInstance && pySameInstance(o, v, 0)
	case vObject:
		return v.k == vObject && o.f == v.f && o.n == v.n
	}
	return false
}

// jsClassDeclares reports whether class v's body, or a package superclass's,
// declares member key (a field or a method): what memberOf reads for a
// member read through the class.
func (x *extractor) jsClassDeclares(v val, key string) bool {
	g, c, e := v.f, v.n, v.env
	for depth := 0; c >= 0 && depth < 8; depth++ {
		for _, m := range g.named(g.field(c, "body")) {
			switch g.kind(m) {
			case "public_field_definition", "field_definition":
				nm := g.field(m, "name")
				if nm < 0 {
					nm = g.field(m, "property")
				}
				if propKeyName(g, nm) == key {
					return true
				}
			case "method_definition":
				if g.text(g.field(m, "name")) == key {
					return true
				}
			}
		}
		sv, ok := x.jsSuperclass(g, c, e)
		if !ok {
			return false
		}
		g, c, e = sv.f, sv.n, sv.env
	}
	return false
}

// jsSuperclass is the class that class c of file g extends, evaluated
// under e; false when it has none or it is not a class of the package.
func (x *extractor) jsSuperclass(g *file, c nid, e *env) (val, bool) {
	heritage := g.childOfKind(c, "class_heritage")
	if heritage < 0 {
		return val{}, false
	}
	sup := heritage
	if ex := g.childOfKind(heritage, "extends_clause"); ex >= 0 {
		sup = ex
	}
	ch := g.named(sup)
	if len(ch) == 0 {
		return val{}, false
	}
	sv := x.eval(g, ch[0], e)
	if sv.k != vClass || sv.f == nil {
		return val{}, false
	}
	return sv, true
}

// jsClassChain reports whether instance v's class is class cls of file f
// or extends it (superclasses of the package, at most 8 levels).
func (x *extractor) jsClassChain(v val, f *file, cls nid) bool {
	g, c, e := v.f, v.n, v.env
	for depth := 0; c >= 0 && depth < 8; depth++ {
		if g == f && c == cls {
			return true
		}
		sv, ok := x.jsSuperclass(g, c, e)
		if !ok {
			return false
		}
		g, c, e = sv.f, sv.n, sv.env
	}
	return false
}
