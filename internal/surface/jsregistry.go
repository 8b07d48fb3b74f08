package surface

// Registrations the rules read through a package's own helpers (issue 15
// item 5, methodology §5.2, 2.3.4).

// factoryRegistersItself reports whether the call n, which hands a
// `tools:` table to a factory named like a server, calls a function of the
// package whose own body holds a registration site (`createServerWithTools({
// tools })` whose body answers tools/list with the table): the registrations
// inside it are the sites, read through this call as one of the function's
// call sites, and the table is not read a second time as if an external
// factory listed it. A factory of another package, or one of the package
// with no registration site of its own, is read as a tools: table as before.
func (x *extractor) factoryRegistersItself(f *file, n nid) bool {
	callee := f.field(n, "function")
	if f.kind(n) == "new_expression" {
		callee = f.field(n, "constructor")
	}
	if callee < 0 {
		return false
	}
	if x.siteLimit == 0 {
		x.siteLimit, x.siteOver = x.steps+x.opts.MaxSiteSteps, false
		defer func() { x.siteLimit, x.siteOver = 0, false }()
	}
	fn := x.eval(f, callee, nil)
	if fn.k != vFunc || fn.f == nil || fn.f.facts == nil || fn.f.lang == LangPython {
		return false
	}
	g, body := fn.f, fn.n
	lo, hi := g.start(body), g.end(body)
	for _, s := range g.facts.sites {
		switch s.kind {
		case siteTool, siteRegisterTool, siteAddTool, siteRequestHandler, siteMethodCase, siteMethodIf:
		default:
			continue
		}
		if s.n != body && g.start(s.n) >= lo && g.end(s.n) <= hi {
			return true
		}
	}
	return false
}

// promisePassThrough reads `Promise.all(list)` and `Promise.resolve(v)` (the
// global Promise, not a binding of the package) as list and v: the extractor
// reads `await` as its operand and an async function's call as what it
// returns, so the promise these build resolves to exactly the value given
// (Promise.all to the list of its elements, each awaited the same way).
func (x *extractor) promisePassThrough(f *file, objNode nid, method string, args []nid, e *env) (val, bool) {
	if f.kind(objNode) != "identifier" || f.text(objNode) != "Promise" || len(args) != 1 {
		return val{}, false
	}
	if method != "all" && method != "resolve" {
		return val{}, false
	}
	if _, declared := x.lookup(f, objNode, "Promise"); declared {
		return val{}, false
	}
	if f.kind(args[0]) == "spread_element" {
		return val{}, false
	}
	return x.eval(f, args[0], e), true
}
