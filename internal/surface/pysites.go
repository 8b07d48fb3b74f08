package surface

import (
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// pyDecoratorKinds maps a decorator method to what it registers.
var pyDecoratorKinds = map[string]string{
	"tool": KindTool, "prompt": KindPrompt, "resource": KindResource,
	"list_tools": "tools/list", "list_prompts": "prompts/list", "list_resources": "resources/list",
	"list_resource_templates": "resources/templates/list",
}

// pySites evaluates the candidate sites of one Python file.
func (x *extractor) pySites(f *file) {
	for _, s := range f.pyFacts.sites {
		if x.exceeded {
			return
		}
		n := s.n
		if x.clientRequestSite(f, s, "create_message", "elicit") {
			continue
		}
		if !f.runnable() || f.inVendoredRegion(n) || x.pyInsideAPIClass(f, n) {
			continue
		}
		switch s.kind {
		case pySiteDecorator:
			def := f.field(n, "definition")
			if f.kind(def) != "function_definition" {
				continue
			}
			for _, d := range f.named(n) {
				if f.kind(d) != "decorator" {
					continue
				}
				x.pyDecoratorSite(f, d, def)
			}
		case pySiteServer:
			x.pyEnumerate(f, n, func(e *env, c *collector) { x.pyInstructions(f, n, e, c) })
			x.pyServerHandlers(f, n)
		case pySitePromptCallForm, pySiteResourceCallForm, pySiteGeneratedTools, pySitePrivateTable:
			x.pyOutcomeSite(f, s)
		default:
			if f.minified {
				x.minSites = append(x.minSites, f.site(n, x.bundleDetail(f)))
				x.bundleSites = append(x.bundleSites, bundleSite{f: f, py: n})
				continue
			}
			x.readSites++
			x.pyEnumerate(f, n, func(e *env, c *collector) {
				switch s.kind {
				case pySiteCallForm:
					inner := f.field(n, "function")
					args := x.pyArgThunks(f, n, e)
					if len(args) == 0 {
						return
					}
					fn := x.force(args[0])
					if c.needs(fn) {
						return
					}
					from := len(c.entries)
					x.pyFunctionEntry(f, n, pyCallFormKind(f.pyAttrName(f.field(inner, "function"))), fn, x.pyArgThunks(f, inner, e), e, c)
					x.pyComposeSite(f, f.field(f.field(inner, "function"), "object"), e, c, from)
				case pySiteAddTool, pySiteAddPrompt, pySiteAddResource:
					from := len(c.entries)
					x.pyAddSite(f, n, s.kind, e, c)
					x.pyComposeSite(f, f.field(f.field(n, "function"), "object"), e, c, from)
				case pySiteToolFn:
					from := len(c.entries)
					x.pyToolFnSite(f, n, e, c)
					x.pyComposeSite(f, f.field(f.field(n, "function"), "object"), e, c, from)
				case pySiteTypedList:
					v := x.eval(f, f.field(n, "right"), e)
					if c.needs(v) {
						return
					}
					x.toolList(f, n, v, "list[Tool]", e, c)
				}
			})
		}
	}
}

// pyInsideAPIClass reports whether n sits in a class that defines the tool API.
func (x *extractor) pyInsideAPIClass(f *file, n nid) bool {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if f.kind(a) == "class_definition" && len(pyAPIMethods(f, a)) > 0 {
			return true
		}
	}
	return false
}

// pyAPIMethods are the methods of class cls that define the tool API
// (tool, add_tool, list_tools, add_prompt): a class with one is a server
// framework, not a server.
func pyAPIMethods(f *file, cls nid) []nid {
	var out []nid
	for _, st := range f.named(f.field(cls, "body")) {
		def := st
		if f.kind(def) == "decorated_definition" {
			def = f.field(def, "definition")
		}
		if f.kind(def) == "function_definition" {
			switch f.text(f.field(def, "name")) {
			case "tool", "add_tool", "list_tools", "add_prompt":
				out = append(out, def)
			}
		}
	}
	return out
}

