package surface

import "strings"

// Python servers that register through their own classes and registries
// (issue 14, item 3), read exactly:
//
//   - a method called on an instance of a package class runs with self bound
//     to that instance (`h.describe()`), and an attribute the
//     class does not define is looked up in its package bases, with what
//     each base's __init__ receives through `super().__init__(...)`;
//   - a dict or list bound to a name grows by the additions the package
//     makes to it (`handlers[h.name] = h`, `.append`, `.extend`, `.update`,
//     `.setdefault`, `.insert`, `.add`), each read under every call of the
//     function that makes it; an addition whose values need a binding the
//     extractor cannot choose (a function with no call site in the package,
//     which may still run as an entry point or a callback) is unresolved;
//   - a method's self (and its other parameters) is bound through the
//     calls of the method: `C(...)` for __init__, `obj.m(...)` for m, with
//     obj resolved under the bindings of its own scope;
//   - `x.tool(fn, name=..., description=...)`, the function form of the
//     decorator, registers fn.
//
// Whatever cannot be read is unresolved with its site, never guessed.

// pyRegistryCache holds, per file, the additions made to containers bound
// to a name, by that name.
type pyRegistryCache struct {
	additions map[*file]map[string][]nid
	argIdents map[*file]map[string][]nid // identifiers written as call arguments, by name
	classes   []scopeRef                 // every class definition of the package's Python files
	indexed   bool
	// nesting counts the method-instance lookups in progress: binding a
	// method through obj.m(...) may bind obj's own method first, and so on;
	// the chain is bounded like any resolution.
	nesting int
	// outWrites indexes the attribute writes from outside a class, by
	// attribute (pyoutwrite.go); outBusy counts the checks in progress.
	outWrites  map[string][]outsideWrite
	outObjects map[scopeRef][]val // what each write's object resolves to
	// outCut holds the JavaScript writes whose object was not resolved
	// within outWriteSteps (jsoutwrite_bound.go).
	outCut  map[scopeRef]bool
	outBusy int
}

// pyContainerMethods are the methods that add to a dict, list or set.
var pyContainerMethods = map[string]bool{
	"append": true, "extend": true, "insert": true, "add": true, "update": true, "setdefault": true,
}

// pyAdditionsIndex lists f's additions to names: `NAME[k] = v` and
// `NAME.append(v)` (and the other pyContainerMethods), by NAME.
func (x *extractor) pyAdditionsIndex(f *file) map[string][]nid {
	if m, ok := x.pyReg.additions[f]; ok {
		return m
	}
	if x.pyReg.additions == nil {
		x.pyReg.additions = map[*file]map[string][]nid{}
	}
	m := map[string][]nid{}
	f.eachOfKinds(func(n nid) {
		switch f.pk(n) {
		case pkAssignment:
			l := f.field(n, "left")
			if f.pk(l) == pkSubscript {
				if k := pyAdditionKey(f, f.field(l, "value")); k != "" {
					m[k] = append(m[k], n)
				}
			}
		case pkCall:
			fn := f.field(n, "function")
			if f.pk(fn) != pkAttribute || !pyContainerMethods[string(f.bytesOf(f.field(fn, "attribute")))] {
				return
			}
			if k := pyAdditionKey(f, f.field(fn, "object")); k != "" {
				m[k] = append(m[k], n)
			}
		}
	}, pkAssignment, pkCall)
	x.pyReg.additions[f] = m
	return m
}

// pyArgIdents lists f's identifiers written as a call's argument
// (positional or keyword), by name.
func (x *extractor) pyArgIdents(f *file) map[string][]nid {
	if m, ok := x.pyReg.argIdents[f]; ok {
		return m
	}
	if x.pyReg.argIdents == nil {
		x.pyReg.argIdents = map[*file]map[string][]nid{}
	}
	m := map[string][]nid{}
	for _, n := range f.ofKind(pkIdentifier) {
		p := f.parent(n)
		if f.pk(p) == pkArgumentList || (f.pk(p) == pkKeywordArgument && f.field(p, "value") == n) {
			m[f.text(n)] = append(m[f.text(n)], n)
		}
	}
	x.pyReg.argIdents[f] = m
	return m
}

// pyAdditionKey is the key of the additions index for a container written
// as o: NAME for a name, "self.NAME" for an attribute of self, ".NAME" for
// an attribute of another name (a module's NAME).
func pyAdditionKey(f *file, o nid) string {
	switch f.pk(o) {
	case pkIdentifier:
		return f.text(o)
	case pkAttribute:
		obj := f.field(o, "object")
		if f.pk(obj) != pkIdentifier {
			return ""
		}
		if string(f.bytesOf(obj)) == "self" {
			return "self." + f.text(f.field(o, "attribute"))
		}
		return "." + f.text(f.field(o, "attribute")) // module.NAME
	}
	return ""
}

// pyAdditionTarget is the expression an addition node adds to.
func pyAdditionTarget(f *file, add nid) nid {
	if f.kind(add) == "assignment" {
		return f.field(f.field(add, "left"), "value")
	}
	return f.field(f.field(add, "function"), "object")
}

