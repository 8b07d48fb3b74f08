package surface

// Resources listed from the operator's own data through the package's own
// helpers (methodology §5.3, 2.3.10). The route of jsunread_runtime.go reads
// a listing whose I/O call and client are written in the handler itself.
// Servers usually reach them through a function of their own:
//
//	const _clients = new Map();
//	async function clientFor(account) {
//	  const cached = _clients.get(account.alias);
//	  if (cached) return cached;
//	  const client = google.drive({ version: "v3", auth: await authFor(account) });
//	  _clients.set(account.alias, client);
//	  return client;
//	}
//	server.setRequestHandler(ListResourcesRequestSchema, async () => {
//	  const drive = await clientFor(await defaultAccount());
//	  const res = await drive.files.list(params);
//	  return { resources: (res.data.files || []).map((file) => ({ uri: ..., name: file.name })) };
//	});
//
// or through a method of their own client class whose field holds the SDK's
// client, built in the constructor:
//
//	class Client {
//	  constructor(token) { this.workspaces = new Asana.WorkspacesApi(); }
//	  async listWorkspaces(opts) { const r = await this.workspaces.getWorkspaces(opts); return r.data; }
//	}
//	const client = new Client(token);
//	... const workspaces = await client.listWorkspaces({});
//	    const list = workspaces.map((w) => ({ uri: ..., name: w.name }));
//	    return { resources: list };
//
// Each link is read exactly, within the same budget of links, or the listing
// stays unreadable:
//
//   - a call of a function of the package (a function declaration, a const
//     function or arrow, a method of an object or class, imported from a
//     module of the package or not) stands for what it returns when every
//     return statement of its body returns such a value and its body cannot
//     end without a return or a throw; the function is followed at most
//     maxHelperDepth calls deep;
//   - a method is followed only when its receiver is an instance the package
//     builds with `new C(...)` of the very class that declares the method, a
//     class with no `extends`; `this.field` in it is a client when the
//     constructor's body assigns `this.field` once, as a statement of its own
//     body, from such a client, the constructor returns nothing, and no other
//     code of the package writes a property of that name (and no code writes
//     the receiver through a computed key or a builtin);
//   - `M.get(k)` of a Map is such a value when M is bound once to `new Map()`,
//     is used only as the receiver of get, has, set, delete and clear, every
//     set is a statement of its own and stores such a value (a client, or
//     data answered by an I/O call made in the function that stores it);
//   - `a ?? b` and `a || b` are such a value when both sides are (a list's
//     `x || []` is read as before: it adds no entries).
//
// A parameter of a helper, a name written twice, a value of the package's
// memory, a literal (other than the empty list) and anything else stays
// unreadable.

// maxListingLinks bounds the links followed from a listing to its I/O
// call, helpers and caches included (each link is also a step of the
// site's budget).
const maxListingLinks = 160

// maxHelperDepth bounds the calls of the package's functions followed from
// a listing to its I/O call.
const maxHelperDepth = 6

// rtScope is what a route from a listing to its I/O call knows where it is:
// the links it may still follow, the environment the current function's
// callees are resolved in, the class whose instance `this` is (none outside
// a followed method) and how many calls deep the route is.
type rtScope struct {
	budget *int
	env    *env
	cf     *file
	class  nid
	depth  int
}

func (s *rtScope) into(fn val, class nid) *rtScope {
	return &rtScope{budget: s.budget, env: fn.env, cf: fn.f, class: class, depth: s.depth + 1}
}

// listThroughConst follows the resources member of a listing through const
// names (`const list = rows.map(...); return { resources: list }`).
func (x *extractor) listThroughConst(f *file, n nid, budget *int) nid {
	n = stripWrappers(f, n)
	for n >= 0 && f.kind(n) == "identifier" && x.runtimeLink(budget) {
		v, ok := x.constInit(f, n)
		if !ok {
			return none
		}
		n = stripWrappers(f, v)
	}
	return n
}

