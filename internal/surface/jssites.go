package surface

import (
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// annotationKeys are the tool annotations recorded when literal booleans.
var annotationKeys = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// listField maps a list method to the result field that holds its entries.
var listField = map[string]string{
	"tools/list":               "tools",
	"prompts/list":             "prompts",
	"resources/list":           "resources",
	"resources/templates/list": "resourceTemplates",
}

// requestSchemaMethod maps the SDK's request schemas to their methods.
var requestSchemaMethod = map[string]string{
	"ListToolsRequestSchema":             "tools/list",
	"ListPromptsRequestSchema":           "prompts/list",
	"ListResourcesRequestSchema":         "resources/list",
	"ListResourceTemplatesRequestSchema": "resources/templates/list",
}

// clientRequestSite records the first runnable sampling or elicitation
// request of the package (sampling and elicitation are the method names in
// the file's language); handled says s was such a site.
func (x *extractor) clientRequestSite(f *file, s siteRef, sampling, elicitation string) (handled bool) {
	var at **rundir.Site
	var detail string
	switch s.kind {
	case siteSampling:
		at, detail = &x.s.Sampling, sampling
	case siteElicitation:
		at, detail = &x.s.Elicitation, elicitation
	default:
		return false
	}
	if *at == nil && f.runnable() && !f.inVendoredRegion(s.n) {
		st := f.site(s.n, detail)
		*at = &st
	}
	return true
}

// jsSite evaluates one candidate site of a JS/TS file.
func (x *extractor) jsSite(f *file, s siteRef) {
	n := s.n
	if x.clientRequestSite(f, s, "createMessage", "elicitInput") {
		return
	}
	switch s.kind {
	case siteReassign, siteConsumeCall, siteDefineMethod:
		return // read after the sites (reassignment) or for the outcome
	}
	if !f.runnable() || f.inVendoredRegion(n) {
		return
	}
	if m, _ := protoCallMethod(f, n); m != "" && !x.protoCallIsSDK(f, n) {
		return // Base.prototype.m.call(...) of a class that is not the SDK's server
	}
	if (x.insideAPIClass(f, n) && !callsParameterAPI(f, n)) || insideAPIOverride(f, n) {
		// The implementation of the tool API (an SDK's McpServer, a
		// framework's server class, a replacement of server.addTool) is
		// not the subject's registrations: the calls of it are.
		return
	}
	if (s.kind == siteMethodCase || s.kind == siteMethodIf) && !dispatcherReturns(f, n, s.kind) {
		return // a capability check, not a handler that answers the list
	}
	if s.kind == siteRequestHandler && x.requestMethod(f, n) == "" {
		return
	}
	if s.kind == siteToolsTable && !x.toolsTableApplies(f, n) {
		return
	}
	if f.minified {
		// Registration text in a bundle: evidence of minified_only when
		// there is none elsewhere; read after the readable sites when there
		// is (readBundleSites), so no bundle's tools go missing silently.
		if s.kind != siteNewServer {
			if len(x.minSites) == 0 || x.minSites[len(x.minSites)-1].File != f.path {
				x.minSites = append(x.minSites, f.site(n, x.bundleDetail(f)))
			}
			x.bundleSites = append(x.bundleSites, bundleSite{f: f, js: s})
		}
		return
	}
	x.jsReadSite(f, s)
}

// jsReadSite reads one registration site of a JS/TS file.
func (x *extractor) jsReadSite(f *file, s siteRef) {
	n := s.n
	if s.kind == siteNewServer {
		x.enumerate(f, n, func(e *env, c *collector) { x.instructionsSite(f, n, e, c) })
		return
	}
	x.readSites++
	x.jsEnumerate(f, n, func(e *env, c *collector) { // jsconfig.go: conditions of configuration
		if over, need := x.callsSubclassOverride(f, n, s.kind, e); need != nil {
			c.needs(*need)
			return
		} else if over {
			return // the override's own registrations are the sites
		}
		switch s.kind {
		case siteTool:
			x.toolCallSite(f, n, e, c)
		case siteRegisterTool:
			x.registerToolSite(f, n, e, c)
		case siteAddTool, siteDefineTool:
			x.addToolSite(f, n, e, c)
		case siteRequestHandler:
			x.requestHandlerSite(f, n, e, c)
		case siteMethodCase, siteMethodIf:
			x.dispatcherSite(f, n, s.kind, e, c)
		case siteTypedTool:
			x.typedToolSite(f, n, e, c)
		case siteToolClass:
			x.toolClassSite(f, n, e, c)
		case siteToolsTable:
			x.toolsTableSite(f, n, e, c)
		case sitePrompt, siteRegisterPrompt:
			x.promptSite(f, n, s.kind == siteRegisterPrompt, e, c)
		case siteResource, siteRegisterResource:
			x.resourceSite(f, n, e, c)
		default:
			x.jsPromptSite(f, n, s.kind, e, c)
		}
	})
}

func (x *extractor) bundleDetail(f *file) string {
	longest, cur := 0, 0
	for _, b := range f.src {
		if b == '\n' {
			cur = 0
			continue
		}
		cur++
		if cur > longest {
			longest = cur
		}
	}
	return "minified bundle of " + strconv.Itoa(len(f.src)) + " bytes, longest line " + strconv.Itoa(longest) + " bytes"
}

// isFunctionNode reports whether an argument is written as a function.
func isFunctionNode(f *file, n nid) bool {
	return functionKind(f.kind(n))
}

// handlerSplit separates a registration call's trailing handler from the
// arguments before it.
func (x *extractor) handlerSplit(f *file, args []nid, e *env) (mid []nid, handler nid) {
	if len(args) == 0 {
		return nil, none
	}
	last := args[len(args)-1]
	if isFunctionNode(f, last) {
		return args[:len(args)-1], last
	}
	if k := f.kind(last); k == "identifier" || k == "member_expression" || k == "call_expression" {
		v := x.eval(f, last, e)
		if v.k == vFunc {
			return args[:len(args)-1], last
		}
	}
	return args, none
}

// entryBase starts an entry at a node.
func entryBase(kind string, f *file, n nid) rundir.Entry {
	return rundir.Entry{Kind: kind, File: f.path, Line: f.lineOf(n), Spans: []rundir.Span{}, Holes: []rundir.Hole{}}
}

// nameOf reads a name value; ok is false when the collector needs a fork.
func (x *extractor) nameOf(e *rundir.Entry, v val, c *collector, what string) bool {
	if c.needs(v) {
		return false
	}
	v = x.nameText(v)
	if c.needs(v) {
		return false
	}
	if s, ok := plainText(v); ok {
		e.Name = s
		return true
	}
	e.NameState = vocab.StateUnreadable
	r := reasonOf(v)
	if v.k == vUndefined {
		r = "no name"
	}
	if what != KindTool {
		// A prompt or resource whose name is not read is still recorded with
		// its description state; only an unread tool leaves the tool
		// surface undetermined.
		return true
	}
	c.failures = append(c.failures, what+" name could not be read: "+r)
	if isRuntimeReason(r) {
		c.runtime = append(c.runtime, r)
	}
	return true
}

// callsOwnMethod reports whether the call n is obj.m(...) on a plain object
// literal of the package whose member m is a function the package wrote: a
// tool definition invoking its own handler (`tool.tool(sdk, args)`), not a
// server registering anything.
func (x *extractor) callsOwnMethod(f *file, n nid, e *env) (bool, *val) {
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" {
		return false, nil
	}
	recv := x.eval(f, f.field(callee, "object"), e)
	if recv.k == vNeed {
		return false, &recv
	}
	if recv.k != vObject {
		return false, nil
	}
	m, found := x.getProp(recv, f.text(f.field(callee, "property")), e)
	if m.k == vNeed {
		return false, &m
	}
	return found && m.k == vFunc, nil
}