// pyContainerAdditions lists what the package adds to the dict or list
// literal v after making it: as dict entries (keys, vals), or as elements
// (vals) when dict is false. ok is false when an addition cannot be read;
// vals then holds one value saying why (a vNeed when a binding must be
// chosen first).
func (x *extractor) pyContainerAdditions(v val, dict bool) (keys, vals []val, ok bool) {
	f := v.f
	if f == nil || v.n < 0 || f.pyFacts == nil {
		return nil, nil, true
	}
	asg := f.parent(v.n)
	if f.kind(asg) != "assignment" || f.field(asg, "right") != v.n {
		return nil, nil, true
	}
	left := f.field(asg, "left")
	key := pyAdditionKey(f, left)
	if key == "" {
		return nil, nil, true
	}
	if f.kind(left) == "attribute" {
		return x.pySelfContainerAdditions(v, key, dict)
	}
	name := key
	_, scope, found := x.pyLookup(f, left, name)
	if !found {
		return nil, nil, true
	}
	for _, g := range x.files {
		if g.lang != LangPython || g.pyFacts == nil || !g.runnable() {
			continue
		}
		adds := x.pyNameAdditions(g, name, scope)
		for _, add := range adds {
			if !x.step() {
				return nil, []val{x.stepFailure()}, false
			}
			if !x.pyAddsTo(g, add, name, f, v.n, scope) {
				continue
			}
			k, vs, ok := x.pyAdditionValues(g, add, f, scope, v.env, dict)
			if !ok {
				return nil, vs, false
			}
			keys, vals = append(keys, k...), append(vals, vs...)
		}
	}
	if r := x.pyAddedThroughParameter(f, name, scope, v.env); r != "" {
		return nil, []val{unknown(r)}, false
	}
	return keys, vals, true
}

// pyNameAdditions is what file g adds to the container bound to name in
// scope (pyAdditionsIndex): its additions under the name and, for a
// module-level name, those through a module attribute (`mod.NAME[k] = v`).
func (x *extractor) pyNameAdditions(g *file, name string, scope nid) []nid {
	adds := x.pyAdditionsIndex(g)[name]
	if scope == 0 {
		adds = append(append([]nid(nil), adds...), x.pyAdditionsIndex(g)["."+name]...)
	}
	return adds
}

// pyAddedThroughParameter says why the container bound to name in scope
// of f may grow where its additions are not read: it is handed to a
// function of the package that adds to the parameter receiving it
// (`register_all(tools)` with `def register_all(reg): reg[k] = v`).
// Additions through such an alias are not followed, so the container is
// unresolved rather than read short.
func (x *extractor) pyAddedThroughParameter(f *file, name string, scope nid, e *env) string {
	for _, id := range x.pyArgIdents(f)[name] {
		p := f.parent(id)
		if f.kind(p) == "keyword_argument" && f.field(p, "value") == id {
			p = f.parent(p)
		} else if f.kind(p) != "argument_list" {
			continue
		}
		call := f.parent(p)
		if f.kind(call) != "call" {
			continue
		}
		if _, s, ok := x.pyLookup(f, id, name); !ok || s != scope {
			continue
		}
		if !x.step() {
			return "resolution of this site passed its step limit"
		}
		fn := x.eval(f, f.field(call, "function"), e)
		if fn.k != vFunc || fn.f == nil || fn.f.lang != LangPython || fn.f.kind(fn.n) != "function_definition" {
			continue
		}
		for _, prm := range fn.f.named(fn.f.field(fn.n, "parameters")) {
			pn := pyParamName(fn.f, prm)
			if pn == "" {
				continue
			}
			for _, add := range x.pyAdditionsIndex(fn.f)[pn] {
				if _, s, ok := x.pyLookup(fn.f, pyAdditionTarget(fn.f, add), pn); ok && s == fn.n {
					return "container " + name + " is handed to " + fn.f.text(fn.f.field(fn.n, "name")) + "(), which adds to it: additions through a parameter are not followed"
				}
			}
		}
	}
	return ""
}

// pyAddsTo reports whether the addition add in g adds to the literal lit of
// f bound in scope: in f, the name must resolve to that scope; in another
// module, to the literal through an import.
func (x *extractor) pyAddsTo(g *file, add nid, name string, f *file, lit, scope nid) bool {
	target := pyAdditionTarget(g, add)
	if target < 0 {
		return false
	}
	if g.kind(target) == "attribute" {
		// module.NAME[k] = v: the object must be the literal's module.
		mv := x.eval(g, g.field(target, "object"), nil)
		return mv.k == vModule && mv.f == f && scope == 0
	}
	_, s, ok := x.pyLookup(g, target, name)
	if !ok {
		return false
	}
	if g == f {
		return s == scope
	}
	if s != 0 || scope != 0 {
		return false
	}
	ds := g.pyFacts.scopeDecls(g, 0)[name]
	if len(ds) != 1 || (g.kind(ds[0]) != "dotted_name" && g.kind(ds[0]) != "aliased_import") {
		return false
	}
	iv := x.pyImportValue(g, ds[0], name)
	return (iv.k == vObject || iv.k == vArray) && iv.f == f && iv.n == lit
}

