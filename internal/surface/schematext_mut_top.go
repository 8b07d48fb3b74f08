package surface

import "strings"

// The schema object a registration's config names (methodology §5.3, since
// 2.3.20). `server.registerTool(n, { description, inputSchema: S }, cb)`
// resolves the config before the schema reading starts (fillFromConfig,
// jssites.go), so the reading is handed S's literal, not the name S, and
// until 2.3.19 the check of schematext_mut.go never ran for it: only names
// met below the literal were checked (a fail-open: `S.properties.q.
// description = "…"`, `S.properties = {…}`, `f(S)` with f writing its
// parameter were read as written). The reading now checks the literal it is
// handed as it checks any object it reaches (jsParamDescriptions): when the
// literal initialises a declared name, or a member of one, every use of
// that name is classified, and the registration's own route to the site
// (the config literal handed to the registration, a table iterated, a
// factory's returned literal, a spread, a destructuring, a dispatcher's
// answer) is followed use by use by the rules of schematext_mut.go. Two
// steps of such routes were refused by those rules and are now followed
// exactly: a key leading to the object destructured to a plain name
// (patternUse, schematext_mut_wrap.go) and a dispatcher's `return` of the
// list (dispatcherAnswer); and one use is no change of the object: `push`
// on an array that holds the object below one of its elements
// (pushBelowElement). Any other use keeps the gap.

// dispatcherAnswer reports whether ret is a return statement of the body
// of a list-method case or if of f (`case "tools/list": return { tools }`),
// returning from the function the site is written in: the value returned is
// the dispatcher's answer, the list the reading reads there (as
// siteCallbackReturn for a handler given to the SDK).
func (r *schemaRead) dispatcherAnswer(f *file, ret nid) bool {
	if ret < 0 || f.kind(ret) != "return_statement" || f.facts == nil {
		return false
	}
	fn := enclosingFunction(f, ret)
	for _, s := range f.facts.sites {
		if s.kind != siteMethodCase && s.kind != siteMethodIf {
			continue
		}
		if enclosingFunction(f, s.n) != fn {
			continue
		}
		for _, b := range dispatcherBodies(f, s.n, s.kind) {
			if b == ret || (b >= 0 && f.contains(b, ret)) {
				return true
			}
		}
	}
	return false
}

// pushBelowElement reports whether call (`A.push(…)`, member its callee)
// adds elements to an array A that holds the object below one of its
// elements (rest, the path below A, is not empty): push appends, so no
// element A holds and no member below one changes; its arguments are uses
// of their own. On the object itself (rest empty) push changes it, and
// unshift, splice and the other in-place methods, which move or replace
// elements, stay changes.
func (r *schemaRead) pushBelowElement(f *file, member nid, below bool, rest []string) bool {
	if below || len(rest) == 0 || f.kind(member) != "member_expression" || f.text(f.field(member, "property")) != "push" {
		return false
	}
	v := r.x.eval(f, f.field(member, "object"), nil)
	return v.k == vArray && v.f != nil && v.n >= 0 && v.f.kind(v.n) == "array"
}