// reassignsToolObject reports whether the object a description is assigned
// on is a registered tool definition: directly, as one of several values, or
// through the element a loop or callback binds (`for (const t of tools)
// t.description = ...`, each element tried).
func (x *extractor) reassignsToolObject(f *file, obj nid) bool {
	x.siteLimit, x.siteOver = x.steps+x.opts.MaxSiteSteps, false
	defer func() { x.siteLimit, x.siteOver = 0, false }()
	var isTool func(v val) bool
	isTool = func(v val) bool {
		switch v.k {
		case vObject:
			return v.n >= 0 && x.toolObjects[progKey{v.f, v.n, nil}]
		case vUnion:
			for _, a := range v.elems {
				if isTool(a) {
					return true
				}
			}
		}
		return false
	}
	v := x.eval(f, obj, nil)
	if isTool(v) {
		return true
	}
	if v.k != vNeed {
		return false
	}
	frames, _, need2 := x.instances(v.need, nil)
	if need2 != nil {
		return false
	}
	for i, fr := range frames {
		if i >= 256 || x.exceeded {
			break
		}
		if isTool(x.eval(f, obj, (*env)(nil).push(fr))) {
			return true
		}
	}
	return false
}

// nameText reads a name written as a template literal whose substitutions
// each resolve to literal text (`web_data_${id}` inside a loop over literal
// ids): the name is that text, followed through the tree like any other.
// Only names are read this way; a description with a substitution stays
// partial whatever the substituted value (methodology §5.2).
func (x *extractor) nameText(v val) val {
	if v.k != vText || !v.txt.partial() {
		return v
	}
	parts := make([]val, 0, len(v.txt.segs))
	for _, s := range v.txt.segs {
		if !s.hole {
			parts = append(parts, val{k: vText, txt: &textv{segs: []seg{s}}})
			continue
		}
		if s.expr < 0 {
			return unknown("name built from a substitution that is not followed")
		}
		hv := x.eval(s.f, s.expr, s.env)
		if hv.k == vNeed {
			return hv
		}
		t, ok := plainText(hv)
		if !ok {
			return unknown("name built from a substitution that is not resolved: " + reasonOf(hv))
		}
		parts = append(parts, val{k: vText, txt: &textv{segs: []seg{{text: t}}}})
	}
	return concatText(parts...)
}

// isRuntimeReason reports whether a resolution failure comes from data the
// server reads at run time (an OpenAPI document, a remote catalog, a file).
func isRuntimeReason(r string) bool {
	if pyOutsideReason(r) {
		return true
	}
	for _, s := range []string{"fetched at run time", "parsed from JSON", "read from a file", "OpenAPI", "openapi", "swagger"} {
		if strings.Contains(r, s) {
			return true
		}
	}
	return false
}

func (x *extractor) toolCallSite(f *file, n nid, e *env, c *collector) {
	args := f.siteArgs(n)
	if own, need := x.callsOwnMethod(f, n, e); need != nil {
		c.needs(*need)
		return
	} else if own {
		return
	}
	mid, _ := x.handlerSplit(f, args, e)
	if len(mid) == 0 {
		return
	}
	ent := entryBase(KindTool, f, n)
	if !x.nameOf(&ent, x.eval(f, mid[0], e), c, "tool") {
		return
	}
	rest := mid[1:]
	var desc val
	hasDesc := false
	if len(rest) >= 1 {
		d := x.eval(f, rest[0], e)
		if c.needs(d) {
			return
		}
		if len(rest) == 3 || (d.k != vObject && d.k != vUndefined && f.kind(rest[0]) != "object") {
			desc, hasDesc = d, true
			rest = rest[1:]
		}
	}
	describe(&ent, desc, hasDesc)
	var schemaNode, annNode nid = none, none
	switch len(rest) {
	case 1:
		v := x.eval(f, rest[0], e)
		if c.needs(v) {
			return
		}
		if x.looksLikeAnnotations(v, e) {
			annNode = rest[0]
		} else {
			schemaNode = rest[0]
		}
	case 2:
		schemaNode, annNode = rest[0], rest[1]
	}
	if schemaNode >= 0 {
		sv := x.eval(f, schemaNode, e)
		if c.needs(sv) {
			return
		}
		x.setSchema(&ent, sv, f, schemaNode)
		zodShape(&ent, sv, f, schemaNode)
		x.paramDescriptions(c, ent.Name, f, schemaNode, e)
	} else {
		ent.SchemaKind = SchemaNone
	}
	if annNode >= 0 {
		av := x.eval(f, annNode, e)
		if c.needs(av) {
			return
		}
		x.setAnnotations(&ent, av, e)
	}
	c.entries = append(c.entries, ent)
}

// looksLikeAnnotations follows the SDK: an object that is not a zod raw
// shape is the annotations argument; statically, an object whose keys are
// all annotation keys.
func (x *extractor) looksLikeAnnotations(v val, e *env) bool {
	if v.k != vObject {
		return false
	}
	keys, _, ok := x.entries(v, e)
	if !ok || len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		s, _ := plainText(k)
		switch s {
		case "title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint":
		default:
			return false
		}
	}
	return true
}

