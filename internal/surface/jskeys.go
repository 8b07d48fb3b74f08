package surface

import (
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/literal"
)

// This file reads, as text of the package (methodology §5.3, 2.3.9, JK), the
// lists a description builds from one of the package's constant tables and
// joins with a written separator:
//
//	Object.keys(C).join(sep)
//	Object.values(C).join(sep)
//	Object.entries(C).map(([k, v]) => `- ${k}: ${v.description}`).join(sep)
//	Object.keys(C).map((k) => ...).join(sep), Object.values(C).map((v) => ...).join(sep)
//	T.map((t) => `${t.name}: ${t.description}`).join(sep)
//
// C is an object literal of the package reached by the constant routes
// (jsconst.go), T an array literal reached the same way (constArray). The
// list is read exactly or not at all:
//
//   - every member of C is a pair whose key is an identifier or a string
//     written in the source (no computed key, no method or accessor, no
//     `__proto__`), or a shorthand, or a spread of another such constant
//     object; a key that is an array index (`"0"`, `"12"`), which the
//     language lists first in ascending order, and a number key are not
//     read; keys are listed in insertion order, a repeated key keeping the
//     place of its first definition and the value of its last, as the
//     language does;
//   - nothing can change C's members: no file of the package writes a
//     member of an object under C's name (`C.k = v`, `C[k] = v`, `delete
//     C.k`, Object.assign), and C's name is used only where it is read
//     (`C.k`, Object.keys/values/entries/freeze of it, a spread into an
//     object literal, an import or export); a name handed anywhere else (a
//     call's argument, another variable) could be changed there, so it is
//     not read;
//   - a value is read only through the property routes of jsconst.go (no
//     file of the package writes a property of that name);
//   - a callback is an arrow or function expression whose body is one
//     expression (or `{ return E; }`) of literals, the element's parts (a
//     key, a value, a property of a value) and `+` / templates of them; it
//     takes exactly the parameters it is given the element through (one
//     name, or `[k, v]` for an entry), never the index;
//   - the separator is written (a constant of the package).
//
// Every piece is a literal of the package with its own span: a key where it
// is written in C (an identifier's bytes decode as themselves), a value in
// its definition, the callback's text in the callback and the separator
// where it is written; so the verifier (unchanged, verify-3) and G6/G7 check
// every quoted byte where it is written. Anything else stays a hole.

// jkMember is one enumerable own property of a constant object literal, in
// the language's order.
type jkMember struct {
	name  string
	key   val         // the key's text with its span
	value constTarget // the value's expression
}

// jskeysList reads n as one of the list forms above and returns each
// element's text. handled is false when n is none of these forms (the
// caller then reads n as before); why says why a form was not read.
func (x *extractor) jskeysList(f *file, n nid, e *env) (elems []val, why string, handled bool) {
	switch f.kind(n) {
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return x.jskeysList(f, constInner(f, n), e)
	case "call_expression":
	default:
		return nil, "", false
	}
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" {
		return nil, "", false
	}
	obj, method := f.field(callee, "object"), f.text(f.field(callee, "property"))
	args := f.args(n)
	if form := x.jskeysObjectCall(f, n); form != "" {
		if form == "entries" {
			return nil, "entries joined without a callback: the pair's comma is written nowhere", true
		}
		members, why := x.jskeysMembers(f, args[0], e, 0)
		if why != "" {
			return nil, why, true
		}
		out := make([]val, 0, len(members))
		for _, m := range members {
			if form == "keys" {
				out = append(out, m.key)
				continue
			}
			v, why := x.jskeysValueText(m)
			if why != "" {
				return nil, why, true
			}
			out = append(out, v)
		}
		return out, "", true
	}
	if method != "map" {
		return nil, "", false
	}
	if len(args) != 1 {
		return nil, "map with more than a callback", true
	}
	cb := args[0]
	if form := x.jskeysObjectCall(f, obj); form != "" {
		members, why := x.jskeysMembers(f, f.args(obj)[0], e, 0)
		if why != "" {
			return nil, why, true
		}
		out := make([]val, 0, len(members))
		for _, m := range members {
			v, why := x.jskeysCallback(f, cb, e, form, m, constTarget{})
			if why != "" {
				return nil, why, true
			}
			out = append(out, v)
		}
		return out, "", true
	}
	items, why := x.constArray(f, obj, e, 0)
	if why != "" {
		return nil, why, true
	}
	out := make([]val, 0, len(items))
	for _, t := range items {
		v, why := x.jskeysCallback(f, cb, e, "array", jkMember{}, t)
		if why != "" {
			return nil, why, true
		}
		out = append(out, v)
	}
	return out, "", true
}

