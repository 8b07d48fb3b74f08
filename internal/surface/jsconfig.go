package surface

// Configuration of JavaScript and TypeScript servers (methodology §5.2,
// Configuration): the rule Python follows (pyconfig.go), for the idioms of
// the npm ecosystem. A registration made under a test of configuration is
// read, recorded with the test, and decided under the default configuration
// a server meets when it is installed and started with nothing set: no
// environment variable set, no command-line flag given, and a config field
// at the default the package's own literals state.
//
// The conditions of a site are its enclosing tests, from the innermost out:
// an `if` (its test true, or false for the `else`), a `c ? a : b`, a
// `c && register()` (c true) or `c || register()` (c false), an earlier
// `if (test) return;` of an enclosing block (false; `if (test) throw` and
// `process.exit` say what a server needs to run, not what it lists), and the
// same tests around the call site of the function the site sits in (the
// call site the reading went through, or the function's only call site in
// the package), to a chain of maxCallerConditions calls.
//
// A test is evaluated over values known under the default configuration
// (jcv), and only these:
//
//   - literals; `process.env.X` and `process.env["X"]` (and a parameter
//     whose default is `process.env`) are undefined: no variable is set;
//   - `process.argv.slice(k)` for k ≥ 2 is an empty list (no flag given), and
//     `process.argv.includes("--x")` (a literal starting with "-") is false;
//   - a name of the package declared once and never written again, an
//     import of a sibling module, `O.K` on an object literal nothing writes
//     (the constant routes of jsconst.go), a missing key of such an object
//     being undefined;
//   - a parameter read through the call being evaluated, else through every
//     call site of its function in the package (known only when they agree),
//     its default when the argument is absent or undefined;
//   - `!`, `&&`, `||`, `??`, `===`, `!==`, `==`, `!=`, `<`, `<=`, `>`, `>=`,
//     `c ? a : b`, `?.`, `.length`, `.includes`, `.indexOf`, `.startsWith`,
//     `.endsWith`, `.toLowerCase`, `.toUpperCase`, `.trim`, `Boolean(x)`,
//     `String(x)` over known values;
//   - a call of a function of the package whose body is one expression, or
//     only `if`/`else`, `return`, `const`/`let` declarations and logging
//     calls (at most maxPureStmts statements): the value of the return its
//     tests reach.
//
// Anything else is unknown; a condition that reads an unknown value holds
// `unknown`, and its entry is listed, as before: never dropped on a guess.
// Every bound of the extractor applies: each step is counted, depth is
// bounded by maxCondDepth, and a name read while it is being read is unknown.

