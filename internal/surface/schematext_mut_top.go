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
		callee := f.field(call, "function")
		name := ""
		switch f.kind(callee) {
		case "identifier":
			name = f.text(callee)
		case "member_expression":
			name = f.text(f.field(callee, "property"))
		}
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