// asyncLoweredOuter is the function whose result the generator fn's
// returns become when fn is the generator a compiler's lowered async
// function hands to its helper (TypeScript's `__awaiter(a, b, P, function*
// () {…})`, esbuild's `__async(a, b, function* () {…})`, by the names and
// arity asyncHelperCall reads them by, jseval.go) and that call is the
// whole value of an enclosing function (an arrow's expression body, or a
// return statement of it): the helper resolves the enclosing function's
// promise to what the generator returns, as an async function's return.
// Otherwise fn itself. Followed through at most mutDepthLimit such levels.
func asyncLoweredOuter(f *file, fn nid) nid {
	for i := 0; i < mutDepthLimit; i++ {
		if f.kind(fn) != "generator_function" && f.kind(fn) != "generator_function_declaration" {
			return fn
		}
		args := f.parent(mutOuter(f, fn))
		if args < 0 || f.kind(args) != "arguments" {
			return fn
		}
		call := f.parent(args)
		if call < 0 || f.kind(call) != "call_expression" {
			return fn
		}
		name := calleeWord(f, f.field(call, "function")) // jseval.go
		a := f.args(call)
		switch {
		case name == "__awaiter" && len(a) == 4 && unparen(f, a[3]) == fn:
		case name == "__async" && len(a) == 3 && unparen(f, a[2]) == fn:
		default:
			return fn
		}
		co := mutOuter(f, call)
		p := f.parent(co)
		switch {
		case p >= 0 && f.kind(p) == "arrow_function" && f.field(p, "body") == co:
			fn = p
		case p >= 0 && f.kind(p) == "return_statement":
			outer := enclosingFunction(f, p)
			if outer < 0 {
				return fn
			}
			fn = outer
		default:
			return fn
		}
	}
	return fn
}

