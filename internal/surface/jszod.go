package surface

import "strings"

// Two members of a zod schema are the values the schema was built from,
// by zod's own definition: `z.object(shape).shape` is shape, and
// `z.literal(v).value` is v (zod 3 and 4: the shape getter returns the shape
// object given to the constructor; a literal's value getter returns its one
// value). A server that keeps its tool names and descriptions in zod
// literals (`name: NavigateTool.shape.name.value`) writes them in its own
// source, so they are read exactly (methodology §5.2, 2.3.4). Only those
// two members are read, only of a constructor call written at module level
// (so no binding of a function is involved), and a literal only when its
// argument is a string or number literal; anything else stays a call into
// another package.

// zodModules are the specifiers that export zod's constructors.
var zodModules = map[string]bool{"zod": true, "zod/v3": true, "zod/v4": true}

// zodConstructor returns "object" or "literal" when spec (an external
// binding as importValue writes it) is that constructor of zod:
// `import { z } from "zod"` gives zod.z.object, `import * as z` zod.object,
// a default import zod.default.object.
func zodConstructor(spec string) string {
	i := strings.LastIndexByte(spec, '.')
	if i <= 0 {
		return ""
	}
	name := spec[i+1:]
	if name != "object" && name != "strictObject" && name != "literal" {
		return ""
	}
	mod := spec[:i]
	for _, suffix := range []string{".z", ".default", ""} {
		if m, ok := strings.CutSuffix(mod, suffix); ok && zodModules[m] {
			if name == "literal" {
				return "literal"
			}
			return "object"
		}
	}
	return ""
}

// zodStaticMember reads .shape of z.object(...) and .value of z.literal(...)
// where resolution stopped at that call (an unknown value carries the node
// it stopped at).
func (x *extractor) zodStaticMember(v val, key string) (val, bool) {
	if v.k != vUnknown || v.f == nil || v.n < 0 || v.f.lang == LangPython || (key != "shape" && key != "value") {
		return val{}, false
	}
	f, n := v.f, v.n
	if f.kind(n) != "call_expression" || insideFunction(f, n) {
		return val{}, false
	}
	args := f.args(n)
	if len(args) != 1 {
		return val{}, false
	}
	callee := x.eval(f, f.field(n, "function"), nil)
	if callee.k != vExternal {
		return val{}, false
	}
	switch zodConstructor(callee.spec) {
	case "object":
		if key != "shape" || f.kind(args[0]) != "object" {
			return val{}, false
		}
		return x.eval(f, args[0], nil), true
	case "literal":
		if key != "value" {
			return val{}, false
		}
		switch f.kind(args[0]) {
		case "string", "number":
			return x.eval(f, args[0], nil), true
		case "template_string":
			if _, ok := f.stringValue(args[0]); ok {
				return x.eval(f, args[0], nil), true
			}
		}
	}
	return val{}, false
}

// insideFunction reports whether n sits in a function body.
func insideFunction(f *file, n nid) bool {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if functionKind(f.kind(a)) || f.kind(a) == "class_body" {
			return true
		}
	}
	return false
}
