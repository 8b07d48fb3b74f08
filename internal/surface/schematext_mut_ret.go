package surface

import "strconv"

// Returns followed to their callers (since 2.3.17, part ret). An object
// returned by a function of the package (itself, or inside the literal the
// function returns) only aliases it where a caller uses the result: when
// the function is bound to a name that is not exported and every use of
// that name in its scope is a direct call (`build()`), each call's result is
// classified as the object, under the keys leading to it, with the rules of
// useChanges. A use of the function name that is not a call (exported,
// passed as a callback, put into a literal, assigned) lets unknown code call
// it: a gap (since 2.3.19, part spr2, an exported function's calls in the
// package's modules importing it are classified the same way, any other use
// there a gap, unless the function is exported by a file package.json names:
// the package's API, called from outside). A function with no name (an arrow handed to another call, a
// method of a literal) cannot be enumerated either: a gap. Bounded by
// mutNestLimit like the other follows.

// returnCallers classifies the callers of the function returning at ret
// (a return statement, or an arrow function's expression body); path is
// where the object is below the returned value. known false when the
// function cannot be enumerated (the caller keeps its gap).
func (r *schemaRead) returnCallers(f *file, ret nid, path []string) (ch mutChange, ok, known bool) {
	fn := ret
	for i := 0; i < mutDepthLimit && fn >= 0 && !functionKind(f.kind(fn)); i++ {
		fn = f.parent(fn)
	}
	if fn < 0 || !functionKind(f.kind(fn)) {
		return mutChange{}, false, false
	}
	if c, good, known := r.mapReturn(f, fn, ret, path); known { // a map's callback (schematext_mut_wrap.go)
		return c, good, true
	}
	var nameID nid = none
	exported := false
	switch f.kind(fn) {
	case "function_declaration":
		nameID = f.field(fn, "name")
		if p := f.parent(fn); p >= 0 && f.kind(p) == "export_statement" {
			if f.field(p, "declaration") != fn {
				return mutChange{}, false, false // export default function
			}
			exported = true
		}
	case "arrow_function", "function_expression", "function":
		d := f.parent(mutOuter(f, fn))
		if d < 0 || f.kind(d) != "variable_declarator" || unparen(f, f.field(d, "value")) != fn || f.kind(f.field(d, "name")) != "identifier" {
			return r.handlerMemberCallers(f, fn, ret, path) // schematext_mut_handler.go
		}
		nameID = f.field(d, "name")
		exported = mutExportedDecl(f, d)
	}
	if nameID < 0 || f.kind(nameID) != "identifier" {
		return mutChange{}, false, false
	}
	if exported && (nameScope(f, fn) != 0 || r.x.entryFile(f)) {
		return mutChange{}, false, false // the package's API: callers outside it
	}
	if r.mutDepth >= mutNestLimit {
		return mutChange{f, ret, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " returns"}, false, true
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	name := f.text(nameID)
	scope := nameScope(f, fn)
	ok = true
	calls := 0
	mutEach(r.x.usesOf(f, scope, name), func(n nid) bool {
		if r.mutTick() {
			ch, ok = mutLimitPassed(f, n), false
			return false
		}
		if n == nameID || f.text(n) != name {
			return true
		}
		if p := f.parent(n); p >= 0 && f.kind(p) == "export_specifier" {
			exported = true // export { build }: its importers' calls too
			return true
		}
		if f.kind(n) == "shorthand_property_identifier" {
			ch, ok = mutChange{f, n, "the function returning the object is handed on"}, false
			return false
		}
		if f.kind(n) != "identifier" {
			return true
		}
		if b, found := r.x.lookup(f, n, name); !found || b.id != nameID {
			return true // another binding of the same name
		}
		o := mutOuter(f, n)
		call := f.parent(o)
		if call < 0 || f.kind(call) != "call_expression" || f.field(call, "function") != o {
			ch, ok = mutChange{f, n, "the function returning the object is used other than called"}, false
			return false
		}
		calls++
		if _, c, good := r.useChanges(f, r.awaitedResult(f, call, f, ret), path); !good {
			ch, ok = c, false
			return false
		}
		return true
	})
	if !ok || !exported {
		return ch, ok, true
	}
	// An exported function (since 2.3.19, spr2): the calls in the package's
	// modules importing it, by name or as a namespace's member, also through
	// export * and named re-exports; any other use of the name there is a
	// change (importerUses).
	_, ch, ok = r.importerUses(f, name, path, func(g *file, n nid) (mutChange, bool) {
		o := mutOuter(g, n)
		call := g.parent(o)
		if call < 0 || g.kind(call) != "call_expression" || g.field(call, "function") != o {
			return mutChange{g, n, "the function returning the object is used other than called"}, false
		}
		_, c, good := r.useChanges(g, r.awaitedResult(g, call, f, ret), path)
		return c, good
	})
	return ch, ok, true
}
