package surface

import (
	"strings"

	"github.com/attestari/attestari/internal/literal"
)

// This file reads a template literal's substitution when it names a constant
// of the package (methodology §5.2, description states): `${DEFAULT_DB}`
// with `export const DEFAULT_DB = "neondb"` in the same file or a sibling
// module. The substitution becomes the constant's own literal segments, each
// with its span in the constant's declaration, so the verifier and G6/G7
// check its bytes like any other literal. Only these routes are followed, and
// nothing else makes a substitution text:
//
//   - a string literal, a numeric literal (rendered as String(n) renders it,
//     literal.JSNumber), or a template literal whose own substitutions all
//     resolve this way (nested, bounded like every resolution);
//   - a name declared `const`, or `let`/`var` declared once and never written
//     again anywhere in its file (no assignment, compound assignment,
//     increment, destructuring or loop target of that name), whose
//     initialiser is one of these;
//   - `import { X } from "./m"`, `import X from "./m"`, `require("./m").X`,
//     `const { X } = require("./m")`, `M.X` on a namespace import or a
//     required sibling module, re-exports and `export *` (a name more than one
//     star exports is refused), CommonJS `exports.X = ...` assigned once;
//   - `O.K` (and `O["K"]`) on an object literal bound that way, when the
//     object has no spread and no computed key and no file of the package
//     writes a property named K (`x.K = ...`, `x.K += ...`, `x["K"] = ...`),
//     writes O through a computed key, or hands O to Object.assign or
//     Object.defineProperty;
//   - `a + b` where both sides are such constants and not both numbers;
//   - a plain parameter, never written in its file, of the call being
//     evaluated (`note("text")` with `note = d => `${d}!``), read through
//     that call's argument by these same routes;
//   - parentheses, `as`, `satisfies` and `!` around any of these.
//
// A parameter bound by an enumerated call site or a loop, a loop binding, a
// call's result, another operator, an environment variable or anything
// imported from another package stays a hole, whatever the rest of the
// extractor could say about it.

// constKey marks the extractor's in-progress lookups that belong to this
// reader, so they never meet a lookup of the general resolution.
const constKey = "\x00const"

// constSubstitution reads the substitution expression n of a template as a
// constant of the package; ok is false when it stays a hole.
func (x *extractor) constSubstitution(f *file, n nid, e *env) (val, bool) {
	if n < 0 || f.lang == LangPython || f.facts == nil {
		return val{}, false
	}
	v := x.constText(f, n, e)
	if v.k != vText {
		return val{}, false
	}
	return v, true
}

// enterConst bounds one step of this reader like enterName: a step of the
// budget, a level of depth, and the in-progress set keyed by (file, node),
// so `const A = `${B}`, B = `${A}“ ends unresolved at its first repetition.
func (x *extractor) enterConst(f *file, n nid, what string) (val, bool) {
	if !x.step() {
		return x.stepFailure(), false
	}
	key := nameKey{f, n, constKey + what}
	if x.resolving[key] {
		return unknown("constant refers back to itself"), false
	}
	if x.depth >= x.opts.MaxDepth {
		return unknown("resolution depth limit reached"), false
	}
	x.depth++
	x.resolving[key] = true
	return val{}, true
}

func (x *extractor) leaveConst(f *file, n nid, what string) {
	x.depth--
	delete(x.resolving, nameKey{f, n, constKey + what})
}