func (x *extractor) registerToolSite(f *file, n nid, e *env, c *collector) {
	args := f.siteArgs(n)
	ent := entryBase(KindTool, f, n)
	if !x.nameOf(&ent, x.eval(f, args[0], e), c, "tool") {
		return
	}
	cfg := x.eval(f, args[1], e)
	if c.needs(cfg) {
		return
	}
	if !x.fillFromConfig(&ent, cfg, f, args[1], e, c, "inputSchema") {
		return
	}
	if ent.SchemaKind == SchemaJSON {
		sv, _ := x.getProp(cfg, "inputSchema", e)
		zodShape(&ent, sv, f, args[1])
	}
	c.entries = append(c.entries, ent)
}

// zodShape classifies a schema by the API it is handed to (methodology §7,
// since 2.3.6): McpServer's tool() and registerTool() take a zod raw shape
// or a zod object, never JSON Schema, and the SDK generates the schema a
// client receives from it ({} becomes {"type":"object","properties":{},…}).
// An object literal there is therefore recorded as source (its bytes as
// written), not as a JSON literal a gateway could compare with the wire.
func zodShape(ent *rundir.Entry, v val, at *file, atNode nid) {
	if ent.SchemaKind != SchemaJSON {
		return
	}
	ent.SchemaKind = SchemaSource
	if v.f != nil && v.n >= 0 {
		ent.SchemaRaw = v.f.text(v.n)
		return
	}
	ent.SchemaRaw = at.text(atNode)
}

// fillFromConfig reads description, schema and annotations from a config
// object. It returns false when the collector needs a fork.
func (x *extractor) fillFromConfig(ent *rundir.Entry, cfg val, f *file, at nid, e *env, c *collector, schemaKeys ...string) bool {
	if cfg.isUnknown() || cfg.k == vExternal {
		describe(ent, unknown("configuration not resolved: "+reasonOf(cfg)), true)
		ent.SchemaKind = SchemaSource
		ent.SchemaRaw = f.text(at)
		return true
	}
	if cfg.k == vObject && cfg.n >= 0 && cfg.env == nil {
		x.toolObjects[progKey{cfg.f, cfg.n, nil}] = true
	} else if cfg.k == vObject && cfg.n >= 0 {
		x.toolObjects[progKey{cfg.f, cfg.n, nil}] = true
	}
	x.markSpreadTools(cfg, 0)
	d, found := x.getProp(cfg, "description", e)
	if c.needs(d) {
		return false
	}
	describe(ent, d, found)
	ent.SchemaKind = SchemaNone
	for _, k := range schemaKeys {
		sv, found := x.getProp(cfg, k, e)
		if c.needs(sv) {
			return false
		}
		if found && sv.k != vUndefined {
			x.setSchema(ent, sv, f, at)
			if sv.f != nil && sv.n >= 0 {
				sf, sn, se := x.configSchema(cfg, k, sv, e) // schematext_helper.go
				x.paramDescriptions(c, ent.Name, sf, sn, se)
			} else if sv.k != vNull {
				x.unreadSchema(c, ent.Name, f, at, "schema not resolved to one expression: "+reasonOf(sv)) // schematext.go
			}
			break
		}
	}
	if av, found := x.getProp(cfg, "annotations", e); found {
		if c.needs(av) {
			return false
		}
		x.setAnnotations(ent, av, e)
	}
	return true
}

func (x *extractor) addToolSite(f *file, n nid, e *env, c *collector) {
	args := f.args(n)
	first := x.eval(f, args[0], e)
	if c.needs(first) {
		return
	}
	if first.k == vFunc && len(args) == 1 {
		// defineTool(() => ({name, description, ...})): the definition is
		// what the factory returns.
		first = x.call(first, nil, nil, e)
		if c.needs(first) {
			return
		}
	}
	if first.k == vObject || (first.k != vText && len(args) == 1) {
		x.toolFromObject(f, n, first, e, c, "")
		return
	}
	ent := entryBase(KindTool, f, n)
	if !x.nameOf(&ent, first, c, "tool") {
		return
	}
	if len(args) < 2 {
		describe(&ent, val{}, false)
		ent.SchemaKind = SchemaNone
		c.entries = append(c.entries, ent)
		return
	}
	second := x.eval(f, args[1], e)
	if c.needs(second) {
		return
	}
	if second.k == vText {
		describe(&ent, second, true)
		ent.SchemaKind = SchemaNone
		if len(args) >= 4 {
			sv := x.eval(f, args[2], e)
			x.setSchema(&ent, sv, f, args[2])
		}
		c.entries = append(c.entries, ent)
		return
	}
	if !x.fillFromConfig(&ent, second, f, args[1], e, c, "inputSchema", "parameters", "schema") {
		return
	}
	c.entries = append(c.entries, ent)
}

// toolFromObject reads a tool definition object {name, description,
// inputSchema|parameters|schema, annotations}. nameOverride names a tool
// whose name is its key in a table.
func (x *extractor) toolFromObject(f *file, at nid, obj val, e *env, c *collector, nameOverride string) {
	ent := entryBase(KindTool, f, at)
	if obj.f != nil && obj.n >= 0 {
		ent.File, ent.Line = obj.f.path, obj.f.lineOf(obj.n)
	}
	if obj.isUnknown() || obj.k == vExternal || obj.k == vText {
		if c.needs(obj) {
			return
		}
		ent.NameState = vocab.StateUnreadable
		describe(&ent, unknown(reasonOf(obj)), true)
		ent.SchemaKind = SchemaNone
		c.failures = append(c.failures, "tool definition could not be read: "+reasonOf(obj))
		if isRuntimeReason(reasonOf(obj)) {
			c.runtime = append(c.runtime, reasonOf(obj))
		}
		c.entries = append(c.entries, ent)
		return
	}
	if obj.k == vInstance {
		x.toolFromInstance(f, at, obj, e, c)
		return
	}
	if nameOverride != "" {
		nv, found := x.getProp(obj, "name", e)
		if c.needs(nv) {
			return
		}
		if s, ok := plainText(nv); found && ok {
			ent.Name = s
		} else {
			ent.Name = nameOverride
		}
	} else {
		nv, _ := x.getProp(obj, "name", e)
		if !x.nameOf(&ent, nv, c, "tool") {
			return
		}
	}
	if !x.fillFromConfig(&ent, obj, f, at, e, c, "inputSchema", "parameters", "schema", "input_schema", "argsSchema") {
		return
	}
	c.entries = append(c.entries, ent)
}

