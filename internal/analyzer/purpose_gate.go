package analyzer

// The precision-first combination of the two stages (offline-purpose-4,
// docs/model-check.md, "The purpose analyzer's fourth reading"). The
// second stage reads words; its proposals are kept only where the
// structure the rules read says the sentence could be what the category
// is, so a model score never turns a statement about the tool into a
// finding:
//
//   - exfiltrate_data needs a data class named (key files and credentials,
//     the environment, the model's context, the conversation, the user's
//     personal data) and no negated transfer: a URL, a field or an
//     example alone moves nothing;
//   - override_user and conceal_from_user need a directive: an imperative,
//     a modal addressed to the model, or a conditional trigger in the
//     sentence itself (a parameter description's kind alone does not make
//     every sentence of it a directive);
//   - a sentence that documents an option's value ("set to true to …",
//     "omit or set to auto to …", "if false, …") is the option's own
//     documentation, whose choice the caller makes: the model proposes
//     nothing there (the rules still read it, and a substitution of the
//     user's choice is theirs to find).
//
// It removes model proposals only; the rules' proposals are unchanged.

// pxOptionDoc: a sentence that opens by documenting a value of the option
// it belongs to.
var pxOptionDoc = px(`^((omit (it |this )?or )?set (it |this (field |flag |option |parameter )?|the (value |flag |option |field |rate |level )?|[a-z_][a-z0-9_]*\s*(=|:)\s*)?(to |=\s*)?("?[a-z0-9_.-]{1,20}"?|true|false)\b|(if|when) (set to |it is |this is )?(true|false|enabled|disabled|omitted|not set|unset)\b|defaults? to\b)`)

// modelAdmits reports whether the second stage may propose cat on sr.
func modelAdmits(cat string, sr sentenceReading) bool {
	f := sr.folded
	if cat == CategoryConceal && cncModelRedaction(f) { // purpose_cnc11.go
		return false
	}
	if pxOptionDoc.MatchString(f) {
		return false
	}
	switch cat {
	case CategoryExfiltrate:
		return sr.dataNamed && !sr.negated
	default:
		return sr.trigger || pxImperative.MatchString(f) || (sr.plain != "" && pxImperative.MatchString(sr.plain))
	}
}