// constText reads expression n as literal text of the package; e binds the
// parameters of the calls being evaluated (constParam).
func (x *extractor) constText(f *file, n nid, e *env) val {
	if n < 0 {
		return unknown("no expression")
	}
	if r, ok := x.enterConst(f, n, "text"); !ok {
		return r
	}
	defer x.leaveConst(f, n, "text")
	switch f.kind(n) {
	case "string":
		if f.end(n)-f.start(n) < 2 {
			return unknown("unterminated string")
		}
		return literalText(f, f.start(n)+1, f.end(n)-1, literal.JSString)
	case "number":
		return literalText(f, f.start(n), f.end(n), literal.JSNumber)
	case "template_string":
		return x.constTemplate(f, n, e)
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return x.constText(f, constInner(f, n), e)
	case "ternary_expression":
		if v, ok := x.jbConstChoice(f, n, e); ok {
			return v // the arm of this reading; the other is read too (jsbranches.go)
		}
		return unknown("substitution of kind " + f.kind(n) + " is not a constant")
	case "binary_expression":
		if v, ok := x.jvConstChoice(f, n, e); ok {
			return v // process.env.X || "default" (jsvalues_choice.go)
		}
		// "a" + B: a concatenation when either side is a string. Two
		// numbers add, which is not read.
		if f.text(f.field(n, "operator")) != "+" {
			return unknown("result of the operator " + f.text(f.field(n, "operator")))
		}
		l := x.constText(f, f.field(n, "left"), e)
		if l.k != vText {
			return l
		}
		r := x.constText(f, f.field(n, "right"), e)
		if r.k != vText {
			return r
		}
		if isNumberText(l) && isNumberText(r) {
			return unknown("sum of two numbers")
		}
		return concatText(l, r)
	case "identifier", "member_expression", "subscript_expression":
		t := x.constRef(f, n, e)
		if t.f == nil {
			return unknown(t.why)
		}
		return x.constText(t.f, t.n, t.e)
	case "call_expression":
		return x.constJoin(f, n, e) // jsconst_loops.go
	}
	return unknown("substitution of kind " + f.kind(n) + " is not a constant")
}

// constTemplate reads a template literal whose every substitution is a
// constant: its literal segments and the constants' segments, in order.
func (x *extractor) constTemplate(f *file, n nid, e *env) val {
	return templateText(f, n, func(c nid) val { return x.constText(f, c, e) })
}

// templateText reads the template literal n: its literal segments and, in
// order, the value sub gives for each substitution's expression. The first
// substitution whose value is not text ends the reading with that value; an
// empty template is the empty text. It is the one reading of a template's
// pieces for the constant routes and the constant tables' callbacks
// (jskeys.go).
func templateText(f *file, n nid, sub func(nid) val) val {
	if f.end(n)-f.start(n) < 2 {
		return unknown("unterminated template")
	}
	start := f.start(n) + 1
	var parts []val
	for _, c := range f.named(n) {
		if f.kind(c) != "template_substitution" {
			continue
		}
		if f.start(c) > start {
			parts = append(parts, literalText(f, start, f.start(c), literal.JSTemplate))
		}
		ch := f.named(c)
		if len(ch) != 1 {
			return unknown("substitution that is not one expression")
		}
		v := sub(ch[0])
		if v.k != vText {
			return v
		}
		parts = append(parts, v)
		start = f.end(c)
	}
	if end := f.end(n) - 1; end > start {
		parts = append(parts, literalText(f, start, end, literal.JSTemplate))
	}
	if len(parts) == 0 {
		return val{k: vText, txt: &textv{}}
	}
	return concatText(parts...)
}

// constInner is the expression inside a wrapper that does not change a
// value: parentheses, `as T`, `satisfies T`, `x!`.
func constInner(f *file, n nid) nid {
	for _, c := range f.named(n) {
		switch k := f.kind(c); {
		case k == "type_identifier" || k == "predefined_type" || k == "type_arguments" || k == "generic_type" ||
			k == "nested_type_identifier" || k == "object_type" || k == "union_type" || k == "literal_type" ||
			len(k) > 5 && k[len(k)-5:] == "_type":
			continue
		}
		return c
	}
	return none
}

// constTarget is where a name of the package leads: the expression that
// gives it its only value (f, n, read under e), or a module (mod), or why
// neither.
type constTarget struct {
	f   *file
	n   nid
	e   *env
	mod *file
	why string
}

// isNumberText reports whether v is one numeric literal and nothing else:
// what `+` adds rather than joins. (A template or string holding a number
// is text; it reads as a number here only in the refusing direction.)
func isNumberText(v val) bool {
	return v.k == vText && len(v.txt.segs) == 1 && v.txt.segs[0].enc == literal.JSNumber
}

func constFail(why string) constTarget { return constTarget{n: none, why: why} }

