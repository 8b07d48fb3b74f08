package surface

// A prompts/get result that carries no messages (methodology §5.3, 2.3.10).
// A handler can answer a prompt with an object that has no `messages`
// member at all (`return { prompt: PROMPT }`, the listed definition sent
// back). GetPromptResult requires `messages`: an SDK client refuses such a
// result, and no client has a message of it to hand the model. What the
// handler returns is read exactly when it is an object literal whose every
// member is a plain key (`k: v` with a key written as a name or a string, or
// the shorthand `k`: no spread, computed key or method, and no table an
// esbuild `__export` fills), none of which is `messages`, and no file of the
// package writes a property named `messages` (so nothing adds one after
// the literal is built). Such a result records no message text, as
// `messages: []` does. Any other object whose messages are not found stays
// unreadable, as before.

// resultWithoutMessages reports whether ret is such an object literal.
func (x *extractor) resultWithoutMessages(ret val) bool {
	if ret.k != vObject || ret.f == nil || ret.n < 0 || ret.f.lang == LangPython {
		return false
	}
	f, n := ret.f, ret.n
	if f.kind(n) != "object" || len(x.exportedInto(f, n)) > 0 {
		return false
	}
	for _, c := range f.named(n) {
		switch f.kind(c) {
		case "pair":
			k := f.field(c, "key")
			if f.kind(k) == "computed_property_name" {
				return false
			}
			if name := propKeyName(f, k); name == "" || name == "messages" {
				return false
			}
		case "shorthand_property_identifier":
			if f.text(c) == "messages" {
				return false
			}
		case "comment":
		default:
			return false
		}
	}
	return x.constPropWritten("messages") == 0
}
