package analyzer

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
var pxUntrustedInstructions = px(`\b(instructions?|commands?|directives?|requests?|prompts?|orders?)\s+((that are |which are |that )?(found|contained|embedded|hidden|appearing|placed|written|included|appear|appears)\s+)?(in|inside|within|from)\s+(the |any |a |an |their |its )?(\w+\s+){0,2}(output|outputs|results?|pages?|documents?|files?|contents?|data|responses?|e-?mails?|websites?|web pages?|html|markup|comments?|logs?|payloads?|attachments?|retrieved text|fetched text)\b`)

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