// constRef follows a name or a member access to the one expression that
// gives it its value.
func (x *extractor) constRef(f *file, n nid, e *env) constTarget {
	if r, ok := x.enterConst(f, n, "ref"); !ok {
		return constFail(r.reason)
	}
	defer x.leaveConst(f, n, "ref")
	switch f.kind(n) {
	case "identifier":
		name := f.text(n)
		b, ok := x.lookup(f, n, name)
		if !ok {
			if name == "exports" {
				return constTarget{mod: f, n: none}
			}
			return constFail("name " + name + " is not declared in the file")
		}
		return x.constBinding(f, b, e)
	case "member_expression", "subscript_expression":
		obj := f.field(n, "object")
		var key string
		if f.kind(n) == "member_expression" {
			key = f.text(f.field(n, "property"))
		} else {
			s, ok := f.stringValue(f.field(n, "index"))
			if !ok {
				return constFail("member name computed at run time")
			}
			key = s
		}
		if f.kind(obj) == "identifier" && f.text(obj) == "module" && key == "exports" {
			if _, ok := x.lookup(f, obj, "module"); !ok {
				return constTarget{mod: f, n: none}
			}
		}
		c := x.constContainer(f, obj, e)
		if c.why != "" {
			return c
		}
		if c.mod != nil {
			return x.constExport(c.mod, key, 0)
		}
		return x.constProp(c.f, c.n, key, c.e)
	}
	return constFail("expression of kind " + f.kind(n) + " is not a constant")
}

// constContainer reads n as an object literal or a module of the package.
func (x *extractor) constContainer(f *file, n nid, e *env) constTarget {
	if r, ok := x.enterConst(f, n, "container"); !ok {
		return constFail(r.reason)
	}
	defer x.leaveConst(f, n, "container")
	switch f.kind(n) {
	case "object":
		return constTarget{f: f, n: n, e: e}
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return x.constContainer(f, constInner(f, n), e)
	case "call_expression":
		callee := f.field(n, "function")
		args := f.args(n)
		switch {
		case f.kind(callee) == "identifier" && f.text(callee) == "require" && len(args) == 1:
			spec, ok := f.stringValue(args[0])
			if !ok {
				return constFail("require of a computed specifier")
			}
			if t := x.resolveModule(f, spec); t != nil && t.facts != nil {
				return constTarget{mod: t, n: none}
			}
			return constFail("module " + spec + " is not a module of the package")
		case len(args) == 1 && (f.calleeName(callee) == "__importStar" || f.text(callee) == "Object.freeze"):
			// tslib's namespace wrapper, and a frozen object, hold the
			// same members as their argument.
			return x.constContainer(f, args[0], e)
		}
		return constFail("result of a call")
	case "identifier", "member_expression", "subscript_expression":
		t := x.constRef(f, n, e)
		if t.why != "" || t.mod != nil {
			return t
		}
		return x.constContainer(t.f, t.n, t.e)
	}
	return constFail("value of kind " + f.kind(n) + " is not a constant object")
}

// constBinding is the value expression of a binding, when nothing writes
// the name again.
func (x *extractor) constBinding(f *file, b binding, e *env) constTarget {
	switch b.kind {
	case bImport:
		return x.constImport(f, b.decl)
	case bParam:
		return x.constParam(f, b, e)
	case bDecl:
	case bLoop:
		if fr := e.lookup(scopeRef{f, b.decl}); fr != nil && fr.dead == "" && fr.isLoop {
			return x.constLoopElement(f, b, e, fr) // jsconst_loops.go
		}
		return constFail("a loop binding, not a constant")
	default:
		return constFail("a loop binding, not a constant")
	}
	d := b.decl
	if f.kind(d) != "variable_declarator" {
		return constFail("declaration of kind " + f.kind(d) + " is not a constant")
	}
	name := f.text(b.id)
	decl := f.parent(d)
	isConst := f.kind(decl) == "lexical_declaration" && strings.HasPrefix(f.text(decl), "const")
	if !isConst {
		w := x.constWritesOf(f)
		if w.names[name] > 0 || w.decls[name] > 1 {
			return constFail("variable " + name + " is assigned again")
		}
	}
	value := f.field(d, "value")
	if value < 0 {
		return constFail("variable " + name + " has no initialiser")
	}
	pat := f.field(d, "name")
	if pat == b.id {
		return constTarget{f: f, n: value, e: e}
	}
	// const { X } = require("./m"), const { X: Y } = obj: one level.
	if f.kind(pat) != "object_pattern" {
		return constFail("destructured from an array")
	}
	key := ""
	for _, c := range f.named(pat) {
		switch f.kind(c) {
		case "shorthand_property_identifier_pattern":
			if c == b.id {
				key = name
			}
		case "pair_pattern":
			if f.field(c, "value") == b.id {
				key = propKeyName(f, f.field(c, "key"))
			}
		}
	}
	if key == "" {
		return constFail("destructured with a default or nested pattern")
	}
	c := x.constContainer(f, value, e)
	if c.why != "" {
		return c
	}
	if c.mod != nil {
		return x.constExport(c.mod, key, 0)
	}
	return x.constProp(c.f, c.n, key, c.e)
}

