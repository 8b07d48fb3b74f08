package surface

// esbuild's lowered object spread (methodology §5.3, since 2.3.15). When
// esbuild lowers `{...a, ...b}` for an older target it writes helpers at the
// top of the bundle and calls them:
//
//	var __defProp = Object.defineProperty;
//	var __defProps = Object.defineProperties;
//	var __getOwnPropDescs = Object.getOwnPropertyDescriptors;
//	var __getOwnPropSymbols = Object.getOwnPropertySymbols;
//	var __hasOwnProp = Object.prototype.hasOwnProperty;
//	var __propIsEnum = Object.prototype.propertyIsEnumerable;
//	var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
//	var __spreadValues = (a, b) => {
//	  for (var prop in b || (b = {}))
//	    if (__hasOwnProp.call(b, prop))
//	      __defNormalProp(a, prop, b[prop]);
//	  if (__getOwnPropSymbols)
//	    for (var prop of __getOwnPropSymbols(b)) {
//	      if (__propIsEnum.call(b, prop))
//	        __defNormalProp(a, prop, b[prop]);
//	    }
//	  return a;
//	};
//	var __spreadProps = (a, b) => __defProps(a, __getOwnPropDescs(b));
//
// `{...x, k: v}` becomes `__spreadProps(__spreadValues({}, x), { k: v })`.
// __spreadValues(a, b) defines b's own enumerable members on a and returns
// a; __spreadProps(a, b) defines b's own members on a and returns a. 2.3.14
// stopped reading a function that changes the parameter it returns
// (returnsChangedParam); the schema reading now reads these two, and only
// these two, as the object spread they are: a call whose callee is a name
// declared once at the top of its file, never assigned, to a function whose
// syntax tree is the helper's, statement by statement, each helper it calls
// bound the same way to the same built-in (Object's own, not shadowed nor
// assigned in the file), and whose first argument is an object written
// fresh (a literal, or another such call): the call is read as the object
// literal {...a, ...b} would be. Any other function that changes the
// parameter it returns stays unread.

type esbuildHelper uint8

const (
	notEsbuildHelper esbuildHelper = iota
	esbuildSpreadValues
	esbuildSpreadProps
	esbuildDefNormalProp
)

// esbuildSpreadCall reports whether the call at n is a call of esbuild's
// __spreadValues or __spreadProps, by the definition its callee is bound to.
func (x *extractor) esbuildSpreadCall(f *file, n nid) bool {
	if f.kind(n) != "call_expression" || f.lang == LangPython || len(f.args(n)) != 2 {
		return false
	}
	fn, ok := x.soleTopConst(f, f.field(n, "function"))
	if !ok {
		return false
	}
	h := x.esbuildHelperAt(f, fn)
	return h == esbuildSpreadValues || h == esbuildSpreadProps
}

// esbuildHelperAt is which helper the function at fn is, worked out once
// per function.
func (x *extractor) esbuildHelperAt(f *file, fn nid) esbuildHelper {
	k := progKey{f, fn, nil}
	if h, ok := x.esbuildHelpers[k]; ok {
		return h
	}
	if x.esbuildHelpers == nil {
		x.esbuildHelpers = map[progKey]esbuildHelper{}
	}
	x.esbuildHelpers[k] = notEsbuildHelper // a helper met inside its own shape is none
	h := notEsbuildHelper
	switch {
	case x.isSpreadValues(f, fn):
		h = esbuildSpreadValues
	case x.isSpreadProps(f, fn):
		h = esbuildSpreadProps
	case x.isDefNormalProp(f, fn):
		h = esbuildDefNormalProp
	}
	x.esbuildHelpers[k] = h
	return h
}

// soleTopConst is the value written for the name at id when that name is
// declared once, at the top of the file, with a value, and never written
// again in the file (an assignment, a compound assignment, an update, a
// destructuring, a loop's binding).
func (x *extractor) soleTopConst(f *file, id nid) (nid, bool) {
	if f.kind(id) != "identifier" || f.facts == nil {
		return none, false
	}
	name := f.text(id)
	b, ok := x.lookup(f, id, name)
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
		return none, false
	}
	decl := f.parent(b.decl)
	if decl < 0 || f.parent(decl) != 0 || f.kind(0) != "program" {
		return none, false
	}
	if len(f.facts.scopeDecls(f, 0)[name]) != 1 || x.nameWritten(f, name) {
		return none, false
	}
	v := f.field(b.decl, "value")
	return v, v >= 0
}

// nameWritten reports whether the file writes the name anywhere but its
// declaration, whatever binding the write is to.
func (x *extractor) nameWritten(f *file, name string) bool {
	if len(f.facts.assigns[name]) > 0 || len(f.facts.augAssigns[name]) > 0 {
		return true
	}
	if x.writtenNames == nil {
		x.writtenNames = map[*file]map[string]bool{}
	}
	w, ok := x.writtenNames[f]
	if !ok {
		w = writtenNamesOf(f)
		x.writtenNames[f] = w
	}
	return w[name]
}