// pySelfContainerAdditions lists the additions to a container a method
// binds to self.NAME (`self.tools = {}` in __init__): `self.NAME[k] = v`,
// `self.NAME.append(v)`, ... in the methods of the same class or of a
// package subclass, each read under every call of the method that makes it.
func (x *extractor) pySelfContainerAdditions(v val, key string, dict bool) (keys, vals []val, ok bool) {
	f := v.f
	cls := pyEnclosingClass(f, v.n)
	if cls < 0 {
		return nil, nil, true
	}
	for _, g := range x.files {
		if g.lang != LangPython || g.pyFacts == nil || !g.runnable() {
			continue
		}
		for _, add := range x.pyAdditionsIndex(g)[key] {
			if !x.step() {
				return nil, []val{x.stepFailure()}, false
			}
			k := pyEnclosingClass(g, add)
			if k < 0 || !x.pyIsSubclass(val{k: vClass, f: g, n: k}, f, cls, map[scopeRef]bool{}) {
				continue
			}
			ks, vs, ok := x.pyAdditionValues(g, add, g, k, v.env, dict)
			if !ok {
				return nil, vs, false
			}
			keys, vals = append(keys, ks...), append(vals, vs...)
		}
	}
	return keys, vals, true
}

// pyIsSubclass reports whether class cls is class want of f or has it among
// its package bases.
func (x *extractor) pyIsSubclass(cls val, f *file, want nid, seen map[scopeRef]bool) bool {
	if cls.f == f && cls.n == want {
		return true
	}
	at := scopeRef{cls.f, cls.n}
	if seen[at] || len(seen) > 64 {
		return false
	}
	seen[at] = true
	bases, _, _ := x.pyPackageBases(cls.f, cls.n, cls.env)
	for _, b := range bases {
		if x.pyIsSubclass(b, f, want, seen) {
			return true
		}
	}
	return false
}

// pyAdditionValues reads one addition under every binding of the scopes
// between it and the container's scope: each call of the function that
// makes it, each element of a loop around it.
func (x *extractor) pyAdditionValues(g *file, add nid, f *file, scope nid, base *env, dict bool) (keys, vals []val, ok bool) {
	within := func(s scopeRef) bool {
		if s.f != g || !g.contains(s.n, add) {
			return false
		}
		return g != f || (s.n != scope && g.contains(scope, s.n))
	}
	type job struct {
		e     *env
		tries int
	}
	queue := []job{{e: base}}
	for n := 0; len(queue) > 0; n++ {
		if n > x.opts.MaxInstances || x.exceeded || x.siteOver {
			return nil, []val{unknown("more than the limit of instances of an addition to a container")}, false
		}
		j := queue[0]
		queue = queue[1:]
		k, vs := x.pyReadAddition(g, add, j.e, dict)
		need := val{}
		for _, v := range append(append([]val(nil), k...), vs...) {
			if v.k == vNeed {
				need = v
				break
			}
		}
		if need.k != vNeed {
			keys, vals = append(keys, k...), append(vals, vs...)
			continue
		}
		if !within(need.need) {
			return nil, []val{need}, false
		}
		if j.tries >= 16 {
			return nil, []val{unknown("binding of an addition to a container could not be enumerated")}, false
		}
		frames, reason, need2 := x.instances(need.need, j.e)
		if need2 != nil {
			if !within(*need2) {
				return nil, []val{{k: vNeed, need: *need2}}, false
			}
			frames, reason, _ = x.instances(*need2, j.e)
		}
		if len(frames) == 0 {
			// A function with no call site in the package may still run
			// (an entry point, a callback handed over): what it adds is
			// unresolved, never taken as nothing.
			return nil, []val{unknown("addition to a container: " + reason)}, false
		}
		for _, fr := range frames {
			queue = append(queue, job{e: j.e.push(fr), tries: j.tries + 1})
		}
	}
	return keys, vals, true
}

