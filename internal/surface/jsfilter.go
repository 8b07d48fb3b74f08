package surface

// A list filtered by a callback (methodology §5.2, Identifier resolution):
// `TOOLS.filter((t) => t.enabled !== false)`, `names.filter(Boolean)`,
// `allTools.filter((t) => !DISABLED.includes(t.name))`. Before 2.3.7 every
// element of a filtered list was a candidate, so a tool the filter drops was
// reported as listed (a name the running server does not list). The filter is
// now decided per element, under the default configuration, by the tests of
// jsconfig.go (jsCond): the callback's parameter is bound to the element
// (an object literal's fields read by the constant routes, a string, a
// number), its second to the index. The result is the elements whose
// predicate is true; it is a list only when every element is decided. An
// element whose predicate is not known, and an element the filter drops
// under a test that reads the configuration (an environment variable, a
// flag: a configured server may keep it), leave the list unresolved, and the
// site that reads it is recorded as not read (declaration_not_parsed): never
// a tool the filter might drop, never one dropped that it might keep.

import (
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// maxFilterElements bounds the elements one filter is decided over; a
// longer list is not decided (unresolved).
const maxFilterElements = 4096

// jsFilter decides recv.filter(args[0]) over the elements els.
func (x *extractor) jsFilter(f *file, args []nid, els []val, recv val, e *env) val {
	if len(args) == 0 {
		return unknown("filter without a callback")
	}
	if len(els) > maxFilterElements {
		return unknown("filter over more than " + strconv.Itoa(maxFilterElements) + " elements")
	}
	pred, ok := x.jsFilterPredicate(f, args[0], e)
	if !ok {
		return unknown("filter with a callback that is not decided: " + truncate(f.text(args[0]), 80))
	}
	kept := make([]val, 0, len(els))
	for i, el := range els {
		if !x.step() {
			return unknown("filter not decided within the steps of the site")
		}
		mark := len(x.pyConf)
		keep := pred(el, i, recv)
		readConfig := len(x.pyConf) > mark
		x.pyConf = x.pyConf[:mark]
		if !keep.ok {
			return unknown("filter with a callback that is not decided for an element: " + truncate(f.text(args[0]), 80))
		}
		if !keep.truth() {
			if readConfig {
				return unknown("filter drops an element under a test of configuration: " + truncate(f.text(args[0]), 80))
			}
			continue
		}
		kept = append(kept, el)
	}
	return val{k: vArray, n: none, elems: kept}
}

// jsFilterPredicate reads the callback of a filter: the global `Boolean`,
// or a function of the package (an arrow or function expression, or a name
// bound to one) with a body jsCond reads.
func (x *extractor) jsFilterPredicate(f *file, cb nid, e *env) (func(el val, i int, recv val) jcv, bool) {
	if f.kind(cb) == "identifier" && f.text(cb) == "Boolean" {
		if _, bound := x.lookup(f, cb, "Boolean"); !bound {
			return func(el val, _ int, _ val) jcv {
				v := x.jcvOfVal(el, 0)
				if !v.ok {
					return jUnknown()
				}
				return jBool(v.truth())
			}, true
		}
	}
	fn := x.eval(f, cb, e)
	if fn.k != vFunc || fn.f == nil || fn.f.lang == LangPython {
		return nil, false
	}
	g, node := fn.f, fn.n
	k := g.kind(node)
	if strings.HasPrefix(k, "generator") || strings.HasPrefix(g.text(node), "async") {
		return nil, false
	}
	body := g.field(node, "body")
	if body < 0 {
		return nil, false
	}
	return func(el val, i int, recv val) jcv {
		el, idx, arr := el, val{k: vNumber, reason: strconv.Itoa(i)}, recv
		base := e
		if fn.env != nil {
			base = fn.env
		}
		fe := base.push(env{scope: scopeRef{g, node}, args: []thunk{{v: &el}, {v: &idx}, {v: &arr}}, calling: true, depth: e.callDepth() + 1})
		if g.kind(body) != "statement_block" {
			return x.jsCond(g, body, fe, 0)
		}
		steps := 0
		v, returned := x.jsCondBlock(g, g.named(body), fe, 1, &steps)
		if !returned {
			if v.ok {
				return jUndef()
			}
			return jUnknown()
		}
		return v
	}, true
}

// jcvOfVal is the value jsCond reads for a value the evaluator already
// holds (a filter's element): literal text with no hole, a number, a
// boolean, null, undefined, an object literal (its fields read by the
// constant routes) or an array literal. Anything else is not known.
func (x *extractor) jcvOfVal(v val, depth int) jcv {
	if depth > maxCondDepth {
		return jUnknown()
	}
	switch v.k {
	case vText:
		if s, ok := plainText(v); ok {
			return jStr(s)
		}
	case vNumber:
		src := v.reason
		if v.f != nil && v.n >= 0 {
			src = v.f.text(v.n)
		}
		d, err := strconv.ParseFloat(strings.ReplaceAll(src, "_", ""), 64)
		if err == nil {
			return jNum(d)
		}
	case vBool:
		return jBool(v.boolv)
	case vNull:
		return jcv{ok: true, k: 'n'}
	case vUndefined:
		return jUndef()
	case vObject:
		if v.f != nil && v.n >= 0 && len(v.parts) == 0 && len(v.keys) == 0 && len(v.omit) == 0 && v.f.kind(v.n) == "object" {
			return jcv{ok: true, k: 'o', f: v.f, n: v.n, e: v.env}
		}
	case vArray:
		if v.f != nil && v.n >= 0 && v.f.kind(v.n) == "array" {
			return x.jsCond(v.f, v.n, v.env, depth+1)
		}
	}
	return jUnknown()
}

// jsSpreadBefore reports whether an argument at or before index i is a
// spread, so that the i-th argument is not the i-th parameter's.
func jsSpreadBefore(args []thunk, i int) bool {
	for j := 0; j <= i && j < len(args); j++ {
		if t := args[j]; t.v == nil && t.f != nil && t.n >= 0 && t.f.kind(t.n) == "spread_element" {
			return true
		}
	}
	return false
}

// jsAssignedOffByDefault reports whether assignment a, whose value r could
// not be read, is made only under a test of its function that does not hold
// under the default configuration (`if (process.env.TOOLS) { list =
// list.filter(...) }`): the server as installed never makes it, so the
// variable's values are the others. The assignment is recorded as not read.
// A test that is not known, or one that holds, keeps the value unresolved.
// Since 2.3.11 the assignment is set aside only when what it assigns is a
// subset of the variable's own list (`x = x.filter(...)`, jsbranches.go):
// a configured server makes it, and anything else it might list would go
// unexamined.
func (x *extractor) jsAssignedOffByDefault(f *file, a nid, r val, e *env) bool {
	if f.lang == LangPython || f.facts == nil {
		return false
	}
	if !x.jbAssignedSubset(f, a, e) {
		return false // not proved a subset: the value stays unresolved
	}
	var off nid = none
	add := func(g *file, test nid, ge *env, when bool) {
		if off >= 0 || test < 0 || g != f {
			return
		}
		if v := x.jsCond(g, test, ge, 0); v.ok && v.truth() != when {
			off = test
		}
	}
	mark := len(x.pyConf)
	x.jsWalkConditions(f, a, e, add, maxCallerConditionsJS) // the tests of its own function only
	x.pyConf = x.pyConf[:mark]
	if off < 0 {
		return false
	}
	x.addUnresolved(f.path, f.lineOf(a), "value assigned only when `"+truncate(f.text(off), 80)+"` holds (not by default) not read: "+truncate(reasonOf(r), 160))
	return true
}

// jsTernaryByDefault reads `test ? a : b` when one branch could not be read
// (a filter not decided) and the test is decided under the default
// configuration to take the other: the value is the branch taken, and the
// branch not taken is recorded as not read (`disabled.length === 0 ? all :
// all.filter(...)`). A test not known keeps both, and so the unknown. Since
// 2.3.11 the branch not taken is set aside only when it is proved a subset
// of the branch taken (the same binding filtered or sliced, jsbranches.go):
// a configured server takes it, and a tool of its own would go unexamined.
func (x *extractor) jsTernaryByDefault(f *file, n nid, c, a val, e *env) (val, bool) {
	if f.lang == LangPython || f.facts == nil || (c.k == vUnknown) == (a.k == vUnknown) || c.k == vNeed || a.k == vNeed {
		return val{}, false
	}
	mark := len(x.pyConf)
	t := x.jsCond(f, f.field(n, "condition"), e, 0)
	x.pyConf = x.pyConf[:mark]
	if !t.ok {
		return val{}, false
	}
	taken, other := c, a
	if !t.truth() {
		taken, other = a, c
	}
	if taken.k == vUnknown {
		return val{}, false
	}
	takenN, otherN := f.field(n, "consequence"), f.field(n, "alternative")
	if !t.truth() {
		takenN, otherN = otherN, takenN
	}
	if !x.jbSubsetOf(f, otherN, takenN, e) {
		return val{}, false // not proved a subset of what is read: unresolved
	}
	x.addUnresolved(f.path, f.lineOf(n), "branch not taken by default of `"+truncate(f.text(f.field(n, "condition")), 80)+"` not read: "+truncate(reasonOf(other), 160))
	return taken, true
}

// jsCondSequence reads `(0, m.f)`, the comma expression tsc writes for a
// call without a receiver: the last operand, when every other operand is a
// number literal (which has no effect).
func (x *extractor) jsCondSequence(f *file, n nid, e *env, depth int) jcv {
	ops := f.named(n)
	if len(ops) == 0 {
		return jUnknown()
	}
	for _, o := range ops[:len(ops)-1] {
		if f.kind(o) != "number" {
			return jUnknown()
		}
	}
	return x.jsCond(f, ops[len(ops)-1], e, depth+1)
}

// jsCondModuleMember reads `m.X` where m is a module of the package (a
// `require` of a sibling, a namespace import), by the constant routes of
// jsconst.go: the one expression the export is bound to, or the function
// it declares. Anything else is not known.
func (x *extractor) jsCondModuleMember(f *file, n nid, e *env, depth int) jcv {
	c := x.constContainer(f, f.field(n, "object"), e)
	if c.why != "" || c.mod == nil || f.kind(n) != "member_expression" {
		return jUnknown()
	}
	key := f.text(f.field(n, "property"))
	if fa := c.mod.facts; fa != nil {
		if r, ok := fa.exports[key]; ok && r.kind == exLocal {
			if b, ok := x.lookupModuleScope(c.mod, r.local); ok && b.kind == bDecl && c.mod.kind(b.decl) == "function_declaration" {
				if x.jsBindingWritten(c.mod, b) {
					return jUnknown()
				}
				return jcv{ok: true, k: 'f', f: c.mod, n: b.decl}
			}
		}
	}
	t := x.constExport(c.mod, key, 0)
	if t.why != "" || t.f == nil || t.n < 0 || t.mod != nil {
		return jUnknown()
	}
	if t.f.kind(t.n) == "function_declaration" {
		return jcv{ok: true, k: 'f', f: t.f, n: t.n, e: t.e}
	}
	return x.jsCond(t.f, t.n, t.e, depth+1)
}

// jsProcessModule reports whether n is Node's `process` reached through
// its module rather than the global: a default or namespace import of
// "process" or "node:process", `require("node:process")` bound to a name,
// and tsc's `m.default` of `m = __importDefault(require("node:process"))`.
func (x *extractor) jsProcessModule(f *file, n nid) bool {
	isProcessSpec := func(g *file, s nid) bool {
		v, ok := g.stringValue(s)
		return ok && (v == "process" || v == "node:process")
	}
	requireOf := func(g *file, c nid) bool {
		if g.kind(c) != "call_expression" || g.text(g.field(c, "function")) != "require" {
			return false
		}
		a := g.args(c)
		return len(a) == 1 && isProcessSpec(g, a[0])
	}
	declValue := func(id nid) nid {
		b, ok := x.lookup(f, id, f.text(id))
		if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
			return none
		}
		if x.jsBindingWritten(f, b) {
			return none
		}
		return f.field(b.decl, "value")
	}
	switch f.kind(n) {
	case "identifier":
		b, ok := x.lookup(f, n, f.text(n))
		if !ok {
			return false
		}
		if b.kind == bImport {
			for a, i := b.decl, 0; a >= 0 && i < 8; a, i = f.parent(a), i+1 {
				if f.kind(a) == "import_specifier" {
					return false // a named import is a member, not the module
				}
				if f.kind(a) == "import_statement" {
					return isProcessSpec(f, f.field(a, "source"))
				}
			}
			return false
		}
		v := declValue(n)
		return v >= 0 && requireOf(f, v)
	case "member_expression":
		obj := f.field(n, "object")
		if f.text(f.field(n, "property")) != "default" || f.kind(obj) != "identifier" {
			return false
		}
		v := declValue(obj)
		if v < 0 || f.kind(v) != "call_expression" || f.calleeName(f.field(v, "function")) != "__importDefault" {
			return false
		}
		a := f.args(v)
		return len(a) == 1 && requireOf(f, a[0])
	}
	return false
}

// sameEntrySite reports whether two entries that addEntry keys alike are
// one: the same first description span when both have one (the same tool
// read at two sites, `if (t.args) server.tool(t.name, t.description,
// t.args, cb) else server.tool(t.name, t.description, cb)`, whose tests are
// now decided per element), else the same file and line.
func sameEntrySite(o, e rundir.Entry) bool {
	if len(o.Spans) > 0 && len(e.Spans) > 0 {
		return o.Spans[0].File == e.Spans[0].File && o.Spans[0].Start == e.Spans[0].Start
	}
	return len(o.Spans) == 0 && len(e.Spans) == 0 && o.File == e.File && o.Line == e.Line
}
