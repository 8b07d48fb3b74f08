package surface

import "strconv"

// A registration site that is the package's own function (methodology
// §5.3, since 2.3.18). The sites of a file (jsfacts.go) are found by shape:
// a callee named like a server given a literal with tools (siteToolsTable),
// a method named like the SDK's (`X.tool(…)`, `X.setRequestHandler(…)`).
// When the callee resolves to a function written in the package — the
// package's wrapper `runMCPServer(config)`, a class of its own with a
// `setRequestHandler` method — the call is not where the SDK receives the
// object: the wrapper may write through it (`config.tools.forEach(t => {
// t.inputSchema.x = … })`) before it registers it. Such a call is then not a
// read by itself (registrationCall false): an object handed to it is
// followed into the callee's parameter (calleeReads), a function written as
// its argument returns to the wrapper, not to the SDK (siteCallbackReturn).
// Bundled third-party code (a bundled SDK) is not the package's: its calls
// stay registrations.

// wrapperSite reports whether call (a registration site) calls a function
// written in the package, outside bundled third-party code.
func (r *schemaRead) wrapperSite(f *file, call nid) bool {
	if call < 0 || f.kind(call) != "call_expression" {
		return false
	}
	v := r.x.eval(f, f.field(call, "function"), nil)
	return v.f != nil && v.n >= 0 && functionKind(v.f.kind(v.n)) && !v.f.inVendoredRegion(v.n)
}

// loopUse classifies `for (… of X)` where X is the object, or a member
// holding it, at rest below X: the loop's variable is each element, its uses
// followed as the object's under rest's first key (any element: "*"), so a
// write through an element (`for (const t of config.tools) t.inputSchema.x =
// …`) is a change. `for (k in X)` binds keys only, which read. A variable
// that is not a plain name (a pattern), or not declared by the loop, is a
// change.
func (r *schemaRead) loopUse(f *file, loop nid, rest []string) (del []string, ch mutChange, ok bool) {
	// A delete through an element is a change: the loop may run for some
	// elements only.
	if f.text(f.field(loop, "operator")) != "of" {
		return nil, mutChange{}, true
	}
	left := f.field(loop, "left")
	if left < 0 || f.kind(left) != "identifier" || f.field(loop, "kind") < 0 {
		return nil, mutChange{f, loop, "the object's elements are bound by a loop to a target not followed"}, false
	}
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, loop, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " levels"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	var elem []string
	if len(rest) > 0 {
		elem = rest[1:]
	}
	name := f.text(left)
	ok = true
	mutEach(r.x.usesOf(f, loop, name), func(n nid) bool {
		if r.mutTick() {
			ch, ok = mutLimitPassed(f, n), false
			return false
		}
		if n == left || f.text(n) != name {
			return true
		}
		if b, found := r.x.lookup(f, n, name); !found || b.kind != bLoop || b.id != left {
			return true // another binding of the same name
		}
		d, c, good := r.useChanges(f, n, elem)
		if !good || len(d) > 0 {
			if good {
				c = mutChange{f, n, "a member of an element of the object is deleted in a loop"}
			}
			ch, ok = c, false
			return false
		}
		return true
	})
	return nil, ch, ok
}

// namedCallback is the function of the package a callback argument a (a
// name, a member) resolves to, outside bundled code; v.f nil when it is
// none. `tools.map(convertTool)` is then read as `tools.map((t) =>
// convertTool(t))` would be: the function's parameters are the callback's.
func (r *schemaRead) namedCallback(f *file, a nid) val {
	if k := f.kind(a); k != "identifier" && k != "member_expression" {
		return val{}
	}
	v := r.x.eval(f, a, nil)
	if v.f == nil || v.n < 0 || !functionKind(v.f.kind(v.n)) || v.f.inVendoredRegion(v.n) || !thislessFunction(v.f, v.n) {
		return val{}
	}
	return v
}

// patternUse classifies `const { a, ...others } = X` where X is the object,
// or a member holding it, at rest below X (since 2.3.18): a key bound by
// name that is not the one leading to the object binds another member
// (read); the rest element holds every member not named, so its uses are
// followed as X's. A key leading to the object (or any key when the path is
// the object itself or runs through an element), a computed key, a nested
// pattern on that key, an exported declaration: a change.
func (r *schemaRead) patternUse(f *file, decl nid, rest []string) (del []string, ch mutChange, ok bool) {
	pat := f.field(decl, "name")
	no := func(at nid, why string) ([]string, mutChange, bool) { return nil, mutChange{f, at, why}, false }
	if len(rest) == 0 || rest[0] == "*" || mutExportedDecl(f, decl) {
		return no(decl, "the object is destructured")
	}
	restID := none
	for _, c := range nonComment(f, pat) {
		key := ""
		switch f.kind(c) {
		case "shorthand_property_identifier_pattern":
			key = f.text(c)
		case "object_assignment_pattern":
			if l := f.field(c, "left"); l >= 0 && f.kind(l) == "shorthand_property_identifier_pattern" {
				key = f.text(l)
			}
		case "pair_pattern":
			if k := f.field(c, "key"); k >= 0 && f.kind(k) != "computed_property_name" {
				key = propKeyName(f, k)
			}
		case "rest_pattern":
			for _, id := range nonComment(f, c) {
				if f.kind(id) == "identifier" {
					restID = id
				}
			}
			if restID < 0 {
				return no(c, "the object is destructured into a rest not a plain name")
			}
			continue
		case "{", "}", ",":
			continue
		}
		if key == "" || key == rest[0] {
			return no(c, "a member holding the object is destructured")
		}
	}
	if restID < 0 {
		return nil, mutChange{}, true
	}
	if r.mutDepth >= mutNestLimit {
		return no(decl, "the object is followed through more than "+strconv.Itoa(mutNestLimit)+" levels")
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	name := f.text(restID)
	ok = true
	mutEach(r.x.usesOf(f, nameScope(f, decl), name), func(n nid) bool {
		if r.mutTick() {
			ch, ok = mutLimitPassed(f, n), false
			return false
		}
		if n == restID || f.text(n) != name {
			return true
		}
		switch f.kind(n) {
		case "identifier", "shorthand_property_identifier":
		default:
			return true
		}
		if ub, found := r.x.lookup(f, n, name); !found || ub.id != restID {
			return true // another binding of the same name
		}
		d, c, good := r.useChanges(f, n, rest)
		if !good {
			ch, ok = c, false
			return false
		}
		del = append(del, d...)
		return true
	})
	return del, ch, ok
}
