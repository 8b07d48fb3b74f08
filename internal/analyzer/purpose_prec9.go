package analyzer

import "strings"

// The tenth reading's precision (offline-purpose-9, issue 16;
// docs/model-check.md, "The purpose analyzer's tenth reading"): three
// forms the older readings took for a finding although the sentence says
// it is none. Each narrows one reading by what the sentence itself says;
// what cannot be read so stays as before.
//
//   - A destination the text says is the user's own ("a copy to the user's
//     own address at me@home.example") is not a hand-over to a third party,
//     and an address written as where something is taken from ("the
//     package from https://…") is a source, not a sink. Both are read only
//     for the destination flows of readExfil (the user's data handed to an
//     address, a copy sent outside); a credential, the environment or an
//     unneeded conversation named beside any address outside stays a
//     finding, wherever the address points.
//   - "When the user asks to keep the team informed" is the user's request,
//     and "keep" in it is what they ask, not a contrary act; a copy to the
//     very party the user asked to keep informed is deference. An address
//     for another party ("cc audit@… when the user asks to keep the team
//     informed") stays a finding.

// pxOwnDestBefore9: the words just before an address that say it is the
// user's own ("to the user's own address at", "their own inbox,").
var pxOwnDestBefore9 = px(`\b(the user'?s?|their|his|her)\s+own\s+(personal\s+)?(e-?mail\s+|mail\s+)?(address|inbox|mailbox|account)\s*(at|:|,|-|is)?\s*$`)

// pxSourceBefore9: the words just before an address that make it where
// something comes from ("from https://…", "from the index at https://…").
var pxSourceBefore9 = px(`\bfrom\s+((the|a|an|its|their)\s+[\w-]+\s+(at|on)\s+)?$`)

// sinkExternal9 reports whether f names an address outside the tool that
// is a destination: some pxExternal match that is neither the user's own
// (pxOwnDestBefore9) nor a source (pxSourceBefore9).
func sinkExternal9(f string) bool {
	for _, loc := range pxExternal.FindAllStringIndex(f, -1) {
		a := loc[0] - 60
		if a < 0 {
			a = 0
		}
		before := f[a:loc[0]]
		if pxOwnDestBefore9.MatchString(before) || pxSourceBefore9.MatchString(before) {
			continue
		}
		return true
	}
	return false
}

// pxAsksKeepInformed9: the user's request that a party be kept informed;
// group 4 is the party.
var pxAsksKeepInformed9 = px(`\b(if|when|whenever|once)\s+(the user|the human|they)\s+(asks?|wants?|requests?)\s+(you\s+)?to\s+keep\s+(the\s+|their\s+|his\s+|her\s+)?([a-z][\w-]*)\s+(informed|updated|posted|in the loop)\b`)

// pxMailLocal9: the local part of a mail address.
var pxMailLocal9 = px(`\b([\w.+-]+)@([\w-]+\.)+[a-z]{2,}\b`)

// asksToKeepInformed9 reports a sentence whose only choice of the user is a
// request to keep a party informed, and whose every mail address is that
// party's (its local part is the party's word): the copy is what the user
// asked for. Any other contrary word, "instead", or an address of another
// party leaves the reading as it was.
func asksToKeepInformed9(f string) bool {
	m := pxAsksKeepInformed9.FindStringSubmatchIndex(f)
	if m == nil {
		return false
	}
	party := f[m[12]:m[13]]
	rest := f[:m[0]] + " " + f[m[1]:]
	if pxContrary.MatchString(rest) || pxInstead.MatchString(rest) || pxAgainstChoice.MatchString(f) {
		return false
	}
	for _, loc := range pxMailLocal9.FindAllStringSubmatchIndex(f, -1) {
		local := f[loc[2]:loc[3]]
		if local != party && local != strings.TrimSuffix(party, "s") {
			return false
		}
	}
	// Any other address outside (a web address, a phone number) is not
	// the party's.
	return len(pxExternal.FindAllStringIndex(f, -1)) == len(pxMailLocal9.FindAllStringIndex(f, -1))
}