// helperReturns reports whether the call n of a function of the package
// returns, on every path, a client of the operator's data (client) or data
// answered by an I/O call made while it runs (!client).
func (x *extractor) helperReturns(f *file, n nid, s *rtScope, client bool) bool {
	if s.depth >= maxHelperDepth || f.lang == LangPython {
		return false
	}
	callee := stripWrappers(f, f.field(n, "function"))
	if callee < 0 {
		return false
	}
	if a := f.field(n, "arguments"); a >= 0 && f.kind(a) == "template_string" {
		return false // a tagged template, not a call of the function
	}
	var fn val
	class := none
	switch f.kind(callee) {
	case "identifier":
		fn = x.eval(f, callee, s.env)
	case "member_expression":
		fn = x.eval(f, callee, s.env)
		if fn.k == vFunc && fn.f != nil && fn.f.kind(fn.n) == "method_definition" {
			class = enclosingClassOfMethod(fn.f, fn.n)
			if class >= 0 && !x.ownInstanceReceiver(f, f.field(callee, "object"), fn, class, s) {
				return false
			}
		}
	default:
		return false
	}
	if fn.k != vFunc || fn.f == nil || fn.n < 0 || fn.f.lang == LangPython {
		return false
	}
	g := fn.f
	switch g.kind(fn.n) {
	case "function_declaration", "function_expression", "function", "arrow_function":
	case "method_definition":
		if g.hasChildKind(fn.n, "get") || g.hasChildKind(fn.n, "set") || g.hasChildKind(fn.n, "*") || g.hasChildKind(fn.n, "static") {
			return false
		}
	default:
		return false // generators and anything else
	}
	body := g.field(fn.n, "body")
	if body < 0 {
		return false
	}
	inner := s.into(fn, class)
	if g.kind(body) != "statement_block" {
		// An arrow's expression body is its one return.
		return x.rtValue(g, body, fn.n, inner, client)
	}
	if !endsInReturnOrThrow(g, body) {
		return false
	}
	rets := returnsOf(g, body)
	if len(rets) == 0 {
		return false
	}
	for _, r := range rets {
		ch := g.named(r)
		if len(ch) == 0 || !x.rtValue(g, ch[0], fn.n, inner, client) {
			return false
		}
	}
	return true
}

// rtValue is the test a return (or a stored value) must pass.
func (x *extractor) rtValue(f *file, n nid, fn nid, s *rtScope, client bool) bool {
	if client {
		return x.ioClient(f, n, s)
	}
	return x.requestTimeData(f, n, fn, s)
}

// endsInReturnOrThrow reports whether the last statement of a function body
// is a return or a throw, so no path falls off its end (a path that does
// returns undefined, which is not what the route reads).
func endsInReturnOrThrow(f *file, body nid) bool {
	stmts := f.named(body)
	for i := len(stmts) - 1; i >= 0; i-- {
		switch f.kind(stmts[i]) {
		case "comment", "empty_statement":
			continue
		case "return_statement", "throw_statement":
			return true
		}
		return false
	}
	return false
}

// ownInstanceReceiver reports whether recv, the receiver of a call of the
// method fn of class, is an instance built by `new class(...)`, of a class
// with no `extends`, that no code of the package writes through a computed
// key or a builtin.
func (x *extractor) ownInstanceReceiver(f *file, recv nid, fn val, class nid, s *rtScope) bool {
	g := fn.f
	if g.childOfKind(class, "class_heritage") >= 0 {
		return false
	}
	rv := x.eval(f, recv, s.env)
	if rv.k != vInstance || rv.f != g || rv.n != class || rv.args == nil {
		return false
	}
	if name := lastName(f, recv); name == "" || x.constObjectWritten(name) {
		return false
	}
	return true
}

