package surface

import "strings"

// zod's classes built with new (methodology §5.3, 2.3.11): zod's own
// functions, and a bundle holding a copy of zod, build a schema as
// new ZodObject(def), new ZodString(def), …, with def the schema's
// definition. Zod reads a def's shape (an object, or zod 3's
// shape: () => ({…})) as the object's members and its description as the
// schema's description; the def's other schemas (an element, an inner
// type, options, a catchall, …) are walked. Anything else in the def that is
// not a literal is a gap, as is a def not resolved to an object literal.

// zodDefSchema are def members whose value is a schema (or an array of
// schemas); zodDefTextFree are members whose value carries no text a
// client receives (the kind's name, zod 3's typeName).
var (
	zodDefSchema = map[string]bool{
		"catchall": true, "element": true, "innerType": true, "options": true, "items": true, "rest": true,
		"in": true, "out": true, "left": true, "right": true, "keyType": true, "valueType": true, "schema": true,
	}
	zodDefTextFree = map[string]bool{"type": true, "typeName": true}
)

// zodClass reports whether the constructor of a new expression is one of
// zod's classes: a Zod… name from zod's module or from the package's copy
// of zod in bundled third-party code.
func (r *schemaRead) zodClass(f *file, ctor nid, e *env) bool {
	name := f.text(ctor)
	if f.kind(ctor) == "member_expression" {
		name = f.text(f.field(ctor, "property"))
	} else if f.kind(ctor) != "identifier" {
		return false
	}
	if !strings.HasPrefix(name, "Zod") {
		return false
	}
	v := r.x.eval(f, ctor, e)
	if v.k == vExternal {
		return zodNamespace(v.spec[:max(0, strings.LastIndexByte(v.spec, '.'))]) || zodNamespace(v.spec)
	}
	return v.f != nil && v.n >= 0 && v.f.inVendoredRegion(v.n)
}

// newSchema reads new C(def) where C is a zod class.
func (r *schemaRead) newSchema(f *file, n nid, e *env, path string, depth int) {
	ctor := f.field(n, "constructor")
	args := f.args(n)
	if ctor < 0 || !r.zodClass(f, ctor, e) {
		r.gap(f, n, "schema written as new_expression not read")
		return
	}
	if len(args) != 1 {
		r.gap(f, n, "zod class built without one definition")
		return
	}
	d, de := f, e
	a := args[0]
	if f.kind(a) != "object" {
		v := r.x.eval(f, a, e)
		if r.need(f, a, v) {
			return
		}
		if v.k != vObject || v.f == nil || v.n < 0 || v.f.kind(v.n) != "object" {
			r.gap(f, a, "zod class definition not resolved: "+reasonOf(v))
			return
		}
		d, a, de = v.f, v.n, v.env
		if de == nil {
			de = e
		}
	}
	r.zodDef(d, a, de, path, depth+1)
}

// zodDef reads the members of a zod class's definition object.
func (r *schemaRead) zodDef(f *file, n nid, e *env, path string, depth int) {
	if depth > schemaDepthLimit {
		r.gap(f, n, "schema nested past the reading's depth")
		return
	}
	for _, c := range f.named(n) {
		if r.stop() {
			return
		}
		switch f.kind(c) {
		case "comment":
		case "pair":
			kn := f.field(c, "key")
			switch f.kind(kn) {
			case "property_identifier", "string":
			default:
				r.gap(f, c, "zod class definition member with a computed key")
				continue
			}
			r.zodDefMember(f, propKeyName(f, kn), f.field(c, "value"), e, path, depth+1)
		case "shorthand_property_identifier":
			r.zodDefMember(f, f.text(c), c, e, path, depth+1)
		case "spread_element":
			r.zodDefSpread(f, c, e, path, depth+1)
		default:
			r.gap(f, c, "zod class definition member written as "+f.kind(c)+" not read")
		}
	}
}