// pyDecoratorSite reads @x.tool, @x.tool(...), @x.prompt, @x.resource("uri")
// and the @x.list_*() handlers of the low-level server.
func (x *extractor) pyDecoratorSite(f *file, d, def nid) {
	ch := f.named(d)
	if len(ch) == 0 {
		return
	}
	expr := ch[0]
	callee := expr
	isCall := f.kind(expr) == "call"
	if isCall {
		callee = f.field(expr, "function")
	}
	if f.kind(callee) != "attribute" {
		return
	}
	method := f.text(f.field(callee, "attribute"))
	kind, ok := pyDecoratorKinds[method]
	if !ok {
		return
	}
	if f.minified {
		x.minSites = append(x.minSites, f.site(d, x.bundleDetail(f)))
		x.bundleSites = append(x.bundleSites, bundleSite{f: f, py: d})
		return
	}
	x.readSites++
	x.pyEnumerate(f, d, func(e *env, c *collector) {
		fn := val{k: vFunc, f: f, n: def, env: e}
		var args []thunk
		if isCall {
			args = x.pyArgThunks(f, expr, e)
		}
		from := len(c.entries)
		switch kind {
		case KindTool, KindPrompt, KindResource:
			x.pyFunctionEntry(f, def, kind, fn, args, e, c)
		default:
			x.pyListHandler(f, def, kind, fn, e, c)
		}
		x.pyComposeSite(f, f.field(callee, "object"), e, c, from)
	})
}

// pyHandlerKwargs maps the list handlers Server(..., on_list_tools=fn)
// takes to what they list.
var pyHandlerKwargs = map[string]string{
	"on_list_tools": "tools/list", "on_list_prompts": "prompts/list", "on_list_resources": "resources/list",
	"on_list_resource_templates": "resources/templates/list",
}

// pyServerHandlers reads the list handlers given to the low-level
// constructor Server(name, on_list_tools=handler, ...): each keyword is a
// site read like the @server.list_tools() decorator it replaces.
func (x *extractor) pyServerHandlers(f *file, call nid) {
	for _, a := range f.named(f.field(call, "arguments")) {
		if f.kind(a) != "keyword_argument" {
			continue
		}
		kind, ok := pyHandlerKwargs[f.text(f.field(a, "name"))]
		if !ok {
			continue
		}
		if f.minified {
			x.minSites = append(x.minSites, f.site(a, x.bundleDetail(f)))
			x.bundleSites = append(x.bundleSites, bundleSite{f: f, py: a})
			continue
		}
		x.readSites++
		x.pyEnumerate(f, a, func(e *env, c *collector) {
			fn := x.eval(f, f.field(a, "value"), e)
			if c.needs(fn) {
				return
			}
			if fn.k != vFunc {
				x.listFailed(c, kind, unknown(kind+" handler is not a function of the package: "+reasonOf(fn)))
				return
			}
			x.pyListHandler(f, a, kind, fn, e, c)
		})
	}
}

// pyListHandler reads what list handler fn returns, the same way whichever
// form registered it.
func (x *extractor) pyListHandler(f *file, at nid, kind string, fn val, e *env, c *collector) {
	ret := x.callPy(fn, nil, e)
	if c.needs(ret) {
		return
	}
	x.pyListResult(f, at, kind, ret, e, c)
}

// pyListResult reads the Tool/Prompt/Resource objects a list handler returns.
func (x *extractor) pyListResult(f *file, at nid, method string, ret val, e *env, c *collector) {
	// A handler may return a ListToolsResult(tools=[...]) or the list itself.
	if ret.k == vObject {
		if inner, found := x.getProp(ret, listField[method], e); found {
			ret = inner
		}
	}
	els, ok := x.elements(ret, e)
	if !ok {
		if len(els) == 1 && c.needs(els[0]) {
			return
		}
		x.listFailed(c, method, ret)
		return
	}
	x.listedEntries(f, at, method, els, e, c)
}

func kwarg(args []thunk, name string) (thunk, bool) {
	for _, a := range args {
		if a.name == name {
			return a, true
		}
	}
	return thunk{}, false
}

func positional(args []thunk, i int) (thunk, bool) {
	pos := 0
	for _, a := range args {
		if a.name != "" {
			continue
		}
		if pos == i {
			return a, true
		}
		pos++
	}
	return thunk{}, false
}