// toolFromInstance reads a tool object built by a class: fields, getters,
// or getName()/getConfig().
func (x *extractor) toolFromInstance(f *file, at nid, inst val, e *env, c *collector) {
	gn, found := x.getProp(inst, "getName", e)
	if c.needs(gn) {
		return
	}
	if found && gn.k == vFunc {
		ent := entryBase(KindTool, inst.f, inst.n)
		if !x.nameOf(&ent, x.call(gn, nil, &inst, e), c, "tool") {
			return
		}
		gc, _ := x.getProp(inst, "getConfig", e)
		var cfg val
		if gc.k == vFunc {
			cfg = x.call(gc, nil, &inst, e)
		} else {
			cfg = unknown("getConfig is not a method")
		}
		if c.needs(cfg) {
			return
		}
		if !x.fillFromConfig(&ent, cfg, f, at, e, c, "inputSchema", "parameters", "schema") {
			return
		}
		c.entries = append(c.entries, ent)
		return
	}
	ent := entryBase(KindTool, inst.f, inst.n)
	nv, _ := x.getProp(inst, "name", e)
	if !x.nameOf(&ent, nv, c, "tool") {
		return
	}
	if !x.fillFromConfig(&ent, inst, f, at, e, c, "inputSchema", "parameters", "schema") {
		return
	}
	c.entries = append(c.entries, ent)
}

// requestMethod returns the list method a setRequestHandler call handles.
func (x *extractor) requestMethod(f *file, n nid) string {
	args := f.args(n)
	if len(args) < 2 {
		return ""
	}
	if s, ok := f.stringValue(args[0]); ok {
		if _, ok := listField[s]; ok {
			return s
		}
		return ""
	}
	name := f.calleeName(args[0])
	if m, ok := requestSchemaMethod[name]; ok {
		return m
	}
	// A schema under another name (a bundle's alias): the list method is the
	// method literal its declaration carries, e.g. z.literal("tools/list").
	if f.kind(args[0]) == "identifier" {
		if b, ok := x.lookup(f, args[0], f.text(args[0])); ok && b.kind == bDecl && f.kind(b.decl) == "variable_declarator" {
			if v := f.field(b.decl, "value"); v >= 0 {
				return listMethodIn(f, v)
			}
		}
	}
	return ""
}

// listMethodIn finds a list-method string literal in a small subtree.
func listMethodIn(f *file, root nid) string {
	found, visited := "", 0
	f.walk(root, func(n nid) bool {
		visited++
		if found != "" || visited > 400 {
			return false
		}
		if f.kind(n) == "string" {
			if s, ok := f.stringValue(n); ok && isListMethod(s) {
				found = s
			}
			return false
		}
		return true
	})
	return found
}

// clientRequest stands for the request a client sends to a handler.
var clientRequest = unknown("the client's request")

func (x *extractor) requestHandlerSite(f *file, n nid, e *env, c *collector) {
	method := x.requestMethod(f, n)
	args := f.args(n)
	h := x.eval(f, args[1], e)
	if c.needs(h) {
		return
	}
	if h.k != vFunc {
		c.failures = append(c.failures, method+" handler could not be resolved: "+reasonOf(h))
		return
	}
	req := clientRequest
	ret := x.call(h, []thunk{{v: &req}}, nil, e)
	if c.needs(ret) {
		return
	}
	prev := x.listHandler
	x.listHandler = scopeRef{h.f, h.n} // jsunread_runtime.go
	defer func() { x.listHandler = prev }()
	x.listResult(f, n, method, ret, e, c)
}

// listResult reads the entries a list handler returns.
func (x *extractor) listResult(f *file, at nid, method string, ret val, e *env, c *collector) {
	field := listField[method]
	var alts []val
	if ret.k == vUnion {
		alts = ret.elems
	} else {
		alts = []val{ret}
	}
	for _, r := range alts {
		if r.k == vUndefined || r.k == vNull {
			continue
		}
		list, found := x.getProp(r, field, e)
		if c.needs(list) {
			return
		}
		if !found || list.k == vUndefined {
			// JSON-RPC dispatchers return {result: {tools}}.
			if res, ok := x.getProp(r, "result", e); ok && res.k != vUndefined {
				list, found = x.getProp(res, field, e)
				if c.needs(list) {
					return
				}
			}
		}
		if !found || list.k == vUndefined {
			if r.isUnknown() {
				x.listFailed(c, method, r)
			}
			continue
		}
		var els []val
		var ok bool
		if method == "tools/list" {
			els, ok = x.elements(list, e)
		} else {
			// A prompt or resource list may put literal entries beside a
			// spread built at run time: the literal ones are read, the
			// spread is recorded as one entry not read.
			els, ok = x.elementsBesideSpreads(list, e, func(sv val) { x.listFailed(c, method, sv) })
		}
		if !ok {
			if len(els) == 1 && c.needs(els[0]) {
				return
			}
			if x.runtimeListing(method, r, c) {
				continue // the operator's data listed at run time (jsunread_runtime.go)
			}
			x.listFailed(c, method, list)
			continue
		}
		if x.listedEntries(f, at, method, els, e, c) {
			return
		}
	}
}

// elementsBesideSpreads is elements for an array literal whose spread
// elements may not resolve: each such spread is handed to runtime and the
// other elements are still returned. Any other value is elements' to read.
// Tools do not use it: a tool list with a part built at run time decides
// the outcome, prompts and resources do not.
func (x *extractor) elementsBesideSpreads(v val, e *env, runtime func(val)) ([]val, bool) {
	if v.k != vArray || v.n < 0 || v.f.lang == LangPython {
		return x.elements(v, e)
	}
	if !x.step() {
		return nil, false
	}
	var out []val
	for _, c := range v.f.named(v.n) {
		if v.f.kind(c) != "spread_element" {
			out = append(out, x.eval(v.f, c, v.env))
			continue
		}
		inner := v.f.named(c)
		if len(inner) == 0 {
			continue
		}
		sv := x.eval(v.f, inner[0], v.env)
		els, ok := x.elements(sv, e)
		switch {
		case ok:
			out = append(out, els...)
		case len(els) == 1 && els[0].k == vNeed:
			return els, false
		case x.exceeded || x.siteOver:
			return nil, false
		default:
			runtime(sv)
		}
	}
	return append(out, x.pushedElements(v, e)...), true
}

