package surface

import (
	"strconv"
	"strings"
)

// A registration site that is the package's own function (methodology
// §5.3, since 2.3.18). The sites of a file (jsfacts.go) are found by shape:
// a callee named like a server given a literal with tools (siteToolsTable),
// a method named like the SDK's (`X.tool(…)`, `X.setRequestHandler(…)`).
// When the callee resolves to a function written in the package — the
// package's wrapper `runMCPServer(config)`, a class of its own with a
// `setRequestHandler` method — the call is not where the SDK receives the
// object: the wrapper may write through it (`config.tools.forEach(t => {
// t.inputSchema.x = … })`) before it registers it. Such a call is then not a
// read by itself (registrationCall false): an object handed to it is
// followed into the callee's parameter (calleeReads), a function written as
// its argument returns to the wrapper, not to the SDK (siteCallbackReturn).
// Bundled third-party code (a bundled SDK) is not the package's: its calls
// stay registrations.

// wrapperSite reports whether call (a registration site) calls a function
// written in the package, outside bundled third-party code.
func (r *schemaRead) wrapperSite(f *file, call nid) bool {
	if call < 0 || f.kind(call) != "call_expression" {
		return false
	}
	v := r.x.eval(f, f.field(call, "function"), nil)
	if outWriteCutValue(v) {
		return true // the callee may be the package's: not known to be the SDK's (jsoutwrite_bound.go)
	}
	return v.f != nil && v.n >= 0 && functionKind(v.f.kind(v.n)) && !v.f.inVendoredRegion(v.n)
}

// loopUse classifies `for (… of X)` where X is the object, or a member
// holding it, at rest below X: the loop's variable is each element, its uses
// followed as the object's under rest's first key (any element: "*"), so a
// write through an element (`for (const t of config.tools) t.inputSchema.x =
// …`) is a change. `for (k in X)` binds keys only, which read. A variable
// that is not a plain name (a pattern), or not declared by the loop, is a
// change.
func (r *schemaRead) loopUse(f *file, loop nid, rest []string) (del []string, ch mutChange, ok bool) {
	// A delete through an element is a change: the loop may run for some
	// elements only.
	if f.text(f.field(loop, "operator")) != "of" {
		return nil, mutChange{}, true
	}
	left := f.field(loop, "left")
	if left < 0 || f.kind(left) != "identifier" || f.field(loop, "kind") < 0 {
		return nil, mutChange{f, loop, "the object's elements are bound by a loop to a target not followed"}, false
	}
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, loop, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " levels"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	var elem []string
	if len(rest) > 0 {
		elem = rest[1:]
	}
	name := f.text(left)
	ch, ok = r.bindingUses(f, loop, left, name, func(b binding) bool { return b.kind == bLoop && b.id == left }, func(n nid) (mutChange, bool) {
		d, c, good := r.useChanges(f, n, elem)
		if good && len(d) > 0 {
			return mutChange{f, n, "a member of an element of the object is deleted in a loop"}, false
		}
		return c, good
	})
	return nil, ch, ok
}

// namedCallback is the function of the package a callback argument a (a
// name, a member) resolves to, outside bundled code; v.f nil when it is
// none. `tools.map(convertTool)` is then read as `tools.map((t) =>
// convertTool(t))` would be: the function's parameters are the callback's.
func (r *schemaRead) namedCallback(f *file, a nid) val {
	if k := f.kind(a); k != "identifier" && k != "member_expression" {
		return val{}
	}
	v := r.x.eval(f, a, nil)
	if v.f == nil || v.n < 0 || !functionKind(v.f.kind(v.n)) || v.f.inVendoredRegion(v.n) || !thislessFunction(v.f, v.n) {
		return val{}
	}
	return v
}

