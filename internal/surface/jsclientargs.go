package surface

import "strings"

// A prompt's message text that substitutes the client's own prompt argument
// (methodology §5.4, 2.3.7). The client sends a prompt's arguments with
// prompts/get, and the user chose them: `Research ${args.topic}` has a hole
// whose bytes are the user's, not the publisher's. Such a hole is recorded
// with filled_by client_argument, and the gate does not refuse a prompt's
// message text on holes of that kind alone. The hole is still a hole: it
// contributes no bytes to description_raw, the verifier never matches inside
// it, and every literal segment around it is examined as before.
//
// A hole is filled by the client only when its bytes can come from nowhere
// else, so the mark is given and kept narrowly:
//
//   - it is given only to the arguments of a prompt handler the SDK hands the
//     client's strings unchanged: the `request.params.arguments` of a
//     prompts/get handler (the SDK validates them as a record of strings),
//     and the first parameter of a `.prompt()` / `.registerPrompt()`
//     callback whose argument shape is an object literal of plain zod
//     strings (`z.string()` with only .optional, .describe, .nullable,
//     .nullish, .min, .max, .length, .nonempty): any other schema can fill a
//     value with the package's own text (`.default("...")`, an enum of the
//     package's literals, a transform);
//   - it follows a name, a member access and a call's parameter binding, and
//     nothing else: a default in a destructuring pattern or a parameter, a
//     property read from an object merged with the package's values
//     (Object.assign, a spread), a concatenation, a conditional, a call on
//     the value, all drop it;
//   - it is dropped when the package may write the value first: a property
//     of that name written anywhere in the package, the object written
//     through a computed key or a builtin under the name it is read by, a
//     name written anywhere in its file (the standard of §5.2's constants);
//   - `arg || ""` and `arg ?? ""` keep it: the alternative adds no bytes.
//
// It is looked for only in the substitutions of templates read while such a
// handler's messages are read, and only where the substitution is a name or
// a member access.

// clientArguments is the value a prompt handler's arguments take: not
// resolved, and the client's own.
func clientArguments(why string) val {
	v := unknown(why)
	v.client = true
	return v
}

// notClient drops the mark: the value may hold the package's bytes.
func notClient(v val) val {
	v.client = false
	v.alt = nil // and the package's alternatives around it (jsfallback.go)
	return v
}

// clientHole marks the hole h of a template substitution expr as filled by
// the client's argument when expr, read under e, is that argument.
func (x *extractor) clientHole(h val, f *file, expr nid, e *env) val {
	if x.clientArgText == 0 || expr < 0 || len(h.txt.segs) != 1 {
		return h
	}
	switch f.kind(expr) {
	case "identifier", "member_expression", "subscript_expression":
	default:
		return h
	}
	if v := x.eval(f, expr, e); v.k == vUnknown && v.client {
		h.txt.segs[0].client = true
	}
	return h
}

// keepClientName drops the mark of a value read through a name that its
// file writes somewhere (an assignment, an increment, a pattern, a loop
// target): the package may have replaced the client's bytes.
func (x *extractor) keepClientName(v val, f *file, name string) val {
	if (v.client || v.alt != nil) && (f.facts == nil || x.constWritesOf(f).names[name] > 0) {
		return notClient(v)
	}
	return v
}

// keepClientProp drops the mark of property key read from the client's
// arguments when the package writes a property of that name anywhere, or
// writes the object (read under the name obj, "" when it has none) through
// a computed key or a builtin.
func (x *extractor) keepClientProp(v val, key, obj string) val {
	if (v.client || v.alt != nil) && (x.constPropWritten(key) > 0 || x.constObjectWritten(obj)) {
		return notClient(v)
	}
	return v
}

// clientEmptyAlternative is `arg || ""` / `arg ?? ""`: the client's argument
// or nothing.
func (x *extractor) clientEmptyAlternative(l val, f *file, right nid, e *env) (val, bool) {
	if !l.client {
		return val{}, false
	}
	r := x.eval(f, right, e)
	if s, ok := plainText(r); ok && s == "" {
		return l, true
	}
	return val{}, false
}

// zodStringMods are the zod methods that leave a string as the client sent
// it: validation and documentation only.
var zodStringMods = map[string]bool{
	"optional": true, "describe": true, "nullable": true, "nullish": true,
	"min": true, "max": true, "length": true, "nonempty": true,
}

// plainStringShape reports whether sv, a prompt's argument shape, is an
// object literal whose every member is a plain zod string, so the SDK hands
// the callback the client's strings unchanged (or leaves them out).
func (x *extractor) plainStringShape(sv val) bool {
	if sv.k != vObject || sv.f == nil || sv.n < 0 || sv.f.lang == LangPython || sv.f.kind(sv.n) != "object" {
		return false
	}
	f := sv.f
	members := f.named(sv.n)
	if len(members) == 0 {
		return false
	}
	for _, m := range members {
		if f.kind(m) != "pair" || f.kind(f.field(m, "key")) == "computed_property_name" {
			return false
		}
		if !x.zodPlainString(f, x.zodShapeRef(f, f.field(m, "value")), sv.env) {
			return false
		}
	}
	return true
}

