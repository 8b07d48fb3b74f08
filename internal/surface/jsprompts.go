package surface

// Prompt sites beyond the SDK's (methodology §5.3, 2.3.4).
//
// FastMCP for TypeScript registers prompts with `server.addPrompt(def)` and
// `server.addPrompts([def, ...])`, where def is `{name, description?,
// arguments?, load}`; its prompts/list lists name, description and
// arguments, and its prompts/get sends what `load` returns: a string
// becomes one user message whose text is that string, an object's
// `messages` are sent as they are (FastMCP's src/FastMCP.ts, the
// GetPromptRequestSchema handler). A server factory handed a `prompts:`
// table (the same factories as the `tools:` table: a callee whose name
// contains `Server` or `mcp`) lists the prompts of that table: an array of
// definitions, or an object whose `listPrompts()` returns them (a
// framework's `{ listPrompts, getPromptMessages }` option; the messages come
// from getPromptMessages, which this extractor does not read).

const (
	siteAddPrompt    siteKind = iota + 100 // .addPrompt(def)
	siteAddPrompts                         // .addPrompts([def, ...])
	sitePromptsTable                       // prompts: handed to a factory named *Server* / *mcp*
)

// classifyPromptCall records the prompt sites of this file (a hook of
// classifyCall).
func classifyPromptCall(f *file, fa *facts, n nid, name string, member bool) {
	args := f.args(n)
	add := func(k siteKind) { fa.sites = append(fa.sites, siteRef{k, n}) }
	switch name {
	case "addPrompt":
		if member && len(args) == 1 {
			add(siteAddPrompt)
		}
	case "addPrompts":
		if member && len(args) == 1 {
			add(siteAddPrompts)
		}
	}
	if f.kind(n) == "new_expression" || f.kind(n) == "call_expression" {
		if name != "setRequestHandler" && factoryNameTakesTables(name) {
			for _, a := range args {
				if f.kind(a) == "object" && objectHasKey(f, a, "prompts") {
					add(sitePromptsTable)
					break
				}
			}
		}
	}
}

// factoryNameTakesTables is the rule of the `tools:` table, for prompts.
func factoryNameTakesTables(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i+len("Server") <= len(name); i++ {
		if name[i:i+len("Server")] == "Server" {
			return true
		}
	}
	for i := 0; i+3 <= len(name); i++ {
		if (name[i]|0x20) == 'm' && (name[i+1]|0x20) == 'c' && (name[i+2]|0x20) == 'p' {
			return true
		}
	}
	return false
}

// jsPromptSite reads one of the sites above; handled is false for any other
// kind (a hook of jsReadSite).
func (x *extractor) jsPromptSite(f *file, n nid, kind siteKind, e *env, c *collector) (handled bool) {
	switch kind {
	case siteAddPrompt:
		args := f.args(n)
		def := x.eval(f, args[0], e)
		if c.needs(def) {
			return true
		}
		if def.k == vText || def.k == vNumber || def.k == vBool || def.k == vFunc {
			return true // not a prompt definition (another API's addPrompt)
		}
		if def.k == vObject {
			if _, found := x.getProp(def, "name", e); !found {
				return true // an object without a name is not FastMCP's prompt definition
			}
		}
		x.promptFromDef(f, n, def, e, c)
	case siteAddPrompts:
		list := x.eval(f, f.args(n)[0], e)
		if c.needs(list) {
			return true
		}
		x.promptDefList(f, n, list, "addPrompts", e, c)
	case sitePromptsTable:
		for _, a := range f.args(n) {
			if f.kind(a) != "object" || !objectHasKey(f, a, "prompts") {
				continue
			}
			obj := x.eval(f, a, e)
			pv, _ := x.getProp(obj, "prompts", e)
			if c.needs(pv) {
				return true
			}
			x.promptsTable(f, n, pv, e, c)
			return true
		}
	default:
		return false
	}
	return true
}

// promptsTable reads the value of a `prompts:` key handed to a server
// factory.
func (x *extractor) promptsTable(f *file, n nid, pv val, e *env, c *collector) {
	switch pv.k {
	case vUndefined, vNull, vBool, vNumber, vText:
		return // not a table of prompts
	case vArray, vUnion:
		x.promptDefList(f, n, pv, "prompts table", e, c)
		return
	case vObject:
		lp, found := x.getProp(pv, "listPrompts", e)
		if c.needs(lp) {
			return
		}
		if found && lp.k == vFunc {
			ret := x.call(lp, nil, nil, e)
			if c.needs(ret) {
				return
			}
			x.promptDefList(f, n, ret, "listPrompts", e, c)
			return
		}
		keys, _, ok := x.entries(pv, e)
		if ok && len(keys) == 0 {
			return
		}
	}
	x.listFailed(c, "prompts/list", unknown("prompt table of a shape the extractor does not read: "+reasonOf(pv)))
}

// promptDefList reads a list of prompt definitions.
func (x *extractor) promptDefList(f *file, n nid, list val, label string, e *env, c *collector) {
	els, ok := x.elements(list, e)
	if !ok {
		if len(els) == 1 && c.needs(els[0]) {
			return
		}
		x.listFailed(c, "prompts/list", unknown(label+" not resolved: "+reasonOf(list)))
		return
	}
	for _, el := range els {
		if c.needs(el) {
			return
		}
		x.promptFromDef(f, n, el, e, c)
		if c.need != nil {
			return
		}
	}
}

// promptFromDef reads one prompt definition {name, description, arguments,
// load}. Its text is what load returns, read as FastMCP sends it: a string
// is one message, {messages} its messages; a definition without load has
// its messages elsewhere (unreadable here).
func (x *extractor) promptFromDef(f *file, at nid, def val, e *env, c *collector) {
	if def.isUnknown() || def.k == vExternal {
		x.listFailed(c, "prompts/list", unknown("prompt definition not resolved: "+reasonOf(def)))
		return
	}
	ent := entryBase(KindPrompt, f, at)
	if def.f != nil && def.n >= 0 {
		ent.File, ent.Line = def.f.path, def.f.lineOf(def.n)
	}
	nv, _ := x.getProp(def, "name", e)
	if c.needs(nv) {
		return
	}
	if !x.nameOf(&ent, nv, c, "prompt") {
		return
	}
	d, found := x.getProp(def, "description", e)
	if c.needs(d) {
		return
	}
	describe(&ent, d, found)
	ent.SchemaKind = SchemaNone
	av, found := x.getProp(def, "arguments", e)
	if c.needs(av) {
		return
	}
	if found && av.k != vUndefined {
		x.setSchema(&ent, av, f, at)
	}
	c.entries = append(c.entries, ent)
	load, found := x.getProp(def, "load", e)
	if c.needs(load) {
		return
	}
	if !found || load.k == vUndefined {
		c.unreadMessages(f, at, ent.Name, "messages come from a prompts/get handler the extractor does not read")
		return
	}
	if load.k != vFunc {
		c.unreadMessages(f, at, ent.Name, "prompt load function not resolved: "+reasonOf(load))
		return
	}
	args := unknown("the prompt's arguments")
	ret := x.call(load, []thunk{{v: &args}, {v: &args}}, nil, e)
	if c.needs(ret) {
		return
	}
	if ret.k == vText {
		pt := entryBase(KindPromptText, f, at)
		pt.File, pt.Line = ent.File, ent.Line
		pt.Parent, pt.Name = ent.Name, "messages[0]"
		describe(&pt, ret, true)
		c.entries = append(c.entries, pt)
		return
	}
	x.promptResultTexts(f, at, ent.Name, ret, e, c)
}