// bundledSDKServer reports whether the class at class (of f) is the SDK's
// own Server class bundled into the package (`var Server = class extends
// Protocol {…}` in a region a bundler's module comment attributes to
// @modelcontextprotocol/sdk; esbuild may number a renamed copy, Server2):
// a handler given to its setRequestHandler is the SDK's, as for the
// installed SDK's Server.
func bundledSDKServer(f *file, class nid) bool {
	if f == nil || class < 0 || !f.inVendoredRegion(class) {
		return false
	}
	l := f.lineOf(class)
	inSDK := false
	for _, rg := range f.vregions {
		if l >= rg.StartLine && l <= rg.EndLine && rg.Library == "@modelcontextprotocol/sdk" {
			inSDK = true
		}
	}
	if !inSDK {
		return false
	}
	name := ""
	if id := f.field(class, "name"); id >= 0 {
		name = f.text(id)
	} else if d := f.parent(mutOuter(f, class)); d >= 0 && f.kind(d) == "variable_declarator" {
		name = f.text(f.field(d, "name"))
	}
	digits := strings.TrimPrefix(name, "Server")
	if digits == name {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// esbuild's namespace objects (since 2.3.20). A bundled module's exports
// are gathered on `var ns = {}` by esbuild's helper
//
//	var __defProp = Object.defineProperty;
//	var __export = (target, all) => {
//	  for (var name in all)
//	    __defProp(target, name, { get: all[name], enumerable: true });
//	};
//	__export(ns, { k: () => v });
//
// which defines on ns, for each key of the literal, a getter (neither
// writable nor configurable) returning v. The object v held is then ns.k
// wherever ns is used: the uses of ns are classified as v's under k
// (esbuildExportGetter), and ns handed to the helper as its target is no
// change (esbuildExportTarget): the helper only defines the getters its
// literal names. A helper of any other body, a getter that is not an arrow
// returning a name with no parameters, a target that is not a name
// declared `var ns = {}`: as before (a gap).

// esbuildExportCall reports whether call is `__export(ns, { … })` of
// esbuild's helper, by the helper's body and its binding to
// Object.defineProperty.
func (x *extractor) esbuildExportCall(f *file, call nid) bool {
	if f.kind(call) != "call_expression" || f.lang == LangPython {
		return false
	}
	a := f.args(call)
	if len(a) != 2 || f.kind(unparen(f, a[1])) != "object" {
		return false
	}
	fn, ok := x.soleTopConst(f, f.field(call, "function"))
	if !ok {
		return false
	}
	ps := arrowParams(f, fn)
	if len(ps) != 2 {
		return false
	}
	target, all := ps[0], ps[1]
	body := f.field(fn, "body")
	if f.kind(body) != "statement_block" {
		return false
	}
	st := nonComment(f, body)
	if len(st) != 1 {
		return false
	}
	name, ok := varLoop(f, st[0], "in", target, all)
	if !ok || !isName(f, unparen(f, f.field(st[0], "right")), all) {
		return false
	}
	callee, args, ok := callOf(f, f.field(st[0], "body"))
	if !ok || len(args) != 3 || !isName(f, args[0], target) || !isName(f, args[1], name) || !x.boundToBuiltin(f, callee, "defineProperty") {
		return false
	}
	desc := unparen(f, args[2])
	if f.kind(desc) != "object" {
		return false
	}
	get, enum := false, false
	for _, c := range nonComment(f, desc) {
		if f.kind(c) != "pair" {
			return false
		}
		v := unparen(f, f.field(c, "value"))
		switch propKeyName(f, f.field(c, "key")) {
		case "get":
			get = f.kind(v) == "subscript_expression" && isName(f, unparen(f, f.field(v, "object")), all) && isName(f, unparen(f, f.field(v, "index")), name)
		case "enumerable":
			enum = f.kind(v) == "true"
		default:
			return false
		}
	}
	return get && enum
}

// esbuildNamespaceDecl is the declarator of the name `var ns = {}` at n
// (the first argument of an __export call), or none.
func (x *extractor) esbuildNamespaceDecl(f *file, n nid) nid {
	n = unparen(f, n)
	if f.kind(n) != "identifier" {
		return none
	}
	b, found := x.lookup(f, n, f.text(n))
	if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
		return none
	}
	if !emptyObject(f, unparen(f, f.field(b.decl, "value"))) {
		return none
	}
	return b.decl
}

// esbuildExportGetter classifies a value returned by the arrow fn (in f;
// ret is fn, the value its expression body) when fn is a getter of an __export call's literal (`k: () => v`):
// the uses of the namespace, under k, are the object's (path below v).
// known false otherwise.
func (r *schemaRead) esbuildExportGetter(f *file, fn, ret nid, path []string) (ch mutChange, ok, known bool) {
	if f.kind(fn) != "arrow_function" || ret != fn || f.kind(f.field(fn, "body")) == "statement_block" {
		return mutChange{}, false, false
	}
	if ps := f.field(fn, "parameters"); ps < 0 || len(nonComment(f, ps)) != 0 {
		return mutChange{}, false, false
	}
	key, obj, call := memberOfArgument(f, fn)
	if call < 0 || !r.x.esbuildExportCall(f, call) || unparen(f, f.args(call)[1]) != obj {
		return mutChange{}, false, false
	}
	decl := r.x.esbuildNamespaceDecl(f, f.args(call)[0])
	if decl < 0 {
		return mutChange{}, false, false
	}
	_, ch, ok = r.declChanges(f, decl, append([]string{key}, path...))
	return ch, ok, true
}

// esbuildExportTarget reports whether n, an argument of call, is the
// namespace an __export call defines its getters on.
func (r *schemaRead) esbuildExportTarget(f *file, n, call nid) bool {
	return r.x.esbuildExportCall(f, call) && mutOuter(f, n) == f.args(call)[0] && r.x.esbuildNamespaceDecl(f, n) >= 0
}

// flatMapCall reports whether call is `X.flatMap(cb)`: its result holds
// each value cb returns, or, for a returned array, that array's elements
// (mapReturn classifies the result's uses under both paths).
func flatMapCall(f *file, call nid) bool {
	if call < 0 || f.kind(call) != "call_expression" {
		return false
	}
	c := f.field(call, "function")
	return f.kind(c) == "member_expression" && f.text(f.field(c, "property")) == "flatMap"
}

// thislessInLoop reports whether the method member calls (`t.m(…)`, t the
// binding of `for (const t of X)`, or a const bound to `X.find(cb)` or
// `X.findLast(cb)`, never written) cannot reach its receiver for any
// element: X resolves to its elements, each an object literal or an
// esbuild namespace (`var ns = {}; __export(ns, { m: () => m })`) with no
// accessor named m (a spread copies values, never accessors), whose m
// resolves, by the literal's members in order, to a function of the
// package that cannot reach this (thislessFunction). An element not
// resolved, a member that is not such a function: false (the call may
// change the element).
func (r *schemaRead) thislessInLoop(f *file, member nid) bool {
	recv := unparen(f, f.field(member, "object"))
	pn := f.field(member, "property")
	if f.kind(recv) != "identifier" || f.kind(pn) != "property_identifier" {
		return false
	}
	b, found := r.x.lookup(f, recv, f.text(recv))
	if !found {
		return false
	}
	list := none
	switch {
	case b.kind == bLoop && f.kind(b.decl) == "for_in_statement" && f.text(f.field(b.decl, "operator")) == "of":
		list = f.field(b.decl, "right")
	case b.kind == bDecl && f.kind(b.decl) == "variable_declarator" && f.field(b.decl, "name") == b.id && !r.x.nameWritten(f, f.text(recv)):
		// const t = X.find(cb): an element of X, or undefined.
		init := unparen(f, f.field(b.decl, "value"))
		if init >= 0 && f.kind(init) == "await_expression" {
			return false
		}
		if init >= 0 && f.kind(init) == "call_expression" {
			if c := f.field(init, "function"); f.kind(c) == "member_expression" {
				if m := f.text(f.field(c, "property")); m == "find" || m == "findLast" {
					list = f.field(c, "object")
				}
			}
		}
	}
	if list < 0 {
		return false
	}
	name := f.text(pn)
	els, ok := r.x.elements(r.x.eval(f, list, nil), nil)
	if !ok || len(els) == 0 {
		return false
	}
	for _, el := range els {
		if el.k != vObject || el.f == nil || el.n < 0 || el.f.kind(el.n) != "object" || el.f.lang == LangPython {
			return false
		}
		for _, c := range el.f.named(el.n) {
			switch el.f.kind(c) {
			case "method_definition":
				if g := el.f.field(c, "name"); g >= 0 && el.f.start(g) > el.f.start(c) && mutAccessorPrefix(string(el.f.src[el.f.start(c):el.f.start(g)])) {
					return false
				}
			}
		}
		m, found := r.x.getProp(el, name, nil)
		if !found || m.k != vFunc || m.f == nil || m.n < 0 || m.f.inVendoredRegion(m.n) || !thislessFunction(m.f, m.n) {
			return false
		}
	}
	return true
}

// collectionTest reports whether call is `S.has(v)` where S resolves to a
// built-in Set or Map (`new Set([...])` of the global constructor, by the
// routes of jseval.go): has compares its argument with the members and
// changes neither.
func (r *schemaRead) collectionTest(f *file, call nid) bool {
	c := f.field(call, "function")
	if f.kind(c) != "member_expression" || f.text(f.field(c, "property")) != "has" || len(f.args(call)) != 1 {
		return false
	}
	v := r.x.eval(f, f.field(c, "object"), nil)
	return v.k == vMap && (v.spec == "Set" || v.spec == "Map")
}

// memberOfArgument climbs from fn, the value of a pair with a plain key,
// to that key, the object literal holding the pair and the call the
// literal is an argument of (call < 0 when fn is not of that shape).
func memberOfArgument(f *file, fn nid) (key string, obj, call nid) {
	fo := mutOuter(f, fn)
	pair := f.parent(fo)
	if pair < 0 || f.kind(pair) != "pair" || f.field(pair, "value") != fo {
		return "", none, none
	}
	kn := f.field(pair, "key")
	if kn < 0 || f.kind(kn) == "computed_property_name" {
		return "", none, none
	}
	key = propKeyName(f, kn)
	obj = f.parent(pair)
	if key == "" || obj < 0 || f.kind(obj) != "object" {
		return "", none, none
	}
	args := f.parent(mutOuter(f, obj))
	if args < 0 || f.kind(args) != "arguments" {
		return "", none, none
	}
	call = f.parent(args)
	if call < 0 || f.kind(call) != "call_expression" {
		return "", none, none
	}
	return key, obj, call
}