// patternUse classifies `const { a, ...others } = X` where X is the object,
// or a member holding it, at rest below X (since 2.3.18): a key bound by
// name that is not the one leading to the object binds another member
// (read); the rest element holds every member not named, so its uses are
// followed as X's. Since 2.3.20 a key leading to the object bound to a
// plain name (`const { tools } = options`, `{ tools: t }`, `{ tools = [] }`)
// is `const tools = X.tools`: that name's uses are followed as the object's
// below the key (when the path runs through any key, "*", every key bound
// may lead to it; when X is the object itself, each name bound holds a part
// of it, followed as the object's). A computed key, a nested pattern on a
// key leading to the object, an exported declaration: a change.
func (r *schemaRead) patternUse(f *file, decl nid, rest []string) (del []string, ch mutChange, ok bool) {
	if mutExportedDecl(f, decl) {
		return nil, mutChange{f, decl, "the object is destructured"}, false
	}
	return r.patternFollow(f, f.field(decl, "name"), nameScope(f, decl), rest)
}

// patternFollow classifies the names the object pattern pat binds (in
// scope) by patternUse's rules: a declaration's pattern, or (since 2.3.20)
// a function's parameter written as a pattern (`({ inputSchema }) => …`).
func (r *schemaRead) patternFollow(f *file, pat, scope nid, rest []string) (del []string, ch mutChange, ok bool) {
	no := func(at nid, why string) ([]string, mutChange, bool) { return nil, mutChange{f, at, why}, false }
	if pat < 0 || f.kind(pat) != "object_pattern" {
		return no(pat, "the object is destructured into a pattern not followed")
	}
	decl := pat
	type follow struct {
		id   nid
		path []string
	}
	var follows []follow
	for _, c := range nonComment(f, pat) {
		key, bound := "", none
		switch f.kind(c) {
		case "shorthand_property_identifier_pattern":
			key, bound = f.text(c), c
		case "object_assignment_pattern":
			if l := f.field(c, "left"); l >= 0 && f.kind(l) == "shorthand_property_identifier_pattern" {
				key, bound = f.text(l), l
			}
		case "pair_pattern":
			if k := f.field(c, "key"); k >= 0 && f.kind(k) != "computed_property_name" {
				key = propKeyName(f, k)
			}
			v := f.field(c, "value")
			if v >= 0 && f.kind(v) == "assignment_pattern" {
				v = f.field(v, "left")
			}
			if v >= 0 && f.kind(v) == "identifier" {
				bound = v
			}
		case "rest_pattern":
			restID := none
			for _, id := range nonComment(f, c) {
				if f.kind(id) == "identifier" {
					restID = id
				}
			}
			if restID < 0 {
				return no(c, "the object is destructured into a rest not a plain name")
			}
			follows = append(follows, follow{restID, rest})
			continue
		case "{", "}", ",":
			continue
		}
		if key == "" {
			return no(c, "a member holding the object is destructured under a key not named")
		}
		var sub []string
		switch {
		case len(rest) == 0:
			sub = nil // a part of the object
		case rest[0] == "*" || key == rest[0]:
			sub = rest[1:]
		default:
			continue // another member
		}
		if bound < 0 {
			return no(c, "a member holding the object is destructured")
		}
		follows = append(follows, follow{bound, sub})
	}
	if len(follows) == 0 {
		return nil, mutChange{}, true
	}
	if r.mutDepth >= mutNestLimit {
		return no(decl, "the object is followed through more than "+strconv.Itoa(mutNestLimit)+" levels")
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	for _, fl := range follows {
		id, path := fl.id, fl.path
		name := f.text(id)
		ch, ok = r.bindingUses(f, scope, id, name, func(b binding) bool { return b.id == id }, func(n nid) (mutChange, bool) {
			d, c, good := r.useChanges(f, n, path)
			if good {
				del = append(del, d...)
			}
			return c, good
		})
		if !ok {
			return nil, ch, false
		}
	}
	return del, ch, ok
}

// mutFrame is a function the reading entered with the object bound to one
// of its parameters (paramChanges): call, when not none, is the `map` call
// (in file cf) that fn is the callback of, whose result holds each value fn
// returns.
type mutFrame struct {
	g    *file
	fn   nid
	cf   *file
	call nid
}

// framedParamChanges is paramChanges with fn's frame kept while its uses
// are classified.
func (r *schemaRead) framedParamChanges(g *file, fn nid, idx int, rest []string, cf *file, call nid) ([]string, mutChange, bool) {
	r.mutFrames = append(r.mutFrames, mutFrame{g, fn, cf, call})
	defer func() { r.mutFrames = r.mutFrames[:len(r.mutFrames)-1] }()
	return r.paramChanges(g, fn, idx, rest)
}

// mapReturn classifies a value holding the object returned by fn (path
// below it) when fn's nearest frame is a `map` callback's (since 2.3.18):
// the map's result holds it under any element, and that result's uses are
// classified (`const sdkTools = config.tools.map(convert)`, returned by a
// `tools/list` handler, reads). An async or generator callback (its
// returns are not the elements) is a gap. known false when fn was not
// entered as a map's callback: returnCallers' rules apply.
func (r *schemaRead) mapReturn(f *file, fn, ret nid, path []string) (ch mutChange, ok, known bool) {
	for i := len(r.mutFrames) - 1; i >= 0; i-- {
		fr := r.mutFrames[i]
		if fr.g != f || fr.fn != fn {
			continue
		}
		if fr.call < 0 {
			return mutChange{}, false, false
		}
		switch f.kind(fn) {
		case "function_declaration", "function_expression", "function", "arrow_function":
		default:
			return mutChange{f, ret, "the object is returned by a callback not followed"}, false, true
		}
		if f.hasChildKind(fn, "async") || f.hasChildKind(fn, "*") {
			return mutChange{f, ret, "the object is returned by an async or generator callback"}, false, true
		}
		if r.mutDepth >= mutNestLimit {
			return mutChange{f, ret, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " returns"}, false, true
		}
		r.mutDepth++
		defer func() { r.mutDepth-- }()
		_, ch, ok = r.useChanges(fr.cf, fr.call, append([]string{"*"}, path...))
		if ok && len(path) > 0 && flatMapCall(fr.cf, fr.call) { // schematext_mut_top.go
			// flatMap spreads a returned array's elements into its result.
			_, ch, ok = r.useChanges(fr.cf, fr.call, path)
		}
		return ch, ok, true
	}
	return mutChange{}, false, false
}

// mapConstructed classifies `new Map(entries)` given the object inside
// the entries (rest: "*" the entry, "*" its key or value, then where the
// object is below; since 2.3.18): the Map held by a declared name, not
// exported, whose every use is `m.get(k)` (its result classified as the
// object below the value), `m.has(k)` or `m.size`, reads; anything else
// (the Map handed on, iterated, `set`, `keys()`, `forEach`) is a change.
// known false when call is not a `new Map` of one argument n.
func (r *schemaRead) mapConstructed(f *file, n, call nid, rest []string) (good bool, why string, known bool) {
	if f.kind(call) != "new_expression" {
		return false, "", false
	}
	ctor := f.field(call, "constructor")
	if ctor < 0 || f.kind(ctor) != "identifier" || f.text(ctor) != "Map" {
		return false, "", false
	}
	if _, bound := r.x.lookup(f, ctor, "Map"); bound {
		return false, "", false
	}
	args := f.args(call)
	if len(args) != 1 || (args[0] != n && unparen(f, args[0]) != n && mutOuter(f, n) != args[0]) {
		return false, "the object is handed to new Map(…) with other arguments", true
	}
	if len(rest) < 2 || rest[0] != "*" || rest[1] != "*" {
		return false, "the object is handed to new Map(…) other than as an entry", true
	}
	d := f.parent(mutOuter(f, call))
	if d < 0 || f.kind(d) != "variable_declarator" || f.field(d, "value") != mutOuter(f, call) || f.kind(f.field(d, "name")) != "identifier" || mutExportedDecl(f, d) {
		return false, "the Map holding the object is not held by a name", true
	}
	if r.mutDepth >= mutNestLimit {
		return false, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " levels", true
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	id := f.field(d, "name")
	name := f.text(id)
	good, why = true, ""
	mutEach(r.x.usesOf(f, nameScope(f, d), name), func(u nid) bool {
		if r.mutTick() {
			good, why = false, mutLimitPassed(f, u).reason
			return false
		}
		if u == id || f.text(u) != name {
			return true
		}
		switch f.kind(u) {
		case "identifier":
		case "shorthand_property_identifier":
			good, why = false, "the Map holding the object is put into a literal"
			return false
		default:
			return true
		}
		if ub, found := r.x.lookup(f, u, name); !found || ub.decl != d {
			return true // another binding of the same name
		}
		o := mutOuter(f, u)
		m := f.parent(o)
		if m < 0 || f.kind(m) != "member_expression" || f.field(m, "object") != o {
			good, why = false, "the Map holding the object is used other than by get, has or size"
			return false
		}
		method := f.text(f.field(m, "property"))
		mo := mutOuter(f, m)
		c := f.parent(mo)
		isCall := c >= 0 && f.kind(c) == "call_expression" && f.field(c, "function") == mo
		switch {
		case method == "size" && !isCall && !mutWritten(f, mo):
			return true
		case method == "has" && isCall:
			return true
		case method == "get" && isCall:
			if _, ch, ok := r.useChanges(f, c, rest[2:]); !ok {
				good, why = false, ch.reason+" (in "+ch.f.path+":"+strconv.Itoa(ch.f.lineOf(ch.at))+")"
				return false
			}
			return true
		}
		good, why = false, "the Map holding the object is used other than by get, has or size"
		return false
	})
	return good, why, true
}

// mutWritten reports whether the expression e is the target of an
// assignment, an update or a delete.
func mutWritten(f *file, e nid) bool {
	p := f.parent(e)
	switch f.kind(p) {
	case "assignment_expression", "augmented_assignment_expression":
		return f.field(p, "left") == e
	case "update_expression":
		return true
	case "unary_expression":
		return f.text(f.field(p, "operator")) == "delete"
	}
	return false
}

// notSDKHandlerSite reports whether call is `X.setRequestHandler(…)` with
// X resolved to a value that is not the SDK's server (since 2.3.18): an
// instance of another package's class, another package's export, an
// instance of a class of the package that does not extend the SDK's server
// (its method comes from elsewhere). Such a call is not where the SDK
// receives the handler's result. An X not resolved (a parameter, a call's
// result) keeps the site as a registration, as before.
func (r *schemaRead) notSDKHandlerSite(f *file, call nid) bool {
	if f.kind(call) != "call_expression" {
		return false
	}
	callee := f.field(call, "function")
	if f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "setRequestHandler" {
		return false
	}
	k := progKey{f, call, nil}
	if got, seen := r.mutRecv[k]; seen {
		return got
	}
	if r.mutRecv == nil {
		r.mutRecv = map[progKey]bool{}
	}
	r.mutRecv[k] = false                                     // a cycle through call sites: not resolved
	got := r.receiverNotSDK(f, f.field(callee, "object"), 0) // schematext_mut_recv.go
	r.mutRecv[k] = got
	return got
}

// receiverValueNotSDK classifies a receiver's value: known false when it is
// not resolved.
func (r *schemaRead) receiverValueNotSDK(v val) (notSDK, known bool) {
	switch v.k {
	case vExternal:
		spec := strings.TrimPrefix(v.spec, "new ")
		if spec == v.spec {
			return true, true // another package's value, not an instance built here
		}
		return !isSDKServerSpec(spec) && !isSDKServerSpec(strings.TrimSuffix(spec, ".server")), true
	case vInstance:
		return !r.x.extendsSDKServer(v.f, v.n) && !bundledSDKServer(v.f, v.n), true // schematext_mut_top.go
	}
	return false, false
}
