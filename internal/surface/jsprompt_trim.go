package surface

// A trim of the client's own prompt argument (methodology §5.4, 2.3.10).
// `const task = args.task?.trim()` is a common first line of a prompt's
// callback. A hole is filled by the client when its bytes are the ones the
// user sends and the publisher writes none of them; String.prototype.trim,
// trimStart and trimEnd (and their old names trimLeft, trimRight) return a
// contiguous part of their receiver, cut at white space, so every byte of
// the result is a byte the user sent, in the user's order, and no byte of
// the package is added. Such a call, with no argument, on the client's
// argument itself keeps the client's mark. It does not when the package
// could have replaced the method: a property of that name written anywhere
// in the package (`String.prototype.trim = ...`), or an object named
// `prototype` written through a computed key or a builtin
// (`Object.assign(String.prototype, ...)`), by the standard the mark's other
// rules use (jsclientargs.go).
//
// Other methods on the argument still drop the mark, whether or not the
// language defines them: a case mapping (`toUpperCase`) returns bytes the
// user did not send, and a method with arguments (`padEnd(8, "!")`,
// `replace(a, b)`, `concat(s)`) can add the package's bytes.

// clientTrim reads recv.method(args...) when recv is the client's own
// argument and the method is one of the trims.
func (x *extractor) clientTrim(recv val, method string, args []nid) (val, bool) {
	if x.clientArgText == 0 || !isClientArgument(recv) || len(args) != 0 {
		return val{}, false
	}
	switch method {
	case "trim", "trimStart", "trimEnd", "trimLeft", "trimRight":
	default:
		return val{}, false
	}
	if x.constPropWritten(method) > 0 || x.constObjectWritten("prototype") {
		return val{}, false
	}
	return recv, true
}

// trimSubstitution marks the hole h of a substitution `${C.trim()}` (call
// node n) as the client's when the call is one of the trims above on the
// client's argument; a substitution that is any other call stays an
// ordinary hole, as before.
func (x *extractor) trimSubstitution(f *file, n nid, h val, e *env) val {
	callee := f.field(n, "function")
	if f.kind(callee) != "member_expression" || len(f.args(n)) != 0 {
		return h
	}
	switch f.text(f.field(callee, "property")) {
	case "trim", "trimStart", "trimEnd", "trimLeft", "trimRight":
	default:
		return h
	}
	if v := x.eval(f, n, e); isClientArgument(v) && len(h.txt.segs) == 1 {
		h.txt.segs[0].client = true
	}
	return h
}
