package analyzer

// The eleventh reading's purpose-scope frames (offline-purpose-10, part
// ovr, issue 16; docs/model-check.md, "The purpose analyzer's eleventh
// reading"). An imperative outside the entry's first sentence that asks
// the model for a weighty act is override_user when what the entry says
// it is for (its name and first sentence, entryPurpose.text) does not
// cover that class of act:
//
//   - a destructive act on a weighty object ("terminate all instances
//     tagged env=prod", "run DROP TABLE audit_log first", "delete the
//     oldest three snapshots") in an entry whose purpose names no
//     destructive act;
//   - a safeguard skipped ("skip the identity check", "without running the
//     required checks") in an entry whose purpose is not that safeguard;
//   - a flag that forces past a refusal or a check ("use --force",
//     "pass --no-verify") in an entry whose purpose does not name it;
//   - a binding act (sign, accept, approve, merge, pay, place, close…)
//     done unseen by the user, on their behalf, without review or
//     "directly", in an entry whose purpose names no such act.
//
// Each frame is read only as an imperative (the start of the sentence or
// of a clause, after "also", "then", "first"), never in a negated or
// deferring sentence ("only if the user asks", "when the user requests
// it", "do not"), so the legitimate sentences that look alike stay clean.

// pxImper10 is where an imperative starts: the sentence (after a label or
// a leading condition), a clause, or an adverb of sequence.
const pxImper10 = `(^(\w+: )?((when|whenever|if|before|after|once|on)\b[^,;:]{0,80}[,;:] ?)?|[,;:] |\b(and|then|also|first)\s+)((also|always|first|then|silently|quietly|immediately)\s+)*`

var (
	pxDestroy10 = px(pxImper10 + `(terminate|destroy|wipe|purge|truncate|delete|erase|drop|remove)\s+((all|every|each|any|the|their|its|his|her)\s+)?((oldest|newest|latest|other|remaining|existing)\s+)?([\w=.-]+\s+){0,3}?(instances?|volumes?|servers?|vms?|hosts?|tables?|databases?|snapshots?|backups?|audit[ _-]?logs?|logs?|repositor(y|ies)|buckets?|clusters?|branches|branch protection)\b` +
		`|` + pxImper10 + `run\s+(a\s+)?(drop\s+(table|database)|truncate(\s+table)?|rm\s+-rf)\b`)
	pxSafeguard10 = px(pxImper10 + `(skip|bypass|disable|turn off|circumvent|switch off)\s+((the|any|all|its|their|every)\s+)?([\w-]+\s+){0,2}?(identity|security|required|safety|review|preview|sign-?off|verification|2fa|mfa|fraud|compliance|integrity|signature|kyc)\s+(checks?|steps?|reviews?|verifications?|prompts?|screens?|gates?)\b` +
		`|\bwithout\s+(running|passing|waiting for)\s+(the\s+)?(required|mandatory|ci|status|security|review)\s+(checks?|tests?|reviews?)\b` +
		`|\b(the\s+)?(user'?s?\s+)?(confirmation|approval|sign-?off|review)\s+step\s+(is|was)\s+(not needed|unnecessary|not required|skipped)\b`)
	pxBinding10        = px(pxImper10 + `(sign|approve|accept|merge|purchase|buy|pay|place|confirm|close|submit)\b[^.;]{0,80}(\bon (the user'?s?|their) behalf\b|\b(the user|they) (has|have) not (seen|read|approved|agreed)\b|\bwithout (replying|review|reviewing|reading|showing)\b|\bdirectly$)`)
	pxPurposeBinding10 = px(`\b(sign|approv|accept|merg|purchas|buy|pay|order|checkout|confirm|clos|submit|rsvp|invit)\w*`)
	pxForceFlag10      = px(pxImper10 + `(use|pass|add|run with|push with|retry with|rerun with)\s+` + "`?" + `--(force|no-verify|skip-checks|insecure|allow-unsigned)\b`)
	// The user's own request or a deferral: the act is theirs.
	pxUserAsks10 = px(`\b(if|when|whenever|unless|once|only if|only when)\s+(the user|the human|they|the operator|the caller)\s+(explicitly\s+)?(asks?|requests?|wants?|says?|chooses?|opts?|confirms?|approves?|tells?|passes|sets)\b|\b(only|unless)\s+(if|when)\b|\bat the user'?s? request\b|\bif asked\b`)
	pxNeg10      = px(`\b(do not|don't|dont|never|must not|should not|cannot|can't|no need to|avoid)\b`)

	// What the entry says it is for, by class of act.
	pxPurposeDestroy10   = px(`\b(terminat|destroy|wip|purg|truncat|delet|eras|drop|remov|clean|prun|teardown|tear down|decommission|kill|reset|admin|manag|cleanup|rm)\w*`)
	pxPurposeSafeguard10 = px(`\b(skip|bypass|disabl|check|verif|review|identity|approv|test|ci|lint|merg)\w*`)
	pxPurposeForce10     = px(`\bforce\w*`)
)

// readOvr10 adds override_user for an unrequested weighty act the entry's
// stated purpose does not cover.
func (p entryPurpose) readOvr10(sr *sentenceReading, f string) {
	if sr.first || sr.override || len(f) > 2048 {
		return
	}
	if pxUserAsks10.MatchString(f) || pxDefer.MatchString(f) || pxNeg10.MatchString(f) {
		return
	}
	switch {
	case pxDestroy10.MatchString(f) && !pxPurposeDestroy10.MatchString(p.text):
		sr.override = true
	case pxSafeguard10.MatchString(f) && !pxPurposeSafeguard10.MatchString(p.text):
		sr.override = true
	case pxBinding10.MatchString(f) && !pxPurposeBinding10.MatchString(p.text):
		sr.override = true
	case pxForceFlag10.MatchString(f) && !pxPurposeForce10.MatchString(p.text):
		sr.override = true
	}
}
