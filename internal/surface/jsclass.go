package surface

import "strings"

// A server's own subclass of the MCP SDK's server (methodology §5.2, 2.3.4).
//
// `class MyServer extends McpServer { tool(...) { ... } }` defines a method
// of the tool API with a body, which alone would make the class an
// implementation of the API (a bundled SDK, a framework) and the package
// not a server. When the class's `extends` clause resolves, through the
// package's imports and its own classes, to the SDK's server class, the
// class is the server's, not an implementation of the API: it is not
// definition evidence, and the registrations written in it or made on its
// instances are sites. A class that extends anything else stays as before.

// sdkServerClasses are the SDK's server classes, by module and export: the
// high-level McpServer and the low-level Server of the TypeScript SDK
// (`@modelcontextprotocol/sdk/server/mcp.js`, `.../server/index.js`, and
// the split server package of its later releases).
var sdkServerClasses = map[string]bool{"McpServer": true, "Server": true}

// isSDKServerSpec reports whether an external binding (module specifier
// and member path, as importValue and getProp write them) is the SDK's
// server class.
func isSDKServerSpec(spec string) bool {
	i := strings.LastIndexByte(spec, '.')
	if i <= 0 || !sdkServerClasses[spec[i+1:]] {
		return false
	}
	mod := spec[:i]
	switch {
	case mod == "@modelcontextprotocol/sdk", mod == "@modelcontextprotocol/server":
		return true
	case strings.HasPrefix(mod, "@modelcontextprotocol/sdk/server/"):
		rest := strings.TrimPrefix(mod, "@modelcontextprotocol/sdk/server/")
		rest = strings.TrimSuffix(strings.TrimSuffix(rest, ".js"), "/index")
		return rest == "mcp" || rest == "index"
	case mod == "@modelcontextprotocol/sdk/server":
		return true
	}
	return false
}

// classExtendsExpr returns the expression of a class's extends clause.
func classExtendsExpr(f *file, class nid) nid {
	h := f.childOfKind(class, "class_heritage")
	if h < 0 {
		return none
	}
	sup := h
	if ex := f.childOfKind(h, "extends_clause"); ex >= 0 {
		sup = ex
	}
	ch := f.named(sup)
	if len(ch) == 0 {
		return none
	}
	return ch[0]
}

// maxClassChain bounds the walk up a chain of the package's own classes.
const maxClassChain = 16

// extendsSDKServer reports whether class (a class node of f) extends the
// SDK's server class, directly or through classes of the package. The
// answer is kept per class; a chain that returns to a class it passed, or
// runs past maxClassChain classes, is not the SDK's.
func (x *extractor) extendsSDKServer(f *file, class nid) bool {
	if f == nil || class < 0 || f.lang == LangPython || !strings.Contains(f.kind(class), "class") {
		return false
	}
	key := progKey{f, class, nil}
	if v, ok := x.sdkSubclass[key]; ok {
		return v
	}
	if x.sdkSubclass == nil {
		x.sdkSubclass = map[progKey]bool{}
	}
	x.sdkSubclass[key] = false // in progress: a cycle is not the SDK
	if x.siteLimit == 0 {
		// Outside a site: this resolution gets a site's step budget.
		x.siteLimit, x.siteOver = x.steps+x.opts.MaxSiteSteps, false
		defer func() { x.siteLimit, x.siteOver = 0, false }()
	}
	res := false
	seen := map[progKey]bool{key: true}
	cf, cur := f, class
	for i := 0; i < maxClassChain; i++ {
		sup := classExtendsExpr(cf, cur)
		if sup < 0 {
			break
		}
		v := x.eval(cf, sup, nil)
		if v.k == vExternal {
			res = isSDKServerSpec(v.spec)
			break
		}
		if v.k != vClass || v.f == nil || v.f.lang == LangPython {
			break
		}
		k := progKey{v.f, v.n, nil}
		if seen[k] {
			break
		}
		if r, ok := x.sdkSubclass[k]; ok && v.f != cf {
			res = r
			break
		}
		seen[k] = true
		cf, cur = v.f, v.n
	}
	x.sdkSubclass[key] = res
	return res
}

// enclosingClassOfMethod returns the class a method_definition belongs to.
func enclosingClassOfMethod(f *file, m nid) nid {
	body := f.parent(m)
	if f.kind(body) != "class_body" {
		return none
	}
	return f.parent(body)
}

