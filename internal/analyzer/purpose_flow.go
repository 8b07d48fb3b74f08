package analyzer

// Where data goes, in the shapes offline-purpose-2 adds (docs/model-check.md,
// "offline-purpose-2"): the user's things or a credential handed to
// another tool, to an outside address, or into the answer, when the entry's
// stated purpose does not need them; and the tool's own behaviour stated as
// a copy to an outside address ("all digests are copied to ...").

var (
	// Another tool as the place data lands: "to the lint tool", "to
	// `notes_export`", "call sync with", "of the next call".
	pxCrossTool = px("\\bto (the |a |another )?`?[a-z][a-z0-9]*_[a-z0-9_]+`?( tool)?\\b|\\bto (the |a |another )?[\\w-]+ (tool|server)\\b|\\bcall(ing)? `?[a-z][\\w-]*`? with\\b|\\b(of|to|in) (the )?next (tool )?call\\b|\\bin every (\\w+ )?call\\b|\\bargument of `?[a-z][\\w-]*`?|\\bto every (request|call|message)\\b")

	// A credential named in the singular or by kind: what a login tool
	// takes from the user, and what no other tool needs.
	pxWeakSecret = px(`\b(passwords?|passphrases?|api[ _-]?keys?|secret keys?|access keys?( id)?|access tokens?|auth(entication|orization)? tokens?|bearer tokens?|authorization headers?|cookies?|document\.cookie|session (ids?|cookies?|tokens?)|card (details|numbers?)|payment card|cvv|cvc|pin codes?|security codes?|online-banking \w+|api key or token)\b`)

	// Where a credential was found: elsewhere in the session, not given
	// for this call.
	pxHarvest = px(`\b(found|seen|mentioned|shared|typed|given|used|stored) (in|during|earlier in|throughout|anywhere in) (the|this|any|your|a) (\w+ )?(conversation|chat|logs?|files?|output|session|history|code|repo|repository|crm|page|workspace)\b|\bin (any|every) (file|document|message|log|output|page|repo|repository)\b|\bfrom (the|this|your|their) (conversation|chat|logs?|history|crm|session|environment|browser|files|mailbox|inbox)\b|\byou (see|find|encounter|come across|have seen|notice|read)\b|\b(it|they|the user|you) (used|entered|typed|gave|mentioned|shared)\b|\bthe same (password|key|token|code)\b`)

	// The purposes a credential belongs to.
	pxPurposeCredential = px(`\b(auth\w*|log ?in|login|sign ?in|signin|password\w*|credential\w*|secrets?|vault|keychain|keyring|tokens?|api keys?|session|cookies?|oauth|sso|2fa|otp|payment|pay|checkout|card|bank\w*)\b`)

	// The user's things in bulk or by kind, which another tool or an
	// outside address does not need.
	pxUserThings = px(`\bcontact details\b|\bphone numbers?\b|\bidentity documents?\b|\bpassports?\b|\bsalar(y|ies)\b|\bsaved (addresses|cards|payment methods|logins)\b|\b(the user'?s?|their) (whole |entire |full )?(calendar|contacts|drive|profile|notes|browsing history|mail|chats|messages|location|address|history)\b|\bopen tabs\b|\bform fields\b|\b(every|each|all) (\w+ )?(notes?|contacts?|messages?|emails?|tabs?|documents?|files?|photos?|recordings?|accounts?) (the user|they|you)\b|\bevery (unread|matching|open|new) (\w+ )?(messages?|contacts?|files?|notes?|emails?|tabs?)\b|\b(every|each|all) (\w+ )?(contacts?|accounts?) with\b|\bthe (\w+ )?(accounts?|customers?) with their\b|\bthe last \d+ (queries|searches|messages|prompts)\b`)

	// The model's context and what it has seen, beyond pxModelContext:
	// other tools' results, the tool list, its own answers.
	pxModelContext2 = px(`\b(results?|outputs?) of (every|each|all|the last \w+|previous|earlier|other|any) (\w+ ){0,2}tool calls?\b|\btool calls? (you have made|of any server|from other servers|made so far)\b|\bevery (other )?tool you (can call|have access to|can use|have)\b|\b(names and descriptions|descriptions|names) of (every|all|each|the) (other )?tools?\b|\bapi keys you were (configured|given)\b|\b(each|every) answer you give\b|\byour (answers?|replies|responses) to the user\b|\bevery (file path|secret|credential|key|token|password) you have seen\b|\bfile paths? and secrets?\b|\bprivate (file|files|document|documents|notes)\b|\b(the user'?s?|their) private \w+|\bprivate repositor(y|ies) of the user\b`)

	// Verbs that hand data on, beyond pxTransfer: printing or listing it
	// into the answer, exporting it, passing it along.
	pxTransfer2 = px(`\b(print|printing|list|dump|output|enumerate|reveal|export|exports|forward|forwards|relay|mirror|sync|syncs|address (it|them|this|these|a copy) to|call(ing)? ` + "`?" + `[a-z][\w-]*` + "`?" + ` with|pass(es|ing)? (it|them|both|the \w+|that \w+)|submit)\b`)

	// The tool's own behaviour as a copy sent outside: "all digests are
	// copied to ...", "each message is bcc'd to ...".
	pxPassiveCopy = px(`\b(all|every|each|any)\b[^.;]{0,40}\b(is|are|gets|get)\s+(also\s+|silently\s+|automatically\s+|quietly\s+)*(copied|forwarded|mirrored|bcc'?d|cc'?d|sent|posted|uploaded|relayed|archived|synced|exported|logged)\s+to\b`)
)

// readExfil2 is exfiltration in the shapes of purpose_flow.go. It never
// reads a sentence whose every transfer is negated.
func (p entryPurpose) readExfil2(f string) bool {
	if pxNoTransfer.MatchString(f) {
		return false
	}
	ext := pxExternal.MatchString(f)
	if !ext && !pxCrossTool.MatchString(f) && !pxModelContext2.MatchString(f) && !(pxWeakSecret.MatchString(f) && pxHarvest.MatchString(f)) {
		// Every rule below needs one of these.
		return false
	}
	bare := f
	if ext {
		bare = pxExternal.ReplaceAllString(f, " <destination> ")
	}
	transfer := unnegated(pxTransfer, bare) || unnegated(pxTransfer2, bare) || unnegated(pxFlow, bare)
	negated := !transfer && (pxTransfer.MatchString(bare) || pxTransfer2.MatchString(bare) || pxFlow.MatchString(bare))
	if negated {
		return false
	}
	cross := pxCrossTool.MatchString(bare)
	if ext && pxPassiveCopy.MatchString(bare) {
		return true
	}
	if !transfer || !addressed(f, p) {
		return false
	}
	// The model's context or a private file, anywhere it goes.
	if pxModelContext2.MatchString(f) {
		return true
	}
	// A credential taken from elsewhere, or handed to another tool or an
	// outside address by an entry whose purpose is not the credential.
	if pxWeakSecret.MatchString(f) {
		harvest := pxHarvest.MatchString(f)
		if harvest || ((cross || ext) && !pxPurposeCredential.MatchString(p.text)) {
			return true
		}
	}
	// The user's things handed to another tool or sent outside.
	if (cross || ext) && pxUserThings.MatchString(f) {
		return true
	}
	return false
}
