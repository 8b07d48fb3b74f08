package surface

// Registrations the rules read through a package's own helpers (issue 15
// item 5, methodology §5.2, 2.3.4).

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
