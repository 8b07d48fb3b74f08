package surface

// Part JD (issue 15): registration sites left `declaration_not_parsed` that a
// general route reads exactly.
//
// A `tools:` table handed to a factory (jsfacts.go, siteToolsTable) is read
// as a list of tool definitions because, for a framework's factory, the
// package does not hold the code that turns the table into the server's
// tools/list answer. When the factory is a function of the package whose
// own body answers tools/list (a request handler for tools/list inside it),
// that handler is a registration site of its own, read with the factory's
// parameters bound through this very call, and what it returns is what the
// server lists. An element of the table that has no `name` key at all (an
// object literal, or an object a function of the package returns, that
// provably holds none) is then the package's wrapper around a definition
// (`{ schema: { name, description, inputSchema }, handle }`), read by the
// body's handler; it is not a definition that failed to read. Every other
// element is read as before, and an element whose keys are not known (a
// spread of a value not read) still fails under the table rule.

// factoryAnswersToolsList reports whether the callee of the factory call n
// resolves to a function of the package whose body holds a request handler
// for tools/list.
func (x *extractor) factoryAnswersToolsList(f *file, n nid, e *env) bool {
	callee := f.field(n, "function")
	if callee < 0 {
		return false
	}
	fv := x.eval(f, callee, e)
	if fv.k != vFunc || fv.f == nil || fv.n < 0 || fv.f.facts == nil || fv.f.lang == LangPython {
		return false
	}
	g := fv.f
	if !g.runnable() || g.minified || g.inVendoredRegion(fv.n) {
		return false // a bundle's or vendored body is not read as a site
	}
	for _, s := range g.facts.sites {
		if s.kind != siteRequestHandler || !g.contains(fv.n, s.n) {
			continue
		}
		if x.requestMethod(g, s.n) == "tools/list" {
			return true
		}
	}
	return false
}

// tableWrapperElement reports whether a table element is provably an
// object with no `name` key; stop says the collector needs a binding first.
func (x *extractor) tableWrapperElement(el val, e *env, c *collector) (wrapper, stop bool) {
	if c.needs(el) {
		return false, true
	}
	if el.k != vObject {
		return false, false
	}
	nv, found := x.getProp(el, "name", e)
	if found {
		if c.needs(nv) {
			return false, true
		}
		return false, false
	}
	return true, false
}

// factoryTableList reads a `tools:` table handed to a factory of the
// package that answers tools/list itself: as toolList, except that a
// wrapper element (no `name` key) is left to the factory's handler.
func (x *extractor) factoryTableList(f *file, n nid, v val, e *env, c *collector) {
	els, ok := x.elements(v, e)
	if !ok {
		if len(els) == 1 && c.needs(els[0]) {
			return
		}
		x.listFailed(c, "tools table", v)
		return
	}
	for _, el := range els {
		wrapper, stop := x.tableWrapperElement(el, e, c)
		if stop {
			return
		}
		if wrapper {
			continue
		}
		x.toolFromObject(f, n, el, e, c, "")
		if c.need != nil {
			return
		}
	}
}

// jsdeclUnparen climbs from a function node through the parentheses
// around it (`server.addTool = ((def) => { ... })`): it returns the first
// ancestor that is not a parenthesized expression, and the node directly
// under it. Parentheses change nothing the assignment does.
func jsdeclUnparen(f *file, fn nid) (parent, child nid) {
	child = fn
	parent = f.parent(fn)
	for i := 0; i < maxPatternDepth && parent >= 0 && f.kind(parent) == "parenthesized_expression"; i++ {
		child, parent = parent, f.parent(parent)
	}
	return parent, child
}

// jsdeclRegistrarMember reports whether fn is the value of a member named
// for a registration method in an object literal (`{ addTool: (def) => {
// ...; server.addTool(def) } }`): a registrar handed to the package's
// registration functions in place of a server, whose calls are the sites,
// as for a function assigned over the method.
func jsdeclRegistrarMember(f *file, p, fn nid) bool {
	if f.kind(p) != "pair" || f.field(p, "value") != fn {
		return false
	}
	return apiMethods[propKeyName(f, f.field(p, "key"))] && f.kind(f.parent(p)) == "object"
}
