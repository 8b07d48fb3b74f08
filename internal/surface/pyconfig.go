package surface

// Configuration (methodology §5.2): values a Python server reads from its
// configuration are read as their stated defaults, and registrations made
// under a condition are read with that condition.
//
// The default configuration is the one a server meets when it is installed
// and started with nothing set: no environment variable set, every
// command-line option at its default. Under it:
//
//   - os.getenv("X", d), os.environ.get("X", d) are d when d resolves; with
//     no default they are None; os.environ["X"] stays unresolved (it raises);
//     "X" in os.environ is False;
//   - args.x, where args = parser.parse_args() of an argparse parser of the
//     same function with one add_argument for dest x, is that argument's
//     default (None when it states none, False for store_true, True for
//     store_false);
//
// and each read is recorded on the entries of the site it was met in.
// Conditions (if tests, `a if c else b`, `not`, `and`, `or`, comparisons,
// str methods of known text, calls of the package's own small functions
// made of if/return) are evaluated over values known this way; anything
// else is unknown, and a value chosen by an unknown condition stays one of
// several values, as before.

import (
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// maxCondDepth bounds the nesting of one condition's evaluation, and
// maxCondFrames the call sites a condition on a parameter is read through.
const (
	maxCondDepth  = 32
	maxCondFrames = 8
	maxCondItems  = 256
	maxPureStmts  = 64
)

// cval is a condition's value: a Python str, bool, None, int or a
// container of them, known exactly, or not known (ok false).
type cval struct {
	ok    bool
	kind  byte // 's' str, 'b' bool, 'n' None, 'i' int, 'l' list, tuple or set
	s     string
	b     bool
	i     int64
	items []cval
	need  *scopeRef // set when a binding must be enumerated first
}

func cunknown() cval        { return cval{} }
func cstr(s string) cval    { return cval{ok: true, kind: 's', s: s} }
func cbool(b bool) cval     { return cval{ok: true, kind: 'b', b: b} }
func cnone() cval           { return cval{ok: true, kind: 'n'} }
func cneed(s scopeRef) cval { return cval{need: &s} }
func (c cval) known() bool  { return c.ok && c.need == nil }
func (c cval) truth() bool  { return condTruth(c) }
func cint(i int64) cval     { return cval{ok: true, kind: 'i', i: i} }
func (c cval) isStr() bool  { return c.known() && c.kind == 's' }
func (c cval) isNone() bool { return c.known() && c.kind == 'n' }
func (c cval) isList() bool { return c.known() && c.kind == 'l' }
func (c cval) isBool() bool { return c.known() && c.kind == 'b' }
func (c cval) needs() bool  { return c.need != nil }
func (c cval) scalar() bool { return c.known() && c.kind != 'l' }

func condTruth(c cval) bool {
	switch c.kind {
	case 's':
		return c.s != ""
	case 'b':
		return c.b
	case 'i':
		return c.i != 0
	case 'l':
		return len(c.items) > 0
	}
	return false
}

// repr writes c as Python writes it (the default recorded for a read).
func (c cval) repr() string {
	switch c.kind {
	case 's':
		return strconv.Quote(c.s)
	case 'b':
		if c.b {
			return "True"
		}
		return "False"
	case 'i':
		return strconv.FormatInt(c.i, 10)
	case 'n':
		return "None"
	}
	return "…"
}

// pyStr is str(c): the text Python's str() gives for a scalar.
func pyStr(c cval) (string, bool) {
	if !c.scalar() {
		return "", false
	}
	switch c.kind {
	case 's':
		return c.s, true
	case 'n':
		return "None", true
	}
	return strings.Trim(c.repr(), `"`), true
}

func condEqual(a, b cval) (bool, bool) {
	if !a.known() || !b.known() {
		return false, false
	}
	// True == 1 in Python; keep to the kinds a condition compares.
	if a.kind == 'b' && b.kind == 'i' || a.kind == 'i' && b.kind == 'b' {
		ai, bi := a.i, b.i
		if a.kind == 'b' && a.b {
			ai = 1
		}
		if b.kind == 'b' && b.b {
			bi = 1
		}
		return ai == bi, true
	}
	if a.kind != b.kind {
		return false, true
	}
	switch a.kind {
	case 's':
		return a.s == b.s, true
	case 'b':
		return a.b == b.b, true
	case 'i':
		return a.i == b.i, true
	case 'n':
		return true, true
	}
	if len(a.items) != len(b.items) {
		return false, true
	}
	for i := range a.items {
		eq, ok := condEqual(a.items[i], b.items[i])
		if !ok {
			return false, false
		}
		if !eq {
			return false, true
		}
	}
	return true, true
}

// noteConfig records one configuration read on the site being read.
func (x *extractor) noteConfig(r rundir.ConfigRead) {
	x.pyConf = append(x.pyConf, r)
}

// cvalOf turns a resolved value into a condition's value.
func (x *extractor) cvalOf(v val, e *env) cval {
	switch v.k {
	case vNeed:
		return cneed(v.need)
	case vText:
		if s, ok := plainText(v); ok {
			return cstr(s)
		}
	case vBool:
		return cbool(v.boolv)
	case vNull:
		return cnone()
	case vNumber:
		if v.f != nil && v.n >= 0 {
			if i, err := strconv.ParseInt(strings.ReplaceAll(v.f.text(v.n), "_", ""), 0, 64); err == nil {
				return cint(i)
			}
		}
	case vArray:
		els, ok := x.elements(v, e)
		if !ok || len(els) > maxCondItems {
			if len(els) == 1 && els[0].k == vNeed {
				return cneed(els[0].need)
			}
			return cunknown()
		}
		out := cval{ok: true, kind: 'l'}
		for _, el := range els {
			c := x.cvalOf(el, e)
			if c.needs() {
				return c
			}
			if !c.known() {
				return cunknown()
			}
			out.items = append(out.items, c)
		}
		return out
	case vInstance:
		// C(value) of a str Enum is the member whose value it is: the str.
		if enum, str := x.pyEnumClass(val{k: vClass, f: v.f, n: v.n, env: v.env}, nil); enum && str {
			if a, ok := positional(v.args, 0); ok && len(v.args) == 1 {
				c := x.cvalOf(x.force(a), e)
				if c.isStr() && x.pyEnumHasValue(v, c.s) {
					return c
				}
				return cunknown()
			}
		}
	case vUnion:
		// One of several values is known when every one is the same.
		var out cval
		for i, a := range v.elems {
			c := x.cvalOf(a, e)
			if c.needs() {
				return c
			}
			if !c.known() {
				return cunknown()
			}
			if i == 0 {
				out = c
				continue
			}
			if eq, ok := condEqual(out, c); !ok || !eq {
				return cunknown()
			}
		}
		return out
	}
	return cunknown()
}

// pyEnumHasValue reports whether the Enum class of instance v assigns the
// string literal s to one of its members.
func (x *extractor) pyEnumHasValue(v val, s string) bool {
	f := v.f
	for _, st := range f.named(f.field(v.n, "body")) {
		if f.kind(st) != "expression_statement" {
			continue
		}
		for _, a := range f.named(st) {
			if f.kind(a) != "assignment" || f.kind(f.field(a, "left")) != "identifier" {
				continue
			}
			if !pyEnumMemberName(f.text(f.field(a, "left"))) {
				continue
			}
			if t, ok := plainText(pyStringText(f, f.field(a, "right"))); ok && t == s {
				return true
			}
		}
	}
	return false
}

// pyCond evaluates expression n as a condition's value under e.
func (x *extractor) pyCond(f *file, n nid, e *env, depth int) cval {
	if n < 0 || depth > maxCondDepth || !x.step() {
		return cunknown()
	}
	switch f.kind(n) {
	case "parenthesized_expression":
		ch := f.named(n)
		if len(ch) != 1 {
			return cunknown()
		}
		return x.pyCond(f, ch[0], e, depth+1)
	case "not_operator":
		c := x.pyCond(f, f.field(n, "argument"), e, depth+1)
		if !c.known() {
			return c
		}
		return cbool(!c.truth())
	case "boolean_operator":
		l := x.pyCond(f, f.field(n, "left"), e, depth+1)
		if !l.known() {
			return l
		}
		op := f.text(f.field(n, "operator"))
		if op == "and" && !l.truth() || op == "or" && l.truth() {
			return l
		}
		return x.pyCond(f, f.field(n, "right"), e, depth+1)
	case "comparison_operator":
		return x.pyCompare(f, n, e, depth)
	case "conditional_expression":
		ch := f.named(n)
		if len(ch) != 3 {
			return cunknown()
		}
		c := x.pyCond(f, ch[1], e, depth+1)
		if !c.known() {
			return c
		}
		if c.truth() {
			return x.pyCond(f, ch[0], e, depth+1)
		}
		return x.pyCond(f, ch[2], e, depth+1)
	case "true", "false":
		return cbool(f.kind(n) == "true")
	case "none":
		return cnone()
	case "identifier":
		if x.pyRebound(f, n, f.text(n)) {
			return cunknown()
		}
		c := x.cvalOf(x.eval(f, n, e), e)
		if c.known() || c.needs() {
			return c
		}
		return x.pyCondName(f, n, f.text(n), e, depth)
	case "subscript":
		if c, ok := x.pyLocalSubscript(f, n, depth); ok {
			return c
		}
	case "attribute":
		if c, ok := x.pyPropertyCond(f, n, e, depth); ok {
			return c
		}
	case "call":
		if _, c, ok := x.pyEnvRead(f, n, e); ok {
			return c
		}
		if c, ok := x.pyCondCall(f, n, e, depth); ok {
			return c
		}
	}
	return x.cvalOf(x.eval(f, n, e), e)
}

// pyCondCall evaluates the calls a condition makes of str methods and
// builtins over known values; ok is false for any other call.
func (x *extractor) pyCondCall(f *file, n nid, e *env, depth int) (cval, bool) {
	fn := f.field(n, "function")
	args := f.named(f.field(n, "arguments"))
	for _, a := range args {
		if k := f.kind(a); k == "keyword_argument" || k == "list_splat" || k == "dictionary_splat" {
			return cval{}, false
		}
	}
	if f.kind(fn) == "attribute" {
		method := f.text(f.field(fn, "attribute"))
		switch method {
		case "lower", "upper", "casefold", "strip", "lstrip", "rstrip", "startswith", "endswith":
		default:
			return cval{}, false
		}
		recv := x.pyCond(f, f.field(fn, "object"), e, depth+1)
		if !recv.known() {
			return recv, true
		}
		if !recv.isStr() {
			return cunknown(), true
		}
		switch method {
		case "lower", "casefold":
			if len(args) == 0 {
				return cstr(strings.ToLower(recv.s)), true
			}
		case "upper":
			if len(args) == 0 {
				return cstr(strings.ToUpper(recv.s)), true
			}
		case "strip", "lstrip", "rstrip":
			if len(args) == 0 {
				s := recv.s
				if method != "rstrip" {
					s = strings.TrimLeftFunc(s, pySpace)
				}
				if method != "lstrip" {
					s = strings.TrimRightFunc(s, pySpace)
				}
				return cstr(s), true
			}
		case "startswith", "endswith":
			if len(args) == 1 {
				a := x.pyCond(f, args[0], e, depth+1)
				if !a.known() {
					return a, true
				}
				if !a.isStr() {
					return cunknown(), true
				}
				if method == "startswith" {
					return cbool(strings.HasPrefix(recv.s, a.s)), true
				}
				return cbool(strings.HasSuffix(recv.s, a.s)), true
			}
		}
		return cunknown(), true
	}
	if f.kind(fn) != "identifier" || len(args) != 1 {
		return cval{}, false
	}
	switch f.text(fn) {
	case "str", "bool", "frozenset", "set", "list", "tuple":
		bv := x.eval(f, fn, e)
		if bv.k != vExternal || bv.spec != f.text(fn) {
			return cval{}, false // a name of the package
		}
		a := x.pyCond(f, args[0], e, depth+1)
		if !a.known() {
			return a, true
		}
		switch f.text(fn) {
		case "bool":
			return cbool(a.truth()), true
		case "frozenset", "set", "list", "tuple":
			if !a.isList() {
				return cunknown(), true
			}
			return a, true
		}
		s, ok := pyStr(a)
		if !ok {
			return cunknown(), true
		}
		return cstr(s), true
	}
	return cval{}, false
}

// pyCompare evaluates one comparison: ==, !=, in, not in, is, is not.
func (x *extractor) pyCompare(f *file, n nid, e *env, depth int) cval {
	ops := f.named(n)
	if len(ops) != 2 {
		return cunknown() // a chain (a < b < c) is not read
	}
	op := strings.Join(strings.Fields(string(f.src[f.end(ops[0]):f.start(ops[1])])), " ")
	if op == "in" || op == "not in" {
		if name, ok := x.pyEnvironTest(f, ops[0], ops[1], e); ok {
			if name == "" {
				return cunknown()
			}
			x.noteConfig(rundir.ConfigRead{Source: "env", Name: name, Default: "unset", File: f.path, Line: f.lineOf(n)})
			return cbool(op == "not in")
		}
	}
	l := x.pyCond(f, ops[0], e, depth+1)
	if !l.known() {
		return l
	}
	r := x.pyCond(f, ops[1], e, depth+1)
	if !r.known() {
		return r
	}
	switch op {
	case "==", "!=":
		eq, ok := condEqual(l, r)
		if !ok {
			return cunknown()
		}
		return cbool(eq == (op == "=="))
	case "is", "is not":
		// Identity is read only against None, True and False.
		if !(r.isNone() || r.isBool()) {
			return cunknown()
		}
		eq, ok := condEqual(l, r)
		if !ok {
			return cunknown()
		}
		return cbool(eq == (op == "is"))
	case "in", "not in":
		var found bool
		switch {
		case r.isStr() && l.isStr():
			found = strings.Contains(r.s, l.s)
		case r.isList():
			for _, it := range r.items {
				if eq, ok := condEqual(l, it); ok && eq {
					found = true
				}
			}
		default:
			return cunknown()
		}
		return cbool(found == (op == "in"))
	}
	return cunknown()
}

// pyEnvironTest recognises `"X" in os.environ`: ok when the right side is
// the environment, with the variable's name ("" when it is not a literal).
func (x *extractor) pyEnvironTest(f *file, l, r nid, e *env) (string, bool) {
	if !x.pyIsEnviron(f, r, e) {
		return "", false
	}
	s, ok := plainText(x.eval(f, l, e))
	if !ok {
		return "", true
	}
	return s, true
}

// pyIsEnviron reports whether node n is os.environ.
func (x *extractor) pyIsEnviron(f *file, n nid, e *env) bool {
	switch f.kind(n) {
	case "attribute":
		if f.text(f.field(n, "attribute")) != "environ" {
			return false
		}
		o := x.eval(f, f.field(n, "object"), e)
		return o.k == vExternal && o.spec == "os"
	case "identifier":
		if f.text(n) != "environ" {
			return false
		}
		o := x.eval(f, n, e)
		return o.k == vExternal && o.spec == "os.environ"
	}
	return false
}

// pyConfigCall reads a call that reads configuration: the environment
// (pyEnvCall) or the command line (pyArgparseCall).
func (x *extractor) pyConfigCall(f *file, n nid, e *env) (val, bool) {
	if v, ok := x.pyEnvCall(f, n, e); ok {
		return v, true
	}
	if f.kind(f.parent(n)) == "decorator" {
		// @click.option(...) read as the value of the parameter it declares
		// (pyClickFrame); a decorator is not a value anywhere else.
		return x.pyClickDefault(f, n, e)
	}
	return x.pyArgparseCall(f, n, e)
}

// pyEnvCall recognises os.getenv(name[, default]) and
// os.environ.get(name[, default]); env is false for any other call. The
// value is the default under the default configuration, recorded as read.
func (x *extractor) pyEnvCall(f *file, n nid, e *env) (v val, env bool) {
	v, _, env = x.pyEnvRead(f, n, e)
	return v, env
}

// pyEnvRead is pyEnvCall giving also the default as a condition's value,
// which a condition can use when the default has no source text of its own
// (os.getenv(k, str(False))); a name or a text is never read from that.
func (x *extractor) pyEnvRead(f *file, n nid, e *env) (val, cval, bool) {
	fn := f.field(n, "function")
	switch f.kind(fn) {
	case "attribute":
		switch f.text(f.field(fn, "attribute")) {
		case "get":
			if !x.pyIsEnviron(f, f.field(fn, "object"), e) {
				return val{}, cval{}, false
			}
		case "getenv":
			o := x.eval(f, f.field(fn, "object"), e)
			if o.k != vExternal || o.spec != "os" {
				return val{}, cval{}, false
			}
		default:
			return val{}, cval{}, false
		}
	case "identifier":
		if f.text(fn) != "getenv" {
			return val{}, cval{}, false
		}
		if o := x.eval(f, fn, e); o.k != vExternal || o.spec != "os.getenv" {
			return val{}, cval{}, false
		}
	default:
		return val{}, cval{}, false
	}
	args := x.pyArgThunks(f, n, e)
	name, ok := positional(args, 0)
	if !ok {
		name, ok = kwarg(args, "key")
	}
	if !ok || len(args) > 2 {
		return unknown("environment variable read with arguments not read"), cunknown(), true
	}
	nv := x.force(name)
	if nv.k == vNeed {
		return nv, cneed(nv.need), true
	}
	key, ok := plainText(nv)
	if !ok {
		return unknown("environment variable whose name is not known: " + reasonOf(nv)), cunknown(), true
	}
	def, hasDef := positional(args, 1)
	if !hasDef {
		def, hasDef = kwarg(args, "default")
	}
	v := val{k: vNull}
	if hasDef {
		v = x.force(def)
		if v.k == vNeed {
			return v, cneed(v.need), true
		}
	}
	c := x.cvalOf(v, e)
	if c.needs() {
		return val{k: vNeed, need: *c.need}, c, true
	}
	if !c.scalar() {
		if hasDef && def.n >= 0 && def.v == nil {
			c = x.pyCond(def.f, def.n, def.env, 0)
		}
		if c.needs() {
			return val{k: vNeed, need: *c.need}, c, true
		}
		if !c.scalar() {
			return unknown("environment variable " + key + " with a default that is not read: " + reasonOf(v)), cunknown(), true
		}
		// Known only as a condition's value: it has no source text.
		v = unknown("environment variable " + key + " with a default computed at run time")
	}
	x.noteConfig(rundir.ConfigRead{Source: "env", Name: key, Default: c.repr(), File: f.path, Line: f.lineOf(n)})
	return v, c, true
}

// pyChoose reads `a if c else b` when c is known: the branch it takes.
func (x *extractor) pyChoose(f *file, ch []nid, e *env) (val, bool) {
	c := x.pyCond(f, ch[1], e, 0)
	if c.needs() {
		return val{k: vNeed, need: *c.need}, true
	}
	if !c.known() {
		return val{}, false
	}
	if c.truth() {
		return x.eval(f, ch[0], e), true
	}
	return x.eval(f, ch[2], e), true
}

// pyCondValue reads a `not`, a comparison or a boolean operator over known
// values as the bool (or operand) it gives.
func (x *extractor) pyCondValue(f *file, n nid, e *env) (val, bool) {
	c := x.pyCond(f, n, e, 0)
	if c.needs() {
		return val{k: vNeed, need: *c.need}, true
	}
	if c.isBool() {
		return val{k: vBool, boolv: c.b}, true
	}
	return val{}, false
}

// pyPureCall reads a call of a small function of the package made only of
// if/elif/else tests, returns, logging calls and a local dict built key by
// key (a docstring and pass besides): the return its tests reach under ne.
// ok is false when the body holds any other statement or a test is not
// known, and the call is read as before (one of its returns' values).
func (x *extractor) pyPureCall(f *file, fn nid, ne *env) (val, bool) {
	if f.kind(fn) != "function_definition" || len(x.pyCalls) >= maxCondDepth {
		return val{}, false
	}
	st := &pyCallState{f: f, fn: fn, dicts: map[string]*pyLocalDict{}}
	x.pyCalls = append(x.pyCalls, st)
	defer func() { x.pyCalls = x.pyCalls[:len(x.pyCalls)-1] }()
	mark := len(x.pyConf)
	v, reached, ok := x.pyPureBlock(st, f.field(fn, "body"), ne, 0)
	if ok && reached && len(v.keys) > 0 && x.pyDictSrc[&v.keys[0]] != nil {
		// A dict built here: what each key read is recorded when it is
		// read (pyKwUnpacked), not every test that built the dict.
		x.pyConf = x.pyConf[:mark]
	}
	if !ok {
		return val{}, false
	}
	if !reached {
		return val{k: vNull}, true
	}
	return v, true
}

func (x *extractor) pyPureBlock(st *pyCallState, block nid, ne *env, depth int) (v val, returned, ok bool) {
	f := st.f
	if depth > maxCondDepth {
		return val{}, false, false
	}
	for i, s := range f.named(block) {
		st.stmts++
		if st.stmts > maxPureStmts {
			return val{}, false, false
		}
		switch f.kind(s) {
		case "comment", "pass_statement":
		case "expression_statement":
			ch := f.named(s)
			if len(ch) == 1 && f.kind(ch[0]) == "assignment" {
				if !x.pyLocalAssign(st, ch[0], ne) {
					return val{}, false, false
				}
				continue
			}
			docstring := i == 0 && len(ch) == 1 && f.kind(ch[0]) == "string"
			if !docstring && !pyLogCall(f, s) {
				return val{}, false, false
			}
		case "return_statement":
			ch := f.named(s)
			if len(ch) == 0 {
				return val{k: vNull}, true, true
			}
			if f.kind(ch[0]) == "identifier" {
				if d, ok := st.dicts[f.text(ch[0])]; ok {
					return x.pyDictValue(d), true, true
				}
			}
			return x.eval(f, ch[0], ne), true, true
		case "if_statement":
			m := len(x.pyConf)
			arm, ok := x.pyTakenArm(f, s, ne)
			if !ok {
				return val{}, false, false
			}
			if arm.need != nil {
				return val{k: vNeed, need: *arm.need}, true, true
			}
			if arm.block < 0 {
				continue
			}
			outer := len(st.active)
			if m <= len(x.pyConf) {
				st.active = append(st.active, x.pyConf[m:]...)
			}
			v, returned, ok := x.pyPureBlock(st, arm.block, ne, depth+1)
			st.active = st.active[:outer]
			if !ok || returned {
				return v, returned, ok
			}
		default:
			return val{}, false, false
		}
	}
	return val{}, false, true
}

// pyLocalAssign runs `d = dict()` / `d = {}` and `d["k"] = v` for a local
// dict d; ok is false for any other assignment.
func (x *extractor) pyLocalAssign(st *pyCallState, a nid, ne *env) bool {
	f := st.f
	left, right := f.field(a, "left"), f.field(a, "right")
	if right < 0 || f.field(a, "type") >= 0 {
		return false
	}
	switch f.kind(left) {
	case "identifier":
		empty := f.kind(right) == "dictionary" && len(f.named(right)) == 0
		if f.kind(right) == "call" && f.text(f.field(right, "function")) == "dict" && len(f.named(f.field(right, "arguments"))) == 0 {
			bv := x.eval(f, f.field(right, "function"), ne)
			empty = bv.k == vExternal && bv.spec == "dict"
		}
		if !empty {
			return false
		}
		st.dicts[f.text(left)] = &pyLocalDict{}
		return true
	case "subscript":
		obj := f.field(left, "value")
		d, ok := st.dicts[f.text(obj)]
		if f.kind(obj) != "identifier" || !ok {
			return false
		}
		k, ok := plainText(pyStringText(f, f.field(left, "subscript")))
		if !ok {
			return false
		}
		if f.contains(right, obj) || mentions(f, right, f.text(obj)) {
			// A value read from the dict itself is not followed.
			u := unknown("value read from the dict being built")
			d.set(k, thunk{v: &u}, st.active)
			return true
		}
		d.set(k, thunk{f: f, n: right, env: ne}, st.active)
		return true
	}
	return false
}

// mentions reports whether an identifier named name occurs under n.
func mentions(f *file, n nid, name string) bool {
	found := false
	f.walk(n, func(c nid) bool {
		if f.kind(c) == "identifier" && f.text(c) == name {
			found = true
		}
		return !found
	})
	return found
}

// pyDictValue is the dict a call built, as a value: its keys in order.
// The configuration its values read is recorded only when a key is read
// through f(**d) (pyKwUnpacked), which reads that key's expression again:
// an entry records what it depends on, not every key of the dict.
func (x *extractor) pyDictValue(d *pyLocalDict) val {
	o := val{k: vObject, n: none}
	mark := len(x.pyConf)
	for i, k := range d.keys {
		o.keys = append(o.keys, k)
		o.props = append(o.props, x.force(d.vals[i]))
	}
	x.pyConf = x.pyConf[:mark]
	if len(o.keys) > 0 {
		if x.pyDictSrc == nil {
			x.pyDictSrc = map[*string]*pyLocalDict{}
		}
		x.pyDictSrc[&o.keys[0]] = d
	}
	return o
}

// takenArm is the block an if statement runs (none when no arm does), or
// the binding its tests need first.
type takenArm struct {
	block nid
	need  *scopeRef
}

// pyTakenArm evaluates an if statement's tests in order.
func (x *extractor) pyTakenArm(f *file, st nid, e *env) (takenArm, bool) {
	c := x.pyCond(f, f.field(st, "condition"), e, 0)
	if c.needs() {
		return takenArm{block: none, need: c.need}, true
	}
	if !c.known() {
		return takenArm{}, false
	}
	if c.truth() {
		return takenArm{block: f.field(st, "consequence")}, true
	}
	for _, alt := range f.fieldAll(st, "alternative") {
		switch f.kind(alt) {
		case "elif_clause":
			c := x.pyCond(f, f.field(alt, "condition"), e, 0)
			if c.needs() {
				return takenArm{block: none, need: c.need}, true
			}
			if !c.known() {
				return takenArm{}, false
			}
			if c.truth() {
				return takenArm{block: f.field(alt, "consequence")}, true
			}
		case "else_clause":
			return takenArm{block: f.field(alt, "body")}, true
		}
	}
	return takenArm{block: none}, true
}

// pyRebound reports whether a module-level name may be bound again at run
// time: a function of its module declares it global (and so may assign
// it). Such a name is not a known value for a condition, whatever its
// module-level assignment says.
func (x *extractor) pyRebound(f *file, n nid, name string) bool {
	_, scope, ok := x.pyLookup(f, n, name)
	if !ok || scope != 0 {
		return false
	}
	if x.pyGlobalIn(f, name) || x.pyAttrAssigned(name) {
		return true
	}
	for _, d := range f.pyFacts.scopeDecls(f, 0)[name] {
		k := f.kind(d)
		if k != "dotted_name" && k != "aliased_import" {
			continue
		}
		stmt := f.parent(d)
		if f.kind(stmt) != "import_from_statement" {
			continue
		}
		imported := name
		if k == "aliased_import" {
			imported = f.text(f.field(d, "name"))
		}
		if t := x.pyResolveModule(f, f.text(f.field(stmt, "module_name"))); t != nil && t.pyFacts != nil && x.pyGlobalIn(t, imported) {
			return true
		}
	}
	return false
}

// pyAttrAssigned reports whether any runnable Python file of the package
// assigns an attribute called name (`config.DEBUG = True`): a module-level
// name of that spelling may be set from another module, so no condition
// knows it. One pass over the package, on first use.
func (x *extractor) pyAttrAssigned(name string) bool {
	if x.pyAttrSet == nil {
		x.pyAttrSet = map[string]bool{}
		for _, g := range x.files {
			if g.pyFacts == nil || !g.runnable() {
				continue
			}
			// A set: the order of the two kinds does not matter.
			for _, k := range [...]pyKind{pkAssignment, pkAugmentedAssignment} {
				for _, n := range g.ofKind(k) {
					if l := g.field(n, "left"); g.pk(l) == pkAttribute {
						x.pyAttrSet[g.text(g.field(l, "attribute"))] = true
					}
				}
			}
		}
	}
	return x.pyAttrSet[name]
}

// pyGlobalIn reports whether a global statement of file f names name.
func (x *extractor) pyGlobalIn(f *file, name string) bool {
	if x.pyGlobals == nil {
		x.pyGlobals = map[*file]map[string]bool{}
	}
	g, ok := x.pyGlobals[f]
	if !ok {
		g = map[string]bool{}
		for _, n := range f.ofKind(pkGlobalStatement) {
			for _, c := range f.named(n) {
				g[f.text(c)] = true
			}
		}
		x.pyGlobals[f] = g
	}
	return g[name]
}

// pyCondResolved is pyCond where a test on a parameter of an enclosing
// function the site did not need is read through that function's call
// sites in the package (at most maxCondFrames, nested at most three deep):
// known when every call site gives the same value.
func (x *extractor) pyCondResolved(f *file, n nid, e *env, tries int) cval {
	c := x.pyCond(f, n, e, 0)
	if !c.needs() {
		return c
	}
	if tries >= 3 {
		return cunknown()
	}
	frames, _, need2 := x.instances(*c.need, e)
	if need2 != nil || len(frames) == 0 || len(frames) > maxCondFrames {
		return cunknown()
	}
	var out cval
	for i, fr := range frames {
		w := x.pyCondResolved(f, n, e.push(fr), tries+1)
		if !w.known() {
			return cunknown()
		}
		if i == 0 {
			out = w
			continue
		}
		if w.truth() != out.truth() {
			return cunknown()
		}
	}
	return out
}

// pyEnumerate is enumerate for a Python site: the entries of each reading
// carry the site's conditions and the configuration read while it was read.
func (x *extractor) pyEnumerate(f *file, site nid, fn func(e *env, c *collector)) {
	x.enumerate(f, site, func(e *env, c *collector) {
		mark := len(x.pyConf)
		defer func() { x.pyConf = x.pyConf[:mark] }()
		fn(e, c)
		if c.need != nil || len(c.entries) == 0 {
			return
		}
		conds := x.pyConditionsBounded(func() []rundir.Condition {
			return append(x.pySiteConditions(f, site, e), x.pyModuleConditions(f)...)
		})
		reads := uniqueReads(x.pyConf[mark:])
		for i := range c.entries {
			c.entries[i].Conditions = conds
			c.entries[i].Configuration = reads
			x.pyAnyOff = x.pyAnyOff || c.entries[i].OffByDefault()
		}
	})
}

func uniqueReads(rs []rundir.ConfigRead) []rundir.ConfigRead {
	if len(rs) == 0 {
		return nil
	}
	seen := map[rundir.ConfigRead]bool{}
	var out []rundir.ConfigRead
	for _, r := range rs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// maxConditions bounds the conditions recorded for one site.
const maxConditions = 32

// pySiteConditions lists the tests a registration site is made under, from
// the innermost out: each enclosing if (its test true, or false for an
// else, and every earlier test of its chain false), each earlier statement
// `if test: return` of an enclosing block (its test false), and
// a FastMCP enabled= argument of the registration (true).
func (x *extractor) pySiteConditions(f *file, site nid, e *env) []rundir.Condition {
	var out []rundir.Condition
	add := func(g *file, test nid, ge *env, when bool) {
		if test < 0 || len(out) >= maxConditions {
			return
		}
		c := x.pyCondResolved(g, test, ge, 0)
		holds := rundir.HoldsUnknown
		if c.known() {
			holds = rundir.HoldsFalse
			if c.truth() == when {
				holds = rundir.HoldsTrue
			}
		}
		out = append(out, rundir.Condition{File: g.path, Line: g.lineOf(test), Test: truncate(g.text(test), 200), When: when, Holds: holds})
	}
	if en := x.pyEnabledArg(f, site); en >= 0 {
		add(f, en, e, true)
	}
	if tc, ok := x.pyTagFilter(f, site, e); ok {
		out = append(out, tc)
	}
	x.pyWalkConditions(f, site, e, add, 0)
	return out
}

// maxCallerConditions bounds the chain of call sites whose conditions a
// registration inherits.
const maxCallerConditions = 4

// pyWalkConditions adds the tests enclosing node n (see pySiteConditions)
// and, when n sits in a function, those enclosing the call site that made
// this reading, or the function's one call site in the package.
func (x *extractor) pyWalkConditions(f *file, n nid, e *env, add func(*file, nid, *env, bool), calls int) {
	child := n
	for a := f.parent(n); a >= 0; child, a = a, f.parent(a) {
		switch f.kind(a) {
		case "if_statement":
			if child == f.field(a, "consequence") {
				add(f, f.field(a, "condition"), e, true)
				continue
			}
			ck := f.kind(child)
			if ck != "elif_clause" && ck != "else_clause" {
				continue
			}
			add(f, f.field(a, "condition"), e, false)
			for _, alt := range f.fieldAll(a, "alternative") {
				if alt == child {
					if ck == "elif_clause" {
						add(f, f.field(alt, "condition"), e, true)
					}
					break
				}
				if f.kind(alt) == "elif_clause" {
					add(f, f.field(alt, "condition"), e, false)
				}
			}
		case "block", "module":
			for _, st := range f.named(a) {
				if st == child {
					break
				}
				if pyGuard(f, st) {
					add(f, f.field(st, "condition"), e, false)
				}
			}
		case "function_definition":
			if calls < maxCallerConditions && f.kind(f.parent(a)) != "decorated_definition" {
				x.pyCallerConditions(f, a, e, add, calls)
			}
			return
		case "class_definition":
			return
		}
	}
}

// pyCallerConditions continues pyWalkConditions at the call site of
// function fn: the one this reading went through (a frame of e), else the
// function's only call site in the package. A function called from several
// places, or from none, adds no condition of its callers.
func (x *extractor) pyCallerConditions(f *file, fn nid, e *env, add func(*file, nid, *env, bool), calls int) {
	s := scopeRef{f, fn}
	for i, m := range x.pyScripts.modules {
		if x.pyScripts.funcs[i] == f.text(f.field(fn, "name")) && x.pyResolveModule(f, m) == f {
			return // a console script calls it, whatever calls it in the package
		}
	}
	if fr := e.lookup(s); fr != nil {
		if fr.site != nil && fr.dead == "" && fr.site.f.lang == LangPython {
			x.pyWalkConditions(fr.site.f, fr.site.n, fr.parent, add, calls+1)
		}
		return
	}
	frames, _, _ := x.pyInstances(s, e)
	if len(frames) != 1 || frames[0].site == nil {
		return
	}
	x.pyWalkConditions(frames[0].site.f, frames[0].site.n, e, add, calls+1)
}

// pyGuard reports whether st is `if test: ... return` with no other arm:
// what follows it runs only when test is false. `if test: raise ...` is
// not one: a server that stops when a value is missing states what it
// needs to run, not which tools it registers, so the tools after it are
// read as listed (the truth of a server is what it lists once it runs).
func pyGuard(f *file, st nid) bool {
	if f.kind(st) != "if_statement" || len(f.fieldAll(st, "alternative")) > 0 {
		return false
	}
	body := f.named(f.field(st, "consequence"))
	if len(body) == 0 {
		return false
	}
	return f.kind(body[len(body)-1]) == "return_statement"
}

// pyEnabledArg is the enabled= argument of a registration (FastMCP's
// @mcp.tool(enabled=...), mcp.tool(..., enabled=...)(fn),
// add_tool(Tool.from_function(fn, enabled=...))), or none.
func (x *extractor) pyEnabledArg(f *file, site nid) nid {
	var calls []nid
	switch f.kind(site) {
	case "decorator":
		if ch := f.named(site); len(ch) > 0 && f.kind(ch[0]) == "call" {
			calls = append(calls, ch[0])
		}
	case "call":
		calls = append(calls, site)
		if inner := f.field(site, "function"); f.kind(inner) == "call" {
			calls = append(calls, inner)
		}
		if args := f.named(f.field(site, "arguments")); len(args) > 0 && f.kind(args[0]) == "call" {
			calls = append(calls, args[0])
		}
	}
	for _, c := range calls {
		for _, a := range f.named(f.field(c, "arguments")) {
			if f.kind(a) == "keyword_argument" && f.text(f.field(a, "name")) == "enabled" {
				return f.field(a, "value")
			}
		}
	}
	return none
}

// pyKwUnpacked reads parameter name out of the dicts a call unpacks
// (f(**d)): ok is false when the call unpacks none. A dict that is read and
// does not hold the name leaves the parameter to its default; a dict that is
// not read makes the parameter unresolved, since it may bind it.
func (x *extractor) pyKwUnpacked(args []thunk, name string, e *env) (val, bool) {
	for _, a := range args {
		if a.name != "**" {
			continue
		}
		d := x.force(a)
		if d.k == vNeed {
			return d, true
		}
		if d.k != vObject {
			return unknown("argument " + name + " may be passed by unpacking a value not read: " + reasonOf(d)), true
		}
		if len(d.keys) > 0 {
			if src, ok := x.pyDictSrc[&d.keys[0]]; ok {
				for i, k := range src.keys {
					if k == name {
						x.pyConf = append(x.pyConf, src.reads[i]...)
						return x.force(src.vals[i]), true
					}
				}
				continue
			}
		}
		p, found := x.getProp(d, name, e)
		if !found || p.k == vUndefined {
			continue
		}
		return p, true
	}
	return val{}, false
}

// pyLocalDict is a dict a function being read builds by assignments to its
// keys (config = dict(); config["k"] = v), in the order they ran.
type pyLocalDict struct {
	keys []string
	vals []thunk
	// reads are the configuration the tests leading to each assignment read.
	reads [][]rundir.ConfigRead
}

func (d *pyLocalDict) set(k string, t thunk, reads []rundir.ConfigRead) {
	reads = append([]rundir.ConfigRead(nil), reads...)
	for i, o := range d.keys {
		if o == k {
			d.vals[i], d.reads[i] = t, reads
			return
		}
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, t)
	d.reads = append(d.reads, reads)
}

// pyCallState is the local state of one call pyPureCall reads.
type pyCallState struct {
	f     *file
	fn    nid
	dicts map[string]*pyLocalDict
	stmts int
	// active is the configuration the tests enclosing the statement being
	// run read.
	active []rundir.ConfigRead
}

// pyLogMethods are the methods of a logger; a call of one as a statement
// changes no value the function returns.
var pyLogMethods = map[string]bool{"debug": true, "info": true, "warning": true, "warn": true, "error": true,
	"exception": true, "critical": true, "log": true}

// pyLogCall reports whether statement st is a call of a logger method on
// a name (logger.info(...), logging.warning(...)) or print(...).
func pyLogCall(f *file, st nid) bool {
	ch := f.named(st)
	if len(ch) != 1 || f.kind(ch[0]) != "call" {
		return false
	}
	fn := f.field(ch[0], "function")
	switch f.kind(fn) {
	case "identifier":
		return f.text(fn) == "print"
	case "attribute":
		o := f.field(fn, "object")
		return pyLogMethods[f.text(f.field(fn, "attribute"))] && f.kind(o) == "identifier" &&
			strings.Contains(strings.ToLower(f.text(o)), "log")
	}
	return false
}

// pyLocalSubscript reads d["k"] of a dict the innermost call being read
// builds, as a condition's value.
func (x *extractor) pyLocalSubscript(f *file, n nid, depth int) (cval, bool) {
	if len(x.pyCalls) == 0 {
		return cval{}, false
	}
	st := x.pyCalls[len(x.pyCalls)-1]
	obj := f.field(n, "value")
	if st.f != f || f.kind(obj) != "identifier" || !f.contains(st.fn, n) {
		return cval{}, false
	}
	d, ok := st.dicts[f.text(obj)]
	if !ok {
		return cval{}, false
	}
	k, ok := plainText(pyStringText(f, f.field(n, "subscript")))
	if !ok {
		return cunknown(), true
	}
	for i, key := range d.keys {
		if key == k {
			t := d.vals[i]
			return x.pyCond(t.f, t.n, t.env, depth+1), true
		}
	}
	return cunknown(), true // KeyError
}

// pyArgparseKey marks the namespace parse_args() returns (pyArgparseCall).
const pyArgparseKey = "__argparse__"

// pyParserMethods are the methods of an argparse parser that change no
// default; any other (groups, subparsers, set_defaults, parse_known_args)
// leaves the options unread.
var pyParserMethods = map[string]bool{"add_argument": true, "parse_args": true, "print_help": true, "print_usage": true,
	"format_help": true, "format_usage": true, "error": true, "exit": true}

// pyArgparseCall reads `parser.parse_args()` of a parser the same function
// makes with argparse.ArgumentParser(...) and only add_argument calls: the
// namespace whose attributes are the options' defaults (pyArgparseAttr).
// ok is false for any other call.
func (x *extractor) pyArgparseCall(f *file, n nid, e *env) (val, bool) {
	fn := f.field(n, "function")
	if f.kind(fn) != "attribute" || f.text(f.field(fn, "attribute")) != "parse_args" {
		return val{}, false
	}
	obj := f.field(fn, "object")
	if f.kind(obj) != "identifier" {
		return val{}, false
	}
	if a := f.named(f.field(n, "arguments")); len(a) > 1 || len(a) == 1 && strings.ReplaceAll(f.text(a[0]), " ", "") != "sys.argv[1:]" {
		return unknown("command line parsed from a list of arguments"), true
	}
	p := f.text(obj)
	_, scope, ok := x.pyLookup(f, obj, p)
	if !ok {
		return val{}, false
	}
	ds := f.pyFacts.scopeDecls(f, scope)[p]
	if len(ds) != 1 || f.kind(ds[0]) != "assignment" || f.kind(f.field(ds[0], "left")) != "identifier" {
		return val{}, false
	}
	ctor := f.field(ds[0], "right")
	if f.kind(ctor) != "call" {
		return val{}, false
	}
	if cv := x.eval(f, f.field(ctor, "function"), e); cv.k != vExternal || cv.spec != "argparse.ArgumentParser" {
		return val{}, false
	}
	for _, a := range f.named(f.field(ctor, "arguments")) {
		if f.kind(a) != "keyword_argument" || f.text(f.field(a, "name")) == "parents" || f.text(f.field(a, "name")) == "argument_default" {
			if f.kind(a) != "keyword_argument" {
				continue
			}
			return unknown("argument parser built from other parsers or with a default for every option"), true
		}
	}
	body := scope
	if f.kind(scope) == "function_definition" {
		body = f.field(scope, "body")
	}
	var opts []thunk
	bad := ""
	f.walk(body, func(c nid) bool {
		if bad != "" {
			return false
		}
		if c != body && pyFunctionKind(f.kind(c)) {
			return false
		}
		if f.kind(c) != "identifier" || f.text(c) != p || c == f.field(ds[0], "left") {
			return true
		}
		at := f.parent(c)
		if f.kind(at) != "attribute" || f.field(at, "object") != c {
			bad = "the parser is passed on or changed"
			return false
		}
		m := f.text(f.field(at, "attribute"))
		if !pyParserMethods[m] {
			bad = "the parser is changed by " + m + "()"
			return false
		}
		if m == "add_argument" {
			call := f.parent(at)
			if f.kind(call) != "call" {
				bad = "add_argument is not called"
				return false
			}
			dest, ok := x.pyArgDest(f, call, e)
			if !ok {
				bad = "an option whose name is not a literal"
				return false
			}
			opts = append(opts, thunk{f: f, n: call, env: e, name: dest})
		}
		return true
	})
	if bad != "" {
		return unknown("command-line options not read: " + bad), true
	}
	return val{k: vObject, n: none, keys: []string{pyArgparseKey}, props: []val{{k: vArray, n: none, args: opts}}}, true
}

// pyArgStrings are the option strings of an add_argument call.
func (x *extractor) pyArgStrings(f *file, call nid, e *env) ([]string, bool) {
	var out []string
	for _, a := range x.pyArgThunks(f, call, e) {
		if a.name != "" {
			continue
		}
		s, ok := plainText(x.force(a))
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}

// pyArgDest is the attribute an add_argument call sets, as argparse names
// it: dest=, else the first long option without its dashes and with - as _,
// else the first option (a positional argument's name).
func (x *extractor) pyArgDest(f *file, call nid, e *env) (string, bool) {
	args := x.pyArgThunks(f, call, e)
	if d, ok := kwarg(args, "dest"); ok {
		return plainText(x.force(d))
	}
	strs, ok := x.pyArgStrings(f, call, e)
	if !ok {
		return "", false
	}
	for _, s := range strs {
		if strings.HasPrefix(s, "--") && len(s) > 2 {
			return strings.ReplaceAll(s[2:], "-", "_"), true
		}
	}
	return strings.ReplaceAll(strings.TrimLeft(strs[0], "-"), "-", "_"), true
}

// pyArgparseAttr reads attribute attr of a namespace parse_args() returned:
// the default of the option with that dest, recorded as read; ok is false
// when obj is no such namespace.
func (x *extractor) pyArgparseAttr(obj val, attr string) (val, bool) {
	if obj.k != vObject || len(obj.keys) != 1 || obj.keys[0] != pyArgparseKey {
		return val{}, false
	}
	var found []thunk
	for _, t := range obj.props[0].args {
		if t.name == attr {
			found = append(found, t)
		}
	}
	if len(found) != 1 {
		return unknown("command-line option " + attr + " is not defined once"), true
	}
	return x.pyArgDefault(found[0]), true
}

// pyArgDefault is what argparse sets an option's dest to when the option is
// not given: default=, else False for store_true, True for store_false,
// None otherwise; a required option or positional argument, a string
// default converted by type=, or an action that is not a literal is
// unresolved.
func (x *extractor) pyArgDefault(t thunk) val {
	f, call, e := t.f, t.n, t.env
	args := x.pyArgThunks(f, call, e)
	strs, _ := x.pyArgStrings(f, call, e)
	opt := t.name
	if len(strs) > 0 {
		opt = strs[0]
		for _, s := range strs {
			if strings.HasPrefix(s, "--") {
				opt = s
				break
			}
		}
	}
	action := "store"
	if a, ok := kwarg(args, "action"); ok {
		s, ok := plainText(x.force(a))
		if !ok {
			return unknown("command-line option " + opt + " with an action that is not a literal")
		}
		action = s
	}
	if r, ok := kwarg(args, "required"); ok {
		if c := x.cvalOf(x.force(r), e); !c.isBool() || c.b {
			return unknown("command-line option " + opt + " is required")
		}
	}
	positionalArg := len(strs) > 0 && !strings.HasPrefix(strs[0], "-")
	if positionalArg {
		nargs, ok := kwarg(args, "nargs")
		if !ok {
			return unknown("positional argument " + opt + " has no default")
		}
		s, _ := plainText(x.force(nargs))
		if s != "?" {
			return unknown("positional argument " + opt + " has no default")
		}
	}
	var v val
	def, hasDef := kwarg(args, "default")
	switch {
	case hasDef:
		v = x.force(def)
		if v.k == vExternal && strings.HasSuffix(v.spec, "SUPPRESS") {
			return unknown("command-line option " + opt + " is left unset (SUPPRESS)")
		}
		if ty, ok := kwarg(args, "type"); ok && v.k == vText {
			if tv := x.force(ty); tv.k != vExternal || tv.spec != "str" {
				return unknown("command-line option " + opt + " with a string default converted by type=")
			}
		}
	case action == "store_true":
		v = val{k: vBool, boolv: false}
	case action == "store_false":
		v = val{k: vBool, boolv: true}
	case action == "store", action == "store_const", action == "append", action == "append_const", action == "extend", action == "count":
		v = val{k: vNull}
	default:
		return unknown("command-line option " + opt + " with the action " + action)
	}
	if v.k == vNeed {
		return v
	}
	rep := "…"
	if c := x.cvalOf(v, e); c.scalar() {
		rep = c.repr()
	}
	x.noteConfig(rundir.ConfigRead{Source: "cli", Name: opt, Default: rep, File: f.path, Line: f.lineOf(call)})
	return v
}

// mergeConfiguration folds into the entry already recorded the conditions
// and configuration of another reading of the same entry (the same site
// reached through another call site): the configuration read by either is
// recorded, and the entry is off by default only when no reading lists it
// by default.
func (x *extractor) mergeConfiguration(e rundir.Entry) {
	if len(e.Conditions) == 0 && len(e.Configuration) == 0 && !x.pyAnyOff {
		return
	}
	list := x.s.Tools
	switch e.Kind {
	case KindTool:
	case KindPrompt:
		list = x.s.Prompts
	case KindResource:
		list = x.s.Resources
	case KindResourceTemplate:
		list = x.s.ResourceTemplates
	default:
		return
	}
	for i := range list {
		o := &list[i]
		if o.Name != e.Name || !sameEntrySite(*o, e) || o.Parent != e.Parent || o.DescriptionRaw != e.DescriptionRaw {
			continue
		}
		o.Configuration = uniqueReads(append(append([]rundir.ConfigRead(nil), o.Configuration...), e.Configuration...))
		if o.OffByDefault() && !e.OffByDefault() {
			o.Conditions = e.Conditions
		}
		return
	}
}

// pyPropertyCond reads obj.attr of an instance of a package class whose
// attr is a @property: what the property's method returns.
func (x *extractor) pyPropertyCond(f *file, n nid, e *env, depth int) (cval, bool) {
	obj := x.eval(f, f.field(n, "object"), e)
	if obj.k == vNeed {
		return cneed(obj.need), true
	}
	if obj.k != vInstance || obj.f == nil || obj.f.lang != LangPython {
		return cval{}, false
	}
	g := obj.f
	attr := f.text(f.field(n, "attribute"))
	for _, st := range g.named(g.field(obj.n, "body")) {
		if g.kind(st) != "decorated_definition" {
			continue
		}
		def := g.field(st, "definition")
		if g.kind(def) != "function_definition" || g.text(g.field(def, "name")) != attr {
			continue
		}
		prop := false
		for _, d := range g.named(st) {
			if g.kind(d) == "decorator" && strings.TrimSpace(strings.TrimPrefix(g.text(d), "@")) == "property" {
				prop = true
			}
		}
		if !prop || depth > maxCondDepth {
			return cunknown(), true
		}
		ret := x.callPy(val{k: vFunc, f: g, n: def, env: obj.env}, nil, e)
		return x.cvalOf(ret, e), true
	}
	return cval{}, false
}

// pyClickDecorators are the click decorators a command's function may
// carry for its parameters to be read from its options: anything else
// (pass_context, a decorator of the package) supplies parameters the
// extractor does not read.
var pyClickDecorators = map[string]bool{"command": true, "group": true, "option": true, "argument": true,
	"version_option": true, "help_option": true}

// pyClickFrame binds the parameters of a click command (@click.command()
// with @click.option / @click.argument) to its options: each parameter is
// the thunk of the decorator call that declares it, read as its default
// (pyClickDefault). ok is false unless every decorator is one of
// pyClickDecorators and every parameter is declared by exactly one option.
func (x *extractor) pyClickFrame(s scopeRef) (env, bool) {
	f, def := s.f, s.n
	dd := f.parent(def)
	var args []thunk
	names := map[string]int{}
	for _, d := range f.named(dd) {
		if f.kind(d) != "decorator" {
			continue
		}
		ch := f.named(d)
		if len(ch) != 1 || f.kind(ch[0]) != "call" {
			return env{}, false
		}
		call := ch[0]
		cv := x.eval(f, f.field(call, "function"), nil)
		if cv.k != vExternal || !strings.HasPrefix(cv.spec, "click.") || !pyClickDecorators[strings.TrimPrefix(cv.spec, "click.")] {
			return env{}, false
		}
		m := strings.TrimPrefix(cv.spec, "click.")
		if m != "option" && m != "argument" {
			continue
		}
		name, ok := x.pyClickName(f, call)
		if !ok {
			return env{}, false
		}
		names[name]++
		args = append(args, thunk{f: f, n: call, name: name})
	}
	for _, p := range f.named(f.field(def, "parameters")) {
		if names[pyParamName(f, p)] != 1 {
			return env{}, false
		}
	}
	return env{scope: s, args: args}, true
}

// pyClickDecls are the declarations of a click option or argument (its
// positional strings), or ok false when one is not a literal.
func (x *extractor) pyClickDecls(f *file, call nid) ([]string, bool) {
	var out []string
	for _, a := range f.named(f.field(call, "arguments")) {
		if f.kind(a) == "keyword_argument" {
			continue
		}
		if f.kind(a) == "list_splat" || f.kind(a) == "dictionary_splat" {
			return nil, false
		}
		s, ok := plainText(x.eval(f, a, nil))
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}

// pyClickName is the parameter click passes an option to: a declaration
// without dashes, else the one with the longest dash prefix, dashes inside
// turned to _ and lower-cased.
func (x *extractor) pyClickName(f *file, call nid) (string, bool) {
	decls, ok := x.pyClickDecls(f, call)
	if !ok {
		return "", false
	}
	best, bestDashes := "", -1
	for _, d := range decls {
		if i := strings.Index(d, "/"); i > 0 {
			d = strings.TrimSpace(d[:i]) // "--on/--off": a boolean flag named by its first half
		}
		dashes := len(d) - len(strings.TrimLeft(d, "-"))
		if dashes == 0 {
			return d, true
		}
		if dashes > bestDashes {
			best, bestDashes = d[dashes:], dashes
		}
	}
	return strings.ToLower(strings.ReplaceAll(best, "-", "_")), best != ""
}

// pyClickDefault is the value click gives a parameter whose option is not
// given and whose envvar= is not set: default=, else False for a flag, 0
// for count=True, an empty tuple for multiple=True, None otherwise; a
// required option or argument, a prompt, a callback or a string default
// converted by type= is unresolved. ok is false when call is no click
// option or argument.
func (x *extractor) pyClickDefault(f *file, call nid, e *env) (val, bool) {
	cv := x.eval(f, f.field(call, "function"), e)
	if cv.k != vExternal || cv.spec != "click.option" && cv.spec != "click.argument" {
		return val{}, false
	}
	decls, ok := x.pyClickDecls(f, call)
	if !ok {
		return unknown("click option whose declaration is not a literal"), true
	}
	opt := decls[0]
	for _, d := range decls {
		if strings.HasPrefix(d, "--") {
			opt = d
			break
		}
	}
	args := x.pyArgThunks(f, call, e)
	flag := func(name string) (bool, bool) {
		a, ok := kwarg(args, name)
		if !ok {
			return false, true
		}
		c := x.cvalOf(x.force(a), e)
		return c.isBool() && c.b, c.isBool()
	}
	for _, k := range []string{"required", "prompt", "is_eager"} {
		on, ok := flag(k)
		if !ok || on {
			return unknown("command-line option " + opt + " is read with " + k + "="), true
		}
	}
	if _, ok := kwarg(args, "callback"); ok {
		return unknown("command-line option " + opt + " is transformed by a callback"), true
	}
	var v val
	def, hasDef := kwarg(args, "default")
	isFlag, ok1 := flag("is_flag")
	for _, d := range decls {
		isFlag = isFlag || strings.Contains(d, "/")
	}
	count, ok2 := flag("count")
	multiple, ok3 := flag("multiple")
	if !ok1 || !ok2 || !ok3 {
		return unknown("command-line option " + opt + " with settings that are not literals"), true
	}
	switch {
	case hasDef:
		v = x.force(def)
		if ty, ok := kwarg(args, "type"); ok && v.k == vText {
			if tv := x.force(ty); tv.k != vExternal || tv.spec != "str" {
				return unknown("command-line option " + opt + " with a string default converted by type="), true
			}
		}
	case cv.spec == "click.argument":
		return unknown("command-line argument " + opt + " has no default"), true
	case isFlag:
		v = val{k: vBool, boolv: false}
	case count:
		return unknown("command-line option " + opt + " counts its uses"), true
	case multiple:
		v = val{k: vArray, n: none}
	default:
		v = val{k: vNull}
	}
	if v.k == vNeed {
		return v, true
	}
	if ev, ok := kwarg(args, "envvar"); ok {
		name, ok := plainText(x.force(ev))
		if !ok {
			return unknown("command-line option " + opt + " read from an environment variable whose name is not a literal"), true
		}
		x.noteConfig(rundir.ConfigRead{Source: "env", Name: name, Default: "unset", File: f.path, Line: f.lineOf(call)})
	}
	rep := "…"
	if c := x.cvalOf(v, e); c.scalar() {
		rep = c.repr()
	}
	x.noteConfig(rundir.ConfigRead{Source: "cli", Name: opt, Default: rep, File: f.path, Line: f.lineOf(call)})
	return v, true
}

// pyScripts is what the package says runs when it is installed: the modules
// its pyproject.toml names as console scripts. known is false when that
// cannot be told (no pyproject.toml with a scripts table, or a setup.py or
// setup.cfg that may declare more).
type pyScripts struct {
	known   bool
	modules []string // dotted module names
	funcs   []string // the function each calls, or ""
}

// readPyScripts reads [project.scripts], [project.gui-scripts] and
// [tool.poetry.scripts] of the package's pyproject.toml (at the archive root
// or under its one top directory): `name = "module.path:function"` lines.
func (x *extractor) readPyScripts(fsys fs.FS) {
	var dir string
	found := false
	for _, d := range []string{".", "*"} {
		ms, _ := fs.Glob(fsys, path.Join(d, "pyproject.toml"))
		if len(ms) == 1 {
			dir, found = path.Dir(ms[0]), true
			break
		}
		if len(ms) > 1 {
			return
		}
	}
	if !found {
		return
	}
	for _, other := range []string{"setup.py", "setup.cfg"} {
		if _, err := fs.Stat(fsys, path.Join(dir, other)); err == nil {
			return
		}
	}
	b, err := fs.ReadFile(fsys, path.Join(dir, "pyproject.toml"))
	if err != nil || len(b) > 1<<20 {
		return
	}
	in, any := false, false
	for _, line := range strings.Split(string(b), "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			t := strings.ReplaceAll(strings.Trim(l, "[] "), " ", "")
			in = t == "project.scripts" || t == "project.gui-scripts" || t == "tool.poetry.scripts"
			any = any || in
			continue
		}
		if !in || l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		_, target, ok := strings.Cut(l, "=")
		if !ok {
			return // not a line this reader understands: unknown
		}
		target = strings.Trim(strings.TrimSpace(target), `"'`)
		mod, fn, _ := strings.Cut(target, ":")
		if mod == "" || strings.ContainsAny(mod, " {[") {
			return
		}
		x.pyScripts.modules = append(x.pyScripts.modules, mod)
		x.pyScripts.funcs = append(x.pyScripts.funcs, strings.TrimSpace(fn))
	}
	x.pyScripts.known = any
}

// pyModuleCond is the cached reading of a module's import conditions.
type pyModuleCond struct {
	conds []rundir.Condition
	reads []rundir.ConfigRead
}

// pyModuleConditions are the conditions under which module f is loaded, when
// the package says what runs (readPyScripts), f is no console script's
// module, nothing imports by a computed name, and every runnable import of f
// sits under a test (`if PARTITION == "aws": from .a import main`): the
// conditions of an import whose tests all hold under the default
// configuration, else those of the first import. Otherwise none: a module
// imported without a test, or one nothing imports, is read as loaded.
func (x *extractor) pyModuleConditions(f *file) []rundir.Condition {
	if x.pyModConds == nil {
		x.pyModConds = map[*file]*pyModuleCond{}
	}
	if c, ok := x.pyModConds[f]; ok {
		x.pyConf = append(x.pyConf, c.reads...)
		return c.conds
	}
	c := &pyModuleCond{}
	x.pyModConds[f] = c
	if !x.pyScripts.known {
		return nil
	}
	for _, m := range x.pyScripts.modules {
		if t := x.pyResolveModule(f, m); t == f {
			return nil
		}
	}
	for _, g := range x.files {
		if g.pyFacts == nil || !g.runnable() {
			continue
		}
		for _, c := range append(append([]nid(nil), g.pyFacts.calls["import_module"]...), g.pyFacts.calls["__import__"]...) {
			// An import by a computed name may load f; one by a literal
			// name (__import__('pkgutil')) loads what it names.
			args := g.named(g.field(c, "arguments"))
			if len(args) == 0 || g.kind(args[0]) != "string" {
				return nil
			}
			lit, ok := plainText(pyStringText(g, args[0]))
			if !ok || x.pyResolveModule(g, lit) == f {
				return nil
			}
		}
	}
	// The import statements that load f, in the order of the files and
	// then of each file: the package's import index, built once.
	imports := x.pyImportersOf(f)
	if len(imports) == 0 {
		return nil
	}
	mark := len(x.pyConf)
	var chosen []rundir.Condition
	for i, im := range imports {
		conds := x.pySiteConditions(im.g, im.n, nil)
		if len(conds) == 0 {
			x.pyConf = x.pyConf[:mark]
			return nil
		}
		holds := true
		for _, cd := range conds {
			holds = holds && cd.Holds == rundir.HoldsTrue
		}
		if i == 0 || holds {
			chosen = conds
		}
		if holds {
			break
		}
	}
	c.conds = chosen
	c.reads = uniqueReads(x.pyConf[mark:])
	return c.conds
}

// pyCondName reads a name bound once, by `name = expr` in its scope or by an
// import of such a module-level name, as expr's condition value: what a
// condition can know of it (os.getenv("P", "aws").lower()) where a text
// cannot.
func (x *extractor) pyCondName(f *file, n nid, name string, e *env, depth int) cval {
	loop, scope, ok := x.pyLookup(f, n, name)
	if !ok || loop >= 0 || depth > maxCondDepth {
		return cunknown()
	}
	ds := f.pyFacts.scopeDecls(f, scope)[name]
	if len(ds) != 1 {
		return cunknown()
	}
	d := ds[0]
	if scope == 0 {
		e = nil // module-level names are read as pyModuleAttr reads them
	}
	switch f.kind(d) {
	case "assignment":
		if f.kind(f.field(d, "left")) != "identifier" || f.field(d, "right") < 0 {
			return cunknown()
		}
		return x.pyCond(f, f.field(d, "right"), e, depth+1)
	case "dotted_name", "aliased_import":
		stmt := f.parent(d)
		if f.kind(stmt) != "import_from_statement" {
			return cunknown()
		}
		imported := name
		if f.kind(d) == "aliased_import" {
			imported = f.text(f.field(d, "name"))
		}
		t := x.pyResolveModule(f, f.text(f.field(stmt, "module_name")))
		if t == nil || t == f || t.pyFacts == nil {
			return cunknown()
		}
		if x.pyGlobalIn(t, imported) {
			return cunknown()
		}
		tds := t.pyFacts.scopeDecls(t, 0)[imported]
		if len(tds) != 1 || t.kind(tds[0]) != "assignment" || t.kind(t.field(tds[0], "left")) != "identifier" {
			return cunknown()
		}
		return x.pyCond(t, t.field(tds[0], "right"), nil, depth+1)
	}
	return cunknown()
}

// maxCondSteps bounds the resolution steps spent on the conditions of one
// reading of a site.
const maxCondSteps = 20_000

// pyConditionsBounded runs read with a step limit of its own: conditions
// that pass it are unknown, and the steps they spend are not taken from the
// site's own limit, so reading a condition never makes the site unread.
// The package's step limit still counts them.
func (x *extractor) pyConditionsBounded(read func() []rundir.Condition) []rundir.Condition {
	if x.siteOver || x.exceeded {
		return nil
	}
	saved, before := x.siteLimit, x.steps
	x.siteLimit = x.steps + maxCondSteps
	conds := read()
	x.siteOver = false
	if saved > 0 {
		x.siteLimit = saved + (x.steps - before)
	} else {
		x.siteLimit = saved
	}
	return conds
}

// pyTagFilter is the condition FastMCP's tag filters put on a tool:
// FastMCP(include_tags=..., exclude_tags=...) lists a tool registered with
// tags= only when one of its tags is included (when include_tags is given)
// and none is excluded. ok is false when the registration or its server
// states no filter and no tags. The server is the receiver's one
// assignment from a FastMCP(...) call; tags and filters must be literal
// sets, lists or tuples of strings, else the condition is unknown.
func (x *extractor) pyTagFilter(f *file, site nid, e *env) (rundir.Condition, bool) {
	if f.kind(site) != "decorator" {
		return rundir.Condition{}, false
	}
	ch := f.named(site)
	if len(ch) != 1 || f.kind(ch[0]) != "call" {
		return rundir.Condition{}, false
	}
	call := ch[0]
	callee := f.field(call, "function")
	recv := f.field(callee, "object")
	if f.kind(callee) != "attribute" || f.kind(recv) != "identifier" {
		return rundir.Condition{}, false
	}
	_, scope, ok := x.pyLookup(f, recv, f.text(recv))
	if !ok {
		return rundir.Condition{}, false
	}
	ds := f.pyFacts.scopeDecls(f, scope)[f.text(recv)]
	if len(ds) != 1 || f.kind(ds[0]) != "assignment" {
		return rundir.Condition{}, false
	}
	ctor := f.field(ds[0], "right")
	if f.kind(ctor) != "call" || f.pyAttrName(f.field(ctor, "function")) != "FastMCP" {
		return rundir.Condition{}, false
	}
	kw := func(c nid, name string) nid {
		for _, a := range f.named(f.field(c, "arguments")) {
			if f.kind(a) == "keyword_argument" && f.text(f.field(a, "name")) == name {
				return f.field(a, "value")
			}
		}
		return none
	}
	inc, exc, tags := kw(ctor, "include_tags"), kw(ctor, "exclude_tags"), kw(call, "tags")
	if inc < 0 && exc < 0 {
		return rundir.Condition{}, false
	}
	cond := rundir.Condition{File: f.path, Line: f.lineOf(ctor), When: true, Holds: rundir.HoldsUnknown}
	var parts []string
	if inc >= 0 {
		parts = append(parts, "include_tags="+f.text(inc))
	}
	if exc >= 0 {
		parts = append(parts, "exclude_tags="+f.text(exc))
	}
	if tags >= 0 {
		parts = append(parts, "tags="+f.text(tags))
	} else {
		parts = append(parts, "no tags")
	}
	cond.Test = truncate(strings.Join(parts, ", "), 200)
	set := func(n nid, env *env) ([]string, bool) {
		if n < 0 {
			return nil, true
		}
		c := x.pyCond(f, n, env, 0)
		if !c.isList() {
			return nil, false
		}
		var out []string
		for _, it := range c.items {
			if !it.isStr() {
				return nil, false
			}
			out = append(out, it.s)
		}
		return out, true
	}
	ts, ok1 := set(tags, e)
	is, ok2 := set(inc, nil)
	es, ok3 := set(exc, nil)
	if !ok1 || !ok2 || !ok3 {
		return cond, true
	}
	has := func(xs []string, s string) bool {
		for _, v := range xs {
			if v == s {
				return true
			}
		}
		return false
	}
	included, excluded := inc < 0, false
	for _, t := range ts {
		included = included || has(is, t)
		excluded = excluded || has(es, t)
	}
	listed := included && !excluded
	cond.Holds = rundir.HoldsFalse
	if listed {
		cond.Holds = rundir.HoldsTrue
	}
	return cond, true
}
