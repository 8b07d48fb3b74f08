package surface

// A prompt message text that is itself the package's conditional
// (methodology §5.4, the rule of 2.3.8, read here since 2.3.9):
//
//	text: args.block ? `Block ${args.block} on ${NETWORK}.` : `The latest block.`
//
// is the same choice as `${t ? A : B}` inside a template (jsfallback.go),
// and ternaryAlternatives has already read it, under the same conditions:
// the test not decided, each arm a literal, a constant of the package, a
// template of constants, client arguments or alternatives, or the client's
// argument itself (its own hole); an empty arm adds nothing. Such a value is
// the union every other reader sees, carrying the run of segments as alt;
// only a prompt message's text (promptResultTexts) takes the run here. A
// conditional an arm of which was not read exactly carries no run and stays
// unreadable, as before; so does a fallback `C || L` that is the whole text
// (not this form).

// messageConditional is the text of a prompt message whose text is an
// undecided conditional read as the package's alternatives, or v unchanged.
// Two arms of the same text were read as that text before, and still are.
func messageConditional(v val) val {
	if v.alt == nil || v.k != vUnion {
		return v
	}
	if _, ok := sameText(v.elems); ok {
		return v
	}
	return val{k: vText, txt: &textv{segs: append([]seg(nil), v.alt.segs...)}}
}