// writtenNamesOf lists the names a file writes through a pattern, an update
// or a loop's binding (plain and compound assignments are in its facts).
func writtenNamesOf(f *file) map[string]bool {
	w := map[string]bool{}
	for n := nid(0); int(n) < len(f.nodes); n++ {
		switch f.kind(n) {
		case "shorthand_property_identifier_pattern":
			w[f.text(n)] = true
		case "identifier":
			p := f.parent(n)
			switch f.kind(p) {
			case "update_expression", "array_pattern", "pair_pattern", "assignment_pattern", "rest_pattern", "object_pattern":
				w[f.text(n)] = true
			case "for_in_statement":
				if f.field(p, "left") == n {
					w[f.text(n)] = true
				}
			}
		}
	}
	return w
}

// builtinAt reports whether the value at v is written as Object's member
// path (Object.defineProperty, Object.prototype.hasOwnProperty), Object
// being the built-in: not declared where v is, not assigned in the file,
// and the member not assigned in the file.
func (x *extractor) builtinAt(f *file, v nid, path ...string) bool {
	for i := len(path) - 1; i >= 0; i-- {
		if f.kind(v) != "member_expression" || f.text(f.field(v, "property")) != path[i] {
			return false
		}
		for _, a := range f.facts.propAssigns[path[i]] {
			if memberPathIs(f, f.field(f.field(a, "left"), "object"), path[:i]) {
				return false // Object.prototype.hasOwnProperty = …
			}
		}
		v = f.field(v, "object")
	}
	if f.kind(v) != "identifier" || f.text(v) != "Object" {
		return false
	}
	if _, declared := x.lookup(f, v, "Object"); declared {
		return false
	}
	return !x.nameWritten(f, "Object")
}

// memberPathIs reports whether n is written Object.path[0]….path[len-1]
// (Object alone for an empty path).
func memberPathIs(f *file, n nid, path []string) bool {
	for i := len(path) - 1; i >= 0; i-- {
		if f.kind(n) != "member_expression" || f.text(f.field(n, "property")) != path[i] {
			return false
		}
		n = f.field(n, "object")
	}
	return isName(f, n, "Object")
}

// boundToBuiltin reports whether the name at id is a sole top constant
// written as Object's member path.
func (x *extractor) boundToBuiltin(f *file, id nid, path ...string) bool {
	v, ok := x.soleTopConst(f, id)
	return ok && x.builtinAt(f, v, path...)
}

// arrowParams are the plain parameter names of an arrow function, distinct.
func arrowParams(f *file, fn nid) []string {
	if f.kind(fn) != "arrow_function" {
		return nil
	}
	ps := f.field(fn, "parameters")
	if ps < 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range f.named(ps) {
		if f.kind(p) != "identifier" || seen[f.text(p)] {
			return nil
		}
		seen[f.text(p)] = true
		out = append(out, f.text(p))
	}
	return out
}

// isName reports whether n is the identifier name.
func isName(f *file, n nid, name string) bool {
	return f.kind(n) == "identifier" && f.text(n) == name
}

// callOf is the callee and arguments of a call at n (parentheses and an
// expression statement around it taken off).
func callOf(f *file, n nid) (nid, []nid, bool) {
	n = unparen(f, n)
	if f.kind(n) == "expression_statement" {
		ch := nonComment(f, n)
		if len(ch) != 1 {
			return none, nil, false
		}
		n = ch[0]
	}
	if f.kind(n) != "call_expression" {
		return none, nil, false
	}
	a := f.field(n, "arguments")
	if a < 0 || f.kind(a) != "arguments" {
		return none, nil, false
	}
	return f.field(n, "function"), nonComment(f, a), true
}

// unparen takes parentheses off.
func unparen(f *file, n nid) nid {
	for i := 0; i < 8 && f.kind(n) == "parenthesized_expression"; i++ {
		ch := nonComment(f, n)
		if len(ch) != 1 {
			return none
		}
		n = ch[0]
	}
	return n
}

// namesAre reports whether nodes are exactly the identifiers names.
func namesAre(f *file, nodes []nid, names ...string) bool {
	if len(nodes) != len(names) {
		return false
	}
	for i, n := range nodes {
		if !isName(f, n, names[i]) {
			return false
		}
	}
	return true
}