import (
	"math"
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// jcv is a JavaScript value known under the default configuration, or not
// known (ok false).
type jcv struct {
	ok    bool
	k     byte // 'u' undefined, 'n' null, 'b' bool, 's' string, 'd' number, 'a' array, 'o' object literal, 'f' function, 'e' process.env, 'v' process.argv, 'S' a Set, 'M' a Map (jscollections.go), 'P' commander's options (jsoptions.go)
	b     bool
	s     string
	d     float64
	items []jcv
	f     *file
	n     nid
	e     *env
}

func jUnknown() jcv          { return jcv{} }
func jUndef() jcv            { return jcv{ok: true, k: 'u'} }
func jBool(b bool) jcv       { return jcv{ok: true, k: 'b', b: b} }
func jStr(s string) jcv      { return jcv{ok: true, k: 's', s: s} }
func jNum(d float64) jcv     { return jcv{ok: true, k: 'd', d: d} }
func (v jcv) nullish() bool  { return v.ok && (v.k == 'u' || v.k == 'n') }
func (v jcv) scalar() bool   { return v.ok && strings.IndexByte("unbsd", v.k) >= 0 }
func (v jcv) isStr() bool    { return v.ok && v.k == 's' }
func (v jcv) isNumber() bool { return v.ok && v.k == 'd' }

// truth is JavaScript's ToBoolean of a known value.
func (v jcv) truth() bool {
	switch v.k {
	case 'u', 'n':
		return false
	case 'b':
		return v.b
	case 's':
		return v.s != ""
	case 'd':
		return v.d != 0 && !math.IsNaN(v.d)
	}
	return true // objects, arrays, functions, process.env, process.argv
}

// jStrictEq is ===: ok false when the answer is not known.
func jStrictEq(a, b jcv) (bool, bool) {
	if !a.scalar() || !b.scalar() {
		return false, false
	}
	if a.k != b.k {
		return false, true
	}
	switch a.k {
	case 'u', 'n':
		return true, true
	case 'b':
		return a.b == b.b, true
	case 's':
		return a.s == b.s, true
	}
	return a.d == b.d, true
}

// jLooseEq is == over scalars of the same kind, and null == undefined;
// other mixed kinds convert, which is not read.
func jLooseEq(a, b jcv) (bool, bool) {
	if a.nullish() || b.nullish() {
		if !a.scalar() || !b.scalar() {
			if a.nullish() && b.ok || b.nullish() && a.ok {
				return false, true // an object is never == null
			}
			return false, false
		}
		return a.nullish() && b.nullish(), true
	}
	if a.scalar() && b.scalar() && a.k == b.k {
		return jStrictEq(a, b)
	}
	return false, false
}

// maxCallerConditionsJS bounds the chain of call sites whose tests a
// registration inherits, and maxCondCalls the nesting of calls a test's
// value is read through.
const (
	maxCallerConditionsJS = 4
	maxCondCalls          = 8
)

// jsEnumerate is enumerate for a JS/TS site: the entries of each reading
// carry the site's conditions and the configuration read while they were
// decided.
func (x *extractor) jsEnumerate(f *file, site nid, fn func(e *env, c *collector)) {
	x.enumerate(f, site, func(e *env, c *collector) {
		mark0 := len(x.jvReads)
		jbMark := x.jbBegin()
		defer x.jbEnd(jbMark)
		fn(e, c)
		x.jvAttachReads(c, mark0)                   // texts chosen by configuration (jsvalues_choice.go)
		x.jbArmsNotTaken(f, site, e, c, jbMark, fn) // the arms not taken, off by default (jsbranches.go)
		if c.need != nil || len(c.entries) == 0 || !jsMayHaveConditions(f, site) {
			return
		}
		mark := len(x.pyConf)
		defer func() { x.pyConf = x.pyConf[:mark] }()
		conds := x.pyConditionsBounded(func() []rundir.Condition { return x.jsSiteConditions(f, site, e) })
		if len(conds) == 0 {
			return
		}
		reads := uniqueReads(x.pyConf[mark:])
		for i := range c.entries {
			c.entries[i].Conditions = append(append([]rundir.Condition(nil), c.entries[i].Conditions...), conds...)
			c.entries[i].Configuration = uniqueReads(append(append([]rundir.ConfigRead(nil), c.entries[i].Configuration...), reads...))
			x.pyAnyOff = x.pyAnyOff || c.entries[i].OffByDefault()
		}
	})
}

// jsMayHaveConditions is false for a site at the top level of its module
// with no test above it: the common case costs nothing.
func jsMayHaveConditions(f *file, site nid) bool {
	for a := f.parent(site); a >= 0; a = f.parent(a) {
		switch f.kind(a) {
		case "program":
			return false
		case "if_statement", "ternary_expression", "binary_expression", "statement_block":
			return true
		}
		if functionKind(f.kind(a)) {
			return true
		}
	}
	return false
}

// jsSiteConditions lists the tests the registration at site is made under.
func (x *extractor) jsSiteConditions(f *file, site nid, e *env) []rundir.Condition {
	var out []rundir.Condition
	add := func(g *file, test nid, ge *env, when bool) {
		if test < 0 || len(out) >= maxConditions {
			return
		}
		v := x.jsCond(g, test, ge, 0)
		holds := rundir.HoldsUnknown
		if v.ok {
			holds = rundir.HoldsFalse
			if v.truth() == when {
				holds = rundir.HoldsTrue
			}
		}
		shown := test
		if g.kind(test) == "parenthesized_expression" {
			if in := constInner(g, test); in >= 0 {
				shown = in // an if's parentheses are not the test
			}
		}
		out = append(out, rundir.Condition{File: g.path, Line: g.lineOf(test), Test: truncate(g.text(shown), 200), When: when, Holds: holds})
	}
	x.jsWalkConditions(f, site, e, add, 0)
	return out
}

// jsWalkConditions adds the tests enclosing node n (see jsSiteConditions)
// and, when n sits in a function, those enclosing its call site.
func (x *extractor) jsWalkConditions(f *file, n nid, e *env, add func(*file, nid, *env, bool), calls int) {
	child := n
	for a := f.parent(n); a >= 0; child, a = a, f.parent(a) {
		if !x.step() {
			return
		}
		k := f.kind(a)
		switch {
		case k == "if_statement":
			if child == f.field(a, "consequence") {
				add(f, f.field(a, "condition"), e, true)
			} else if f.kind(child) == "else_clause" {
				add(f, f.field(a, "condition"), e, false)
			}
		case k == "else_clause":
			// the if_statement above adds the test, false
		case k == "ternary_expression":
			if child == f.field(a, "consequence") {
				add(f, f.field(a, "condition"), e, true)
			} else if child == f.field(a, "alternative") {
				add(f, f.field(a, "condition"), e, false)
			}
		case k == "binary_expression":
			if child != f.field(a, "right") {
				continue
			}
			switch f.text(f.field(a, "operator")) {
			case "&&":
				add(f, f.field(a, "left"), e, true)
			case "||":
				add(f, f.field(a, "left"), e, false)
			}
		case k == "statement_block" || k == "program" || k == "switch_case" || k == "switch_default":
			for _, st := range f.named(a) {
				if st == child {
					break
				}
				if jsReturnGuard(f, st) {
					add(f, f.field(st, "condition"), e, false)
				}
			}
			if k == "program" {
				return
			}
		case k == "class_body" || k == "class" || k == "class_declaration":
			return
		case functionKind(k):
			if k != "method_definition" && calls < maxCallerConditionsJS {
				x.jsCallerConditions(f, a, e, add, calls)
			}
			return
		}
	}
}

// jsReturnGuard reports whether statement st is `if (test) return ...;`
// (or a block holding only that return) with no else: the code after it
// runs only when the test is false.
func jsReturnGuard(f *file, st nid) bool {
	if f.kind(st) != "if_statement" || f.field(st, "alternative") >= 0 {
		return false
	}
	c := f.field(st, "consequence")
	if f.kind(c) == "statement_block" {
		ch := f.named(c)
		if len(ch) != 1 {
			return false
		}
		c = ch[0]
	}
	return f.kind(c) == "return_statement"
}

// jsCallerConditions continues jsWalkConditions at the call site of
// function fn: the one this reading went through (a frame of e), else the
// function's only call site in the package.
func (x *extractor) jsCallerConditions(f *file, fn nid, e *env, add func(*file, nid, *env, bool), calls int) {
	if fr := e.lookup(scopeRef{f, fn}); fr != nil {
		if fr.site != nil && fr.dead == "" && fr.site.f.lang != LangPython {
			x.jsWalkConditions(fr.site.f, fr.site.n, fr.parent, add, calls+1)
		}
		return
	}
	if argsNode := f.parent(fn); f.kind(argsNode) == "arguments" {
		return // a callback: its caller is the function it is handed to
	}
	sites := x.callSitesOf(f, fn, e)
	if len(sites) != 1 {
		return
	}
	x.jsWalkConditions(sites[0].f, sites[0].n, e, add, calls+1)
}

// jsCond evaluates expression n under the default configuration.
func (x *extractor) jsCond(f *file, n nid, e *env, depth int) jcv {
	if n < 0 || f.lang == LangPython || f.facts == nil || depth > maxCondDepth {
		return jUnknown()
	}
	if _, ok := x.enterConst(f, n, "cond"); !ok {
		return jUnknown()
	}
	defer x.leaveConst(f, n, "cond")
	switch f.kind(n) {
	case "true", "false":
		return jBool(f.kind(n) == "true")
	case "null":
		return jcv{ok: true, k: 'n'}
	case "undefined":
		return jUndef()
	case "number":
		d, err := strconv.ParseFloat(strings.ReplaceAll(f.text(n), "_", ""), 64)
		if err != nil {
			return jUnknown()
		}
		return jNum(d)
	case "string", "template_string":
		if s, ok := f.stringValue(n); ok {
			return jStr(s)
		}
		return jUnknown()
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		return x.jsCond(f, constInner(f, n), e, depth+1)
	case "sequence_expression":
		return x.jsCondSequence(f, n, e, depth) // tsc's (0, m.f) (jsfilter.go)
	case "array":
		var items []jcv
		for _, c := range f.named(n) {
			if f.kind(c) == "spread_element" || f.kind(c) == "comment" {
				return jUnknown()
			}
			items = append(items, x.jsCond(f, c, e, depth+1))
			if len(items) > maxCondItems {
				return jUnknown()
			}
		}
		return jcv{ok: true, k: 'a', items: items}
	case "object":
		return jcv{ok: true, k: 'o', f: f, n: n, e: e}
	case "arrow_function", "function_expression", "function":
		return jcv{ok: true, k: 'f', f: f, n: n, e: e}
	case "identifier":
		return x.jsCondIdent(f, n, e, depth)
	case "member_expression", "subscript_expression":
		if v, ok := x.jsArgsMember(f, n); ok { // yargs' .argv (jsargs.go)
			return v
		}
		return x.jsCondMember(f, n, e, depth)
	case "unary_expression":
		op := f.text(f.field(n, "operator"))
		arg := f.field(n, "argument")
		switch op {
		case "!":
			v := x.jsCond(f, arg, e, depth+1)
			if !v.ok {
				return jUnknown()
			}
			return jBool(!v.truth())
		case "void":
			return jUndef()
		case "-":
			v := x.jsCond(f, arg, e, depth+1)
			if v.isNumber() {
				return jNum(-v.d)
			}
		}
		return jUnknown()
	case "binary_expression":
		return x.jsCondBinary(f, n, e, depth)
	case "ternary_expression":
		c := x.jsCond(f, f.field(n, "condition"), e, depth+1)
		if !c.ok {
			return jUnknown()
		}
		if c.truth() {
			return x.jsCond(f, f.field(n, "consequence"), e, depth+1)
		}
		return x.jsCond(f, f.field(n, "alternative"), e, depth+1)
	case "call_expression":
		if v, ok := x.jsArgsCall(f, n, false); ok { // yargs, parseArgs (jsargs.go)
			return v
		}
		return x.jsCondCall(f, n, e, depth)
	case "await_expression":
		if v, ok := x.jsArgsAwait(f, n); ok { // jsargs.go
			return v
		}
		return jUnknown()
	case "new_expression":
		return x.jsCondNew(f, n, e, depth) // new Set([...]), new Map([...]) (jscollections.go)
	}
	return jUnknown()
}

func (x *extractor) jsCondBinary(f *file, n nid, e *env, depth int) jcv {
	op := f.text(f.field(n, "operator"))
	l := x.jsCond(f, f.field(n, "left"), e, depth+1)
	if !l.ok {
		return jUnknown()
	}
	right := func() jcv { return x.jsCond(f, f.field(n, "right"), e, depth+1) }
	switch op {
	case "&&":
		if !l.truth() {
			return l
		}
		return right()
	case "||":
		if l.truth() {
			return l
		}
		return right()
	case "??":
		if !l.nullish() {
			return l
		}
		return right()
	}
	r := right()
	if !r.ok {
		return jUnknown()
	}
	var eq, ok bool
	switch op {
	case "===", "!==":
		eq, ok = jStrictEq(l, r)
	case "==", "!=":
		eq, ok = jLooseEq(l, r)
	case "<", "<=", ">", ">=":
		if !l.isNumber() || !r.isNumber() {
			return jUnknown()
		}
		switch op {
		case "<":
			return jBool(l.d < r.d)
		case "<=":
			return jBool(l.d <= r.d)
		case ">":
			return jBool(l.d > r.d)
		}
		return jBool(l.d >= r.d)
	default:
		return jUnknown()
	}
	if !ok {
		return jUnknown()
	}
	if op == "!==" || op == "!=" {
		eq = !eq
	}
	return jBool(eq)
}

// jsCondIdent reads a name: a parameter (jsCondParam), a function, or the
// one expression a constant of the package is bound to.
func (x *extractor) jsCondIdent(f *file, n nid, e *env, depth int) jcv {
	name := f.text(n)
	b, ok := x.lookup(f, n, name)
	if !ok {
		if name == "undefined" {
			return jUndef()
		}
		return jUnknown()
	}
	if v, ok := x.jsArgsDestructured(f, b); ok { // const { values } = parseArgs(...) (jsargs.go)
		return v
	}
	switch b.kind {
	case bParam:
		return x.jsCondParam(f, b, e, depth)
	case bDecl:
		switch f.kind(b.decl) {
		case "function_declaration":
			if x.jsBindingWritten(f, b) {
				return jUnknown()
			}
			return jcv{ok: true, k: 'f', f: f, n: b.decl, e: e}
		case "variable_declarator":
		default:
			return jUnknown()
		}
	case bImport:
	default:
		return jUnknown()
	}
	t := x.constBinding(f, b, e)
	if t.why != "" || t.f == nil || t.n < 0 {
		return jUnknown()
	}
	v := x.jsCondNamedCollection(name, x.jsCond(t.f, t.n, t.e, depth+1))
	if d := t.f.parent(t.n); v.ok && t.f.kind(d) == "variable_declarator" && t.f.field(d, "value") == t.n {
		v = x.jsCondNamedCollection(t.f.text(t.f.field(d, "name")), v) // the name it is declared under
	}
	return v
}

// jsCondParam reads a parameter: through the call being evaluated, or the
// call site this reading went through, else every call site of its function
// (known only when all agree); its default when the argument is absent or
// undefined. A parameter written in its file, destructured or rest is not
// known.
func (x *extractor) jsCondParam(f *file, b binding, e *env, depth int) jcv {
	if x.jsBindingWritten(f, b) {
		return jUnknown()
	}
	if v, ok := x.jsCommanderActionParam(f, b); ok { // commander's .action((options) => ...) (jsargs_commander.go)
		return v
	}
	def := none
	switch p := b.decl; {
	case p == b.id:
	case f.kind(p) == "assignment_pattern" && f.field(p, "left") == b.id:
		def = f.field(p, "right")
	case (f.kind(p) == "required_parameter" || f.kind(p) == "optional_parameter") && f.field(p, "pattern") == b.id:
		def = f.field(p, "value")
	default:
		return x.jsCondPatternParam(f, b, e, depth) // jsdecl_pattern.go
	}
	withDefault := func(v jcv) jcv {
		if v.ok && v.k == 'u' && def >= 0 {
			return x.jsCond(f, def, e, depth+1)
		}
		return v
	}
	argOf := func(g *file, args []nid, ge *env) jcv {
		for i, a := range args {
			if g.kind(a) == "spread_element" && i <= b.index {
				return jUnknown()
			}
		}
		if b.index >= len(args) {
			return withDefault(jUndef())
		}
		return withDefault(x.jsCond(g, args[b.index], ge, depth+1))
	}
	if fr := e.lookup(scopeRef{f, b.fn}); fr != nil {
		switch {
		case fr.dead != "" || fr.isLoop:
			return jUnknown()
		case fr.site != nil:
			return argOf(fr.site.f, fr.site.args, fr.parent)
		case fr.calling:
			if b.index < len(fr.args) && fr.args[b.index].v != nil && !jsSpreadBefore(fr.args, b.index) {
				// a value the evaluator holds: a filter's element (jsfilter.go)
				return withDefault(x.jcvOfVal(*fr.args[b.index].v, depth+1))
			}
			for i, t := range fr.args {
				if t.v != nil || t.f == nil || t.n < 0 || t.f.kind(t.n) == "spread_element" && i <= b.index {
					return jUnknown()
				}
			}
			if b.index >= len(fr.args) {
				return withDefault(jUndef())
			}
			t := fr.args[b.index]
			return withDefault(x.jsCond(t.f, t.n, t.env, depth+1))
		}
		return jUnknown()
	}
	if argsNode := f.parent(b.fn); f.kind(argsNode) == "arguments" {
		return jUnknown() // a callback's parameter
	}
	if x.jsFunctionEscapes(f, b.fn) {
		return jUnknown() // called from where the package does not say
	}
	sites := x.callSitesOf(f, b.fn, e)
	if len(sites) == 0 || len(sites) > maxCondFrames {
		return jUnknown()
	}
	var out jcv
	for i, cs := range sites {
		v := argOf(cs.f, cs.args, e)
		if !v.scalar() {
			if len(sites) == 1 && v.ok {
				return v
			}
			return jUnknown()
		}
		if i == 0 {
			out = v
			continue
		}
		if same, ok := jStrictEq(out, v); !ok || !same {
			return jUnknown()
		}
	}
	return out
}

// jsCondMember reads obj.key, obj?.key and obj["key"].
func (x *extractor) jsCondMember(f *file, n nid, e *env, depth int) jcv {
	objN := f.field(n, "object")
	var key string
	if f.kind(n) == "member_expression" {
		key = f.text(f.field(n, "property"))
	} else {
		kv := x.jsCond(f, f.field(n, "index"), e, depth+1)
		switch {
		case kv.isStr():
			key = kv.s
		case kv.isNumber() && kv.d >= 0 && kv.d == math.Trunc(kv.d):
			key = strconv.FormatFloat(kv.d, 'f', -1, 64)
		default:
			return jUnknown()
		}
	}
	optional := strings.HasPrefix(strings.TrimSpace(f.text(n)[f.end(objN)-f.start(n):]), "?.")
	var obj jcv
	if f.kind(objN) == "identifier" && f.text(objN) == "process" || x.jsProcessModule(f, objN) {
		if _, bound := x.lookup(f, objN, "process"); !bound || x.jsProcessModule(f, objN) {
			switch key {
			case "env":
				return jcv{ok: true, k: 'e'}
			case "argv":
				return jcv{ok: true, k: 'v'}
			}
			return jUnknown()
		}
	}
	obj = x.jsCond(f, objN, e, depth+1)
	if !obj.ok {
		return x.jsCondModuleMember(f, n, e, depth) // m.f of a required module (jsfilter.go)
	}
	switch obj.k {
	case 'u', 'n':
		if optional {
			return jUndef()
		}
		return jUnknown() // it throws
	case 'e':
		x.noteConfig(rundir.ConfigRead{Source: "env", Name: key, Default: "undefined", File: f.path, Line: f.lineOf(n)})
		return jUndef()
	case 's':
		if key == "length" {
			return jNum(float64(len([]rune(obj.s))))
		}
	case 'a':
		if key == "length" {
			return jNum(float64(len(obj.items)))
		}
		if i, err := strconv.Atoi(key); err == nil {
			if i >= 0 && i < len(obj.items) {
				return obj.items[i]
			}
			return jUndef()
		}
	case 'o':
		return x.jsCondProp(obj, key, depth)
	case 'S', 'M':
		return jsCondCollection(obj, key, nil, true)
	case 'P':
		return x.jsCommanderKey(f, n, obj, key) // commander's options (jsoptions.go)
	}
	return jUnknown()
}

// jsCondProp reads property key of an object literal by the constant
// routes (jsconst.go: nothing in the package writes the key, the object is
// never written through a computed key); a key the literal does not have is
// undefined.
func (x *extractor) jsCondProp(obj jcv, key string, depth int) jcv {
	f := obj.f
	for _, c := range f.named(obj.n) {
		switch f.kind(c) {
		case "pair":
			if f.kind(f.field(c, "key")) == "computed_property_name" {
				return jUnknown()
			}
		case "spread_element", "method_definition":
			return jUnknown()
		}
	}
	if x.constPropWritten(key) > x.jsFreshPropWrites(key, obj.f, obj.n) {
		return jUnknown()
	}
	if name := boundName(f, obj.n); name != "" && x.constObjectWrittenFor(f, obj.n, name) { // jsreach_this.go
		return jUnknown()
	}
	at := none
	for _, c := range f.named(obj.n) {
		switch f.kind(c) {
		case "pair":
			if propKeyName(f, f.field(c, "key")) == key {
				at = f.field(c, "value")
			}
		case "shorthand_property_identifier":
			if f.text(c) == key {
				at = c
			}
		}
	}
	if at < 0 {
		return jUndef()
	}
	if f.kind(at) == "shorthand_property_identifier" {
		b, ok := x.lookup(f, at, key)
		if !ok {
			return jUnknown()
		}
		t := x.constBinding(f, b, obj.e)
		if t.why != "" || t.f == nil || t.n < 0 {
			return jUnknown()
		}
		return x.jsCond(t.f, t.n, t.e, depth+1)
	}
	return x.jsCond(f, at, obj.e, depth+1)
}

// jsCondCall reads a call: a method of a known value, Boolean/String, or a
// small function of the package.
func (x *extractor) jsCondCall(f *file, n nid, e *env, depth int) jcv {
	callee := f.field(n, "function")
	args := f.args(n)
	for _, a := range args {
		if f.kind(a) == "spread_element" {
			return jUnknown()
		}
	}
	arg := func(i int) jcv {
		if i >= len(args) {
			return jUndef()
		}
		return x.jsCond(f, args[i], e, depth+1)
	}
	if f.kind(callee) == "identifier" {
		if _, bound := x.lookup(f, callee, f.text(callee)); !bound {
			switch f.text(callee) {
			case "Boolean":
				v := arg(0)
				if !v.ok {
					return jUnknown()
				}
				return jBool(v.truth())
			case "String":
				if v := arg(0); v.isStr() {
					return v
				}
			}
			return jUnknown()
		}
	}
	if f.kind(callee) == "member_expression" {
		method := f.text(f.field(callee, "property"))
		if method == "opts" {
			if v, ok := x.jsCommanderOpts(f, f.field(callee, "object")); ok { // commander (jsoptions.go)
				return v
			}
		}
		recv := x.jsCond(f, f.field(callee, "object"), e, depth+1)
		if recv.ok && recv.k != 'o' && recv.k != 'f' {
			optional := strings.Contains(f.text(callee), "?.")
			if recv.nullish() && optional {
				return jUndef()
			}
			return x.jsCondMethod(f, n, recv, method, arg)
		}
	}
	fn := x.jsCond(f, callee, e, depth+1)
	if !fn.ok || fn.k != 'f' {
		return jUnknown()
	}
	return x.jsCondInvoke(f, n, fn, args, e, depth)
}

// jsCondMethod reads the few methods of known strings and arrays a test of
// configuration uses, and process.argv's.
func (x *extractor) jsCondMethod(f *file, call nid, recv jcv, method string, arg func(int) jcv) jcv {
	switch recv.k {
	case 'v':
		switch method {
		case "slice":
			if a := arg(0); a.isNumber() && a.d >= 2 {
				return jcv{ok: true, k: 'a'}
			}
		case "includes", "indexOf":
			if a := arg(0); a.isStr() && strings.HasPrefix(a.s, "-") {
				x.noteConfig(rundir.ConfigRead{Source: "cli", Name: a.s, Default: "not given", File: f.path, Line: f.lineOf(call)})
				if method == "includes" {
					return jBool(false)
				}
				return jNum(-1)
			}
		}
		return jUnknown()
	case 's':
		switch method {
		case "toLowerCase", "toLocaleLowerCase":
			return jStr(strings.ToLower(recv.s))
		case "toUpperCase", "toLocaleUpperCase":
			return jStr(strings.ToUpper(recv.s))
		case "trim":
			return jStr(strings.TrimSpace(recv.s))
		case "startsWith", "endsWith", "includes":
			a := arg(0)
			if !a.isStr() {
				return jUnknown()
			}
			switch method {
			case "startsWith":
				return jBool(strings.HasPrefix(recv.s, a.s))
			case "endsWith":
				return jBool(strings.HasSuffix(recv.s, a.s))
			}
			return jBool(strings.Contains(recv.s, a.s))
		}
	case 'a':
		switch method {
		case "includes", "indexOf":
			a := arg(0)
			if !a.scalar() {
				return jUnknown()
			}
			for i, it := range recv.items {
				eq, ok := jStrictEq(it, a)
				if !ok {
					return jUnknown()
				}
				if eq {
					if method == "includes" {
						return jBool(true)
					}
					return jNum(float64(i))
				}
			}
			if method == "includes" {
				return jBool(false)
			}
			return jNum(-1)
		}
	case 'S', 'M':
		return jsCondCollection(recv, method, arg, false)
	}
	return jUnknown()
}

// jsCondInvoke reads the value a call of a function of the package returns
// (see the file comment): its parameters are bound to the call's arguments.
func (x *extractor) jsCondInvoke(f *file, call nid, fn jcv, args []nid, e *env, depth int) jcv {
	g, node := fn.f, fn.n
	if g.lang == LangPython || depth > maxCondDepth || e.callDepth() >= maxCondCalls {
		return jUnknown()
	}
	k := g.kind(node)
	if strings.HasPrefix(k, "generator") || strings.HasPrefix(g.text(node), "async") {
		return jUnknown()
	}
	ts := make([]thunk, len(args))
	for i, a := range args {
		ts[i] = thunk{f: f, n: a, env: e}
	}
	fe := &env{parent: fn.e, scope: scopeRef{g, node}, args: ts, calling: true, depth: e.callDepth() + 1}
	body := g.field(node, "body")
	if body < 0 {
		return jUnknown()
	}
	if g.kind(body) != "statement_block" {
		return x.jsCond(g, body, fe, depth+1)
	}
	steps := 0
	v, returned := x.jsCondBlock(g, g.named(body), fe, depth+1, &steps)
	if !returned {
		if v.ok {
			return jUndef()
		}
		return jUnknown()
	}
	return v
}

// callDepth is the number of calling frames in e.
func (e *env) callDepth() int {
	d := 0
	for x := e; x != nil; x = x.parent {
		if x.calling {
			d++
		}
	}
	return d
}

// jsCondBlock runs the statements of a small function body: returned is
// true with the value of the return reached; v.ok false when a statement is
// not one the rule reads, or a test it meets is not known.
func (x *extractor) jsCondBlock(f *file, sts []nid, e *env, depth int, steps *int) (v jcv, returned bool) {
	if depth > maxCondDepth {
		return jUnknown(), false
	}
	for _, st := range sts {
		*steps++
		if *steps > maxPureStmts || !x.step() {
			return jUnknown(), false
		}
		switch f.kind(st) {
		case "comment", "empty_statement":
		case "return_statement":
			ch := f.named(st)
			if len(ch) == 0 {
				return jUndef(), true
			}
			return x.jsCond(f, ch[0], e, depth+1), true
		case "lexical_declaration", "variable_declaration":
			// read when named, by the constant routes
		case "expression_statement":
			if !jsLoggingCall(f, st) {
				return jUnknown(), false
			}
		case "statement_block":
			if r, ret := x.jsCondBlock(f, f.named(st), e, depth+1, steps); ret || !r.ok {
				return r, ret
			}
		case "if_statement":
			c := x.jsCond(f, f.field(st, "condition"), e, depth+1)
			if !c.ok {
				return jUnknown(), false
			}
			branch := f.field(st, "consequence")
			if !c.truth() {
				branch = none
				if alt := f.field(st, "alternative"); alt >= 0 {
					if ch := f.named(alt); len(ch) > 0 {
						branch = ch[len(ch)-1]
					}
				}
			}
			if branch < 0 {
				continue
			}
			if r, ret := x.jsCondBlock(f, []nid{branch}, e, depth+1, steps); ret || !r.ok {
				return r, ret
			}
		default:
			return jUnknown(), false
		}
	}
	return jUndef(), false
}

// jsLoggingCall reports whether expression statement st is a call of
// console's methods or of a function named like a logger's method: the
// only statements besides tests and returns a small function may hold.
func jsLoggingCall(f *file, st nid) bool {
	ch := f.named(st)
	if len(ch) != 1 || f.kind(ch[0]) != "call_expression" {
		return false
	}
	callee := f.field(ch[0], "function")
	if f.kind(callee) == "member_expression" && f.text(f.field(callee, "object")) == "console" {
		return true
	}
	switch f.calleeName(callee) {
	case "log", "debug", "info", "warn", "error", "trace":
		return true
	}
	return false
}

// jsFreshPropWrites counts the writes of property key, across the package,
// whose receiver is a name bound once to a fresh object other than the
// object literal obj of file of: a const initialised by an object, array,
// function or class expression, or a function or class declaration never
// assigned again (`const t = {...}; t.enabled = v`, `function debug() {};
// debug.enabled = v`). Such a write changes only its own object, so a test
// reading key of another literal is read in spite of it; a write to the
// literal being read (through any name bound to it) is never excused. Every other write of the key (through
// a parameter, `this`, a call's result, a nested member) still makes the key
// unknown. The writes counted are the same ones jsconst.go counts.
func (x *extractor) jsFreshPropWrites(key string, of *file, obj nid) int {
	n := 0
	for _, f := range x.files {
		if f.facts == nil {
			continue
		}
		for _, o := range x.jsWritesOf(f).fresh[key] {
			if f != of || o != obj {
				n++
			}
		}
	}
	return n
}

// jsWrites indexes one file's writes: per property name, the fresh object
// each write of it goes to (jsFreshPropWrites); per name, the identifiers
// written (assigned, compound-assigned, incremented, destructured into, a
// loop's target), so a write is matched to the binding it writes.
type jsWrites struct {
	fresh map[string][]nid
	names map[string][]nid
	// refs caches, per name, the identifiers of that name that are not
	// the callee of a call (jsFunctionEscapes).
	refs map[string][]nid
}

func (x *extractor) jsWritesOf(f *file) *jsWrites {
	if w, ok := x.jsWriteIdx[f]; ok {
		return w
	}
	if x.jsWriteIdx == nil {
		x.jsWriteIdx = map[*file]*jsWrites{}
	}
	w := &jsWrites{fresh: map[string][]nid{}, names: map[string][]nid{}, refs: map[string][]nid{}}
	x.jsWriteIdx[f] = w
	if len(f.nodes) == 0 {
		return w
	}
	var members []nid
	count := func(target nid) {
		for f.kind(target) == "parenthesized_expression" {
			target = constInner(f, target)
		}
		if f.kind(target) != "member_expression" {
			for _, nm := range patternNames(f, target) {
				w.names[nm.name] = append(w.names[nm.name], nm.id)
			}
			return
		}
		members = append(members, target)
	}
	f.walk(0, func(n nid) bool {
		switch f.kind(n) {
		case "assignment_expression":
			if left := f.field(n, "left"); f.kind(left) != "member_expression" || !isVoid0(f, f.field(n, "right")) {
				count(left)
			}
		case "augmented_assignment_expression":
			count(f.field(n, "left"))
		case "update_expression":
			count(f.field(n, "argument"))
		case "for_in_statement":
			if l := f.field(n, "left"); f.kind(l) != "lexical_declaration" && f.kind(l) != "variable_declaration" {
				count(l)
			}
		case "unary_expression":
			if f.text(f.field(n, "operator")) == "delete" {
				count(f.field(n, "argument"))
			}
		}
		return true
	})
	// Every name's writes are known now: a receiver is fresh only if none
	// of them writes it.
	for _, target := range members {
		if recv := f.field(target, "object"); f.kind(recv) == "identifier" {
			if o, ok := x.freshBinding(f, recv); ok {
				key := f.text(f.field(target, "property"))
				w.fresh[key] = append(w.fresh[key], o)
			}
		}
	}
	return w
}

// jsBindingWritten reports whether any write of b's name in file f writes
// the binding b itself (the name resolves to b where it is written): unlike
// a count by name, a variable of the same name in another scope of a
// bundle does not make b unknown.
func (x *extractor) jsBindingWritten(f *file, b binding) bool {
	name := f.text(b.id)
	for _, id := range x.jsWritesOf(f).names[name] {
		if wb, ok := x.lookup(f, id, name); !ok || wb.id == b.id || wb.decl == b.decl {
			return true
		}
	}
	return false
}

// freshBinding reports whether identifier id names a fresh object (see
// jsFreshPropWrites), and which node creates it.
func (x *extractor) freshBinding(f *file, id nid) (nid, bool) {
	name := f.text(id)
	b, ok := x.lookup(f, id, name)
	if !ok || b.kind != bDecl || x.jsBindingWritten(f, b) {
		return none, false
	}
	switch f.kind(b.decl) {
	case "function_declaration", "class_declaration", "generator_function_declaration":
		return b.decl, true
	case "variable_declarator":
		decl := f.parent(b.decl)
		if f.kind(decl) != "lexical_declaration" || !strings.HasPrefix(f.text(decl), "const") || f.field(b.decl, "name") != b.id {
			return none, false
		}
		v := f.field(b.decl, "value")
		switch f.kind(v) {
		case "object", "array", "arrow_function", "function_expression", "function", "class":
			return v, true
		}
	}
	return none, false
}

// jsFunctionEscapes reports whether function fn can be called with
// arguments its call sites in the package do not show: it has no name to
// find them by, or its name is used other than as a call's callee (handed
// to another function, stored, exported through an object). Its
// parameters are then not read through its call sites.
func (x *extractor) jsFunctionEscapes(f *file, fn nid) bool {
	name, id := "", none
	switch f.kind(fn) {
	case "function_declaration", "generator_function_declaration":
		id = f.field(fn, "name")
	case "arrow_function", "function_expression", "function":
		if p := f.parent(fn); f.kind(p) == "variable_declarator" && f.field(p, "value") == fn {
			id = f.field(p, "name")
		}
	}
	if id < 0 || f.kind(id) != "identifier" {
		return true
	}
	name = f.text(id)
	b, ok := x.lookup(f, id, name)
	if !ok {
		return true
	}
	w := x.jsWritesOf(f)
	refs, done := w.refs[name]
	if !done {
		f.walk(0, func(n nid) bool {
			k := f.kind(n)
			if (k == "identifier" || k == "shorthand_property_identifier") && f.text(n) == name {
				p := f.parent(n)
				callee := (f.kind(p) == "call_expression" || f.kind(p) == "new_expression") && f.field(p, "function") == n
				if !callee {
					refs = append(refs, n)
				}
			}
			return true
		})
		w.refs[name] = refs
	}
	for _, r := range refs {
		if r == id {
			continue
		}
		if rb, ok := x.lookup(f, r, name); ok && (rb.id == b.id || rb.decl == b.decl) {
			return true
		}
	}
	return false
}