// pyReadAddition reads what one addition adds, under e.
func (x *extractor) pyReadAddition(g *file, add nid, e *env, dict bool) (keys, vals []val) {
	if g.kind(add) == "assignment" {
		if !dict {
			return nil, []val{unknown("list element replaced at run time")}
		}
		sub := g.field(add, "left")
		return []val{x.eval(g, g.field(sub, "subscript"), e)}, []val{x.eval(g, g.field(add, "right"), e)}
	}
	method := g.text(g.field(g.field(add, "function"), "attribute"))
	args := x.pyArgThunks(g, add, e)
	for _, a := range args {
		if a.name == "*" {
			return nil, []val{unknown("addition with arguments passed by unpacking")}
		}
	}
	arg := func(i int) val {
		if a, ok := positional(args, i); ok {
			return x.force(a)
		}
		return unknown("addition without its argument")
	}
	switch {
	case dict && method == "setdefault":
		return []val{arg(0)}, []val{arg(1)}
	case dict && method == "update":
		if len(args) == 0 {
			return nil, nil
		}
		if _, ok := positional(args, 0); !ok {
			for _, a := range args {
				keys = append(keys, val{k: vText, txt: &textv{segs: []seg{{text: a.name}}}})
				vals = append(vals, x.force(a))
			}
			return keys, vals
		}
		k, vs, ok := x.entries(arg(0), e)
		if !ok {
			return nil, []val{unknown("dict.update() with an unresolved dict")}
		}
		return k, vs
	case !dict && (method == "append" || method == "add"):
		return nil, []val{arg(0)}
	case !dict && method == "insert":
		return nil, []val{arg(1)}
	case !dict && method == "extend":
		els, ok := x.elements(arg(0), e)
		if !ok {
			if len(els) == 1 && els[0].k == vNeed {
				return nil, els
			}
			return nil, []val{unknown("list.extend() with an unresolved list")}
		}
		return nil, els
	}
	// A method of the other kind of container is not an addition to this one.
	return nil, nil
}

// pyNewInstance is the instance a call of package class cls makes. Its
// arguments are kept even when there are none (a non-nil empty list), so a
// member set in __init__ is read under that call, not under every call.
func pyNewInstance(cls val, args []thunk, e *env) val {
	if args == nil {
		args = []thunk{}
	}
	return val{k: vInstance, f: cls.f, n: cls.n, env: e, args: args}
}

// pyMethodCall calls method fn of the instance recv with self bound to
// recv; ok is false when fn is not a plain method of a package class.
func (x *extractor) pyMethodCall(fn, recv val, args []thunk, e *env) (val, bool) {
	if recv.k != vInstance || fn.k != vFunc || fn.f == nil || fn.f.lang != LangPython || !pyIsMethod(fn.f, fn.n) || pyStaticOrClass(fn.f, fn.n) {
		return val{}, false
	}
	f, n := fn.f, fn.n
	if e != nil && e.depth > x.opts.MaxDepth {
		return unknown("call depth limit reached"), true
	}
	this := recv
	ne := e.push(env{scope: scopeRef{f, n}, args: args, this: &this, hasThis: true})
	body := f.field(n, "body")
	if body < 0 {
		return unknown("function without a body"), true
	}
	var rets []nid
	f.walk(body, func(c nid) bool {
		k := f.kind(c)
		if c != body && (pyFunctionKind(k) || k == "class_definition") {
			return false
		}
		if k == "return_statement" {
			rets = append(rets, c)
			return false
		}
		return true
	})
	return x.returnValues(f, rets, ne, val{k: vNull}), true
}

// pyStaticOrClass reports whether method def is a @staticmethod or a
// @classmethod, whose first parameter is not the instance.
func pyStaticOrClass(f *file, def nid) bool {
	p := f.parent(def)
	if f.kind(p) != "decorated_definition" {
		return false
	}
	for _, d := range f.named(p) {
		if f.kind(d) != "decorator" {
			continue
		}
		if t := strings.TrimSpace(strings.TrimPrefix(f.text(d), "@")); t == "staticmethod" || t == "classmethod" {
			return true
		}
	}
	return false
}

// pyClassMethodDef is the method name defined directly in class cls.
func pyClassMethodDef(f *file, cls nid, name string) nid {
	for _, st := range f.named(f.field(cls, "body")) {
		def := st
		if f.kind(def) == "decorated_definition" {
			def = f.field(def, "definition")
		}
		if f.kind(def) == "function_definition" && f.text(f.field(def, "name")) == name {
			return def
		}
	}
	return none
}

// pyPackageBases lists the bases of class cls that are classes of the
// package, in order, and the first base from another package (its
// specifier), if any.
func (x *extractor) pyPackageBases(f *file, cls nid, e *env) (bases []val, external string, stop val) {
	bases, _, external, stop = x.pyBasesWritten(f, cls, e)
	return bases, external, stop
}

// pyBasesWritten is pyPackageBases with each base's node in the list of
// superclasses, and its position among the bases written (keywords such
// as metaclass= are not bases).
func (x *extractor) pyBasesWritten(f *file, cls nid, e *env) (bases []val, at []nid, external string, stop val) {
	supers := f.field(cls, "superclasses")
	if supers < 0 {
		return nil, nil, "", val{}
	}
	for _, b := range f.named(supers) {
		if f.kind(b) == "keyword_argument" {
			continue
		}
		bv := x.eval(f, b, e)
		switch {
		case bv.k == vNeed:
			return nil, nil, "", bv
		case bv.k == vClass && bv.f != nil && bv.f.lang == LangPython:
			bases = append(bases, bv)
			at = append(at, b)
		case bv.k == vExternal && !pyNeutralBase(bv.spec):
			if external == "" {
				external = bv.spec
			}
		}
	}
	return bases, at, external, val{}
}