// isDefNormalProp: (obj, key, value) => key in obj ? __defProp(obj, key,
// { enumerable: true, configurable: true, writable: true, value }) :
// obj[key] = value, __defProp bound to Object.defineProperty.
func (x *extractor) isDefNormalProp(f *file, fn nid) bool {
	ps := arrowParams(f, fn)
	if len(ps) != 3 {
		return false
	}
	obj, key, value := ps[0], ps[1], ps[2]
	body := f.field(fn, "body")
	if f.kind(body) != "ternary_expression" {
		return false
	}
	cond := unparen(f, f.field(body, "condition"))
	if f.kind(cond) != "binary_expression" || f.text(f.field(cond, "operator")) != "in" ||
		!isName(f, f.field(cond, "left"), key) || !isName(f, f.field(cond, "right"), obj) {
		return false
	}
	callee, args, ok := callOf(f, f.field(body, "consequence"))
	if !ok || len(args) != 3 || !namesAre(f, args[:2], obj, key) || !x.boundToBuiltin(f, callee, "defineProperty") {
		return false
	}
	if f.kind(args[2]) != "object" {
		return false
	}
	want := map[string]bool{"enumerable": true, "configurable": true, "writable": true, "value": true}
	for _, m := range nonComment(f, args[2]) {
		switch f.kind(m) {
		case "pair":
			k := propKeyName(f, f.field(m, "key"))
			if k == "value" || !want[k] || f.kind(f.field(m, "value")) != "true" {
				return false
			}
			delete(want, k)
		case "shorthand_property_identifier":
			if f.text(m) != value || !want["value"] {
				return false
			}
			delete(want, "value")
		default:
			return false
		}
	}
	if len(want) != 0 {
		return false
	}
	alt := unparen(f, f.field(body, "alternative"))
	if f.kind(alt) != "assignment_expression" || !isName(f, f.field(alt, "right"), value) {
		return false
	}
	left := f.field(alt, "left")
	return f.kind(left) == "subscript_expression" && isName(f, f.field(left, "object"), obj) &&
		isName(f, unparen(f, f.field(left, "index")), key)
}

// isSpreadProps: (a, b) => __defProps(a, __getOwnPropDescs(b)), bound to
// Object.defineProperties and Object.getOwnPropertyDescriptors.
func (x *extractor) isSpreadProps(f *file, fn nid) bool {
	ps := arrowParams(f, fn)
	if len(ps) != 2 {
		return false
	}
	callee, args, ok := callOf(f, f.field(fn, "body"))
	if !ok || len(args) != 2 || !isName(f, args[0], ps[0]) || !x.boundToBuiltin(f, callee, "defineProperties") {
		return false
	}
	inner, iargs, ok := callOf(f, args[1])
	return ok && namesAre(f, iargs, ps[1]) && x.boundToBuiltin(f, inner, "getOwnPropertyDescriptors")
}

// isSpreadValues: the body of esbuild's __spreadValues, statement by
// statement (the top of this file).
func (x *extractor) isSpreadValues(f *file, fn nid) bool {
	ps := arrowParams(f, fn)
	if len(ps) != 2 {
		return false
	}
	a, b := ps[0], ps[1]
	body := f.field(fn, "body")
	if f.kind(body) != "statement_block" {
		return false
	}
	st := nonComment(f, body)
	if len(st) != 3 {
		return false
	}
	// for (var prop in b || (b = {})) if (__hasOwnProp.call(b, prop)) __defNormalProp(a, prop, b[prop]);
	loop := st[0]
	prop, ok := varLoop(f, loop, "in", a, b)
	if !ok || !x.freshOr(f, f.field(loop, "right"), b) ||
		!x.copyIf(f, f.field(loop, "body"), a, b, prop, "hasOwnProperty") {
		return false
	}
	// if (__getOwnPropSymbols) for (var prop of __getOwnPropSymbols(b)) { if (__propIsEnum.call(b, prop)) __defNormalProp(a, prop, b[prop]); }
	sym := st[1]
	if f.kind(sym) != "if_statement" || f.field(sym, "alternative") >= 0 {
		return false
	}
	if c := unparen(f, f.field(sym, "condition")); !x.boundToBuiltin(f, c, "getOwnPropertySymbols") {
		return false
	}
	loop = f.field(sym, "consequence")
	prop, ok = varLoop(f, loop, "of", a, b)
	if !ok {
		return false
	}
	callee, args, ok := callOf(f, f.field(loop, "right"))
	if !ok || !namesAre(f, args, b) || !x.boundToBuiltin(f, callee, "getOwnPropertySymbols") ||
		!x.copyIf(f, f.field(loop, "body"), a, b, prop, "propertyIsEnumerable") {
		return false
	}
	// return a;
	ret := st[2]
	ch := nonComment(f, ret)
	return f.kind(ret) == "return_statement" && len(ch) == 1 && isName(f, ch[0], a)
}

// varLoop reads `for (var p in|of …)` and returns p, a name other than a and b.
func varLoop(f *file, loop nid, op, a, b string) (string, bool) {
	if f.kind(loop) != "for_in_statement" || f.text(f.field(loop, "operator")) != op || f.text(f.field(loop, "kind")) != "var" {
		return "", false
	}
	left := f.field(loop, "left")
	if f.kind(left) != "identifier" || f.text(left) == a || f.text(left) == b {
		return "", false
	}
	return f.text(left), true
}

