package surface

// A request-handler registration whose receiver is a parameter (methodology
// §5.3, since 2.3.19). `server.setRequestHandler(…)` inside `function
// setup(server)` was a registration whatever the callers pass: a caller
// passing the package's own object with a `setRequestHandler` method of its
// own (which may change what the handler returns before the SDK sees it),
// or another package's server, had the texts read as written (a fail-open).
// The parameter is now resolved through the function's call sites in the
// package (callSitesOf, as the reading binds parameters elsewhere): when
// any call site passes a value that is not the SDK's server (an instance of
// a package class not extending it, another package's value or instance),
// the call is not a registration and the object is followed into that
// value's method (a gap where it cannot be). A call site passing another
// parameter is resolved the same way, up to recvDepthLimit functions up.
// A call site passing a value not resolved (a call's result, a member of a
// parameter), a function with no call site found in the package (exported,
// or handed on as a callback) and a parameter that is not a plain name keep
// the site a registration, as before: the common shape is a function given
// the server the package built or a factory's result, and refusing every
// such receiver would make that shape a gap with no case of a change
// behind it.

// recvDepthLimit bounds the functions a receiver is followed up through.
const recvDepthLimit = 4

// receiverNotSDK reports whether the receiver expression recv (in f) is, or
// may be bound by a call site of the package to, a value that is not the
// SDK's server.
func (r *schemaRead) receiverNotSDK(f *file, recv nid, depth int) bool {
	if notSDK, known := r.receiverValueNotSDK(r.x.eval(f, recv, nil)); known {
		return notSDK
	}
	recv = unparen(f, recv)
	if depth >= recvDepthLimit || recv < 0 || f.kind(recv) != "identifier" {
		return false
	}
	b, found := r.x.lookup(f, recv, f.text(recv))
	if !found || b.kind != bParam || b.fn < 0 || mutParamID(f, b.fn, b.index) != b.id || f.inVendoredRegion(b.fn) {
		return false
	}
sites:
	for _, cs := range r.x.callSitesOf(f, b.fn, nil) {
		if b.index >= len(cs.args) {
			continue
		}
		for _, a := range cs.args[:b.index+1] {
			if cs.f.kind(a) == "spread_element" {
				continue sites // the argument not known: as before
			}
		}
		if r.receiverNotSDK(cs.f, cs.args[b.index], depth+1) {
			return true
		}
	}
	return false
}
