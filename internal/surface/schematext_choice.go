package surface

// A `??` / `||` choice in a JSON schema's properties (methodology §5.3,
// since 2.3.12), where the left side is a path into a converter's output:
//
//	const full = zodToJsonSchema(S, { name });
//	const root = (full.definitions ?? {})[name];
//	properties: root?.properties ?? {}
//
// zod-to-json-schema, given a name N (a string, or an options object's name,
// with no nameStrategy or definitionPath), returns
// { $ref, definitions: { …, [N]: J(S) } } (its published code, every 3.x
// release read): definitions is an object, so `?? {}` is not taken, and
// definitions[N] is J(S), S's schema. For S a zod object, J(S).properties
// is an object holding each member's schema, its description the member's
// text, and not S's own description (J(S).description). So the choice is
// decided, exactly, for the left side: S's members are read as the
// properties, S's own description is not a text the client receives there.
// Any other left side, S not a zod object, another option, or a name not
// equal to N leaves the choice to the reading before 2.3.12 (not read).

// convertedOptions are the converter options the path reading admits: none
// changes where J(S) is written or what its properties hold.
var convertedOptions = map[string]bool{"name": true, "$refStrategy": true, "effectStrategy": true, "strictUnions": true}

// zodObjectKeeps are the methods of a zod object that keep its members as
// written (describe sets the object's own text).
var zodObjectKeeps = map[string]bool{"describe": true, "strict": true, "passthrough": true, "strip": true, "extend": true, "merge": true}

// convertedProperties reads a properties value that is (a choice whose
// other side is an empty object, with) a path to a converted zod object's
// properties; it reports whether it read it.
func (r *schemaRead) convertedProperties(f *file, v nid, e *env, path string, depth int) bool {
	if f.kind(v) == "binary_expression" {
		op := f.text(f.field(v, "operator"))
		right := f.field(v, "right")
		if (op != "??" && op != "||") || f.kind(right) != "object" || len(nonComment(f, right)) != 0 {
			return false
		}
		v = f.field(v, "left")
	}
	if f.kind(v) != "member_expression" || f.text(f.field(v, "property")) != "properties" {
		return false
	}
	sf, s, se, ok := r.convertedRoot(f, f.field(v, "object"), e)
	if !ok {
		return false
	}
	// S's own description is J(S).description, not a property's: drop what
	// the reading records at the root.
	before := len(r.c.entries)
	r.node(sf, s, se, path, depth+1)
	root := pathOrRoot(path)
	kept := r.c.entries[:before]
	for _, ent := range r.c.entries[before:] {
		if ent.Kind == KindParameterDescription && ent.Parent == r.tool && ent.Name == root && ent.DescriptionState != "unreadable" {
			continue
		}
		kept = append(kept, ent)
	}
	r.c.entries = kept
	return true
}

// convertedRoot resolves n to definitions[N] of a zod-to-json-schema
// output named N whose input S is a zod object, and returns S.
func (r *schemaRead) convertedRoot(f *file, n nid, e *env) (*file, nid, *env, bool) {
	n = r.writtenName(f, n)
	if n < 0 || f.kind(n) != "subscript_expression" {
		return nil, none, nil, false
	}
	key, ok := plainText(r.x.eval(f, f.field(n, "index"), e))
	if !ok {
		return nil, none, nil, false
	}
	d := r.writtenName(f, f.field(n, "object"))
	if d >= 0 && f.kind(d) == "binary_expression" {
		op := f.text(f.field(d, "operator"))
		right := f.field(d, "right")
		if (op != "??" && op != "||") || f.kind(right) != "object" || len(nonComment(f, right)) != 0 {
			return nil, none, nil, false
		}
		d = f.field(d, "left")
	}
	if d < 0 || f.kind(d) != "member_expression" || f.text(f.field(d, "property")) != "definitions" {
		return nil, none, nil, false
	}
	cf, call, ce, ok := r.argumentCall(f, f.field(d, "object"), e)
	if !ok {
		return nil, none, nil, false
	}
	cv := r.x.eval(cf, cf.field(call, "function"), ce)
	args := cf.args(call)
	if cv.k != vExternal || !isZodToJSONSchema(cv.spec) || len(args) != 2 {
		return nil, none, nil, false
	}
	name, ok := r.convertedName(cf, args[1], ce)
	if !ok || name != key {
		return nil, none, nil, false
	}
	sv := r.x.eval(cf, args[0], ce)
	if sv.f == nil || sv.n < 0 || sv.k == vNeed {
		return nil, none, nil, false
	}
	if !r.zodObjectChain(sv.f, sv.n, sv.env) {
		return nil, none, nil, false
	}
	return sv.f, sv.n, sv.env, true
}