// protoCallMethod returns the registration method of a call written
// `Base.prototype.registerTool.call(thisArg, ...)` (how a subclass calls
// the SDK's method past its own override), with the node of Base; "" when
// the call is not of that form.
func protoCallMethod(f *file, n nid) (string, nid) {
	if f.kind(n) != "call_expression" {
		return "", none
	}
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "call" {
		return "", none
	}
	m := f.field(callee, "object")
	if f.kind(m) != "member_expression" {
		return "", none
	}
	proto := f.field(m, "object")
	if f.kind(proto) != "member_expression" || f.text(f.field(proto, "property")) != "prototype" {
		return "", none
	}
	switch name := f.text(f.field(m, "property")); name {
	case "tool", "registerTool", "registerToolTask", "prompt", "registerPrompt", "resource", "registerResource":
		return name, f.field(proto, "object")
	}
	return "", none
}

// siteArgs returns the arguments a registration site passes to the
// registration method: a call's arguments, or, for
// `Base.prototype.m.call(thisArg, ...)`, those after thisArg.
func (f *file) siteArgs(n nid) []nid {
	a := f.args(n)
	if m, _ := protoCallMethod(f, n); m != "" && len(a) > 0 {
		return a[1:]
	}
	return a
}

// protoCallIsSDK reports whether a `Base.prototype.m.call(...)` site calls
// the SDK's method: Base is the SDK's server class, or a class of the
// package that extends it.
func (x *extractor) protoCallIsSDK(f *file, n nid) bool {
	_, base := protoCallMethod(f, n)
	if base < 0 {
		return false
	}
	v := x.eval(f, base, nil)
	switch v.k {
	case vExternal:
		return isSDKServerSpec(v.spec)
	case vClass:
		return x.extendsSDKServer(v.f, v.n)
	}
	return false
}

// callsSubclassOverride reports whether the registration call n is a call
// of a method the package's own subclass of the SDK server overrides
// (`server.tool(...)` where server is an instance of `class S extends
// McpServer { tool(...) { ...; super.tool(...) } }`): the override is the
// package's code, and the registrations it makes are the sites, read
// through this call as one of its call sites; the call itself registers
// nothing the extractor could read as the SDK's method. need is set when
// the receiver is not yet bound.
func (x *extractor) callsSubclassOverride(f *file, n nid, kind siteKind, e *env) (bool, *val) {
	switch kind {
	case siteTool, siteRegisterTool, siteAddTool, sitePrompt, siteRegisterPrompt, siteResource, siteRegisterResource:
		// Sites whose arguments are read through the override's call sites.
		// A list handler (setRequestHandler) is kept as the SDK's: the
		// override's inner call names its schema by a parameter, which the
		// site's method check does not follow.
	default:
		return false, nil
	}
	if f.kind(n) != "call_expression" {
		return false, nil
	}
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" {
		return false, nil
	}
	obj := f.field(callee, "object")
	if f.kind(obj) == "super" {
		return false, nil
	}
	method := f.text(f.field(callee, "property"))
	recv := x.eval(f, obj, e)
	if recv.k == vNeed {
		return false, &recv
	}
	if recv.k != vInstance || recv.f == nil || recv.f.lang == LangPython || !x.extendsSDKServer(recv.f, recv.n) {
		return false, nil
	}
	m, found := x.memberOf(recv, method, e)
	if m.k == vNeed {
		return false, &m
	}
	if !found || m.k != vFunc || m.f == nil || m.f.kind(m.n) != "method_definition" || m.f.field(m.n, "body") < 0 {
		return false, nil
	}
	return x.extendsSDKServer(m.f, enclosingClassOfMethod(m.f, m.n)), nil
}

// classifyProtoCall records `Base.prototype.m.call(thisArg, ...)` as a site
// of m, counting the arguments after thisArg (whether Base is the SDK's
// server is decided when the site is read: protoCallIsSDK).
func classifyProtoCall(f *file, fa *facts, n nid, method string) {
	nargs := len(f.args(n)) - 1
	add := func(k siteKind) { fa.sites = append(fa.sites, siteRef{k, n}) }
	switch method {
	case "tool":
		if nargs >= 2 {
			add(siteTool)
		}
	case "registerTool", "registerToolTask":
		if nargs >= 2 {
			add(siteRegisterTool)
		}
	case "prompt":
		if nargs >= 2 {
			add(sitePrompt)
		}
	case "registerPrompt":
		if nargs >= 2 {
			add(siteRegisterPrompt)
		}
	case "resource":
		if nargs >= 3 {
			add(siteResource)
		}
	case "registerResource":
		if nargs >= 3 {
			add(siteRegisterResource)
		}
	}
}