func (x *extractor) listFailed(c *collector, method string, v val) {
	r := reasonOf(v)
	if strings.Contains(r, "@modelcontextprotocol/sdk") {
		// A handler that wraps the SDK's own listing re-lists what the
		// registration sites already registered.
		c.notes = append(c.notes, method+" handler relists the SDK's registered entries: "+r)
		return
	}
	kind := map[string]string{"prompts/list": KindPrompt, "resources/list": KindResource, "resources/templates/list": KindResourceTemplate}[method]
	if kind != "" {
		// Prompts and resources built at run time are recorded as one
		// entry whose text was not read; only tools decide the outcome.
		ent := rundir.Entry{Kind: kind, NameState: vocab.StateUnreadable, File: c.file.path, Line: c.file.lineOf(c.site), Spans: []rundir.Span{}, Holes: []rundir.Hole{}}
		describe(&ent, unknown(method+" built at run time: "+r), true)
		ent.SchemaKind = SchemaNone
		c.entries = append(c.entries, ent)
		if kind == KindPrompt {
			pt := entryBase(KindPromptText, c.file, c.site)
			pt.Name = "messages"
			describe(&pt, unknown("messages of prompts listed at run time"), true)
			c.entries = append(c.entries, pt)
		}
		return
	}
	c.failures = append(c.failures, method+" result could not be read: "+r)
	if isRuntimeReason(r) {
		c.runtime = append(c.runtime, r)
	}
}

// apiMethods are the methods whose definition (with a body) makes a class an
// implementation of the tool API rather than a user of it.
var apiMethods = map[string]bool{
	"registerTool": true, "tool": true, "addTool": true, "registerPrompt": true, "setRequestHandler": true,
	"addPrompt": true, "addResource": true, "addResourceTemplate": true, "registerResource": true,
}

// insideAPIClass reports whether n sits in a class that defines the tool API.
func (x *extractor) insideAPIClass(f *file, n nid) bool {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if f.kind(a) == "class_body" && bodyDefinesAPI(f, a) && !x.extendsSDKServer(f, f.parent(a)) {
			return true
		}
	}
	return false
}

// insideAPIOverride reports whether n sits in a function assigned over a
// registration method (`server.addTool = function (def) { ...;
// original(def) }`): a wrapper whose calls are the registration sites.
func insideAPIOverride(f *file, n nid) bool {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if !functionKind(f.kind(a)) {
			continue
		}
		p, a := jsdeclUnparen(f, a) // jsdecl.go
		if jsdeclRegistrarMember(f, p, a) {
			return true
		}
		if f.kind(p) == "assignment_expression" && f.field(p, "right") == a {
			left := f.field(p, "left")
			if f.kind(left) == "member_expression" && apiMethods[f.text(f.field(left, "property"))] {
				return true
			}
		}
	}
	return false
}

// classDefinesAPI reports whether a class declaration defines a method of
// the tool API with a body.
func classDefinesAPI(f *file, class nid) bool {
	if f == nil || class < 0 {
		return false
	}
	body := f.field(class, "body")
	return body >= 0 && bodyDefinesAPI(f, body)
}

func bodyDefinesAPI(f *file, body nid) bool {
	for _, m := range f.named(body) {
		if f.kind(m) == "method_definition" && apiMethods[f.text(f.field(m, "name"))] && f.field(m, "body") >= 0 {
			return true
		}
	}
	return false
}

// dispatcherBodies returns the statements a list-method case or if runs.
func dispatcherBodies(f *file, n nid, kind siteKind) []nid {
	if kind == siteMethodIf {
		return []nid{f.field(n, "consequence")}
	}
	bodies := f.fieldAll(n, "body")
	if len(bodies) == 0 {
		// An empty case falls through to the next one's body.
		for nx := f.nodes[n].next; nx >= 0; nx = f.nodes[nx].next {
			if b := f.fieldAll(nx, "body"); len(b) > 0 {
				return b
			}
		}
	}
	return bodies
}

func dispatcherReturns(f *file, n nid, kind siteKind) bool {
	for _, b := range dispatcherBodies(f, n, kind) {
		if f.kind(b) == "return_statement" || len(returnsOf(f, b)) > 0 {
			return true
		}
	}
	return false
}

// dispatcherSite reads `case "tools/list":` and `if (method === "tools/list")`.
func (x *extractor) dispatcherSite(f *file, n nid, kind siteKind, e *env, c *collector) {
	var method string
	if kind == siteMethodCase {
		method, _ = f.stringValue(f.field(n, "value"))
	} else {
		method = conditionNamesListMethod(f, f.field(n, "condition"))
	}
	bodies := dispatcherBodies(f, n, kind)
	var rets []nid
	for _, b := range bodies {
		if f.kind(b) == "return_statement" {
			rets = append(rets, b)
			continue
		}
		rets = append(rets, returnsOf(f, b)...)
	}
	var alts []val
	for _, r := range rets {
		ch := f.named(r)
		if len(ch) == 0 {
			continue
		}
		v := x.eval(f, ch[0], e)
		if c.needs(v) {
			return
		}
		alts = append(alts, v)
	}
	// A dispatcher that writes its response rather than returning it
	// (writeResponse(id, {tools: TOOLS}); return;): the response object
	// handed to a call in the case body.
	for _, b := range bodies {
		for _, o := range responseObjects(f, b, method) {
			v := x.eval(f, o, e)
			if c.needs(v) {
				return
			}
			alts = append(alts, v)
		}
	}
	if len(alts) == 0 {
		c.failures = append(c.failures, method+" dispatcher returns nothing the extractor can read")
		return
	}
	x.listResult(f, n, method, union(alts...), e, c)
}

// responseObjects finds the object literals a dispatcher's body hands to a
// call as its response: an argument that has the list's own key (tools,
// prompts, ...) or a result member. Calls inside nested functions are not
// the dispatcher's response.
func responseObjects(f *file, body nid, method string) []nid {
	field := listField[method]
	var out []nid
	f.walk(body, func(n nid) bool {
		if n != body && functionKind(f.kind(n)) {
			return false
		}
		if f.kind(n) != "call_expression" {
			return true
		}
		for _, a := range f.args(n) {
			if f.kind(a) == "object" && (objectHasKey(f, a, field) || objectHasKey(f, a, "result")) {
				out = append(out, a)
			}
		}
		return true
	})
	return out
}