// jskeysObjectCall reports which of the global Object's keys, values or
// entries n calls with one argument ("" for anything else).
func (x *extractor) jskeysObjectCall(f *file, n nid) string {
	if f.kind(n) != "call_expression" {
		return ""
	}
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" || f.kind(f.field(callee, "object")) != "identifier" ||
		f.text(f.field(callee, "object")) != "Object" || len(f.args(n)) != 1 {
		return ""
	}
	if _, shadowed := x.lookup(f, callee, "Object"); shadowed {
		return ""
	}
	switch m := f.text(f.field(callee, "property")); m {
	case "keys", "values", "entries":
		return m
	}
	return ""
}

// jskeysMembers lists the members of the constant object literal n leads
// to, in the language's order, or says why it cannot.
func (x *extractor) jskeysMembers(f *file, n nid, e *env, hops int) ([]jkMember, string) {
	if hops > 16 {
		return nil, "object spread through too many objects"
	}
	if r, ok := x.enterConst(f, n, "keys"); !ok {
		return nil, r.reason
	}
	defer x.leaveConst(f, n, "keys")
	if why := x.jskeysUnchanged(f, n); why != "" {
		return nil, why
	}
	c := x.constContainer(f, n, e)
	if c.why != "" {
		return nil, c.why
	}
	if c.mod != nil || c.f == nil {
		return nil, "a module's exports, not an object literal"
	}
	of, obj := c.f, c.n
	if name := boundName(of, obj); name != "" && !x.jvSealedTable(of, obj) { // jsvalues_writes.go
		// The name it is declared under, which an import may rename.
		if why := x.jskeysNameUnchanged(name); why != "" {
			return nil, why
		}
	}
	var out []jkMember
	at := map[string]int{}
	add := func(m jkMember) {
		if i, ok := at[m.name]; ok {
			// A repeated key keeps its first place and takes the last value.
			out[i].value = m.value
			return
		}
		at[m.name] = len(out)
		out = append(out, m)
	}
	for _, ch := range of.named(obj) {
		switch of.kind(ch) {
		case "comment":
		case "pair":
			k := of.field(ch, "key")
			var m jkMember
			switch of.kind(k) {
			case "property_identifier":
				src := of.text(k)
				if strings.ContainsRune(src, '\\') {
					return nil, "key written with an escape"
				}
				m = jkMember{name: src, key: literalText(of, of.start(k), of.end(k), literal.JSString)}
			case "string":
				if of.end(k)-of.start(k) < 2 {
					return nil, "unterminated key"
				}
				m.key = literalText(of, of.start(k)+1, of.end(k)-1, literal.JSString)
				if m.key.k != vText {
					return nil, m.key.reason
				}
				m.name = m.key.txt.raw()
			default:
				return nil, "object key of kind " + of.kind(k) + " is not read"
			}
			if m.key.k != vText {
				return nil, m.key.reason
			}
			if m.name == "__proto__" {
				return nil, "a __proto__ key sets the prototype"
			}
			if jskeysIndexKey(m.name) {
				return nil, "key " + m.name + " is an array index, which the language lists first"
			}
			m.value = constTarget{f: of, n: of.field(ch, "value"), e: c.e}
			add(m)
		case "shorthand_property_identifier":
			name := of.text(ch)
			if strings.ContainsRune(name, '\\') {
				return nil, "key written with an escape"
			}
			b, ok := x.lookup(of, ch, name)
			if !ok {
				return nil, "name " + name + " is not declared in the file"
			}
			add(jkMember{name: name, key: literalText(of, of.start(ch), of.end(ch), literal.JSString), value: x.constBinding(of, b, c.e)})
		case "spread_element":
			inner := of.named(ch)
			if len(inner) != 1 {
				return nil, "spread that is not one expression"
			}
			ms, why := x.jskeysMembers(of, inner[0], c.e, hops+1)
			if why != "" {
				return nil, why
			}
			for _, m := range ms {
				add(m)
			}
		default:
			return nil, "object member of kind " + of.kind(ch) + " is not read"
		}
	}
	return out, ""
}

