package surface

import "strings"

// A zod object's shape (methodology §5.3, since 2.3.12): S.shape, where S is
// z.object(shape) (or strictObject, looseObject), is the raw shape zod keeps
// for S; an SDK given a raw shape wraps it in z.object again, so its texts
// are the shape's members' texts. Resolution of S.shape in a bundle's copy
// of zod reaches zod 3's shape getter (() => shape, an arrow function of the
// bundled library) or zod's namespace object rather than the shape, so the
// schema as written is followed instead: S's declaration (a const, or the
// value resolution gives when it is a call), then the chain back to the
// constructor. describe(), meta(), strict(), passthrough() and strip() keep
// the shape and their own text is the object's, not a member's, so they are
// passed over; extend(T) adds T's members; any other method is a gap (pick,
// omit, partial, … rebuild the shape).

// shapeKeeping are the methods of a zod object whose result has the same shape.
var shapeKeeping = map[string]bool{"describe": true, "meta": true, "strict": true, "passthrough": true, "strip": true}

// shapeMember reads S.shape at n when S is written as a zod object; it
// reports false, reading nothing, when S is not one (n is then read as any
// member).
func (r *schemaRead) shapeMember(f *file, n nid, e *env, path string, depth int) bool {
	if f.kind(n) != "member_expression" || f.text(f.field(n, "property")) != "shape" {
		return false
	}
	g, s, ge := f, f.field(n, "object"), e
	var extends []schemaAt
	for i := 0; i < 16 && s >= 0; i++ {
		switch g.kind(s) {
		case "parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression":
			s = exprChild(g, s)
			continue
		case "identifier":
			h, m, he, ok := r.constInit(g, s, ge)
			if !ok {
				return false
			}
			g, s, ge = h, m, he
			continue
		case "call_expression":
		default:
			return false
		}
		callee := g.field(s, "function")
		if g.kind(callee) != "member_expression" {
			return false
		}
		method := g.text(g.field(callee, "property"))
		recv := g.field(callee, "object")
		args := g.args(s)
		switch {
		case shapeKeeping[method]:
			s = recv
		case method == "extend" || method == "safeExtend":
			if len(args) != 1 {
				r.gap(g, s, "shape of a schema extended without one shape")
				return true
			}
			extends = append(extends, schemaAt{g, args[0], ge})
			s = recv
		case method == "object" || method == "strictObject" || method == "looseObject":
			if !r.zodRoot(g, recv, ge) {
				return false
			}
			if len(args) == 0 {
				r.gap(g, s, "shape of a zod object built without a shape")
				return true
			}
			r.node(g, args[0], ge, path, depth+1)
			for _, x := range extends {
				r.node(x.f, x.n, x.env, path, depth+1)
			}
			return true
		default:
			// Another method may rebuild the shape (pick, omit, partial, …).
			r.gap(g, s, "shape of a schema built by "+method+"() not read")
			return true
		}
	}
	return false
}

type schemaAt struct {
	f   *file
	n   nid
	env *env
}

// constInit is the initializer of the const declaration a name refers to,
// in the name's file.
func (r *schemaRead) constInit(f *file, n nid, e *env) (*file, nid, *env, bool) {
	b, ok := r.x.lookup(f, n, f.text(n))
	if !ok || b.kind != bDecl || b.decl < 0 || f.kind(b.decl) != "variable_declarator" {
		return nil, none, nil, false
	}
	d := f.parent(b.decl)
	if d < 0 || f.kind(d) != "lexical_declaration" || !strings.HasPrefix(f.text(d), "const") {
		return nil, none, nil, false
	}
	v := f.field(b.decl, "value")
	if v < 0 || f.field(b.decl, "name") != b.id {
		return nil, none, nil, false
	}
	return f, v, e, true
}
