package surface

// maxSpreadToolDepth bounds how many spreads deep markSpreadTools follows a
// tool definition ({...{...tool}} is two).
const maxSpreadToolDepth = 4

// markSpreadTools records, as tool objects, the objects a tool definition
// spreads in (`const modified = { ...tool }` in a tools/list handler): a
// description rewritten on the spread source at load (`for (const tool of
// allTools) tool.description = ...`) rewrites the text the client receives,
// so checkReassignments must recognise the source as a tool. Readable
// esbuild and tsc output of large servers often builds its list this way.
func (x *extractor) markSpreadTools(cfg val, depth int) {
	if depth >= maxSpreadToolDepth || x.exceeded || cfg.k != vObject || cfg.n < 0 || cfg.f == nil {
		return
	}
	f := cfg.f
	if f.kind(cfg.n) != "object" {
		return
	}
	for _, c := range f.named(cfg.n) {
		if f.kind(c) != "spread_element" {
			continue
		}
		ch := f.named(c)
		if len(ch) == 0 {
			continue
		}
		x.markSpreadValue(x.eval(f, ch[0], cfg.env), depth)
	}
}

func (x *extractor) markSpreadValue(v val, depth int) {
	switch v.k {
	case vObject:
		if v.n >= 0 && v.f != nil {
			x.toolObjects[progKey{v.f, v.n, nil}] = true
			x.markSpreadTools(v, depth+1)
		}
	case vUnion:
		for i, a := range v.elems {
			if i >= 256 {
				break
			}
			if a.k == vObject {
				x.markSpreadValue(a, depth)
			}
		}
	}
}

// callsParameterAPI reports a registration call inside a class that defines
// the tool API whose receiver is a parameter of the enclosing function
// (`registerTool(server, tool) { server.registerTool(tool.name, ...) }`): the
// class forwards to a server it is handed, so the call is a registration
// site read like any wrapper's, not the implementation of the API. Without
// this a package's own tool registry class with a method named registerTool
// dropped its registrations silently.
func callsParameterAPI(f *file, n nid) bool {
	if f.kind(n) != "call_expression" {
		return false
	}
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" {
		return false
	}
	recv := f.field(callee, "object")
	if f.kind(recv) != "identifier" {
		return false
	}
	name := f.text(recv)
	// A closure inside the method (`ErrorHandler.tryCatch(() => {
	// server.registerTool(...) })`) sees the method's parameters: look
	// through each enclosing function up to the class body.
	for a := f.parent(n); a >= 0 && f.kind(a) != "class_body"; a = f.parent(a) {
		if !functionKind(f.kind(a)) {
			continue
		}
		params := f.field(a, "parameters")
		if params < 0 {
			params = f.field(a, "parameter")
		}
		found := false
		f.walk(params, func(p nid) bool {
			if f.kind(p) == "identifier" && f.text(p) == name {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