func (x *extractor) typedToolSite(f *file, n nid, e *env, c *collector) {
	var v val
	var list bool
	switch f.kind(n) {
	case "satisfies_expression", "as_expression":
		ch := f.named(n)
		if len(ch) < 2 {
			return // `x satisfies` with its type lost to a syntax error
		}
		v = x.eval(f, ch[0], e)
		list = f.kind(ch[1]) != "type_identifier" && f.kind(ch[1]) != "nested_type_identifier"
	default:
		valueNode := f.field(n, "value")
		if valueNode < 0 {
			return // declared, assigned elsewhere; read where it is used
		}
		v = x.eval(f, valueNode, e)
		t := f.named(f.field(n, "type"))
		list = len(t) == 1 && f.kind(t[0]) != "type_identifier" && f.kind(t[0]) != "nested_type_identifier"
	}
	if c.needs(v) {
		return
	}
	if !list {
		x.toolFromObject(f, n, v, e, c, "")
		return
	}
	x.toolList(f, n, v, "Tool[]", e, c)
}

// toolList reads a list of tool objects written at n (a Tool[], a
// list[Tool], a tools table's array); a list that does not resolve is
// recorded under label. stop says the site is done: the list did not
// resolve, or an element needs a binding.
func (x *extractor) toolList(f *file, n nid, v val, label string, e *env, c *collector) (stop bool) {
	els, ok := x.elements(v, e)
	if !ok {
		if len(els) == 1 && c.needs(els[0]) {
			return true
		}
		x.listFailed(c, label, v)
		return true
	}
	for _, el := range els {
		x.toolFromObject(f, n, el, e, c, "")
		if c.need != nil {
			return true
		}
	}
	return false
}

// listedEntries reads the elements a list handler (method) returns, each
// as a tool, prompt, resource or resource template entry. stop says an
// element or entry needs a binding, which ends the site.
func (x *extractor) listedEntries(f *file, at nid, method string, els []val, e *env, c *collector) (stop bool) {
	for _, el := range els {
		if c.needs(el) {
			return true
		}
		switch method {
		case "tools/list":
			x.toolFromObject(f, at, el, e, c, "")
		case "prompts/list":
			x.promptFromObject(f, at, el, e, c)
		case "resources/list":
			x.resourceFromObject(f, at, el, e, c, false)
		case "resources/templates/list":
			x.resourceFromObject(f, at, el, e, c, true)
		}
		if c.need != nil {
			return true
		}
	}
	return false
}

func (x *extractor) toolClassSite(f *file, n nid, e *env, c *collector) {
	inst := val{k: vInstance, f: f, n: n, env: e}
	x.toolFromInstance(f, n, inst, e, c)
}

// toolsTableApplies checks the factory call really hands over a tools table.
func (x *extractor) toolsTableApplies(f *file, n nid) bool {
	for _, a := range f.args(n) {
		if f.kind(a) == "object" && objectHasKey(f, a, "tools") {
			return true
		}
	}
	return false
}

func (x *extractor) toolsTableSite(f *file, n nid, e *env, c *collector) {
	for _, a := range f.args(n) {
		if f.kind(a) != "object" || !objectHasKey(f, a, "tools") {
			continue
		}
		obj := x.eval(f, a, e)
		tv, _ := x.getProp(obj, "tools", e)
		if c.needs(tv) {
			return
		}
		if tv.k == vObject {
			keys, vals, ok := x.entries(tv, e)
			if !ok {
				x.listFailed(c, "tools table", tv)
				return
			}
			for i := range keys {
				name, ok := plainText(keys[i])
				if !ok {
					c.failures = append(c.failures, "tools table key could not be read")
					continue
				}
				x.toolFromObject(f, n, vals[i], e, c, name)
				if c.need != nil {
					return
				}
			}
			return
		}
		if x.factoryAnswersToolsList(f, n, e) { // jsdecl.go
			x.factoryTableList(f, n, tv, e, c)
			return
		}
		if x.toolList(f, n, tv, "tools table", e, c) {
			return
		}
	}
}

func (x *extractor) instructionsSite(f *file, n nid, e *env, c *collector) {
	args := f.args(n)
	if ctor := x.eval(f, f.field(n, "constructor"), e); ctor.k == vClass && !classDefinesAPI(ctor.f, ctor.n) {
		// The package's own class that happens to be named McpServer or
		// Server: the SDK server it wraps is constructed at its own site.
		// A bundled framework class (one that defines addTool, ...) is
		// still where the server's options are written.
		return
	}
	optIdx := 1
	if f.calleeName(f.field(n, "constructor")) == "FastMCP" {
		// The TypeScript FastMCP takes one options object.
		optIdx = 0
	}
	if len(args) <= optIdx {
		return
	}
	opts := x.eval(f, args[optIdx], e)
	if c.needs(opts) {
		return
	}
	iv, found := x.getProp(opts, "instructions", e)
	if c.needs(iv) {
		return
	}
	if !found || iv.k == vUndefined {
		if opts.isUnknown() {
			ent := entryBase(KindInstructions, f, n)
			ent.Name = "instructions"
			describe(&ent, unknown("server options not resolved: "+reasonOf(opts)), true)
			c.entries = append(c.entries, ent)
		}
		return
	}
	ent := entryBase(KindInstructions, f, n)
	ent.Name = "instructions"
	if info := x.eval(f, args[0], e); info.k == vObject {
		if nv, ok := x.getProp(info, "name", e); ok {
			if s, ok := plainText(nv); ok {
				ent.Name = s
			}
		}
	}
	describe(&ent, iv, true)
	c.entries = append(c.entries, ent)
}