// thisFieldClient reports whether n, `this.field` in a method followed with
// its receiver (helperReturns), is a client: the class's constructor assigns
// it once, unconditionally, from such a client, and nothing else writes a
// property of that name.
func (x *extractor) thisFieldClient(f *file, n nid, s *rtScope) bool {
	if s.class < 0 || s.cf != f || thisClassOf(f, n) != s.class {
		return false
	}
	prop := f.field(n, "property")
	if f.kind(prop) != "property_identifier" {
		return false
	}
	field := f.text(prop)
	if x.constPropWritten(field) > 0 {
		return false // written outside a constructor somewhere in the package
	}
	ctor := none
	for _, m := range f.named(f.field(s.class, "body")) {
		switch f.kind(m) {
		case "method_definition":
			if f.text(f.field(m, "name")) == "constructor" {
				ctor = m
			}
		case "public_field_definition", "field_definition":
			nm := f.field(m, "name")
			if nm < 0 {
				nm = f.field(m, "property")
			}
			if propKeyName(f, nm) == field && f.field(m, "value") >= 0 {
				return false // a field initialiser is a second write
			}
		}
	}
	if ctor < 0 {
		return false
	}
	cbody := f.field(ctor, "body")
	for _, r := range returnsOf(f, cbody) {
		if len(f.named(r)) > 0 {
			return false // new may give another object
		}
	}
	// Exactly one write of this.field in the class: a statement of the
	// constructor's own body. (A constructor of another class writes its
	// own instance; the receiver is built by this class.)
	rhs, count := none, 0
	f.walk(s.class, func(c nid) bool {
		if count > 1 {
			return false
		}
		if f.kind(c) != "member_expression" || f.kind(f.field(c, "object")) != "this" || f.text(f.field(c, "property")) != field {
			return true
		}
		p := f.parent(c)
		switch f.kind(p) {
		case "assignment_expression":
			if f.field(p, "left") != c {
				return true
			}
			count++
			if st := f.parent(p); f.kind(st) == "expression_statement" && f.parent(st) == cbody {
				rhs = f.field(p, "right")
			}
		case "augmented_assignment_expression", "update_expression", "pair_pattern", "array_pattern",
			"assignment_pattern", "object_assignment_pattern", "rest_pattern", "for_in_statement":
			count += 2 // a write in another form
		case "unary_expression":
			if f.text(f.field(p, "operator")) == "delete" {
				count += 2
			}
		}
		return true
	})
	if count != 1 || rhs < 0 {
		return false
	}
	if x.ctorWritesThisComputed(f, s.class) {
		return false
	}
	return x.ioClient(f, rhs, s)
}