// pyFirstBase reports whether node b is the first base written in the
// superclass list of cls: the one super().__init__(...) reaches.
func pyFirstBase(f *file, cls, b nid) bool {
	for _, c := range f.named(f.field(cls, "superclasses")) {
		if f.kind(c) != "keyword_argument" {
			return c == b
		}
	}
	return false
}

// pyNeutralBase reports whether a base class from outside the package adds
// no attribute a tool definition reads: object, the abc and typing helpers.
func pyNeutralBase(spec string) bool {
	switch spec {
	case "object", "abc.ABC", "ABC", "typing.Generic", "typing.Protocol", "Generic", "Protocol":
		return true
	}
	return strings.HasPrefix(spec, "typing.Generic") || strings.HasPrefix(spec, "Generic")
}

// pySuperInitCall finds the call by which __init__ def of a class hands its
// base (written as node base; first tells whether it is the first base
// written) the arguments: `super().__init__(...)` for the first base, or
// `Base.__init__(self, ...)`. ok is false when the class makes no such call
// (the base's __init__ does not run) or more than one.
func pySuperInitCall(f *file, def nid, first bool, base nid) (call nid, explicitSelf, ok bool) {
	call = none
	count := 0
	f.walk(f.field(def, "body"), func(n nid) bool {
		k := f.kind(n)
		if pyFunctionKind(k) || k == "class_definition" {
			return false
		}
		if k != "call" {
			return true
		}
		fn := f.field(n, "function")
		if f.kind(fn) != "attribute" || f.text(f.field(fn, "attribute")) != "__init__" {
			return true
		}
		obj := f.field(fn, "object")
		switch {
		case first && f.kind(obj) == "call" && f.text(f.field(obj, "function")) == "super":
			call, explicitSelf = n, false
			count++
		case base >= 0 && f.text(obj) == f.text(base):
			call, explicitSelf = n, true
			count++
		}
		return true
	})
	return call, explicitSelf, count == 1
}

// pyInheritedMember reads attribute key of an instance (or class) of a
// package class from the class's package bases, depth first in the order
// written: methods and class attributes, and the self.key assignments of a
// base's __init__ evaluated with what the class passes it. A base from
// another package may define the attribute: then it is unresolved.
func (x *extractor) pyInheritedMember(v val, key string, e *env) (val, bool) {
	if v.f == nil || v.f.lang != LangPython || v.n < 0 || v.f.kind(v.n) != "class_definition" {
		return val{k: vUndefined}, false
	}
	seen := map[scopeRef]bool{{v.f, v.n}: true}
	return x.pyBasesMember(v, v.f, v.n, v.env, v.args, v.k == vInstance && v.args != nil, key, e, seen)
}

func (x *extractor) pyBasesMember(this val, f *file, cls nid, clsEnv *env, args []thunk, known bool, key string, e *env, seen map[scopeRef]bool) (val, bool) {
	bases, nodes, external, stop := x.pyBasesWritten(f, cls, clsEnv)
	if stop.k == vNeed {
		return stop, true
	}
	init := pyClassMethodDef(f, cls, "__init__")
	for i, bv := range bases {
		at := scopeRef{bv.f, bv.n}
		if seen[at] || len(seen) > 64 {
			continue
		}
		seen[at] = true
		// What the base's __init__ receives for this instance.
		bargs, bknown, runs := args, known, true
		if init >= 0 {
			call, explicitSelf, ok := pySuperInitCall(f, init, pyFirstBase(f, cls, nodes[i]), nodes[i])
			switch {
			case !ok:
				bargs, bknown, runs = nil, false, false
			default:
				ce := e
				if known {
					ce = e.push(env{scope: scopeRef{f, init}, args: args, this: &this, hasThis: true})
				}
				bargs = x.pyArgThunks(f, call, ce)
				if explicitSelf && len(bargs) > 0 && bargs[0].name == "" {
					bargs = bargs[1:]
				}
				if bargs == nil {
					bargs = []thunk{}
				}
				bknown = true
			}
		}
		if r, found := x.pyOwnMember(this, bv, bargs, bknown, runs, key, e); found {
			return r, true
		}
		if r, found := x.pyBasesMember(this, bv.f, bv.n, bv.env, bargs, bknown && runs, key, e, seen); found {
			return r, true
		}
	}
	if external != "" {
		return unknown("attribute " + key + " may be defined by " + external + ", a base class from another package"), true
	}
	return val{k: vUndefined}, false
}