// jskeysIndexKey reports a key that is an array index (a canonical
// unsigned integer below 2^32-1), which Object.keys lists before every
// other key, in ascending order.
func jskeysIndexKey(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	u, err := strconv.ParseUint(s, 10, 64)
	return err == nil && u < 1<<32-1
}

// jskeysValueText reads a member's value as constant text, through the
// property routes: no file of the package writes a property of its name.
func (x *extractor) jskeysValueText(m jkMember) (val, string) {
	if m.value.why != "" || m.value.f == nil {
		return val{}, "value of " + m.name + " is not a constant: " + m.value.why
	}
	if x.constPropWritten(m.name) > 0 {
		return val{}, "property " + m.name + " is assigned somewhere in the package"
	}
	return jskeysText(x.constText(m.value.f, m.value.n, m.value.e))
}

// jkBind is what a callback's parameter stands for: a key's text, or an
// expression of the package (a value, an array's element).
type jkBind struct {
	key    *val
	target constTarget
}

// jskeysCallback reads the callback cb of a map over one element: a
// member of an object (form keys, values or entries) or an array's element
// (form array, target t).
func (x *extractor) jskeysCallback(f *file, cb nid, e *env, form string, m jkMember, t constTarget) (val, string) {
	switch f.kind(cb) {
	case "arrow_function", "function_expression", "function":
	default:
		return val{}, "map callback that is not a function written in place"
	}
	if f.text(f.field(cb, "async")) == "async" || strings.HasPrefix(f.text(cb), "async") {
		return val{}, "async callback"
	}
	var params []nid
	if p := f.field(cb, "parameter"); p >= 0 {
		params = []nid{p}
	} else if ps := f.field(cb, "parameters"); ps >= 0 {
		for _, c := range f.named(ps) {
			if f.kind(c) != "comment" {
				params = append(params, c)
			}
		}
	}
	if len(params) != 1 {
		return val{}, "map callback that does not take exactly the element"
	}
	p := params[0]
	if f.kind(p) == "required_parameter" {
		if len(f.named(p)) != 1 {
			return val{}, "callback parameter with a type, default or modifier"
		}
		p = f.named(p)[0]
	}
	binds := map[string]jkBind{}
	switch form {
	case "entries":
		if f.kind(p) != "array_pattern" {
			return val{}, "entry taken without an [key, value] pattern"
		}
		var names []nid
		for _, c := range f.named(p) {
			if f.kind(c) == "comment" {
				continue
			}
			if f.kind(c) != "identifier" {
				return val{}, "entry pattern with a default, rest or nested pattern"
			}
			names = append(names, c)
		}
		if len(names) == 0 || len(names) > 2 || arrayHasHole(f, p) {
			return val{}, "entry pattern that is not [key] or [key, value]"
		}
		k := m.key
		binds[f.text(names[0])] = jkBind{key: &k}
		if len(names) == 2 {
			if f.text(names[1]) == f.text(names[0]) {
				return val{}, "entry pattern binds one name twice"
			}
			binds[f.text(names[1])] = jkBind{target: m.value}
		}
	default:
		if f.kind(p) != "identifier" {
			return val{}, "element taken through a pattern"
		}
		switch form {
		case "keys":
			k := m.key
			binds[f.text(p)] = jkBind{key: &k}
		case "values":
			binds[f.text(p)] = jkBind{target: m.value}
		default:
			binds[f.text(p)] = jkBind{target: t}
		}
	}
	body := f.field(cb, "body")
	if f.kind(body) == "statement_block" {
		var stmts []nid
		for _, c := range f.named(body) {
			if f.kind(c) != "comment" {
				stmts = append(stmts, c)
			}
		}
		if len(stmts) != 1 || f.kind(stmts[0]) != "return_statement" || len(f.named(stmts[0])) != 1 {
			return val{}, "map callback whose body is not one return of a text"
		}
		body = f.named(stmts[0])[0]
	}
	if form == "values" || form == "entries" {
		if len(binds) > 0 && m.value.why != "" {
			for _, b := range binds {
				if b.key == nil {
					return val{}, "value of " + m.name + " is not a constant: " + m.value.why
				}
			}
		}
	}
	return x.jskeysBody(f, body, e, binds, m)
}