// ctorWritesThisComputed reports whether code of class writes its instance
// through a computed key or a builtin (`this[k] = v`, Object.assign(this,
// ...)), which could replace any field.
func (x *extractor) ctorWritesThisComputed(f *file, class nid) bool {
	found := false
	f.walk(class, func(c nid) bool {
		if found {
			return false
		}
		switch f.kind(c) {
		case "assignment_expression", "augmented_assignment_expression":
			if l := f.field(c, "left"); f.kind(l) == "subscript_expression" && f.kind(f.field(l, "object")) == "this" {
				found = true
			}
		case "call_expression":
			if a := f.args(c); len(a) > 0 && f.kind(a[0]) == "this" {
				switch f.text(f.field(c, "function")) {
				case "Object.assign", "Object.defineProperty", "Object.defineProperties", "Reflect.set", "Reflect.defineProperty":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// cachedValues reads `M.get(k)` of a Map the package keeps as a cache (see
// the comment at the top). handled is false when n is not such a call.
func (x *extractor) cachedValues(f *file, n nid, s *rtScope, client bool) (ok, handled bool) {
	callee := stripWrappers(f, f.field(n, "function"))
	if f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "get" {
		return false, false
	}
	obj := stripWrappers(f, f.field(callee, "object"))
	if f.kind(obj) != "identifier" {
		return false, false
	}
	name := f.text(obj)
	b, found := x.lookup(f, obj, name)
	if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
		return false, false
	}
	init := stripWrappers(f, f.field(b.decl, "value"))
	if f.kind(init) != "new_expression" || f.text(f.field(init, "constructor")) != "Map" || len(f.args(init)) != 0 {
		return false, false
	}
	if _, declared := x.lookup(f, init, "Map"); declared {
		return false, true // a Map of the package's own
	}
	if x.jsBindingWritten(f, b) {
		return false, true
	}
	for a := f.parent(b.decl); a >= 0; a = f.parent(a) {
		if f.kind(a) == "export_statement" {
			return false, true // other modules may store in it
		}
		if functionKind(f.kind(a)) {
			break
		}
	}
	// Every use of the binding is M.get / has / set / delete / clear as a
	// callee; every set is a statement of its own.
	var sets []nid
	escaped := false
	f.walk(0, func(c nid) bool {
		if escaped {
			return false
		}
		if f.kind(c) != "identifier" || f.text(c) != name || c == b.id {
			return true
		}
		if cb, ok := x.lookup(f, c, name); !ok || cb.decl != b.decl {
			return true
		}
		m := f.parent(c)
		if f.kind(m) != "member_expression" || f.field(m, "object") != c {
			escaped = true
			return false
		}
		call := f.parent(m)
		if f.kind(call) != "call_expression" || f.field(call, "function") != m {
			escaped = true
			return false
		}
		switch f.text(f.field(m, "property")) {
		case "get", "has", "delete", "clear":
		case "set":
			if f.kind(f.parent(call)) != "expression_statement" || len(f.args(call)) != 2 {
				escaped = true
				return false
			}
			sets = append(sets, call)
		default:
			escaped = true
		}
		return true
	})
	if escaped || len(sets) == 0 {
		return false, true
	}
	for _, c := range sets {
		fn := enclosingFunction(f, c)
		if fn < 0 {
			return false, true // stored at load time: the package's memory
		}
		inner := &rtScope{budget: s.budget, env: s.env, cf: f, class: none, depth: s.depth + 1}
		if s.depth+1 >= maxHelperDepth || !x.rtValue(f, f.args(c)[1], fn, inner, client) {
			return false, true
		}
	}
	return true, true
}

// dataMutated reports whether the package adds to or replaces a part of
// the data named by n, an identifier or a member on the route: a mutating
// method of an array (`rows.push({...})`, `res.data.files.splice(...)`) or
// an assignment, augmented assignment, increment or delete of a member or an
// element, on an expression rooted in the same binding as n. The list may
// then hold the package's own entries. (A write through another name bound
// to the same data is not seen; the element's own properties are guarded by
// name, keepRuntimeProp.)
func (x *extractor) dataMutated(f *file, n nid) bool {
	if k := f.kind(n); k != "identifier" && k != "member_expression" {
		return false
	}
	root := chainRoot(f, n)
	if root < 0 {
		return false // rooted in a call or `this`: followed (or refused) further on
	}
	name := f.text(root)
	b, ok := x.lookup(f, root, name)
	if !ok {
		return true
	}
	scope := enclosingFunction(f, b.decl)
	if scope < 0 {
		scope = 0
	}
	same := func(c nid) bool {
		r := chainRoot(f, c)
		if r < 0 || f.text(r) != name {
			return false
		}
		cb, ok := x.lookup(f, r, name)
		return ok && cb.decl == b.decl
	}
	found := false
	f.walk(scope, func(c nid) bool {
		if found {
			return false
		}
		switch f.kind(c) {
		case "call_expression":
			callee := f.field(c, "function")
			if f.kind(callee) == "member_expression" && arrayMutators[f.text(f.field(callee, "property"))] && same(f.field(callee, "object")) {
				found = true
			}
			if ct := f.text(callee); ct == "Object.assign" || ct == "Object.defineProperty" || ct == "Object.defineProperties" || ct == "Reflect.set" {
				if a := f.args(c); len(a) > 0 && same(a[0]) {
					found = true
				}
			}
		case "assignment_expression", "augmented_assignment_expression":
			if l := f.field(c, "left"); f.kind(l) != "identifier" && same(l) {
				found = true
			}
		case "update_expression":
			if a := f.field(c, "argument"); f.kind(a) != "identifier" && same(a) {
				found = true
			}
		case "unary_expression":
			if f.text(f.field(c, "operator")) == "delete" && same(f.field(c, "argument")) {
				found = true
			}
		}
		return !found
	})
	return found
}

// chainRoot is the identifier a chain of members and elements starts from,
// or none.
func chainRoot(f *file, n nid) nid {
	for i := 0; i < maxRuntimeLinks && n >= 0; i++ {
		switch f.kind(n) {
		case "identifier":
			return n
		case "member_expression", "subscript_expression":
			n = f.field(n, "object")
		case "parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression":
			n = stripWrappers(f, n)
			if ch := f.named(n); f.kind(n) == "parenthesized_expression" && len(ch) > 0 {
				n = ch[0]
			}
		default:
			return none
		}
	}
	return none
}
