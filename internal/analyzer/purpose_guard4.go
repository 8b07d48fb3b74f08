package analyzer

import "strings"

// The fourth reading's refinements of the rules (offline-purpose-4,
// docs/model-check.md, "The purpose analyzer's fourth reading"): three
// structures that the earlier readings took for a directive against the
// user, each a reading of who the instruction protects or whose choice it
// follows, never a word list of cases.
//
//   - Protection against injected text: discarding instructions that sit
//     in untrusted content (a command's or a tool's output, a fetched page,
//     a document, search results, an e-mail) protects the user; discarding
//     the user's, the system's or prior instructions still overrides them.
//   - Following the user's choice: "switch to whatever the user prefers"
//     makes the user's choice the object of the action; "whatever the user
//     selects, use X" (a concessive clause) still acts against it.
//   - A transfer stated as not happening in the passive ("earlier messages
//     are not sent", "the key is not shared") is a negated transfer, as
//     "never sent" already was.

// pxUntrustedInstructions: instructions located in content the model
// reads, not given by the user or the system.
var pxUntrustedInstructions = px(`\b(instructions?|commands?|directives?|requests?|prompts?|orders?)\s+((that are |which are |that )?(found|contained|embedded|hidden|appearing|placed|written|included|appear|appears)\s+)?(in|inside|within|from)\s+(the |any |a |an |their |its )?(\w+\s+){0,2}(output|outputs|results?|pages?|documents?|files?|contents?|data|responses?|e-?mails?|websites?|web pages?|html|markup|comments?|logs?|payloads?|attachments?|retrieved text|fetched text)\b` +
	// …or held by it in a relative clause: "instructions the page itself
	// contains", "commands that a document includes".
	`|\b(instructions?|commands?|directives?|prompts?)\s+(that |which )?(the |a |an |any |this |each )?(\w+\s+){0,1}(output|results?|pages?|documents?|files?|contents?|responses?|e-?mails?|websites?|web pages?|html|markup|comments?|logs?|payloads?|attachments?)\s+(itself\s+|themselves\s+)?(contains?|holds?|includes?|carries|carry|embeds?)\b`)

// pxUsersOwnInstructions: the discarded instructions are the user's, the
// system's or earlier ones, whatever else the sentence says.
var pxUsersOwnInstructions = px(`\b(the user'?s?|user'?s|users'|your|system|operator'?s?|developer'?s?|prior|previous|earlier|original|above|preceding)\s+(\w+\s+){0,2}(instructions?|requests?|prompts?|rules|guidelines|directions|wishes|preferences|choices?|system prompt)\b`)

// protectsFromInjection reports a discard of instructions that sit in
// untrusted content, and of no one else's.
func protectsFromInjection(f string) bool {
	return pxUntrustedInstructions.MatchString(f) && !pxUsersOwnInstructions.MatchString(f)
}

// pxFollowsChoice: the user's choice is what the action takes.
var pxFollowsChoice = px(`\b(to|use|uses|follow|follows|apply|applies|honou?r|honou?rs|respect|respects|adopt|adopts|match|matches|keep|keeps)\s+(to\s+)?whatever\s+(\w+\s+){0,2}(the user|they|the customer|the caller)\s+(prefers?|wants?|chooses?|picks?|asks? for|requests?|says?|selects?|sets?|likes?)\b`)

// followsUserChoice reports a sentence whose only "whatever the user …"
// is the object the action follows, with nothing put in its place.
func followsUserChoice(f string) bool {
	return pxFollowsChoice.MatchString(f) && !pxInstead.MatchString(f)
}

// pxPassiveNoTransfer: a transfer stated as not happening, in the passive.
var pxPassiveNoTransfer = px(`\b(is|are|will be|gets?|get) (not|never) (sent|passed|shared|forwarded|uploaded|included|transmitted|attached|copied|posted|exported)\b|\b(isn't|aren't|won't be) (sent|passed|shared|forwarded|uploaded|included|transmitted|attached|copied|posted|exported)\b`)

// pxTermEnd: a thing kept as it is only until the paid term it belongs to
// ends ("keep it active until the end of the billing period"): a
// cancellation that takes effect when the term ends is honoured, not
// undone.
var pxTermEnd = px(`\bkeep\s+(it|them|the \w+|their \w+|the user'?s \w+)\s+(active|available|running|accessible|open|enabled)\s+(\w+\s+){0,2}until\s+the\s+(end|close)\s+of\s+(the|their|its)\s+(current\s+|paid\s+)?(billing|subscription|paid|notice|trial|contract|prepaid)\s+(period|cycle|term|month|year)\b`)

// honoursAtTermEnd returns the folded sentence f with a term-end keep
// (pxTermEnd) taken out before any reading, so that only another contrary
// act in the sentence ("and keep charging", "then renew it anyway") still
// reads against the user's choice.
func honoursAtTermEnd(f string) string {
	if !strings.Contains(f, "until the end of") && !strings.Contains(f, "until the close of") {
		return f
	}
	return pxTermEnd.ReplaceAllString(f, " ")
}