// zodShapeRef is the schema expression a shape member names (since 2.3.13,
// part NA): a member written as a name (`network: networkSchema`) is read as
// the initialiser of that name when the name is bound once, by a declarator
// of its own (`const`, or a `var`/`let` that is the only declaration of the
// name in its scope, as bundlers write module constants), and no code of the
// file writes it again, and every use of the name is such a shape member
// (shapeOnlyUses). Any other member value is returned unchanged, so
// zodPlainString reads it as before (a name is not a call: not plain).
func (x *extractor) zodShapeRef(f *file, n nid) nid {
	if n < 0 || f.kind(n) != "identifier" {
		return n
	}
	name := f.text(n)
	b, ok := x.lookup(f, n, name)
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id || x.jsBindingWritten(f, b) {
		return n
	}
	v := f.field(b.decl, "value")
	decl := f.parent(b.decl)
	if v < 0 || !shapeOnlyUses(f, x, f.parent(decl), b, name) {
		return n
	}
	switch {
	case f.kind(decl) == "lexical_declaration" && strings.HasPrefix(f.text(decl), "const"):
		return v
	case f.kind(decl) == "lexical_declaration": // let: block-scoped, never redeclared
		return v
	case f.kind(decl) == "variable_declaration" && f.kind(f.parent(decl)) == "program":
		if cnt, ok := varDeclarators(f, f.parent(decl), name); ok && cnt == 1 {
			return v
		}
	}
	return n
}

// shapeOnlyUses reports whether every use of the binding b of name in
// scope (the node its declaration sits in: the program or a block; an
// exported declaration's parent is an export statement and is refused) is
// the value of a member of an argument shape: `key: name` in an object
// literal handed directly to a `.prompt(...)` or `.registerPrompt(...)`
// call, or written as the `argsSchema` of one. Any other use (a property
// write `name.parse = ...`, an argument, an export, a shorthand member) could
// change the schema or hand it to code that does, so the name is not read.
// At most maxVarScan nodes are visited, else not read.
func shapeOnlyUses(f *file, x *extractor, scope nid, b binding, name string) bool {
	if k := f.kind(scope); k != "program" && k != "statement_block" {
		return false
	}
	seen := 0
	stack := []nid{scope}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen++; seen > maxVarScan {
			return false
		}
		switch f.kind(n) {
		case "shorthand_property_identifier", "shorthand_property_identifier_pattern":
			if f.text(n) == name {
				return false
			}
		case "identifier":
			if n == b.id || f.text(n) != name {
				break
			}
			if ub, ok := x.lookup(f, n, name); ok && ub.id != b.id && ub.decl != b.decl {
				break // another binding of the same name
			}
			if !shapeMemberValue(f, n) {
				return false
			}
		}
		stack = append(stack, f.named(n)...)
	}
	return true
}

// shapeMemberValue reports whether n is the value of a `key: n` member of
// an object literal that is an argument of a call of a method named prompt
// or registerPrompt, or the value of an `argsSchema:` member.
func shapeMemberValue(f *file, n nid) bool {
	pair := f.parent(n)
	if f.kind(pair) != "pair" || f.field(pair, "value") != n || f.kind(f.field(pair, "key")) == "computed_property_name" {
		return false
	}
	obj := f.parent(pair)
	if f.kind(obj) != "object" {
		return false
	}
	up := f.parent(obj)
	switch f.kind(up) {
	case "arguments":
		callee := f.field(f.parent(up), "function")
		if f.kind(callee) != "member_expression" {
			return false
		}
		m := f.text(f.field(callee, "property"))
		return m == "prompt" || m == "registerPrompt"
	case "pair":
		return f.field(up, "value") == obj && propKeyName(f, f.field(up, "key")) == "argsSchema"
	}
	return false
}

// maxVarScan bounds the nodes varDeclarators and shapeOnlyUses visit.
const maxVarScan = 1 << 20

// varDeclarators counts the `var` declarators of name that bind at module
// level: in the program and in its blocks, loops and branches (where `var`
// hoists to), not inside functions or classes, from program (the module's
// root). ok is false past the bound.
func varDeclarators(f *file, program nid, name string) (int, bool) {
	count, seen := 0, 0
	stack := []nid{program}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen++; seen > maxVarScan {
			return 0, false
		}
		k := f.kind(n)
		if n != program && (functionKind(k) || k == "arrow_function" || k == "class_declaration" || k == "class") {
			continue
		}
		if k == "variable_declarator" && f.kind(f.parent(n)) == "variable_declaration" {
			for _, nm := range patternNames(f, f.field(n, "name")) {
				if nm.name == name {
					count++
				}
			}
		}
		stack = append(stack, f.named(n)...)
	}
	return count, true
}

// zodPlainString reports whether n is `z.string()` followed only by the
// methods of zodStringMods, z being zod's export.
func (x *extractor) zodPlainString(f *file, n nid, e *env) bool {
	for i := 0; i < 32 && n >= 0; i++ {
		if f.kind(n) != "call_expression" {
			return false
		}
		callee := f.field(n, "function")
		if f.kind(callee) != "member_expression" {
			return false
		}
		method := f.text(f.field(callee, "property"))
		obj := f.field(callee, "object")
		if zodStringMods[method] {
			n = obj
			continue
		}
		if method != "string" || len(f.args(n)) != 0 {
			return false
		}
		z := x.eval(f, obj, e)
		return z.k == vExternal && zodNamespace(z.spec)
	}
	return false
}

// zodNamespace reports whether spec (an external binding as importValue
// writes it) is zod's namespace: `import { z } from "zod"`, `import * as z`,
// a default import.
func zodNamespace(spec string) bool {
	for m := range zodModules {
		if spec == m || spec == m+".z" || spec == m+".default" {
			return true
		}
	}
	return false
}