// freshOr reads `b || (b = {})` or `b ||= {}`.
func (x *extractor) freshOr(f *file, n nid, b string) bool {
	n = unparen(f, n)
	switch f.kind(n) {
	case "binary_expression":
		if f.text(f.field(n, "operator")) != "||" || !isName(f, f.field(n, "left"), b) {
			return false
		}
		as := unparen(f, f.field(n, "right"))
		return f.kind(as) == "assignment_expression" && isName(f, f.field(as, "left"), b) && emptyObject(f, f.field(as, "right"))
	case "augmented_assignment_expression":
		return f.text(f.field(n, "operator")) == "||=" && isName(f, f.field(n, "left"), b) && emptyObject(f, f.field(n, "right"))
	}
	return false
}

func emptyObject(f *file, n nid) bool {
	return f.kind(n) == "object" && len(nonComment(f, n)) == 0
}

// copyIf reads `if (__test.call(b, p)) __defNormalProp(a, p, b[p]);`, alone
// or as the one statement of a block, __test bound to
// Object.prototype.<test>.
func (x *extractor) copyIf(f *file, n nid, a, b, p, test string) bool {
	if f.kind(n) == "statement_block" {
		ch := nonComment(f, n)
		if len(ch) != 1 {
			return false
		}
		n = ch[0]
	}
	if f.kind(n) != "if_statement" || f.field(n, "alternative") >= 0 {
		return false
	}
	callee, args, ok := callOf(f, f.field(n, "condition"))
	if !ok || f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "call" ||
		len(f.facts.propAssigns["call"]) > 0 ||
		!namesAre(f, args, b, p) || !x.boundToBuiltin(f, f.field(callee, "object"), "prototype", test) {
		return false
	}
	def, dargs, ok := callOf(f, f.field(n, "consequence"))
	if !ok || len(dargs) != 3 || !namesAre(f, dargs[:2], a, p) {
		return false
	}
	sub := dargs[2]
	if f.kind(sub) != "subscript_expression" || !isName(f, f.field(sub, "object"), b) || !isName(f, unparen(f, f.field(sub, "index")), p) {
		return false
	}
	dv, ok := x.soleTopConst(f, def)
	return ok && x.esbuildHelperAt(f, dv) == esbuildDefNormalProp
}

// usedOnlyAt reports whether the name at id, a declared name, is used
// nowhere but at id (its declaration aside) in the function or file that
// declares it: no member written, no Object.assign, no alias.
func (x *extractor) usedOnlyAt(f *file, id nid) bool {
	name := f.text(id)
	b, ok := x.lookup(f, id, name)
	if !ok || b.kind != bDecl {
		return false
	}
	scope := nameScope(f, b.decl)
	only := true
	f.walk(scope, func(n nid) bool {
		if !only {
			return false
		}
		switch f.kind(n) {
		case "identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern":
		default:
			return true
		}
		if n == id || n == b.id || f.text(n) != name {
			return true
		}
		if ub, found := x.lookup(f, n, name); found && ub.decl != b.decl {
			return true // another binding of the same name
		}
		only = false
		return false
	})
	return only
}

// esbuildSpreadMembers lists the members of a call of esbuild's spread
// helpers, as the object literal {...a, ...b} would list them: a must be
// written fresh (an object literal or another such call).
func (r *schemaRead) esbuildSpreadMembers(f *file, n nid, e *env, depth int, each func(key string, g *file, v nid, ge *env)) {
	args := f.args(n)
	a, b := unparen(f, args[0]), unparen(f, args[1])
	switch {
	case f.kind(a) == "object" || r.x.esbuildSpreadCall(f, a):
		r.members(f, a, e, depth+1, each)
	default:
		r.gap(f, n, "esbuild's spread helper called on an object not written in the call")
		return
	}
	if r.stop() || b < 0 {
		return
	}
	r.spreadArg(f, n, b, b, e, depth, each)
}

// esbuildSpreadJSON reports whether the object literal a call of esbuild's
// spread helpers stands for is a JSON schema by its written members (as
// jsonSchemaObject tells for a literal).
func (x *extractor) esbuildSpreadJSON(f *file, n nid, depth int) bool {
	if depth > schemaDepthLimit {
		return false
	}
	for _, a := range f.args(n) {
		a = unparen(f, a)
		switch {
		case f.kind(a) == "object" && jsonSchemaObject(f, a):
			return true
		case f.kind(a) == "call_expression" && x.esbuildSpreadCall(f, a) && x.esbuildSpreadJSON(f, a, depth+1):
			return true
		}
	}
	return false
}
