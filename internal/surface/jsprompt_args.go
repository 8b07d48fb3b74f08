package surface

// The client's prompt arguments handed on through the package's own code
// (methodology §5.4, 2.3.10). A prompts/get handler often does not build
// its messages itself: it hands the client's arguments to a function of the
// package that looks the prompt up by name and returns its messages
// (`config.getPrompt(request.params.name, request.params.arguments ??
// undefined)`, then `function render(name, args = {}) { switch (name) ...
// }`). The handler and every function it calls are read as calls being
// evaluated (jspromptget.go), so the arguments reach the text through
// parameters bound by those calls, which keep the client's mark. Two
// spellings on that route add nothing of the package's and keep it too:
//
//   - a fallback to nothing, `C ?? undefined` and `C || undefined`: the
//     value is C, or undefined, which is what an argument the client left
//     out is anyway (jsclientargs.go already keeps `C || ""` and
//     `request.params.arguments || {}`);
//   - a default that is an empty object, `function render(name, args = {})`
//     or `({ a } = {})`: the client's arguments, or, when the client sent
//     none, an object with no member, whose every property reads undefined
//     as the client's absent argument does.
//
// Any other default, fallback or merge on the way still drops the mark
// (jsfallback.go, jsclientargs.go), and so does every rule that drops it
// when the package may write the value (a name or property written).

// nothingAlternative reports whether r, the right side of `C ?? r` or
// `C || r`, or the default of a pattern, adds nothing of the package's to
// the client's value: undefined, or an object literal with no member.
func nothingAlternative(f *file, n nid, r val) bool {
	if r.k == vUndefined {
		return true
	}
	for i := 0; i < 16 && n >= 0 && f.kind(n) == "parenthesized_expression"; i++ {
		n = constInner(f, n)
	}
	return n >= 0 && f.kind(n) == "object" && len(f.named(n)) == 0
}