// constParam reads a parameter of the call being evaluated: a plain
// parameter the function never writes, bound by that call (not by a loop
// or an enumerated call site) to an argument expression, which is then read
// by these same routes under the caller's bindings. `function note(d) {
// return `${d}!`; }` called as `note("Reads files")` reads "Reads files!";
// anything else the argument is (a call, a loop element) leaves the hole.
func (x *extractor) constParam(f *file, b binding, e *env) constTarget {
	name := f.text(b.id)
	if b.decl != b.id {
		return constFail("parameter " + name + " is destructured or has a default")
	}
	if x.constWritesOf(f).names[name] > 0 {
		return constFail("parameter " + name + " is assigned")
	}
	fr := e.lookup(scopeRef{f, b.fn})
	if fr != nil && fr.dead == "" && fr.isLoop {
		return x.constLoopElement(f, b, e, fr) // jsconst_loops.go
	}
	if fr != nil && fr.dead == "" && !fr.isLoop && fr.site != nil {
		return x.constSiteParam(f, b, fr.site, e) // jsprompt_sites.go
	}
	if fr == nil || fr.dead != "" || fr.isLoop || fr.site != nil || !fr.calling {
		return constFail("parameter " + name + " is not bound by the call being read")
	}
	if b.index >= len(fr.args) {
		return constFail("parameter " + name + " has no argument")
	}
	t := fr.args[b.index]
	if t.v != nil || t.n < 0 || t.f == nil || t.f.kind(t.n) == "spread_element" {
		return constFail("argument of " + name + " is not an expression of the package")
	}
	return constTarget{f: t.f, n: t.n, e: t.env}
}

// constImport follows an import binding to the exporting module.
func (x *extractor) constImport(f *file, d nid) constTarget {
	stmt := d
	for stmt >= 0 && f.kind(stmt) != "import_statement" {
		stmt = f.parent(stmt)
	}
	if stmt < 0 {
		return constFail("import outside an import statement")
	}
	spec, ok := f.stringValue(f.field(stmt, "source"))
	if !ok {
		return constFail("import of a computed specifier")
	}
	t := x.resolveModule(f, spec)
	if t == nil || t.facts == nil {
		return constFail("imported from " + spec + ", not a module of the package")
	}
	switch f.kind(d) {
	case "namespace_import":
		return constTarget{mod: t, n: none}
	case "identifier":
		return x.constExport(t, "default", 0)
	case "import_specifier":
		return x.constExport(t, exportSpecName(f, f.field(d, "name")), 0)
	}
	return constFail("import of kind " + f.kind(d))
}