// promptSite reads .prompt(name, [description], [argsSchema], cb) and
// .registerPrompt(name, {title, description, argsSchema}, cb).
func (x *extractor) promptSite(f *file, n nid, register bool, e *env, c *collector) {
	args := f.siteArgs(n)
	mid, handler := x.handlerSplit(f, args, e)
	if len(mid) == 0 {
		return
	}
	nameV := x.eval(f, mid[0], e)
	if c.needs(nameV) {
		return
	}
	if nameV.k != vText && !nameV.isUnknown() {
		return // not a prompt registration (e.g. a CLI's prompt(questions))
	}
	ent := entryBase(KindPrompt, f, n)
	if !x.nameOf(&ent, nameV, c, "prompt") {
		return
	}
	ent.SchemaKind = SchemaNone
	clientArgs := false // the callback gets the client's strings unchanged (jsclientargs.go)
	if register {
		if len(mid) >= 2 {
			cfg := x.eval(f, mid[1], e)
			if c.needs(cfg) {
				return
			}
			if !x.fillFromConfig(&ent, cfg, f, mid[1], e, c, "argsSchema") {
				return
			}
			if sv, found := x.getProp(cfg, "argsSchema", e); found {
				clientArgs = x.plainStringShape(sv)
			}
		} else {
			describe(&ent, val{}, false)
		}
	} else {
		rest := mid[1:]
		hasDesc := false
		if len(rest) >= 1 {
			d := x.eval(f, rest[0], e)
			if c.needs(d) {
				return
			}
			if d.k != vObject && f.kind(rest[0]) != "object" {
				describe(&ent, d, true)
				hasDesc = true
				rest = rest[1:]
			}
		}
		if !hasDesc {
			describe(&ent, val{}, false)
		}
		if len(rest) >= 1 {
			sv := x.eval(f, rest[0], e)
			if c.needs(sv) {
				return
			}
			x.setSchema(&ent, sv, f, rest[0])
			clientArgs = x.plainStringShape(sv)
		}
	}
	c.entries = append(c.entries, ent)
	x.promptTexts(f, n, ent.Name, handler, clientArgs, e, c)
}

// unreadMessages records a prompt's messages as one prompt_text whose text
// was not read, cited at the prompt's site.
func (c *collector) unreadMessages(f *file, at nid, prompt, reason string) {
	pt := entryBase(KindPromptText, f, at)
	pt.Parent, pt.Name = prompt, "messages"
	describe(&pt, unknown(reason), true)
	c.entries = append(c.entries, pt)
}

// promptTexts reads the literal message text a prompt handler returns; a
// handler that builds its messages some other way yields one unreadable
// prompt_text.
//
// With clientArgs the handler's first parameter is the client's arguments
// as sent (jsclientargs.go).
func (x *extractor) promptTexts(f *file, at nid, prompt string, handler nid, clientArgs bool, e *env, c *collector) {
	unreadable := func(reason string) { c.unreadMessages(f, at, prompt, reason) }
	if handler < 0 {
		unreadable("no prompt handler the extractor can read")
		return
	}
	h := x.eval(f, handler, e)
	if c.needs(h) {
		return
	}
	if h.k != vFunc {
		unreadable("prompt handler not resolved: " + reasonOf(h))
		return
	}
	args := unknown("the prompt's arguments")
	if clientArgs {
		args = clientArguments("the prompt's arguments")
		x.clientArgText++
		defer func() { x.clientArgText-- }()
	}
	extra := unknown("the prompt's arguments")
	ret := x.call(h, []thunk{{v: &args}, {v: &extra}}, nil, e)
	if c.needs(ret) {
		return
	}
	x.promptResultTexts(f, at, prompt, ret, e, c)
}

// promptResultTexts reads the messages of a prompt handler's result
// ({messages: [...]}).
func (x *extractor) promptResultTexts(f *file, at nid, prompt string, ret val, e *env, c *collector) {
	unreadable := func(reason string) { c.unreadMessages(f, at, prompt, reason) }
	msgs, found := x.getProp(ret, "messages", e)
	if c.needs(msgs) {
		return
	}
	if !found {
		if x.resultWithoutMessages(ret) {
			return // no messages a client can receive (jsprompt_result.go)
		}
		unreadable("prompt handler result not resolved: " + reasonOf(ret))
		return
	}
	els, ok := x.elements(msgs, e)
	if !ok {
		if len(els) == 1 && c.needs(els[0]) {
			return
		}
		unreadable("prompt messages not resolved: " + reasonOf(msgs))
		return
	}
	for i, m := range els {
		pt := entryBase(KindPromptText, f, at)
		pt.Parent = prompt
		pt.Name = "messages[" + strconv.Itoa(i) + "]"
		if m.f != nil && m.n >= 0 {
			pt.File, pt.Line = m.f.path, m.f.lineOf(m.n)
		}
		content, _ := x.getProp(m, "content", e)
		if c.needs(content) {
			return
		}
		var text val
		if content.k == vArray {
			text = unknown("message content is a list of parts")
		} else {
			t, found := x.getProp(content, "text", e)
			if c.needs(t) {
				return
			}
			if !found {
				typ, _ := x.getProp(content, "type", e)
				if s, ok := plainText(typ); ok && s != "text" {
					continue // an image or resource part carries no text
				}
				t = unknown("message text not resolved: " + reasonOf(content))
			}
			text = messageConditional(t) // jscond.go
		}
		describe(&pt, text, true)
		c.entries = append(c.entries, pt)
	}
}

func (x *extractor) promptFromObject(f *file, at nid, obj val, e *env, c *collector) {
	ent := entryBase(KindPrompt, f, at)
	if obj.f != nil && obj.n >= 0 {
		ent.File, ent.Line = obj.f.path, obj.f.lineOf(obj.n)
	}
	nv, _ := x.getProp(obj, "name", e)
	if !x.nameOf(&ent, nv, c, "prompt") {
		return
	}
	d, found := x.getProp(obj, "description", e)
	if c.needs(d) {
		return
	}
	describe(&ent, d, found)
	ent.SchemaKind = SchemaNone
	if av, found := x.getProp(obj, "arguments", e); found && av.k != vUndefined {
		x.setSchema(&ent, av, f, at)
	}
	c.entries = append(c.entries, ent)
	if f.lang != LangPython && x.promptGetTexts(f, at, ent.Name, nv, e, c) {
		return // what the package's prompts/get handler returns (jspromptget.go)
	}
	pt := entryBase(KindPromptText, f, at)
	pt.File, pt.Line = ent.File, ent.Line
	pt.Parent, pt.Name = ent.Name, "messages"
	describe(&pt, unknown("messages come from a prompts/get handler the extractor does not read"), true)
	c.entries = append(c.entries, pt)
}