// jskeysBody reads a callback's body expression under its bindings:
// literals, templates and `+` of them, the bound key, and the bound value
// or element and its properties (through the property routes). Anything
// else that names a bound parameter, or is not constant text, stays a hole.
func (x *extractor) jskeysBody(f *file, n nid, e *env, binds map[string]jkBind, m jkMember) (val, string) {
	if r, ok := x.enterConst(f, n, "keysbody"); !ok {
		return val{}, r.reason
	}
	defer x.leaveConst(f, n, "keysbody")
	switch f.kind(n) {
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return x.jskeysBody(f, constInner(f, n), e, binds, m)
	case "template_string":
		return jskeysText(templateText(f, n, func(c nid) val {
			v, why := x.jskeysBody(f, c, e, binds, m)
			if why != "" {
				return unknown(why)
			}
			return v
		}))
	case "binary_expression":
		if f.text(f.field(n, "operator")) != "+" {
			return val{}, "result of the operator " + f.text(f.field(n, "operator"))
		}
		l, why := x.jskeysBody(f, f.field(n, "left"), e, binds, m)
		if why != "" {
			return val{}, why
		}
		r, why := x.jskeysBody(f, f.field(n, "right"), e, binds, m)
		if why != "" {
			return val{}, why
		}
		if isNumberText(l) && isNumberText(r) {
			return val{}, "sum of two numbers"
		}
		return jskeysText(concatText(l, r))
	case "identifier":
		if b, ok := binds[f.text(n)]; ok {
			if b.key != nil {
				return *b.key, ""
			}
			return x.jskeysTargetText(b.target, f.text(n))
		}
	case "member_expression", "subscript_expression":
		if t, bound, why := x.jskeysMemberOf(f, n, binds); bound {
			if why != "" {
				return val{}, why
			}
			return jskeysText(x.constText(t.f, t.n, t.e))
		}
	}
	if jskeysMentions(f, n, binds) {
		return val{}, "the element is used in a form that is not read"
	}
	return jskeysText(x.constText(f, n, e))
}

// jskeysTargetText reads a bound value or element as constant text.
func (x *extractor) jskeysTargetText(t constTarget, name string) (val, string) {
	if t.why != "" || t.f == nil {
		return val{}, "value bound to " + name + " is not a constant: " + t.why
	}
	return jskeysText(x.constText(t.f, t.n, t.e))
}