// pyDocstring returns a function's docstring as text, if it has one.
func pyDocstring(f *file, def nid) (val, bool) {
	body := f.field(def, "body")
	st := f.named(body)
	if len(st) == 0 || f.kind(st[0]) != "expression_statement" {
		return val{}, false
	}
	ch := f.named(st[0])
	if len(ch) != 1 {
		return val{}, false
	}
	s := ch[0]
	switch f.kind(s) {
	case "string":
		if tok := f.childOfKind(s, "string_start"); tok >= 0 && strings.ContainsAny(strings.ToLower(f.text(tok)), "fb") {
			return val{}, false // an f-string or bytes is not a docstring
		}
		return pyStringText(f, s), true
	case "concatenated_string":
		var parts []val
		for _, c := range f.named(s) {
			if tok := f.childOfKind(c, "string_start"); tok >= 0 && strings.ContainsAny(strings.ToLower(f.text(tok)), "fb") {
				return val{}, false
			}
			parts = append(parts, pyStringText(f, c))
		}
		return concatText(parts...), true
	}
	return val{}, false
}

// pyFunctionEntry records a tool, prompt or resource a decorated function (or
// a function passed to add_tool / tool()(fn)) registers: the name from
// name= or the first positional argument or the function's name, the
// description from description= or the docstring (as the function's __doc__
// holds it), the schema as the parameters' source bytes.
func (x *extractor) pyFunctionEntry(f *file, at nid, kind string, fn val, args []thunk, e *env, c *collector) {
	if fn.k != vFunc {
		if fn.k == vObject || fn.k == vInstance {
			if kind == KindTool {
				x.toolFromObject(f, at, fn, e, c, "")
			}
			return
		}
		if x.pyNamedEntry(f, at, kind, fn, args, e, c) {
			return
		}
		ent := entryBase(kind, f, at)
		ent.NameState = vocab.StateUnreadable
		describe(&ent, unknown("function not resolved: "+reasonOf(fn)), true)
		ent.SchemaKind = SchemaNone
		if kind == KindTool {
			c.failures = append(c.failures, "tool function could not be resolved: "+reasonOf(fn))
			if isRuntimeReason(reasonOf(fn)) {
				c.runtime = append(c.runtime, reasonOf(fn))
			}
		}
		c.entries = append(c.entries, ent)
		return
	}
	def := fn.n
	df := fn.f
	ent := entryBase(kind, df, def)
	var uri val
	uriArg := -1
	if kind == KindResource {
		uriArg = 0
		if u, ok := kwarg(args, "uri"); ok {
			uri = x.force(u)
		} else if u, ok := positional(args, 0); ok {
			uri = x.force(u)
		}
		if c.needs(uri) {
			return
		}
		if s, ok := plainText(uri); ok {
			ent.URI = s
			if strings.Contains(s, "{") {
				ent.Kind = KindResourceTemplate
			}
		} else {
			ent.URI = ""
		}
	}
	// Name.
	nameV := val{k: vUndefined}
	if a, ok := kwarg(args, "name"); ok {
		nameV = x.force(a)
	} else if a, ok := positional(args, uriArg+1); ok {
		nameV = x.force(a)
	}
	if c.needs(nameV) {
		return
	}
	if nameV.k == vUndefined || nameV.k == vNull || nameV.k == vFunc {
		if fname := df.field(def, "name"); fname >= 0 {
			ent.Name = df.text(fname)
		} else {
			ent.NameState = vocab.StateUnreadable
		}
	} else if !x.nameOf(&ent, nameV, c, kind) {
		return
	}
	// Description.
	if a, ok := kwarg(args, "description"); ok {
		d := x.force(a)
		if c.needs(d) {
			return
		}
		if d.k == vNull || d.k == vUndefined {
			doc, found := pyDocstring(df, def)
			doc = x.pyDocText(doc)
			describe(&ent, doc, found)
		} else {
			describe(&ent, d, true)
		}
	} else {
		doc, found := pyDocstring(df, def)
		doc = x.pyDocText(doc)
		describe(&ent, doc, found)
	}
	// Schema and parameter descriptions.
	if kind == KindTool || kind == KindPrompt {
		if params := df.field(def, "parameters"); params >= 0 {
			ent.SchemaKind, ent.SchemaRaw = SchemaSource, df.text(params)
			if kind == KindTool {
				x.pyParamDescriptions(c, ent.Name, df, params, e)
			}
		} else {
			ent.SchemaKind = SchemaNone
		}
	} else {
		ent.SchemaKind = SchemaNone
	}
	if a, ok := kwarg(args, "annotations"); ok {
		av := x.force(a)
		if c.needs(av) {
			return
		}
		x.setAnnotations(&ent, av, e)
	}
	c.entries = append(c.entries, ent)
	if kind == KindPrompt {
		x.pyPromptTexts(df, def, ent.Name, fn, e, c)
	}
	if ent.Kind == KindResource || ent.Kind == KindResourceTemplate {
		x.pyResourceMembers(ent, args, nameV, df, def, c) // resnames.go
	}
}