func (r *schemaRead) zodDefMember(f *file, key string, v nid, e *env, path string, depth int) {
	switch {
	case key == "description":
		r.x.paramEntry(r.c, r.tool, pathOrRoot(path), f, v, e)
	case key == "shape":
		r.zodDefShape(f, v, e, path, depth+1)
	case zodDefSchema[key]:
		sub := path
		if key == "element" || key == "items" || key == "rest" {
			sub = path + "[]"
		}
		r.node(f, v, e, sub, depth+1)
	case zodDefTextFree[key]:
	default:
		switch f.kind(v) {
		case "string", "number", "true", "false", "null", "undefined":
			// A literal setting carries no description.
		default:
			r.gap(f, v, "zod class definition's "+key+" not read")
		}
	}
}

// zodDefShape reads a def's shape: an object of members, zod 3's getter
// () => ({…}), or a ?? / || of such (both sides are read).
func (r *schemaRead) zodDefShape(f *file, v nid, e *env, path string, depth int) {
	if depth > schemaDepthLimit {
		r.gap(f, v, "schema nested past the reading's depth")
		return
	}
	switch f.kind(v) {
	case "arrow_function":
		body := f.field(v, "body")
		if body < 0 || f.kind(body) == "statement_block" || len(f.named(f.field(v, "parameters"))) > 0 {
			r.gap(f, v, "zod class definition's shape getter not read")
			return
		}
		r.zodDefShape(f, body, e, path, depth+1)
	case "binary_expression":
		op := f.text(f.field(v, "operator"))
		if op != "??" && op != "||" {
			r.gap(f, v, "zod class definition's shape not read")
			return
		}
		r.zodDefShape(f, f.field(v, "left"), e, path, depth+1)
		r.zodDefShape(f, f.field(v, "right"), e, path, depth+1)
	case "parenthesized_expression":
		if in := exprChild(f, v); in >= 0 {
			r.zodDefShape(f, in, e, path, depth+1)
			return
		}
		r.gap(f, v, "zod class definition's shape not read")
	case "object":
		r.shape(f, v, e, path, depth+1)
	default:
		r.resolved(f, v, e, path, depth+1, func(g *file, m nid, ge *env) {
			if g.kind(m) == "object" {
				r.shape(g, m, ge, path, depth+1)
				return
			}
			r.zodDefShape(g, m, ge, path, depth+1)
		})
	}
}

// zodDefSpread reads a spread in a def: an object (read as def members),
// nothing, or a call of a function of the package given no value whose body,
// read with every parameter undefined, returns nothing or an object with no
// member (zod's parameter normalizer of no parameters: if (!params) return
// {}). Since 2.3.12 that body is read, not trusted for being in the bundled
// part: a function that could return text given nothing stays unread.
func (r *schemaRead) zodDefSpread(f *file, c nid, e *env, path string, depth int) {
	arg := exprChild(f, c)
	if arg < 0 {
		r.gap(f, c, "zod class definition spread not read")
		return
	}
	if f.kind(arg) == "call_expression" {
		fn := r.x.eval(f, f.field(arg, "function"), e)
		if r.need(f, arg, fn) {
			return
		}
		if fn.k == vFunc && fn.f != nil && fn.n >= 0 && fn.f.lang != LangPython {
			none := true
			for _, a := range f.args(arg) {
				av := r.x.eval(f, a, e)
				if r.need(f, a, av) {
					return
				}
				if av.k != vUndefined {
					none = false
				}
			}
			if none {
				if !returnsNothingGivenNothing(fn.f, fn.n) {
					r.gap(f, c, "zod class definition spread of a function whose result given no value is not read")
				}
				return
			}
		}
	}
	v := r.x.eval(f, arg, e)
	if r.need(f, arg, v) {
		return
	}
	switch {
	case v.k == vUndefined || v.k == vNull:
	case v.k == vObject && v.f != nil && v.n >= 0 && v.f.kind(v.n) == "object":
		ve := v.env
		if ve == nil {
			ve = e
		}
		r.zodDef(v.f, v.n, ve, path, depth+1)
	default:
		r.gap(f, c, "zod class definition spread not resolved: "+reasonOf(v))
	}
}

