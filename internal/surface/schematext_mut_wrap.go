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