// jskeysMemberOf follows `p.a.b` (or `p["a"]`) from a bound parameter p
// to the property's expression, through constProp at each step; bound is
// false when the access does not start at a bound value.
func (x *extractor) jskeysMemberOf(f *file, n nid, binds map[string]jkBind) (constTarget, bool, string) {
	var keys []string
	cur := n
	for i := 0; i < 16; i++ {
		switch f.kind(cur) {
		case "member_expression":
			if f.kind(f.field(cur, "property")) != "property_identifier" {
				return constTarget{}, true, "member name computed at run time"
			}
			keys = append(keys, f.text(f.field(cur, "property")))
			cur = f.field(cur, "object")
			continue
		case "subscript_expression":
			s, ok := f.stringValue(f.field(cur, "index"))
			if !ok {
				return constTarget{}, jskeysMentions(f, cur, binds), "member name computed at run time"
			}
			keys = append(keys, s)
			cur = f.field(cur, "object")
			continue
		case "identifier":
			b, ok := binds[f.text(cur)]
			if !ok {
				return constTarget{}, false, ""
			}
			if b.key != nil {
				return constTarget{}, true, "a property of a key is not read"
			}
			t := b.target
			for j := len(keys) - 1; j >= 0; j-- {
				if t.why != "" || t.f == nil {
					return constTarget{}, true, "value is not a constant: " + t.why
				}
				c := x.constContainer(t.f, t.n, t.e)
				if c.why != "" {
					return constTarget{}, true, c.why
				}
				if c.mod != nil {
					t = x.constExport(c.mod, keys[j], 0)
				} else {
					t = x.constProp(c.f, c.n, keys[j], c.e)
				}
			}
			if t.why != "" || t.f == nil {
				return constTarget{}, true, "property is not a constant: " + t.why
			}
			return t, true, ""
		}
		return constTarget{}, jskeysMentions(f, n, binds), "the element is used in a form that is not read"
	}
	return constTarget{}, true, "property chain too long"
}