// constExport follows an exported name of module t to its value.
func (x *extractor) constExport(t *file, name string, hops int) constTarget {
	if hops > 16 {
		return constFail("re-export chain too long")
	}
	fa := t.facts
	if fa == nil {
		return constFail("module " + t.path + " was not parsed")
	}
	if r, ok := x.enterConst(t, none, "export:"+name); !ok {
		return constFail(r.reason)
	}
	defer x.leaveConst(t, none, "export:"+name)
	if r, ok := fa.exports[name]; ok {
		switch r.kind {
		case exLocal:
			b, ok := x.lookupModuleScope(t, r.local)
			if !ok {
				return constFail("exported name " + r.local + " is not declared")
			}
			return x.constBinding(t, b, nil)
		case exExpr:
			if x.constWritesOf(t).exports[name] != 1 || x.constPropWritten(name) > 1 {
				// exports.X = a; ... exports.X = b, or written from
				// another module.
				return constFail("export " + name + " is assigned more than once")
			}
			return constTarget{f: t, n: r.node}
		case exReexport:
			u := x.resolveModule(t, r.spec)
			if u == nil {
				return constFail("re-exported from " + r.spec + ", not a module of the package")
			}
			return x.constExport(u, r.name, hops+1)
		case exNamespace:
			u := x.resolveModule(t, r.spec)
			if u == nil || u.facts == nil {
				return constFail("re-exported from " + r.spec + ", not a module of the package")
			}
			return constTarget{mod: u, n: none}
		}
	}
	if fa.cjsExports >= 0 {
		c := x.constContainer(t, fa.cjsExports, nil)
		if c.why != "" {
			return c
		}
		if c.mod != nil {
			if c.mod == t {
				return constFail("module.exports refers to itself")
			}
			return x.constExport(c.mod, name, hops+1)
		}
		return x.constProp(c.f, c.n, name, c.e)
	}
	var found []constTarget
	for _, s := range fa.stars {
		u := x.resolveModule(t, s)
		if u == nil || u.facts == nil {
			continue
		}
		if c := x.constExport(u, name, hops+1); c.why == "" {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return constFail("module " + t.path + " does not export " + name + " as a constant")
}

// constProp reads property key of object literal obj: its one definition,
// when no file of the package writes such a property or the object.
func (x *extractor) constProp(f *file, obj nid, key string, e *env) constTarget {
	if x.constPropWrittenOn(key, f, obj) > 0 { // writes by receiver (jsvalues_writes.go)
		return constFail("property " + key + " is assigned somewhere in the package")
	}
	if name := boundName(f, obj); name != "" && x.constObjectWritten(name) && !x.jvSealedTable(f, obj) {
		return constFail("object " + name + " is written through a computed key or Object.assign")
	}
	var at nid = none
	for _, c := range f.named(obj) {
		switch f.kind(c) {
		case "pair":
			k := f.field(c, "key")
			if f.kind(k) == "computed_property_name" {
				return constFail("object with a computed key")
			}
			if propKeyName(f, k) == key {
				at = f.field(c, "value")
			}
		case "shorthand_property_identifier":
			if f.text(c) == key {
				at = c
			}
		case "spread_element":
			return constFail("object with a spread")
		case "method_definition":
			if f.text(f.field(c, "name")) == key {
				return constFail("property " + key + " is a method or accessor")
			}
		}
	}
	if at < 0 {
		return constFail("object has no property " + key)
	}
	if f.kind(at) == "shorthand_property_identifier" {
		b, ok := x.lookup(f, at, key)
		if !ok {
			return constFail("name " + key + " is not declared in the file")
		}
		return x.constBinding(f, b, e)
	}
	return constTarget{f: f, n: at, e: e}
}

// boundName is the name an object literal is the initialiser of
// (`const O = {...}`, through `as const` and Object.freeze), or "".
func boundName(f *file, obj nid) string {
	for p := f.parent(obj); p >= 0; p = f.parent(p) {
		switch f.kind(p) {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "arguments", "call_expression":
			continue
		case "variable_declarator":
			if nm := f.field(p, "name"); f.kind(nm) == "identifier" {
				return f.text(nm)
			}
		}
		return ""
	}
	return ""
}

// constWrites indexes, for one JS/TS file, every place a name or a property
// is written, in any form the language has: what the general facts do not
// keep (increments, destructuring assignments, loop targets, subscripts).
type constWrites struct {
	names   map[string]int  // identifier written (assignment of any kind, ++/--, pattern, for-in/of target)
	decls   map[string]int  // variable declarators per name
	props   map[string]int  // x.p / x["p"] written
	exports map[string]int  // exports.X / module.exports.X = (not void 0)
	objects map[string]bool // o[k] = with a computed k, Object.assign(o, ...), Object.defineProperty(o, ...), delete o[k], by the object's last name ("" when it has none)
	mutated map[string]bool // o.push(...), o.splice(...), ... by the object's last name (jsconst_loops.go)
	// collections: o.add(...), o.set(...), o.delete(...), o.clear() by the object's last name (jscollections.go)
	collections map[string]bool
}

// constWritesOf builds (once per file) the write index of f.
func (x *extractor) constWritesOf(f *file) *constWrites {
	if w, ok := x.constWriteIdx[f]; ok {
		return w
	}
	w := &constWrites{names: map[string]int{}, decls: map[string]int{}, props: map[string]int{}, exports: map[string]int{}, objects: map[string]bool{}}
	if x.constWriteIdx == nil {
		x.constWriteIdx = map[*file]*constWrites{}
	}
	x.constWriteIdx[f] = w
	if f.facts == nil || len(f.nodes) == 0 {
		return w
	}
	var target func(n nid)
	target = func(n nid) {
		switch f.kind(n) {
		case "identifier", "shorthand_property_identifier_pattern":
			w.names[f.text(n)]++
		case "parenthesized_expression":
			for _, c := range f.named(n) {
				target(c)
			}
		case "object_pattern", "array_pattern", "rest_pattern", "assignment_pattern", "object_assignment_pattern":
			for _, c := range f.named(n) {
				if f.kind(c) == "pair_pattern" {
					target(f.field(c, "value"))
					continue
				}
				if f.kind(n) == "assignment_pattern" || f.kind(n) == "object_assignment_pattern" {
					target(f.field(n, "left"))
					break
				}
				target(c)
			}
		case "member_expression":
			obj, prop := f.field(n, "object"), f.text(f.field(n, "property"))
			if jsConstructorThis(f, obj) {
				break // the new instance, never a literal (jsctorwrites.go)
			}
			w.props[prop]++
			if o := f.text(obj); o == "exports" || o == "module.exports" {
				w.exports[prop]++
			}
		case "subscript_expression":
			obj := f.field(n, "object")
			if s, ok := f.stringValue(f.field(n, "index")); ok {
				if jsConstructorThis(f, obj) {
					break // the new instance, never a literal (jsctorwrites.go)
				}
				w.props[s]++
				if o := f.text(obj); o == "exports" || o == "module.exports" {
					w.exports[s]++
				}
			} else {
				// o[k] = v, this.o[k] = v: recorded under the object's
				// last name (o[x][k] = v under o's, jsconst_loops.go).
				if writtenThroughThis(f, obj) {
					w.objects[thisWriteName] = true // jsreach_this.go
				} else {
					w.objects[constWrittenName(f, obj)] = true // a constructor's this (jsctorwrites.go)
				}
			}
		}
	}
	f.walk(0, func(n nid) bool {
		switch f.kind(n) {
		case "assignment_expression":
			left := f.field(n, "left")
			if f.kind(left) == "member_expression" && isVoid0(f, f.field(n, "right")) {
				// tsc's `exports.X = void 0` before the real assignment.
				return true
			}
			target(left)
		case "augmented_assignment_expression":
			target(f.field(n, "left"))
		case "update_expression":
			target(f.field(n, "argument"))
		case "for_in_statement":
			// for (const x of ...) and for (let x of ...) declare x; a
			// loop over a name declared elsewhere (or var) writes it.
			if k := f.field(n, "kind"); k >= 0 && (f.text(k) == "const" || f.text(k) == "let") {
				return true
			}
			if l := f.field(n, "left"); f.kind(l) != "lexical_declaration" && f.kind(l) != "variable_declaration" {
				target(l)
			}
		case "unary_expression":
			if f.text(f.field(n, "operator")) == "delete" {
				target(f.field(n, "argument"))
			}
		case "variable_declarator":
			for _, nm := range patternNames(f, f.field(n, "name")) {
				w.decls[nm.name]++
			}
		case "call_expression":
			callee := f.field(n, "function")
			w.noteMutation(f, callee)
			if ct := f.text(callee); ct == "Object.assign" || ct == "Object.defineProperty" || ct == "Object.defineProperties" ||
				ct == "Reflect.set" || ct == "Reflect.defineProperty" {
				if a := f.args(n); len(a) > 0 && f.kind(a[0]) != "object" {
					// Object.assign({}, ...) writes a fresh object, and so
					// does Object.assign(new X(...), ...) (jsreach_this.go).
					switch {
					case freshObjectExpr(f, a[0]):
					case writtenThroughThis(f, a[0]):
						w.objects[thisWriteName] = true
					default:
						w.objects[constWrittenName(f, a[0])] = true
					}
				}
			}
		}
		return true
	})
	return w
}

// lastName is the name an object expression is written under: o for o,
// this.o and a.b.o; "" (every object) for anything else.
func lastName(f *file, n nid) string {
	switch f.kind(n) {
	case "identifier":
		return f.text(n)
	case "member_expression":
		return f.text(f.field(n, "property"))
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return lastName(f, constInner(f, n))
	}
	return ""
}

// constPropWritten counts the writes of property key across the package's
// JavaScript files.
func (x *extractor) constPropWritten(key string) int {
	n := 0
	for _, f := range x.files {
		if f.facts != nil {
			n += x.constWritesOf(f).props[key]
		}
	}
	return n
}

// constObjectWritten reports whether any file of the package writes an
// object named name through a computed key or a builtin (or writes some
// object it cannot name that way).
func (x *extractor) constObjectWritten(name string) bool {
	for _, f := range x.files {
		if f.facts != nil {
			w := x.constWritesOf(f)
			if w.objects[name] || w.objects[""] || w.objects[thisWriteName] {
				return true
			}
		}
	}
	return false
}