// pyOwnMember reads attribute key defined by class cls itself for the
// instance this: a method, a class attribute, or a self.key assignment in
// cls's __init__ (when it runs), evaluated with args as its arguments.
func (x *extractor) pyOwnMember(this, cls val, args []thunk, known, runs bool, key string, e *env) (val, bool) {
	f := cls.f
	body := f.field(cls.n, "body")
	clsAt := none
	for _, st := range f.named(body) {
		def := st
		if f.kind(def) == "decorated_definition" {
			def = f.field(def, "definition")
		}
		switch f.kind(def) {
		case "function_definition":
			if f.text(f.field(def, "name")) == key {
				return x.pyMethodValue(this, val{k: vFunc, f: f, n: def, env: e}, e), true
			}
		case "expression_statement":
			for _, a := range f.named(def) {
				if f.kind(a) == "assignment" && f.text(f.field(a, "left")) == key && clsAt < 0 {
					if this.k != vInstance {
						return x.eval(f, f.field(a, "right"), cls.env), true
					}
					clsAt = a
				}
			}
		}
	}
	init := pyClassMethodDef(f, cls.n, "__init__")
	if clsAt >= 0 {
		// A base's class attribute, read for an instance: hidden by what
		// sets the instance's own attribute (pyinstattr.go).
		return x.pyClassAttrOfInstance(this, cls, init, args, known, runs, pyInitEnv(this, f, init, args, known, e), clsAt, cls.env, key, e), true
	}
	if init < 0 || !runs {
		return val{k: vUndefined}, false
	}
	if len(pySelfWrites(f, init, key)) == 0 {
		return val{k: vUndefined}, false
	}
	alts, _ := x.pySelfWriteValues(f, init, key, pyInitEnv(this, f, init, args, known, e))
	return union(alts...), true
}

// pyClassIndex lists every class definition of the package's Python files.
func (x *extractor) pyClassIndex() []scopeRef {
	if x.pyReg.indexed {
		return x.pyReg.classes
	}
	x.pyReg.indexed = true
	for _, g := range x.files {
		if g.lang != LangPython || g.pyFacts == nil {
			continue
		}
		for i := range g.nodes {
			if g.kind(nid(i)) == "class_definition" {
				x.pyReg.classes = append(x.pyReg.classes, scopeRef{g, nid(i)})
			}
		}
	}
	return x.pyReg.classes
}

// pyInitOf is the __init__ an instance of class cls runs: its own, or the
// first of its package bases' (depth first), or none.
func (x *extractor) pyInitOf(cls val, seen map[scopeRef]bool) scopeRef {
	at := scopeRef{cls.f, cls.n}
	if seen[at] || len(seen) > 64 {
		return scopeRef{}
	}
	seen[at] = true
	if d := pyClassMethodDef(cls.f, cls.n, "__init__"); d >= 0 {
		return scopeRef{cls.f, d}
	}
	bases, _, _ := x.pyPackageBases(cls.f, cls.n, cls.env)
	for _, b := range bases {
		if r := x.pyInitOf(b, seen); r.f != nil {
			return r
		}
	}
	return scopeRef{}
}

// pyMethodInstances binds a method's parameters, self first, through the
// calls of the method in the package: `C(...)` (and the calls of a
// subclass that inherits it, and `super().__init__(...)` of a subclass)
// for __init__; `obj.m(...)` for another method m, obj resolved under the
// bindings of its own scope. Each frame binds the call's arguments, and
// self to the instance. ok is false when s is not a method.
func (x *extractor) pyMethodInstances(s scopeRef, e *env) (frames []env, reason string, ok bool) {
	f, def := s.f, s.n
	if !pyIsMethod(f, def) || pyStaticOrClass(f, def) {
		return nil, "", false
	}
	cls := pyEnclosingClass(f, def)
	name := f.text(f.field(def, "name"))
	key := progKey{f, def, nil}
	if x.inProgress[key] {
		return nil, "method calls itself through its own call sites", true
	}
	if x.pyReg.nesting >= 16 || x.depth >= x.opts.MaxDepth {
		return nil, "methods bound through a chain of more than 16 method calls", true
	}
	x.inProgress[key] = true
	x.pyReg.nesting++
	defer func() { delete(x.inProgress, key); x.pyReg.nesting-- }()
	if name == "__init__" {
		frames = x.pyInitInstances(s, cls, e)
	} else {
		frames = x.pyCallInstances(s, name, e)
	}
	if len(frames) == 0 {
		return nil, reasonNoCallSite, true
	}
	return frames, "", true
}

// pyInitInstances are the frames of __init__ s of class cls: one per call
// of a class whose instances run it, and one per super().__init__(...) of a
// subclass's __init__.
func (x *extractor) pyInitInstances(s scopeRef, cls nid, e *env) []env {
	f := s.f
	var frames []env
	for _, c := range x.pyClassIndex() {
		if !x.step() || len(frames) >= 64 {
			break
		}
		cv := val{k: vClass, f: c.f, n: c.n}
		if c.f == f && c.n == cls {
			// the class itself
		} else if r := x.pyInitOf(cv, map[scopeRef]bool{}); r != s {
			// A subclass with its own __init__ reaches s through super().
			if d := pyClassMethodDef(c.f, c.n, "__init__"); d >= 0 {
				frames = append(frames, x.pySuperInstances(s, c, d, e)...)
			}
			continue
		}
		cname := c.f.text(c.f.field(c.n, "name"))
		for _, g := range x.files {
			if g.pyFacts == nil || !g.runnable() {
				continue
			}
			for _, call := range g.pyFacts.calls[cname] {
				callee := x.eval(g, g.field(call, "function"), e)
				if callee.k != vClass || callee.f != c.f || callee.n != c.n {
					continue
				}
				args := x.pyArgThunks(g, call, e)
				inst := pyNewInstance(callee, args, e)
				frames = append(frames, env{scope: s, args: args, this: &inst, hasThis: true})
			}
		}
	}
	return frames
}