// jskeysMentions reports whether expression n names one of the bound
// parameters anywhere inside it.
func jskeysMentions(f *file, n nid, binds map[string]jkBind) bool {
	found := false
	f.walk(n, func(c nid) bool {
		if found {
			return false
		}
		if k := f.kind(c); k == "identifier" || k == "shorthand_property_identifier" {
			if _, ok := binds[f.text(c)]; ok {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// jskeysUnchanged says why the object n names could be changed by some
// code path of the package ("" when it cannot): a member written under its
// name (through the write index: a computed key, Object.assign,
// Object.defineProperty), or its name used anywhere but where it is read.
func (x *extractor) jskeysUnchanged(f *file, n nid) string {
	for f.kind(n) == "parenthesized_expression" || f.kind(n) == "as_expression" ||
		f.kind(n) == "satisfies_expression" || f.kind(n) == "non_null_expression" {
		n = constInner(f, n)
	}
	switch f.kind(n) {
	case "object":
		return ""
	case "identifier", "member_expression":
	case "call_expression":
		if a := f.args(n); len(a) == 1 && f.text(f.field(n, "function")) == "Object.freeze" {
			return x.jskeysUnchanged(f, a[0])
		}
		return "" // constContainer decides (a required module is not an object)
	default:
		return "" // constContainer refuses it
	}
	name := lastName(f, n)
	if name == "" {
		return "object with no name"
	}
	if x.jvSealedName(f, n) {
		return "" // no reference to it leaves its reads (jsvalues_writes.go)
	}
	return x.jskeysNameUnchanged(name)
}

// jskeysNameUnchanged says why an object under name could be changed by
// some code path of the package ("" when it cannot).
func (x *extractor) jskeysNameUnchanged(name string) string {
	if x.constObjectWritten(name) {
		return "object " + name + " is written through a computed key or Object.assign"
	}
	for _, g := range x.files {
		if g.facts == nil || g.lang == LangPython || len(g.nodes) == 0 {
			continue
		}
		if x.jskeysEsc == nil {
			x.jskeysEsc = map[*file]map[string]string{}
		}
		idx, ok := x.jskeysEsc[g]
		if !ok {
			idx = jskeysUses(g)
			x.jskeysEsc[g] = idx
		}
		if why := idx[name]; why != "" {
			return why
		}
	}
	return ""
}

// jskeysUses walks one file once for the uses of every name (an
// identifier, or the property of a member access) and records, per name,
// why its first use that could change the object it names could.
func jskeysUses(g *file) map[string]string {
	out := map[string]string{}
	g.walk(0, func(c nid) bool {
		var r nid = none
		name := ""
		switch g.kind(c) {
		case "identifier", "shorthand_property_identifier":
			r, name = c, g.text(c)
		case "property_identifier":
			if p := g.parent(c); p >= 0 && g.kind(p) == "member_expression" && g.field(p, "property") == c {
				r, name = p, g.text(c)
			}
		}
		if r >= 0 && out[name] == "" {
			if why := jskeysUse(g, r, name); why != "" {
				out[name] = why
			}
		}
		return true
	})
	return out
}

// jskeysUse says why the use r of an object's name could change it, or "".
func jskeysUse(g *file, r nid, name string) string {
	escape := "object " + name + " is used where it could be changed (" + g.path + " line " + strconv.Itoa(g.lineOf(r)) + ")"
	if g.kind(r) == "shorthand_property_identifier" {
		if jskeysExportObject(g, g.parent(r)) {
			return ""
		}
		return escape
	}
	u := r
	p := g.parent(u)
	for p >= 0 {
		k := g.kind(p)
		if k == "parenthesized_expression" || k == "as_expression" || k == "satisfies_expression" || k == "non_null_expression" {
			u, p = p, g.parent(p)
			continue
		}
		break
	}
	if p < 0 {
		return ""
	}
	switch g.kind(p) {
	case "member_expression", "subscript_expression":
		if g.field(p, "object") != u {
			return "" // C as the property of another member: not C itself
		}
		if jskeysWriteTarget(g, p) {
			return escape
		}
		return ""
	case "arguments":
		call := g.parent(p)
		switch g.text(g.field(call, "function")) {
		case "Object.keys", "Object.values", "Object.entries", "Object.freeze", "JSON.stringify":
			return ""
		}
		return escape
	case "spread_element", "type_query", "export_specifier", "import_specifier", "namespace_import", "import_clause",
		"export_clause", "named_imports":
		return ""
	case "unary_expression":
		if g.text(g.field(p, "operator")) == "typeof" {
			return ""
		}
		return escape
	case "binary_expression":
		if g.text(g.field(p, "operator")) == "in" && g.field(p, "right") == u {
			return ""
		}
		return escape
	case "variable_declarator":
		if g.field(p, "name") == u {
			return ""
		}
		return escape
	case "pair":
		if g.field(p, "key") == u {
			return ""
		}
		if jskeysExportObject(g, g.parent(p)) {
			return ""
		}
		return escape
	case "assignment_expression":
		if g.field(p, "right") == u {
			if l := g.text(g.field(p, "left")); strings.HasPrefix(l, "exports.") || strings.HasPrefix(l, "module.exports") {
				return ""
			}
		}
		return escape
	case "function_declaration", "class_declaration", "method_definition", "labeled_statement", "statement_identifier":
		return ""
	}
	if g.kind(u) == "identifier" {
		switch g.kind(p) {
		case "nested_identifier", "nested_type_identifier":
			return ""
		}
	}
	return escape
}

// jskeysWriteTarget reports whether member access m is written: the target
// of an assignment of any kind, an increment, or a delete.
func jskeysWriteTarget(g *file, m nid) bool {
	p := g.parent(m)
	for p >= 0 && g.kind(p) == "parenthesized_expression" {
		m, p = p, g.parent(p)
	}
	if p < 0 {
		return false
	}
	switch g.kind(p) {
	case "assignment_expression", "augmented_assignment_expression":
		return g.field(p, "left") == m
	case "update_expression":
		return true
	case "unary_expression":
		return g.text(g.field(p, "operator")) == "delete"
	case "for_in_statement":
		return g.field(p, "left") == m
	case "array_pattern", "object_pattern", "pair_pattern", "assignment_pattern", "rest_pattern":
		return true
	}
	return false
}

// jskeysExportObject reports whether obj is the object literal a module
// exports (`module.exports = { C }`): its members are the module's
// exports, read by name elsewhere.
func jskeysExportObject(g *file, obj nid) bool {
	if obj < 0 || g.kind(obj) != "object" {
		return false
	}
	p := g.parent(obj)
	return p >= 0 && g.kind(p) == "assignment_expression" && g.field(p, "right") == obj && g.text(g.field(p, "left")) == "module.exports"
}

// jskeysText is v as a body's result: text, or no value and the reason it is
// not text (never an empty reason: a value of another kind that carries none
// says so).
func jskeysText(v val) (val, string) {
	if v.k == vText {
		return v, ""
	}
	if v.reason == "" {
		return val{}, "not constant text"
	}
	return val{}, v.reason
}
