package analyzer

// The sixth reading's refinements of the rules (offline-purpose-5,
// docs/model-check.md, "The purpose analyzer's sixth reading"): two
// readings the earlier rules applied to one category and not to another,
// each a reading of whose choice the sentence follows or whose words it
// reports, never a word list of cases.
//
//   - Deference for concealment: "do not reveal the answer until the user
//     asks", "show the full log only when the user requests it" keep
//     something back until the user chooses to see it; the user decides,
//     as the override reading already holds (pxDefer). It excuses only a
//     prohibition on telling whose object is not an act of the tool's
//     (a transfer, a change, a charge): "do not mention that the copy was
//     sent unless they ask" still hides an act from the user.
//   - Quoted speech for discarding: an attack phrase quoted or given as an
//     example (what a scanner detects, what a filter strips, "such as
//     ignore previous instructions") is reported speech, not a directive,
//     as the concealment reading already holds for quoted prohibitions.
//     A discard that also stands outside the quotation still overrides.

// pxDeferConsent: the user's own request or consent as the condition the
// sentence waits for ("when the user requests it", "with the user's
// consent", "once the user agrees").
var pxDeferConsent = px(`\b(only\s+)?(if|when|once|after)\s+(the user|they|the customer|the caller)\s+(explicitly\s+|specifically\s+)?(asks?|requests?|wants?|agrees?|consents?|approves?|confirms?|says so|chooses?|opts? in)\b|\b(only\s+)?with\s+(the user'?s?|their)\s+(explicit\s+|prior\s+)?(consent|permission|approval|agreement)\b|\b(until|unless)\s+(the user|they|the customer|the caller)\s+(explicitly\s+|specifically\s+)?(asks?|requests?|wants?|agrees?|consents?|approves?|confirms?|says so|chooses?|opts? in)\b`)

// pxToolAct: an act of the tool's or the model's that a prohibition on
// telling would hide (sent, forwarded, charged, changed, deleted, logged).
var pxToolAct = px(`\b(sent|send|sends|sending|forward|forwards|forwarded|forwarding|upload|uploads|uploaded|uploading|shared|copied|posted|transmitted|exported|attached|added|appended|included|charged|billed|deducted|changed|modified|replaced|rewrote|rewritten|deleted|removed|overwrote|overwritten|installed|executed|ran|recorded|logged|tracked|stored|saved|collected|redirected|rerouted|cc'?d|bcc'?d|subscribed|enrolled|granted|transferred|paid|purchased|ordered)\b`)

// defersTelling reports a prohibition on telling that waits for the
// user's request or consent and hides no act: the user chooses when to
// see it.
func defersTelling(f string) bool {
	if !pxDefer.MatchString(f) && !pxDeferConsent.MatchString(f) {
		return false
	}
	if pxHide.MatchString(f) || pxSecretly.MatchString(f) || pxFalseMarker.MatchString(f) || pxIntlNoTell.MatchString(f) {
		return false
	}
	if !pxNoTell.MatchString(f) && !pxNoTell2.MatchString(f) && !pxLeaveOut.MatchString(f) {
		return false
	}
	return !pxToolAct.MatchString(f)
}

// pxMentionBefore: the words that make what follows a mention, not a
// directive: the object of detecting, flagging or stripping, or an
// example.
var pxMentionBefore = px(`\b(detects?|detecting|detected|flags?|flagging|flagged|blocks?|blocking|catches|catching|scans?\s+for|scanning\s+for|looks?\s+for|recogni[sz]es?|recogni[sz]ing|strips?|stripping|filters?(\s+out)?|filtering(\s+out)?|rejects?|rejecting|removes?|removing|redacts?|redacting|quarantines?|warns?\s+(about|of|on)|matches|matching|for\s+(\w+\s+){0,2}(rules|phrases|patterns|strings|instructions|text|wording|attempts|content|language|sentences|statements|lines)\s+(that|which|telling|asking|saying|trying)|such as|e\.g\.|e\.g|for example|for instance|as in|phrases?|patterns?|strings?|wording|text)\b[^.;]{0,40}$`)

// pxClauseBreak: where a new clause starts inside a sentence.
var pxClauseBreak = px(`[,:]\s+(and\s+|but\s+|so\s+)?(then|also|now|instead|afterwards|after that)\b|\b(and|but)\s+then\b|\bthen\s+(also\s+)?$`)

// discardMentioned reports a sentence whose every discard of the user's
// or earlier instructions is quoted or mentioned (an example, what a
// scanner detects), none given as a directive.
func discardMentioned(f string) bool {
	said := pxQuoted.ReplaceAllString(f, " <quoted> ")
	if !pxDiscard.MatchString(said) {
		return pxDiscard.MatchString(f)
	}
	// Each clause alone ("…, then ignore …" starts a new one), so one
	// match cannot carry a mention across into a directive.
	prev := 0
	breaks := append(pxClauseBreak.FindAllStringIndex(said, -1), []int{len(said), len(said)})
	for _, b := range breaks {
		clause := said[prev:b[0]]
		prev = b[1]
		for _, loc := range pxDiscard.FindAllStringIndex(clause, -1) {
			a := loc[0] - 80
			if a < 0 {
				a = 0
			}
			if !pxMentionBefore.MatchString(clause[a:loc[0]]) {
				return false
			}
		}
	}
	return true
}
