package surface

import (
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// Resources listed from the operator's own data (methodology §5.3 and §5.4,
// 2.3.8). A resources/list handler of a database or storage server answers
// with one entry per table or file it finds when the client asks:
//
//	server.setRequestHandler(ListResourcesRequestSchema, async () => {
//	  const client = await pool.connect();            // pool = new pg.Pool(...)
//	  const result = await client.query("SELECT ...");
//	  return { resources: result.rows.map((row) => ({
//	    uri: ..., name: `"${row.table_name}" database schema` })) };
//	});
//
// The entries' names and texts are bytes of the operator's environment (the
// user's tables, the user's files), returned by an I/O call made while the
// request is answered; the publisher writes none of them. Such a listing is
// recorded as one resource entry marked listed_at_run_time, and its text is
// read from the object the callback builds for each element: no description
// member is absent; a member made of the package's literals is read as any
// text; a substitution (or the whole value) that is the element or one of
// its members, through names and members only, is a hole filled by
// runtime_data. Everything else stays as before, unreadable.
//
// The list qualifies only when every link from it to the I/O call is read
// exactly, within bounds: the list is `L.map(cb)` written as the `resources`
// member of the object the handler returns; L leads, through `await`,
// parentheses, member accesses, `x || []` / `x ?? []`, and names declared
// `const` (or one level of object destructuring) that no code of the file
// writes again, to a call made in the body of the handler itself (so at
// request time); and that call's callee is rooted, by the same links plus
// calls and `new`, in a binding imported from another package that is not
// the language's globals, not a module built into node (its files, its
// processes and its network reach the package's own files and the
// publisher's hosts), not a general HTTP client (its address may be the
// publisher's own service) and not an MCP library (its listing is another
// server's text). A list read from a file, parsed from a document, fetched
// by URL, kept in the package's memory or built by a function of the
// package stays unreadable.

// maxRuntimeLinks bounds the links followed from a list to its I/O call.
const maxRuntimeLinks = 24

// runtimeData is the value of one element of a listing of the operator's
// data: not resolved, and not the package's.
func runtimeData() val {
	v := unknown("an element of data listed at run time")
	v.rtdata = true
	return v
}

// notRuntime drops the mark: the value may hold the package's bytes.
func notRuntime(v val) val {
	v.rtdata = false
	return v
}

// runtimeHole marks the hole h of a template substitution expr as filled by
// the operator's data when expr, read under e, is such data.
func (x *extractor) runtimeHole(h val, f *file, expr nid, e *env) val {
	if x.runtimeText == 0 || expr < 0 || h.k != vText || len(h.txt.segs) != 1 || !h.txt.segs[0].hole || h.txt.segs[0].client {
		return h
	}
	switch f.kind(expr) {
	case "identifier", "member_expression":
	default:
		return h
	}
	if v := x.eval(f, expr, e); v.k == vUnknown && v.rtdata {
		h.txt.segs[0].rtdata = true
	}
	return h
}

// keepRuntimeName drops the mark of a value read through a binding its
// file writes somewhere (since 2.3.11 a write of another binding of the same
// name, in another function, no longer does: runtimeBindingWritten,
// resnames.go).
func (x *extractor) keepRuntimeName(v val, f *file, b binding) val {
	if v.rtdata && x.runtimeBindingWritten(f, b) {
		return notRuntime(v)
	}
	return v
}

// keepRuntimeProp drops the mark of property key of the operator's data when
// the package writes a property of that name anywhere: it may have replaced
// the data's bytes with its own.
func (x *extractor) keepRuntimeProp(v val, key string) val {
	if v.rtdata && x.runtimePropWritten(key) { // resnames.go
		return notRuntime(v)
	}
	return v
}

// runtimeListing reads the resources member of r, an object a resources/list
// handler returns, as a listing of the operator's data. It reports whether
// it recorded the listing; when it did not, the caller records the list as
// not read, as before.
func (x *extractor) runtimeListing(method string, r val, c *collector) bool {
	if method != "resources/list" || x.listHandler.f == nil || r.k != vObject || r.f == nil || r.n < 0 ||
		r.f != x.listHandler.f || r.f.lang == LangPython || r.f.kind(r.n) != "object" {
		return false
	}
	f, handler := r.f, x.listHandler.n
	list := objectMember(f, r.n, "resources")
	if list < 0 || !f.contains(handler, r.n) || !plainObject(f, r.n) {
		return false
	}
	budget := maxListingLinks                   // jsresources.go
	list = x.listThroughConst(f, list, &budget) // jsresources.go
	if f.kind(list) != "call_expression" || !f.contains(handler, list) {
		return false
	}
	callee := f.field(list, "function")
	args := f.args(list)
	if f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "map" || len(args) != 1 {
		return false
	}
	s := &rtScope{budget: &budget, env: r.env}
	if !x.requestTimeData(f, f.field(callee, "object"), handler, s) {
		return false
	}
	cb := args[0]
	if k := f.kind(cb); k != "arrow_function" && k != "function_expression" && k != "function" {
		return false
	}
	params := f.named(f.field(cb, "parameters"))
	if len(params) == 0 || f.kind(params[0]) != "identifier" && f.kind(params[0]) != "required_parameter" {
		return false
	}
	if f.kind(params[0]) == "required_parameter" && f.kind(f.field(params[0], "pattern")) != "identifier" {
		return false
	}
	fn := x.eval(f, cb, r.env)
	if fn.k != vFunc {
		return false
	}
	el := runtimeData()
	x.runtimeText++
	defer func() { x.runtimeText-- }()
	ret := x.call(fn, []thunk{{v: &el}}, nil, r.env)
	if ret.k != vObject || ret.f == nil || ret.n < 0 || ret.f.kind(ret.n) != "object" || !plainObject(ret.f, ret.n) {
		return false
	}
	ent := entryBase(KindResource, c.file, c.site)
	ent.NameState = vocab.StateUnreadable
	ent.ListedAtRunTime = true
	ent.SchemaKind = SchemaNone
	desc := objectMember(ret.f, ret.n, "description")
	if desc < 0 {
		describe(&ent, val{}, false)
	} else {
		describe(&ent, x.listedText(ret.f, desc, ret.env), true) // resnames.go
	}
	c.entries = append(c.entries, ent)
	x.listedTexts(ret.f, ret.n, ret.env, c) // the name and title (resnames.go)
	return true
}

// objectMember is the value node of the last plain `key: value` (or
// shorthand) member of the object literal obj, the one JavaScript keeps, or
// none.
func objectMember(f *file, obj nid, key string) nid {
	found := none
	for _, m := range f.named(obj) {
		switch f.kind(m) {
		case "pair":
			k := f.field(m, "key")
			name := f.text(k)
			if f.kind(k) == "string" {
				s, ok := f.stringValue(k)
				if !ok {
					continue
				}
				name = s
			}
			if name == key && f.kind(k) != "computed_property_name" {
				found = f.field(m, "value")
			}
		case "shorthand_property_identifier":
			if f.text(m) == key {
				found = m
			}
		}
	}
	return found
}

// plainObject reports whether the object literal obj has only plain members:
// no spread (which could add a description), no computed key, no method.
func plainObject(f *file, obj nid) bool {
	for _, m := range f.named(obj) {
		switch f.kind(m) {
		case "pair":
			if f.kind(f.field(m, "key")) == "computed_property_name" {
				return false
			}
		case "shorthand_property_identifier", "comment":
		default:
			return false
		}
	}
	return true
}

// stripWrappers removes parentheses, await and TypeScript's assertions.
func stripWrappers(f *file, n nid) nid {
	for i := 0; i < maxRuntimeLinks && n >= 0; i++ {
		switch f.kind(n) {
		case "parenthesized_expression", "await_expression", "non_null_expression", "as_expression", "satisfies_expression":
			ch := f.named(n)
			if len(ch) == 0 {
				return none
			}
			n = ch[0]
		default:
			return n
		}
	}
	return n
}

// requestTimeData reports whether the expression n is data returned by an
// I/O call made in the body of handler (see the comment at the top).
func (x *extractor) requestTimeData(f *file, n nid, handler nid, s *rtScope) bool {
	n = stripWrappers(f, n)
	if n < 0 || !x.runtimeLink(s.budget) || x.dataMutated(f, n) {
		return false
	}
	switch f.kind(n) {
	case "member_expression":
		return x.requestTimeData(f, f.field(n, "object"), handler, s)
	case "binary_expression":
		op := f.text(f.field(n, "operator"))
		right := stripWrappers(f, f.field(n, "right"))
		if (op == "||" || op == "??") && f.kind(right) == "array" && len(f.named(right)) == 0 {
			return x.requestTimeData(f, f.field(n, "left"), handler, s)
		}
		// Either side is such data (jsresources.go).
		return (op == "||" || op == "??") && x.requestTimeData(f, f.field(n, "left"), handler, s) &&
			x.requestTimeData(f, f.field(n, "right"), handler, s)
	case "identifier":
		if v, ok := x.constInit(f, n); ok {
			return x.requestTimeData(f, v, handler, s)
		}
	case "call_expression":
		if !f.contains(handler, n) {
			return false
		}
		// The data call itself: made while the request is answered, or a
		// function of the package called then whose every return is such
		// data, or a cache of such data (jsresources.go).
		if x.ioClient(f, f.field(n, "function"), s) {
			return true
		}
		if ok, handled := x.cachedValues(f, n, s, false); handled {
			return ok
		}
		return x.helperReturns(f, n, s, false)
	}
	return false
}

// ioClient reports whether n is rooted in a binding imported from another
// package that qualifies as an I/O library of the operator's data.
func (x *extractor) ioClient(f *file, n nid, s *rtScope) bool {
	n = stripWrappers(f, n)
	if n < 0 || !x.runtimeLink(s.budget) {
		return false
	}
	switch f.kind(n) {
	case "member_expression":
		if f.kind(f.field(n, "object")) == "this" {
			return x.thisFieldClient(f, n, s) // jsresources.go
		}
		return x.ioClient(f, f.field(n, "object"), s)
	case "binary_expression":
		// Either side is such a client (jsresources.go).
		op := f.text(f.field(n, "operator"))
		return (op == "||" || op == "??") && x.ioClient(f, f.field(n, "left"), s) && x.ioClient(f, f.field(n, "right"), s)
	case "call_expression":
		if x.ioClient(f, f.field(n, "function"), s) {
			return true
		}
		// A cache of such clients, or a function of the package whose
		// every return is one (jsresources.go).
		if ok, handled := x.cachedValues(f, n, s, true); handled {
			return ok
		}
		return x.helperReturns(f, n, s, true)
	case "new_expression":
		return x.ioClient(f, f.field(n, "constructor"), s)
	case "identifier":
		if b, ok := x.lookup(f, n, f.text(n)); ok && b.kind == bImport {
			v := x.eval(f, n, nil)
			return v.k == vExternal && operatorDataLibrary(v.spec)
		}
		if v, ok := x.constInit(f, n); ok {
			return x.ioClient(f, v, s)
		}
	}
	return false
}

// constInit is the initialiser of the name n when it is declared const (as
// the whole declarator, or one level of object destructuring) and no code
// of its file writes it again.
func (x *extractor) constInit(f *file, n nid) (nid, bool) {
	name := f.text(n)
	b, ok := x.lookup(f, n, name)
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || x.jsBindingWritten(f, b) {
		return none, false
	}
	decl := f.parent(b.decl)
	if f.kind(decl) != "lexical_declaration" || !strings.HasPrefix(f.text(decl), "const") {
		return none, false
	}
	pat, v := f.field(b.decl, "name"), f.field(b.decl, "value")
	if v < 0 {
		return none, false
	}
	if pat == b.id {
		return v, true
	}
	if f.kind(pat) == "object_pattern" && f.parent(b.id) == pat && f.kind(b.id) == "shorthand_property_identifier_pattern" {
		return v, true
	}
	return none, false
}

func (x *extractor) runtimeLink(budget *int) bool {
	if *budget <= 0 || !x.step() {
		return false
	}
	*budget--
	return true
}

// operatorDataLibrary reports whether spec, an external binding as the
// module reader writes it (module specifier, then members), names a
// library whose results are the operator's data: not a global of the
// language, not a module built into node, not a general HTTP client, not an
// MCP library, and not a reader of files, documents or OpenAPI descriptions.
func operatorDataLibrary(spec string) bool {
	spec = strings.TrimPrefix(spec, "new ")
	if spec == "" || externalCallReason(spec) != "" {
		return false
	}
	mod := spec
	if strings.HasPrefix(spec, "@") {
		// @scope/name: the first dot after the slash ends the specifier.
		if i := strings.IndexByte(spec, '/'); i > 0 {
			if j := strings.IndexByte(spec[i:], '.'); j >= 0 {
				mod = spec[:i+j]
			}
		}
	} else if i := strings.IndexByte(spec, '.'); i >= 0 {
		mod = spec[:i]
	}
	lower := strings.ToLower(mod)
	switch {
	case strings.HasPrefix(mod, "node:"), nodeBuiltinModules[strings.SplitN(mod, "/", 2)[0]], jsGlobalNames[mod]:
		return false
	case notOperatorDataModules[lower]:
		return false
	case strings.Contains(lower, "mcp") || strings.Contains(lower, "modelcontext"):
		return false
	case strings.HasPrefix(mod, ".") || strings.HasPrefix(mod, "/"):
		return false
	}
	return true
}

// jsGlobalNames are the globals the evaluator gives as external bindings.
var jsGlobalNames = map[string]bool{
	"process": true, "globalThis": true, "window": true, "global": true, "require": true, "module": true,
	"exports": true, "console": true, "JSON": true, "Object": true, "Array": true, "String": true,
	"Buffer": true, "Promise": true, "Math": true, "Date": true, "Map": true, "Set": true,
}

// nodeBuiltinModules are node's built-in modules (imported without the
// node: prefix as well).
var nodeBuiltinModules = map[string]bool{
	"assert": true, "async_hooks": true, "buffer": true, "child_process": true, "cluster": true, "console": true,
	"crypto": true, "dgram": true, "diagnostics_channel": true, "dns": true, "events": true, "fs": true,
	"http": true, "http2": true, "https": true, "inspector": true, "module": true, "net": true, "os": true,
	"path": true, "perf_hooks": true, "process": true, "querystring": true, "readline": true, "repl": true,
	"stream": true, "string_decoder": true, "timers": true, "tls": true, "tty": true, "url": true, "util": true,
	"v8": true, "vm": true, "worker_threads": true, "zlib": true,
}

// notOperatorDataModules are libraries whose results are not the
// operator's data by construction: general HTTP clients (the address they
// fetch may be the publisher's own service), readers of files (the
// package's own among them) and parsers of documents.
var notOperatorDataModules = map[string]bool{
	"axios": true, "node-fetch": true, "got": true, "ky": true, "undici": true, "fetch": true,
	"superagent": true, "cross-fetch": true, "isomorphic-fetch": true, "request": true, "needle": true,
	"phin": true, "wretch": true, "ofetch": true, "fetch-retry": true, "make-fetch-happen": true,
	"fs-extra": true, "graceful-fs": true, "js-yaml": true, "yaml": true, "glob": true, "fast-glob": true,
}