// pySuperInstances are the frames of __init__ s reached from the __init__ d
// of subclass c through super().__init__(...) (c's first base must run s).
func (x *extractor) pySuperInstances(s scopeRef, c scopeRef, d nid, e *env) []env {
	bases, nodes, _, _ := x.pyBasesWritten(c.f, c.n, nil)
	if len(bases) == 0 || !pyFirstBase(c.f, c.n, nodes[0]) || x.pyInitOf(bases[0], map[scopeRef]bool{}) != s {
		return nil
	}
	call, _, ok := pySuperInitCall(c.f, d, true, none)
	if !ok {
		return nil
	}
	cs := callSite{f: c.f, n: call, thisArg: none}
	return []env{{scope: s, site: &cs}}
}

// pyCallInstances are the frames of method s named name: one per call
// obj.name(...) in the package whose obj resolves to an instance whose
// name is s, read under each binding of obj's own scope when it needs one.
func (x *extractor) pyCallInstances(s scopeRef, name string, e *env) []env {
	var frames []env
	for _, g := range x.files {
		if g.pyFacts == nil || !g.runnable() {
			continue
		}
		for _, call := range g.pyFacts.calls[name] {
			if len(frames) >= 64 || !x.step() {
				return frames
			}
			callee := g.field(call, "function")
			if g.kind(callee) != "attribute" {
				continue
			}
			obj := g.field(callee, "object")
			envs := []*env{e}
			rv := x.eval(g, obj, e)
			if rv.k == vNeed {
				if rv.need.f == s.f && rv.need.n == s.n {
					continue // the method calling itself
				}
				fs, _, need2 := x.instances(rv.need, e)
				if need2 != nil {
					continue
				}
				envs = envs[:0]
				for i, fr := range fs {
					if i >= 64 {
						break
					}
					envs = append(envs, e.push(fr))
				}
			}
			for _, ce := range envs {
				recv := rv
				if ce != e {
					recv = x.eval(g, obj, ce)
				}
				for _, r := range pyAlternatives(recv) {
					if r.k != vInstance {
						continue
					}
					m, _ := x.getProp(r, name, ce)
					if m.k != vFunc || m.f != s.f || m.n != s.n {
						continue
					}
					this := r
					frames = append(frames, env{scope: s, args: x.pyArgThunks(g, call, ce), this: &this, hasThis: true})
				}
			}
		}
	}
	return frames
}

// pyAlternatives lists the values v may be.
func pyAlternatives(v val) []val {
	if v.k == vUnion {
		return v.elems
	}
	return []val{v}
}

// pyToolFnCandidate reports whether call n, `x.tool(...)` outside a
// decorator and not itself called, may be the function form
// `x.tool(fn, name=..., description=...)`: its first positional argument
// (or fn= / name_or_fn=) is not a string literal. A call with a name
// alone only makes a decorator, which registers nothing unless applied.
func pyToolFnCandidate(f *file, n nid) bool {
	p := f.parent(n)
	if f.kind(p) == "decorator" || (f.kind(p) == "call" && f.field(p, "function") == n) {
		return false
	}
	for _, a := range f.named(f.field(n, "arguments")) {
		switch f.kind(a) {
		case "keyword_argument":
			if nm := f.text(f.field(a, "name")); nm == "fn" || nm == "name_or_fn" {
				return !pyLiteralArg(f, f.field(a, "value"))
			}
		case "list_splat", "dictionary_splat":
			continue
		default:
			return !pyLiteralArg(f, a)
		}
	}
	return false
}

func pyLiteralArg(f *file, a nid) bool {
	switch f.kind(a) {
	case "string", "concatenated_string", "none", "integer", "float", "true", "false":
		return true
	}
	return false
}

// pyToolFnSite reads `x.tool(fn, name=..., description=...)`: fn is
// registered as the decorator would register it. A first argument that is
// text is a name, and the call only makes a decorator: nothing is
// registered here.
func (x *extractor) pyToolFnSite(f *file, n nid, e *env, c *collector) {
	// obj.tool(...) where tool is a function of the package (a method of
	// the package's own class) is that function's call, not the framework's.
	callee := x.eval(f, f.field(n, "function"), e)
	if c.needs(callee) {
		return
	}
	for _, alt := range pyAlternatives(callee) {
		if alt.k == vFunc {
			return
		}
	}
	args := x.pyArgThunks(f, n, e)
	var rest []thunk
	var first thunk
	have := false
	for _, a := range args {
		switch {
		case !have && (a.name == "" || a.name == "fn" || a.name == "name_or_fn"):
			first, have = a, true
		default:
			rest = append(rest, a)
		}
	}
	if !have {
		return
	}
	fn := x.force(first)
	if c.needs(fn) {
		return
	}
	if fn.k == vText || fn.k == vNull || fn.k == vUndefined {
		return
	}
	x.pyFunctionEntry(f, n, KindTool, fn, rest, e, c)
}