// writtenName follows a local name to the expression it is declared with
// (writtenInit), parentheses removed.
func (r *schemaRead) writtenName(f *file, n nid) nid {
	for i := 0; i < 8 && n >= 0; i++ {
		switch f.kind(n) {
		case "parenthesized_expression":
			n = exprChild(f, n)
		case "identifier":
			n = r.x.writtenInit(f, n)
		default:
			return n
		}
	}
	return n
}

// argumentCall resolves n to a call expression as written: a local name
// declared as one, or a parameter whose argument, in the frame that binds
// it, is one (followed the same way).
func (r *schemaRead) argumentCall(f *file, n nid, e *env) (*file, nid, *env, bool) {
	for i := 0; i < 8 && n >= 0; i++ {
		switch f.kind(n) {
		case "call_expression":
			return f, n, e, true
		case "parenthesized_expression":
			n = exprChild(f, n)
		case "identifier":
			b, ok := r.x.lookup(f, n, f.text(n))
			if !ok {
				return nil, none, nil, false
			}
			if b.kind == bParam && b.decl == b.id {
				fr, _, live := e.liveFrame(scopeRef{f, b.fn})
				if !live || fr.isLoop || fr.site != nil || b.index >= len(fr.args) {
					return nil, none, nil, false
				}
				t := fr.args[b.index]
				if t.v != nil || t.f == nil || t.n < 0 {
					return nil, none, nil, false
				}
				f, n, e = t.f, t.n, t.env
				continue
			}
			n = r.x.writtenInit(f, n)
		default:
			return nil, none, nil, false
		}
	}
	return nil, none, nil, false
}

// convertedName is the name a converter's options give: a string, or an
// options object of convertedOptions whose name is a text and whose other
// members are literals.
func (r *schemaRead) convertedName(f *file, opt nid, e *env) (string, bool) {
	if f.kind(opt) != "object" {
		return plainText(r.x.eval(f, opt, e))
	}
	name, found := "", false
	for _, c := range f.named(opt) {
		switch f.kind(c) {
		case "comment":
		case "shorthand_property_identifier":
			if f.text(c) != "name" {
				return "", false
			}
			s, ok := plainText(r.x.eval(f, c, e))
			if !ok {
				return "", false
			}
			name, found = s, true
		case "pair":
			key := propKeyName(f, f.field(c, "key"))
			v := f.field(c, "value")
			if !convertedOptions[key] {
				return "", false
			}
			if key == "name" {
				s, ok := plainText(r.x.eval(f, v, e))
				if !ok {
					return "", false
				}
				name, found = s, true
				continue
			}
			if !literalValue(f, v) {
				return "", false
			}
		default:
			return "", false
		}
	}
	return name, found
}

// zodObjectChain reports whether n is a zod object built from zod's
// namespace: z.object(...) (or strictObject, looseObject) followed only by
// methods that keep its members.
func (r *schemaRead) zodObjectChain(f *file, n nid, e *env) bool {
	for i := 0; i < 64 && n >= 0; i++ {
		switch f.kind(n) {
		case "parenthesized_expression":
			n = exprChild(f, n)
			continue
		case "call_expression":
		default:
			return false
		}
		callee := f.field(n, "function")
		if f.kind(callee) != "member_expression" {
			return false
		}
		method := f.text(f.field(callee, "property"))
		obj := f.field(callee, "object")
		switch method {
		case "object", "strictObject", "looseObject":
			if r.zodRoot(f, obj, e) {
				return true
			}
		}
		if !zodObjectKeeps[method] {
			return false
		}
		n = obj
	}
	return false
}