// resourceSite reads .resource(name, uri|template, [metadata], cb) and
// .registerResource(name, uri|template, metadata, cb).
func (x *extractor) resourceSite(f *file, n nid, e *env, c *collector) {
	args := f.siteArgs(n)
	mid, _ := x.handlerSplit(f, args, e)
	if len(mid) < 2 {
		return
	}
	nameV := x.eval(f, mid[0], e)
	if c.needs(nameV) {
		return
	}
	target := x.eval(f, mid[1], e)
	if c.needs(target) {
		return
	}
	kind := KindResource
	var uri val
	switch {
	case target.k == vText:
		uri = target
	case target.k == vInstance || target.k == vExternal && strings.HasPrefix(target.spec, "new "):
		kind = KindResourceTemplate
		if target.k == vExternal && f.kind(mid[1]) == "new_expression" {
			if a := f.args(mid[1]); len(a) > 0 {
				uri = x.eval(f, a[0], e)
			}
		} else if len(target.args) > 0 {
			t := target.args[0]
			uri = x.eval(t.f, t.n, t.env)
		}
	case f.kind(mid[1]) == "new_expression":
		kind = KindResourceTemplate
		if a := f.args(mid[1]); len(a) > 0 {
			uri = x.eval(f, a[0], e)
		}
	default:
		uri = target
	}
	ent := entryBase(kind, f, n)
	if !x.nameOf(&ent, nameV, c, kind) {
		return
	}
	if s, ok := plainText(uri); ok {
		ent.URI = s
	}
	ent.SchemaKind = SchemaNone
	var title val
	titleFound := false
	if len(mid) >= 3 {
		meta := x.eval(f, mid[2], e)
		if c.needs(meta) {
			return
		}
		d, found := x.getProp(meta, "description", e)
		if c.needs(d) {
			return
		}
		if title, titleFound = x.getProp(meta, "title", e); c.needs(title) {
			return
		}
		if meta.isUnknown() {
			d, found = unknown("resource metadata not resolved: "+reasonOf(meta)), true
			titleFound = false // the description's entry already records the metadata unread
		}
		describe(&ent, d, found)
	} else {
		describe(&ent, val{}, false)
	}
	c.entries = append(c.entries, ent)
	memberEntry(ent, vocab.ListedMemberName, nameV, true, c)
	memberEntry(ent, vocab.ListedMemberTitle, title, titleFound, c)
}

func (x *extractor) resourceFromObject(f *file, at nid, obj val, e *env, c *collector, template bool) {
	kind := KindResource
	uriKey := "uri"
	if template {
		kind, uriKey = KindResourceTemplate, "uriTemplate"
	}
	ent := entryBase(kind, f, at)
	if obj.f != nil && obj.n >= 0 {
		ent.File, ent.Line = obj.f.path, obj.f.lineOf(obj.n)
	}
	nv, _ := x.getProp(obj, "name", e)
	if !x.nameOf(&ent, nv, c, kind) {
		return
	}
	if u, _ := x.getProp(obj, uriKey, e); u.k == vText {
		ent.URI, _ = plainText(u)
	}
	d, found := x.getProp(obj, "description", e)
	if c.needs(d) {
		return
	}
	title, titleFound := x.getProp(obj, "title", e)
	if c.needs(title) {
		return
	}
	describe(&ent, d, found)
	ent.SchemaKind = SchemaNone
	c.entries = append(c.entries, ent)
	memberEntry(ent, vocab.ListedMemberName, nv, true, c)
	memberEntry(ent, vocab.ListedMemberTitle, title, titleFound, c)
}

// setAnnotations records annotation hints that are literal booleans.
func (x *extractor) setAnnotations(ent *rundir.Entry, v val, e *env) {
	if v.k != vObject {
		return
	}
	for _, k := range annotationKeys {
		b, found := x.getProp(v, k, e)
		if found && b.k == vBool {
			if ent.Annotations == nil {
				ent.Annotations = map[string]bool{}
			}
			ent.Annotations[k] = b.boolv
		}
	}
}

// checkReassignments records descriptions rewritten at run time: an
// assignment to .description of an object used as a tool definition, or
// Object.defineProperty(tool, "description", ...).
func (x *extractor) checkReassignments() {
	for _, f := range x.files {
		if f.facts == nil || !f.runnable() {
			continue
		}
		for _, s := range f.facts.sites {
			if s.kind != siteReassign || f.inVendoredRegion(s.n) {
				continue
			}
			var obj nid
			if k := f.kind(s.n); k == "assignment_expression" || k == "augmented_assignment_expression" {
				obj = f.field(f.field(s.n, "left"), "object")
			} else if a := f.args(s.n); len(a) > 0 {
				obj = a[0]
			} else {
				continue
			}
			hit := x.reassignsToolObject(f, obj)
			// The object a registration call returned (RegisteredTool).
			if f.kind(obj) == "identifier" {
				if b, ok := x.lookup(f, obj, f.text(obj)); ok && f.kind(b.decl) == "variable_declarator" {
					if vn := f.field(b.decl, "value"); vn >= 0 {
						for f.kind(vn) == "await_expression" {
							ch := f.named(vn)
							if len(ch) == 0 {
								break
							}
							vn = ch[0]
						}
						if f.kind(vn) == "call_expression" {
							switch f.calleeName(f.field(vn, "function")) {
							case "tool", "registerTool", "addTool", "prompt", "registerPrompt", "resource", "registerResource":
								hit = true
							}
						}
					}
				}
			}
			if hit {
				x.s.ReassignedAtRuntime = append(x.s.ReassignedAtRuntime, f.site(s.n, truncate(f.text(s.n), 200)))
			}
		}
	}
}

// notAServerEvidence lists the consumption and definition sites that make
// a package without registration sites a client, SDK or framework.
func (x *extractor) notAServerEvidence() []rundir.Site {
	var out []rundir.Site
	for _, f := range x.files {
		if f.vendored {
			continue
		}
		if f.facts != nil {
			for _, s := range f.facts.sites {
				switch s.kind {
				case siteConsumeCall:
					out = append(out, f.site(s.n, "consumes another server's tools: "+truncate(f.text(s.n), 80)))
				case siteDefineMethod:
					if x.extendsSDKServer(f, enclosingClassOfMethod(f, s.n)) {
						continue // the server's own subclass of the SDK's server
					}
					out = append(out, f.site(s.n, "defines the tool API: method "+f.text(f.field(s.n, "name"))))
				}
			}
			for _, im := range f.facts.imports {
				if isSDKClientImport(im.spec, im.names) {
					out = append(out, f.site(im.node, "imports an MCP client: "+im.spec))
				}
			}
		}
		if f.pyFacts != nil {
			out = append(out, f.pyFacts.notServer...)
		}
		if len(out) > 20 {
			break
		}
	}
	return out
}

func isSDKClientImport(spec string, names []string) bool {
	if strings.HasPrefix(spec, "@modelcontextprotocol/sdk/client") {
		return true
	}
	if strings.HasPrefix(spec, "@modelcontextprotocol/sdk") || strings.HasPrefix(spec, "@modelcontextprotocol/client") {
		for _, n := range names {
			if n == "Client" {
				return true
			}
		}
	}
	return false
}