// pyPromptTexts reads the literal text a prompt function returns: a string
// (sent as one user message), or a list of messages.
func (x *extractor) pyPromptTexts(f *file, def nid, prompt string, fn val, e *env, c *collector) {
	unreadable := func(reason string) { c.unreadMessages(f, def, prompt, reason) }
	arg := unknown("the prompt's arguments")
	var args []thunk
	params := f.named(f.field(def, "parameters"))
	for range params {
		args = append(args, thunk{v: &arg})
	}
	ret := x.callPy(fn, args, e)
	if c.needs(ret) {
		return
	}
	add := func(i int, text val, at *file, atn nid) {
		pt := entryBase(KindPromptText, f, def)
		if at != nil && atn >= 0 {
			pt.File, pt.Line = at.path, at.lineOf(atn)
		}
		pt.Parent = prompt
		pt.Name = "messages[" + strconv.Itoa(i) + "]"
		describe(&pt, text, true)
		c.entries = append(c.entries, pt)
	}
	if ret.k == vText {
		add(0, ret, ret.f, ret.n)
		return
	}
	if ret.k == vObject {
		if m, found := x.getProp(ret, "messages", e); found {
			ret = m
		}
	}
	els, ok := x.elements(ret, e)
	if !ok {
		if len(els) == 1 && c.needs(els[0]) {
			return
		}
		unreadable("prompt messages not resolved: " + reasonOf(ret))
		return
	}
	for i, m := range els {
		if c.needs(m) {
			return
		}
		text := m
		if m.k == vObject {
			content, found := x.getProp(m, "content", e)
			if c.needs(content) {
				return
			}
			if !found {
				content = unknown("message without content")
			}
			if content.k == vObject {
				t, found := x.getProp(content, "text", e)
				if !found {
					typ, _ := x.getProp(content, "type", e)
					if s, ok := plainText(typ); ok && s != "text" {
						continue
					}
					t = unknown("message content not resolved")
				}
				content = t
			}
			text = content
		}
		add(i, text, m.f, m.n)
	}
}

// pyAddSite reads x.add_tool(fn, name=..., description=...) and
// x.add_tool(Tool(...)), and the add_prompt / add_resource forms.
func (x *extractor) pyAddSite(f *file, n nid, kind siteKind, e *env, c *collector) {
	args := x.pyArgThunks(f, n, e)
	first, ok := positional(args, 0)
	if !ok {
		if a, ok2 := kwarg(args, "fn"); ok2 {
			first = a
		} else {
			return
		}
	}
	v := x.force(first)
	if c.needs(v) {
		return
	}
	entryKind := map[siteKind]string{pySiteAddTool: KindTool, pySiteAddPrompt: KindPrompt, pySiteAddResource: KindResource}[kind]
	rest := args[1:]
	// Tool.from_function(fn, ...) / Prompt.from_function(fn, ...)
	if v.k == vObject && len(v.keys) == 1 && v.keys[0] == "__from_function__" {
		inner := v.props[0].args
		if len(inner) == 0 {
			return
		}
		fn := x.force(inner[0])
		if c.needs(fn) {
			return
		}
		x.pyFunctionEntry(f, n, entryKind, fn, inner[1:], e, c)
		return
	}
	switch {
	case v.k == vFunc:
		x.pyFunctionEntry(f, n, entryKind, v, rest, e, c)
	case entryKind == KindTool:
		x.toolFromObject(f, n, v, e, c, "")
	case entryKind == KindPrompt:
		x.promptFromObject(f, n, v, e, c)
	default:
		tmpl := false
		if u, found := x.getProp(v, "uri_template", e); found && u.k != vUndefined {
			tmpl = true
		}
		x.resourceFromObject(f, n, v, e, c, tmpl)
	}
}