// pyNamedEntry records a tool (or prompt) registered with an explicit
// name= whose function could not be resolved: the name and an explicit
// description= are read, the description taken from the docstring is not,
// and the parameters are the source text of the function's argument.
// ok is false when there is no readable name= to record.
func (x *extractor) pyNamedEntry(f *file, at nid, kind string, fn val, args []thunk, e *env, c *collector) (ok bool) {
	if (kind != KindTool && kind != KindPrompt) || neverRuns(fn) {
		return false
	}
	a, found := kwarg(args, "name")
	if !found {
		return false
	}
	nv := x.force(a)
	if c.needs(nv) {
		return true
	}
	if _, readable := plainText(nv); !readable {
		return false
	}
	ent := entryBase(kind, f, at)
	if !x.nameOf(&ent, nv, c, kind) {
		return true
	}
	if d, found := kwarg(args, "description"); found {
		dv := x.force(d)
		if c.needs(dv) {
			return true
		}
		if dv.k == vNull || dv.k == vUndefined {
			describe(&ent, unknown("docstring of a function not resolved: "+reasonOf(fn)), true)
		} else {
			describe(&ent, dv, true)
		}
	} else {
		describe(&ent, unknown("docstring of a function not resolved: "+reasonOf(fn)), true)
	}
	ent.SchemaKind = SchemaNone
	if fn.f != nil && fn.n >= 0 {
		ent.SchemaKind, ent.SchemaRaw = SchemaSource, fn.f.text(fn.n)
	}
	c.notes = append(c.notes, kind+" "+ent.Name+": parameters not read, its function is not resolved: "+reasonOf(fn))
	c.entries = append(c.entries, ent)
	return true
}

// pyAddedEntry reads key of a dict literal that does not write it, from
// the additions the package makes to the dict: the value added under key
// (one of several when added more than once), unresolved when an addition
// or its key cannot be read, and missing when no addition names it.
func (x *extractor) pyAddedEntry(v val, key string) (val, bool) {
	keys, vals, ok := x.pyContainerAdditions(v, true)
	if !ok {
		if len(vals) == 1 {
			return vals[0], true
		}
		return unknown("dict with additions that cannot be read"), true
	}
	var alts []val
	for i, k := range keys {
		if k.k == vNeed {
			return k, true
		}
		s, ok := plainText(k)
		if !ok {
			return unknown("dict with an addition under a key computed at run time"), true
		}
		if s == key {
			alts = append(alts, vals[i])
		}
	}
	if len(alts) == 0 {
		return val{k: vUndefined}, false
	}
	return union(alts...), true
}

// pyOverwritten is the value of key of a dict literal that writes it as
// lit, given the additions the package makes to the dict: lit when none
// writes key again, one of several values when one does (it may run
// before the read or not), unresolved when an addition cannot be read.
func (x *extractor) pyOverwritten(v val, key string, lit val) val {
	added, found := x.pyAddedEntry(v, key)
	if !found {
		return lit
	}
	if added.isUnknown() {
		return added
	}
	return union(lit, added)
}

// pyMethodValue is what reading method m of the instance this gives: the
// value its getter returns for a @property (or functools' cached_property),
// the method itself otherwise.
func (x *extractor) pyMethodValue(this, m val, e *env) val {
	if this.k != vInstance || !pyIsProperty(m.f, m.n) {
		return m
	}
	if v, bound := x.pyMethodCall(m, this, nil, e); bound {
		return v
	}
	return unknown("property " + m.f.text(m.f.field(m.n, "name")) + " not read")
}

// pyIsProperty reports whether def is decorated @property or
// @cached_property (bare or through a module).
func pyIsProperty(f *file, def nid) bool {
	p := f.parent(def)
	if f.kind(p) != "decorated_definition" {
		return false
	}
	for _, d := range f.named(p) {
		if f.kind(d) != "decorator" {
			continue
		}
		t := strings.TrimSpace(strings.TrimPrefix(f.text(d), "@"))
		if i := strings.LastIndex(t, "."); i >= 0 {
			t = t[i+1:]
		}
		if t == "property" || t == "cached_property" {
			return true
		}
	}
	return false
}

// pyCallFormKind is what the call form x.METHOD(...)(fn) registers:
// x.tool(...)(fn), x.prompt(...)(fn), x.resource("uri")(fn); "" for any
// other method.
func pyCallFormKind(method string) string {
	switch method {
	case "tool":
		return KindTool
	case "prompt":
		return KindPrompt
	case "resource":
		return KindResource
	}
	return ""
}