// zodBuilder reports whether the function at fn (of bundled code) is one
// of zod's builders: a body that is, or returns once, a new expression
// (object(shape, params) { …; return new ZodObject(def) }). Its return is
// read by newSchema, which reads only zod's classes.
func zodBuilder(f *file, fn nid) bool {
	body := f.field(fn, "body")
	if body < 0 {
		return false
	}
	if f.kind(body) != "statement_block" {
		return f.kind(body) == "new_expression"
	}
	rets := returnsOf(f, body)
	return len(rets) == 1 && len(f.named(rets[0])) > 0 && f.kind(f.named(rets[0])[0]) == "new_expression"
}

// schemaSource is the expression a tool's schema is read from: the value
// resolution gave, or, when that is a new expression reached through a call
// whose frame the value does not carry (a zod builder of a bundle's copy of
// zod), the call as written in the config object (or in an object spread
// into it), read with that object's binding so the builder's parameters are
// the call's arguments.
func (x *extractor) schemaSource(cfg val, key string, sv val, e *env) (*file, nid, *env) {
	se := schemaEnv(sv, cfg, e)
	if sv.f == nil || sv.n < 0 || sv.f.kind(sv.n) != "new_expression" ||
		cfg.k != vObject || cfg.f == nil || cfg.n < 0 || cfg.f.kind(cfg.n) != "object" {
		return sv.f, sv.n, se
	}
	ce := cfg.env
	if ce == nil {
		ce = e
	}
	if f, v, ve, ok := x.writtenMember(cfg.f, cfg.n, ce, key, 0); ok && v >= 0 {
		// Since 2.3.12 a name is followed to the call it is declared as
		// (inputSchema: S with const S = z.object({…})).
		if f.kind(v) == "identifier" {
			v = x.writtenInit(f, v)
		}
		if v >= 0 && f.kind(v) == "call_expression" {
			return f, v, ve
		}
	}
	return sv.f, sv.n, se
}

// writtenInit is the initialiser a name is declared with, followed through
// names: a const, let or var of its file declared once with no pattern and
// never assigned. It is none when the name is anything else.
func (x *extractor) writtenInit(f *file, n nid) nid {
	for i := 0; i < 8 && n >= 0 && f.kind(n) == "identifier"; i++ {
		b, ok := x.lookup(f, n, f.text(n))
		if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
			return none
		}
		if len(x.assignmentsTo(f, b.id, b)) > 0 {
			return none
		}
		n = f.field(b.decl, "value")
	}
	return n
}

// writtenMember is the member of an object literal that its value takes
// for key: the last pair of that key, through spreads of object literals.
// ok is false when a spread is not resolved (it could replace the member).
func (x *extractor) writtenMember(f *file, n nid, e *env, key string, depth int) (*file, nid, *env, bool) {
	if depth > 8 {
		return nil, -1, nil, false
	}
	var (
		g  *file
		v  = nid(-1)
		ge *env
	)
	for _, c := range f.named(n) {
		switch f.kind(c) {
		case "pair":
			if propKeyName(f, f.field(c, "key")) == key {
				g, v, ge = f, f.field(c, "value"), e
			}
		case "spread_element":
			arg := exprChild(f, c)
			if arg < 0 {
				return nil, -1, nil, false
			}
			sv := x.eval(f, arg, e)
			if sv.k != vObject || sv.f == nil || sv.n < 0 || sv.f.kind(sv.n) != "object" {
				return nil, -1, nil, false
			}
			se := sv.env
			if se == nil {
				se = e
			}
			h, w, we, ok := x.writtenMember(sv.f, sv.n, se, key, depth+1)
			if !ok {
				return nil, -1, nil, false
			}
			if w >= 0 {
				g, v, ge = h, w, we
			}
		case "shorthand_property_identifier":
			if f.text(c) == key {
				g, v, ge = nil, -1, nil // written as a name, not a call
			}
		case "method_definition":
			if propKeyName(f, f.field(c, "name")) == key {
				g, v, ge = nil, -1, nil
			}
		}
	}
	return g, v, ge, true
}