// pyInstructions reads FastMCP(name, instructions=...) and
// Server(name, version, instructions=...).
func (x *extractor) pyInstructions(f *file, n nid, e *env, c *collector) {
	args := x.pyArgThunks(f, n, e)
	a, ok := kwarg(args, "instructions")
	if !ok {
		pos := 1
		if f.pyAttrName(f.field(n, "function")) == "Server" {
			pos = 2
		}
		a, ok = positional(args, pos)
	}
	if !ok {
		return
	}
	v := x.force(a)
	if c.needs(v) {
		return
	}
	if v.k == vNull || v.k == vUndefined {
		return
	}
	ent := entryBase(KindInstructions, f, n)
	ent.Name = "instructions"
	if nm, ok := positional(args, 0); ok {
		if s, ok := plainText(x.force(nm)); ok {
			ent.Name = s
		}
	} else if nm, ok := kwarg(args, "name"); ok {
		if s, ok := plainText(x.force(nm)); ok {
			ent.Name = s
		}
	}
	describe(&ent, v, true)
	c.entries = append(c.entries, ent)
}

// pyJSONLiteral converts a Python dict/list literal of literals to JSON.
func pyJSONLiteral(f *file, n nid) (string, bool) {
	var b strings.Builder
	if !pyJSONValue(f, n, &b, 0) {
		return "", false
	}
	return b.String(), true
}

func pyJSONValue(f *file, n nid, b *strings.Builder, depth int) bool {
	if depth > 64 {
		return false
	}
	switch f.kind(n) {
	case "string", "concatenated_string":
		var v val
		if f.kind(n) == "string" {
			v = pyStringText(f, n)
		} else {
			var parts []val
			for _, c := range f.named(n) {
				parts = append(parts, pyStringText(f, c))
			}
			v = concatText(parts...)
		}
		s, ok := plainText(v)
		if !ok {
			return false
		}
		var buf = new(strings.Builder)
		writeJSONStringTo(buf, s)
		b.WriteString(buf.String())
		return true
	case "integer", "float":
		t := f.text(n)
		if !jsonNumber.MatchString(t) {
			return false
		}
		b.WriteString(t)
		return true
	case "unary_operator":
		ch := f.named(n)
		if len(ch) == 1 && strings.HasPrefix(f.text(n), "-") && jsonNumber.MatchString(f.text(ch[0])) {
			b.WriteString("-" + f.text(ch[0]))
			return true
		}
		return false
	case "true":
		b.WriteString("true")
		return true
	case "false":
		b.WriteString("false")
		return true
	case "none":
		b.WriteString("null")
		return true
	case "list", "tuple":
		b.WriteByte('[')
		for i, c := range f.named(n) {
			if i > 0 {
				b.WriteByte(',')
			}
			if !pyJSONValue(f, c, b, depth+1) {
				return false
			}
		}
		b.WriteByte(']')
		return true
	case "dictionary":
		var obj jsonMembers
		for _, c := range f.named(n) {
			if f.kind(c) != "pair" {
				return false
			}
			k := f.field(c, "key")
			if f.kind(k) != "string" {
				return false
			}
			ks, ok := plainText(pyStringText(f, k))
			if !ok {
				return false
			}
			var vb strings.Builder
			if !pyJSONValue(f, f.field(c, "value"), &vb, depth+1) {
				return false
			}
			obj.set(ks, vb.String())
		}
		obj.writeTo(b)
		return true
	}
	return false
}
