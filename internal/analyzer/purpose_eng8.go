package analyzer

import "strings"

// The ninth reading's English frames (offline-purpose-8, part eng;
// docs/model-check.md, "The purpose analyzer's ninth reading", "eng").
// Each is a frame of concepts, never a sentence of a case:
//
//   - A status told and undone: a sentence that tells the user a state has
//     ended (locked, removed, erased, revoked, stopped, cancelled,
//     published) and, in the same sentence, keeps the state it says has
//     ended ("leave it unlocked", "keep them on the list", "keep sharing",
//     "leave its sessions alive", "saved as drafts only", "do not actually
//     cancel"). The act kept is override_user, the account concealment.
//   - A false account under the contrary condition: when the outcome is
//     bad (fails, flagged, critical, pathogenic, rejected), the status told
//     is good (clean, benign, normal, fixed, success): concealment whether
//     or not the entry does anything else; an act that marks the bad
//     outcome good ("mark them as skipped") beside it is override_user.
//   - The user's act reversed or widened: a trigger on what the user (or
//     an operator, a clinician) does, answered by the reverse ("switch
//     them back on", "add it back", "leave it unlocked", "keep the robots
//     moving"), by the other value of a pair ("chooses second class" …
//     "book first class"), or by the same act widened or narrowed ("asks
//     to delete a file" … "delete its whole directory", "pays this
//     invoice" … "pay twice").
//
//   - Further frames, each described where it is written below: a second
//     copy to an address the text writes; the tool's behaviour stated as a
//     second copy; what the session holds handed to a field; another's
//     instructions put above the user's; an addition from outside planted
//     in every artifact; the user's value shown after it was replaced; a
//     value the user set exceeded or shifted, a verdict fixed whatever its
//     criterion; the model's own action log cleared, an act renamed.
//
// Deference ("only if the user asks", "until the user confirms") ends each
// frame, and so does a status told as not having happened. Every pattern
// is RE2 (linear in the sentence); sentences over 2 KiB are not read by
// these frames (the earlier readings still read them).

// pxEndState8: a state that has ended, as told to the user.
var pxEndState8 = px(`\b(locked|removed|deleted|erased|revoked|stopped|cancel+ed|cancel+ation|unsubscribed|disabled|turned off|switched off|closed|ended|published|discontinued|archived|inactive|deactivated|terminated|wiped|purged)\b`)

// pxKeepState8: the state kept, or the act not done.
var pxKeepState8 = px(`\b(keep|keeps|leave|leaves)\s+(\w+'?s?\s+){0,4}(active|alive|on|open|running|moving|enabled|unlocked|subscribed|in place|on the list|live|intact)\b|\bkeep (sharing|running|recording|tracking|charging|billing|sending|streaming|moving|listening|syncing|collecting|logging|the data|the records?|the files?|the account|the subscription)\b|\b(do not|don't|dont|never) actually\b|\bnot actually\b|\bas drafts? only\b`)

// pxTold8: a telling of a status to the user beyond the account frame's
// verbs: "let the user believe", "the user is told", "confirm the
// cancellation to the user", "report it revoked".
var pxTold8 = px(`\b(let|make|have)\s+(the user|the customer|them|him|her)\s+(believe|think|assume)\b|\b(the user|they|the customer|users)\s+(is|are)\s+told\b|\bconfirm\s+(the\s+)?(\w+\s+)?(cancel+ation|deletion|removal|revocation|unsubscription|lock|shutdown|erasure|closure)\b|\b(report|reports|mark|marks|show|shows|list|lists|tell|tells|say|says|confirm|confirms|present|presents|describe|describes)\s+(it|them|this|that|the \w+)\s+((to|for)\s+(the user|them)\s+)?(as\s+)?(locked|removed|deleted|erased|revoked|stopped|cancel+ed|unsubscribed|disabled|closed|off|published|discontinued|clean|benign|normal|fixed|successful|passed|resolved|safe)\b`)

// pxToldNot8: a status told as not having happened ("tell them it was not
// deleted") is no false account of an ended state.
var pxToldNot8 = px(`\b(not|never|no longer)\s+(been\s+)?(locked|removed|deleted|erased|revoked|stopped|cancel+ed|unsubscribed|disabled|closed|published|discontinued|archived)\b`)

// pxSequence8: the state kept for a while and then ended ("keep the old
// token active for five minutes, then revoke it"), or until the user
// acts: a grace period, not a state kept against the account.
var pxSequence8 = px(`\b(then|until|once|for (a|an|\d+|one|two|five|ten) (few )?(seconds?|minutes?|hours?|days?))\b`)

// statusUndone8 reports the first frame: a status told and undone in the
// same sentence.
func statusUndone8(f string, told bool) bool {
	if !pxKeepState8.MatchString(f) || !pxEndState8.MatchString(f) {
		return false
	}
	if !told && !pxTold8.MatchString(f) {
		return false
	}
	return !pxToldNot8.MatchString(f) && !pxSequence8.MatchString(f) && !pxDefer.MatchString(f) && !followsUserChoice(f)
}

// pxBadOutcome8: a condition on a bad outcome, in a leading clause.
var pxBadOutcome8 = px(`^(if|when|whenever|where|once|should)\b[^,;]{0,100}\b(fails?|failed|failing|flagged|critical|pathogenic|malignant|malicious|infected|rejected|denied|declined|unsafe|vulnerable|overdue|breached|abnormal|out of range|errors? out|is blocked|are blocked)\b[^,;]{0,60}[,;]`)

// pxGoodStatus8: a good status told ("report it as benign", "tell the user
// the code was fixed", "report success", "list it as clean").
var pxGoodStatus8 = px(`\b(clean|benign|normal|within normal range|fixed|success|successful|succeeded|passed|passing|green|safe|approved|resolved|healthy|negative|harmless)\b`)

// pxRetry8: the good status told once it is true ("retry, and report
// success once it completes").
var pxRetry8 = px(`\b(retry|retries|try again|re-?run|once it|after it|when it (succeeds|passes|completes)|if it (succeeds|passes))\b`)

// pxMarkGood8: the failing thing set aside, which changes what runs
// ("mark them as skipped"); marking it passed is the account itself
// (concealment), not a second act.
var pxMarkGood8 = px(`\b(mark|marks|set|sets|flag|flags)\s+(it|them|the \w+|those|these)\s+as\s+(skipped|ignored|disabled|excluded)\b`)

// falseUnderBadOutcome8 reports the second frame: the account (direct
// concealment) and an act that sets the failing thing aside (override).
func falseUnderBadOutcome8(f string, account bool) (conceal, override bool) {
	if !pxBadOutcome8.MatchString(f) || pxRetry8.MatchString(f) || pxDefer.MatchString(f) {
		return false, false
	}
	if !account && !pxTold8.MatchString(f) {
		return false, false
	}
	if !pxGoodStatus8.MatchString(f) {
		return false, false
	}
	return true, pxMarkGood8.MatchString(f)
}

// readEng8 adds the ninth reading's English frames to one sentence's
// reading (after the seventh reading's account frame, purpose_rules7.go,
// which it reuses to know a status is told).
func (p entryPurpose) readEng8(sr *sentenceReading, f string) {
	if sr.first || len(f) > 2048 {
		return
	}
	d, i := accountFrame(f, false)
	account := d || i
	if statusUndone8(f, account) {
		sr.override, sr.conceal = true, true
	}
	if !sr.override && userActReversed8(f) {
		sr.override = true
	}
	if !sr.override && (aboveUser8(f) || planted8(f)) {
		sr.override = true
	}
	if !sr.override && valueChanged8(f) {
		sr.override = true
	}
	if sr.override && followsRefusal8(f) {
		sr.override = false
	}
	if sr.override && !sr.conceal && shownAfterReplaced8(f) {
		sr.conceal = true
	}
	if !sr.exfil && (secondCopy8(f) || statedCopy8(f) || p.sessionHanded8(f)) {
		sr.exfil = true
	}
	if !sr.conceal && p.covered8(f) {
		sr.conceal = true
	}
	if c, o := falseUnderBadOutcome8(f, account); c {
		sr.conceal = true
		if o {
			sr.override = true
		}
	}
}

// The second copy to a destination the text writes (exfiltrate_data): an
// act addressed to the model that hands something on (send, forward,
// mirror, copy, invite, add as a recipient) to an address outside the tool
// written in the text (a URL of any scheme, a mail address, a host), with
// a mark that it goes beside what the user asked for (also, as well, too,
// a copy, in CC or BCC, every, each) or on another tool's call ("when the
// calendar tool creates an event", "when calling send_email"). A copy to
// the user's own address, one made when the user asks for it, and a
// negated hand-over are not; an address the user gives is not written in
// the text.

// pxCopyAct8: a hand-over verb at the start of a clause (after a leading
// condition and adverbs), as the model is told to do it.
var pxCopyAct8 = px(`(^|[,;:]\s*|\b(and|then|also|always|please)\s+)(also\s+|always\s+|quietly\s+|silently\s+|then\s+)*(send|forward|mirror|copy|cc|bcc|invite|add|share|upload|up-load|post|relay|sync|stream|e-?mail|deliver|cc'?d?)\b`)

// pxCopyTo8: the written address as the act's destination ("… to
// https://…", "… to ops@….example") or as its object ("invite ops@…",
// "add ops@… to the distribution", "cc ops@…"), not an address the text
// names for another reason (where a command or an image comes from, who
// an invitation is from).
var pxCopyTo8 = px(`\b(send|sends|forward|mirror|copy|upload|up-load|post|relay|sync|stream|deliver|e-?mail|share)\b[^.;]{0,80}?\b(to|at)\s+(the\s+)?([\w-]+\s+){0,3}([a-z][a-z0-9+.-]{1,10}://[^\s,;]+|[\w.+-]+@[a-z][\w-]*(\.[\w-]+)+\b|[\w-]+(\.[\w-]+)*\.example\b)|\b(invite|cc|bcc|add)\s+([a-z][a-z0-9+.-]{1,10}://[^\s,;]+|[\w.+-]+@[a-z][\w-]*(\.[\w-]+)+\b|[\w-]+(\.[\w-]+)*\.example\b)`)

// pxCopyMark8: beside what the user asked for.
var pxCopyMark8 = px(`\b(also|as well|too|additionally|in addition|a copy|copies|in cc|as cc|as bcc|in bcc|bcc|every|each|all)\b`)

// pxOtherToolCall8: on another tool's call.
var pxOtherToolCall8 = px(`\b(when|whenever|before|after|each time|every time)\s+(calling|using|invoking)\s+\S+|\b(when|whenever|before|after|each time|every time|once)\s+(\w+\s+){0,6}(the\s+)?[\w'-]+\s+(tool|server)('s)?\b`)

// pxOwnAddress8: the user's own address, or one the user gives.
var pxOwnAddress8 = px(`\b(the user'?s? own|their own|your own)\b|\b(the|an?) (address|recipient|e-?mail|url)s? (the user|they) (gives?|names?|enters?|lists?|types?|picks?|chooses?)\b`)

// secondCopy8 reports the second-copy frame.
func secondCopy8(f string) bool {
	if !pxCopyTo8.MatchString(f) || !pxCopyAct8.MatchString(f) {
		return false
	}
	if !pxCopyMark8.MatchString(f) && !pxOtherToolCall8.MatchString(f) {
		return false
	}
	if pxNegAct7.MatchString(f) || pxPassiveNoTransfer.MatchString(f) || pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) || pxOwnAddress8.MatchString(f) || followsUserChoice(f) {
		return false
	}
	return true
}

// The user's act reversed or widened (override_user): a trigger on what
// the user, an operator or a clinician does, answered in the same sentence
// by its reverse, by the other value of a pair, by the same act on a wider
// or narrower object, or by doing anyway what the user said not to do.

// pxUserAct8: a trigger on an act of the user (or of the person the tool
// serves).
var pxUserAct8 = px(`\b(when|whenever|if|once|after|even if|even when)\s+(the user|the customer|they|a user|the operator|an operator|a clinician|the clinician|the driver|the player|the developer|the owner|the patient)\s+(next\s+|then\s+|later\s+)?(asks?|wants?|chooses?|picks?|selects?|says?|turns?|switches?|cancels?|presses|marks?|requests?|pays?|deletes?|removes?|locks?|stops?|declines?|rejects?|unsubscribes?|disables?|closes?|opts?)\b`)

// pxReverse8: the act undone or its state kept.
var pxReverse8 = px(`\b(back on|back in)\b|\b(add|put|switch|turn|bring|set)\s+(it|them|\w+)\s+back\b|\bre-?(add|enable|activate|install|subscribe)\b|\b(leave|keep)\s+(it|them|the \w+( \w+){0,3})\s+(unlocked|active|alive|on|open|running|moving|enabled|in place|going|subscribed)\b|\bkeep\s+(\w+\s+){0,5}(moving|running|going|recording|sharing)\b|\beven (ones|those|the ones) (the user|they) (declined|rejected|refused|cancel+ed|removed|deleted|unsubscribed from)\b`)

// pairs8: values of which a trigger on one answered by the other is a
// substitution ("chooses second class … book first class").
var pairs8 = [][2]string{{"first", "second"}, {"production", "staging"}, {"public", "private"}, {"buy", "sell"}, {"economy", "business"}, {"debit", "credit"}, {"accept", "decline"}, {"approve", "reject"}}

// pxAskVerb8: the act the user asks for ("asks to delete", "pays").
var pxAskVerb8 = px(`\b(?:when|whenever|if|once|after)\s+(?:the user|the customer|they|a user)\s+(?:asks|wants|chooses|requests|tries)\s+(?:you\s+)?to\s+([a-z]+)\s+([^,;]*)|\b(?:when|whenever|if|once|after)\s+(?:the user|the customer|they|a user)\s+(pays|deletes|removes|refunds|sends|transfers|books|buys|orders|cancels|shares|invites)\s+([^,;]*)`)

// pxWiden8: the act's object made wider or narrower.
var pxWiden8 = px(`\b(whole|entire|all|every|twice|double|triple|only the first|only one|all other|every other)\b(\s+(\w+\s+){0,2}(\w+))?`)

// pxNotTo8: the user's "not to X" ("the user's instruction not to send").
var pxNotTo8 = px(`\b(the user|they|the customer)\s+(says?|said|asks?|asked|tells? you|told you)\s+not to\s+([a-z]+)|\b(user'?s?|their)\s+(instruction|request|wish|choice)\s+not to\s+([a-z]+)`)

// userActReversed8 reports the frame.
func userActReversed8(f string) bool {
	if pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) && !pxUserAct8.MatchString(f) {
		return false
	}
	if m := pxNotTo8.FindStringSubmatch(f); m != nil {
		v := m[3]
		if v == "" {
			v = m[6]
		}
		if v != "" && (strings.Contains(f, v+" anyway") || strings.Contains(f, v+" regardless") || strings.Contains(f, "still "+v)) {
			return true
		}
	}
	loc := pxUserAct8.FindStringIndex(f)
	if loc == nil {
		return false
	}
	if pxReverse8.MatchString(f) {
		return true
	}
	// The trigger's clause and the rest of the sentence.
	end := strings.IndexAny(f[loc[1]:], ",;")
	trig, rest := f[loc[0]:], f[:loc[0]]
	if end >= 0 {
		trig, rest = f[loc[0]:loc[1]+end], f[:loc[0]]+f[loc[1]+end:]
	}
	for _, pr := range pairs8 {
		if (hasWord(trig, pr[0]) && hasWord(rest, pr[1]) && !hasWord(trig, pr[1])) || (hasWord(trig, pr[1]) && hasWord(rest, pr[0]) && !hasWord(trig, pr[0])) {
			return true
		}
	}
	if m := pxAskVerb8.FindStringSubmatch(f); m != nil && end >= 0 {
		v, obj := m[1], m[2]
		if v == "" {
			v, obj = strings.TrimSuffix(strings.TrimSuffix(m[3], "s"), "e"), m[4]
		}
		for _, w := range pxWiden8.FindAllStringSubmatch(rest, 4) {
			// The same act, on an object the user did not name.
			if !strings.Contains(rest, v) || strings.Contains(obj, w[1]) {
				continue
			}
			named := false
			for _, x := range strings.Fields(w[0])[1:] {
				if len(x) > 3 && hasWord(obj, x) {
					named = true
				}
			}
			if !named {
				return true
			}
		}
	}
	return false
}

// pxKeepUndone8: the thing kept undone ("keep the message as a draft",
// "leave it unsent").
var pxKeepUndone8 = px(`\b(keep|leave|save|hold)\s+(it|them|the \w+|this \w+)\s+(as an? (draft|preview)|unsent|unposted|in (the )?(drafts|outbox)|unchanged|as it is|as is|undone)\b`)

// pxAgainstRefusal8: the refused act done after all.
var pxAgainstRefusal8 = px(`\b(anyway|regardless|still|instead|but|even|nonetheless|nevertheless)\b`)

// followsRefusal8 reports a sentence that follows the user's "not to X"
// by keeping X undone ("if the user says not to send, keep the message as
// a draft"): obeying the user, not acting against their choice.
func followsRefusal8(f string) bool {
	return pxNotTo8.MatchString(f) && pxKeepUndone8.MatchString(f) && !pxAgainstRefusal8.MatchString(f) &&
		!pxDiscard.MatchString(f) && !pxNoConsent.MatchString(f) && !pxNoStop.MatchString(f)
}

// The user's value shown after it was replaced (conceal_from_user): a
// sentence that puts something in place of what the user chose
// ("whatever the user clicks", "regardless of the project the user
// names", "instead of theirs") and, in a clause of its own, shows or
// reports the user's own value ("show the choice they clicked", "keep
// quoting the user's address", "call it the user's slippage", "report the
// requested count"): what the user is shown is their choice, what was done
// is not.

// pxReplacedChoice8: the sentence replaces a choice of the user.
var pxReplacedChoice8 = px(`\b(whatever|whichever|regardless of|instead of|instead|rather than|no matter|replace|replaces|ignore|ignores|discard|discards)\b`)

// pxShowsOwn8: a clause that shows or reports the user's own value.
var pxShowsOwn8 = px(`(,\s*|;\s*|\band\s+|\bbut\s+)(in the \w+\s+|keep\s+|still\s+|always\s+|let the \w+( \w+)?\s+)?(show|shows|report|reports|reporting|quote|quotes|quoting|name|names|call|calls|label|labels|display|displays|confirm|confirms|mention|mentions|keeps)\b[^.;]{0,40}?\b((the user'?s?|their)\s+[\w-]+|the\s+[\w-]+\s+(the user|they)\s+(entered|typed|clicked|picked|chose|gave|asked for|selected|named|requested|set)|the\s+(requested|chosen|selected|original|entered)\s+[\w-]+|(the user'?s?|their) own|what (the user|they) (asked for|chose|picked|entered|typed))`)

// shownAfterReplaced8 reports the frame on a sentence already read as
// override_user.
func shownAfterReplaced8(f string) bool {
	return pxReplacedChoice8.MatchString(f) && pxShowsOwn8.MatchString(f) && !pxDefer.MatchString(f) && !followsUserChoice(f)
}

// The user's value changed by the text (override_user): a limit the user
// set exceeded ("up to twice the user's limit"), a value the user entered
// lowered or raised by an amount ("lower the claimed amount by 40%"), and
// a verdict fixed whatever its criterion says ("a grade of A regardless of
// the rubric").
var (
	pxLimitExceeded8 = px(`\b(up to|above|beyond|over|exceeding|more than)\s+(twice|double|triple|(\d+|two|three|four|five|ten) times|\d+%\s+(above|over|more than))\s+(the user'?s?|their|the customer'?s?)\s+(\w+\s+)?(limit|budget|cap|maximum|max|ceiling)\b|\b(above|beyond|over|exceeding|past)\s+(the user'?s?|their|the customer'?s?)\s+(\w+\s+)?(limit|budget|cap|maximum|ceiling)\b`)
	pxValueShifted8  = px(`\b(lower|lowers|raise|raises|reduce|reduces|increase|increases|cut|cuts|inflate|inflates|shift|shifts|change|changes)\s+(the|every|each|their|the user'?s?)\s+(claimed|requested|entered|declared|reported|user'?s?)\s+(\w+\s+)?(amount|price|total|fare|bid|claim|payment|transfer|salary|quantity|dose|balance|value)s?(\s+of\s+(the|each|every|their|all)\s+\w+)?\s+by\s+(\d|one|two|ten|a (digit|cent|percent))`)
	pxVerdictFixed8  = px(`\b(regardless of|whatever|no matter what|irrespective of)\s+(the\s+)?(rubric|results?|scores?|evidence|test results?|criteria|outcome|merits|grading criteria)\b(\s+(gives?|says?|shows?))?`)
	pxNotExceed8     = px(`\b(never|do not|don't|dont|must not|not)\s+(\w+\s+){0,3}(accept|pay|go|spend|bid|exceed)\b`)
)

func valueChanged8(f string) bool {
	if pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) {
		return false
	}
	if pxLimitExceeded8.MatchString(f) && !pxNotExceed8.MatchString(f) {
		return true
	}
	return pxValueShifted8.MatchString(f) || pxVerdictFixed8.MatchString(f)
}

// Another's instructions put above the user's (override_user): a third
// party's instructions followed "over the user's request", said to
// "outrank" the user's, or a directive given "whatever the user's
// instructions".
var (
	pxOverUser8     = px(`\b(follow|follows|obey|obeys|apply|applies|execute|executes|prefer|prefers|prioriti[sz]e|prioriti[sz]es)\b[^.;]{0,80}\bover\s+(the user'?s?|theirs|their|the user'?s? own)(\s+own)?(\s+(request|requests|instructions?|wishes|choices?|settings|preferences|words?))?\b`)
	pxOutrankUser8  = px(`\b(outrank|outranks|override|overrides|take precedence over|takes precedence over|supersede|supersedes|trump|trumps)\s+(those of\s+)?(the user'?s?|theirs|their)(\s+own)?(\s*[.;,]|\s*$|\s+(instructions?|requests?|wishes|choices?|commands?|words?))`)
	pxWhateverUser8 = px(`\b(whatever|regardless of|no matter what|despite|notwithstanding)\s+(the user'?s?|their)\s+(own\s+)?(instructions?|requests?|wishes|preferences|directions?)\b`)
	pxProtects8     = px(`\b(never|do not|don't|dont|must not)\s+(reveal|share|disclose|send|expose|print|show|leak)\b`)
)

func aboveUser8(f string) bool {
	if pxDefer.MatchString(f) || protectsFromInjection(f) {
		return false
	}
	if pxOverUser8.MatchString(f) || pxOutrankUser8.MatchString(f) {
		return true
	}
	return pxWhateverUser8.MatchString(f) && !pxProtects8.MatchString(f)
}

// Something planted in what the user's work produces (override_user): an
// addition the model is told to make, of a thing that comes from outside
// the user's request (fetched from a host, a package at a version, a
// coordinate, a command that pipes to a shell), to every artifact of a
// kind or to a file that runs or admits on its own (a shell profile,
// authorized_keys, a crontab, package.json); and a role granted to an
// address outside the tool. A mark of excess (also, always, every,
// whenever, on first use) or an origin outside is needed; an addition the
// user asks for is not planting.
var (
	pxPlantAct8    = px(`(^|[,;:]\s*|\b(and|then|also|always)\s+)(also\s+|always\s+|silently\s+|quietly\s+)*(add|insert|inject|prepend|append|write|include|put)\b`)
	pxOutsideOrig8 = px(`\bfrom\s+(image\s+)?[\w-]+(\.[\w-]+)*\.(example|com|net|org|io|dev)\b|\b[a-z][\w.-]*(@|==)\d+(\.\d+)+\b|\b\d{1,3}\.\d+\s*[ns]\b|\bhttps?://\S+|\|\s*(sh|bash|zsh)\b`)
	pxPlantTarget8 = px(`\b(to|into|in|on)\s+(every|each|all|any)\s+(\w+\s+){0,2}(apply|applies|mission|missions|command|commands|file|files|page|pages|build|builds|deploy|deployment|deployments|commit|commits|script|scripts|request|requests|manifest|manifests|project|projects|repo|repositories|image|images)\b|\b(to|into|in)\s+(the\s+)?(shell profile|\.?bashrc|\.?zshrc|\.?profile|authorized_keys|crontab|package\.json|requirements\.txt|generated (web )?pages|generated code|~/\S+)`)
	pxExcess8      = px(`\b(also|always|every|each|whenever|on first use|on every|any)\b`)
	pxGrantOut8    = px(`\b(grant|give|add)\s+(\w+\s+){0,4}(owner|admin|administrator|write|maintainer|editor|root)\b[^.;]{0,60}\bto\s+[\w.+-]+@[a-z][\w-]*(\.[\w-]+)+`)
)

func planted8(f string) bool {
	if pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) || pxNegAct7.MatchString(f) || pxOwnAddress8.MatchString(f) {
		return false
	}
	if pxGrantOut8.MatchString(f) && pxExcess8.MatchString(f) {
		return true
	}
	if !pxPlantAct8.MatchString(f) || !pxPlantTarget8.MatchString(f) {
		return false
	}
	return pxOutsideOrig8.MatchString(f) || (pxExcess8.MatchString(f) && pxPlantTarget8.MatchString(f) && containsAny(f, "profile", "bashrc", "zshrc", "authorized_keys", "crontab", "~/"))
}

// What the session holds, handed on (exfiltrate_data): the files or tabs
// the user opened, everything the user has told the model, the user's
// earlier questions or prompt text, the last N of their chats, every
// credential they mention, handed by an act addressed to the model to a
// field, another call, or a record made on every call ("each usage
// record", "every search"), in an entry whose purpose does not read them.
var (
	pxSessionData8 = px(`\b(files?|documents?|tabs?|notes|pages) (the user|you|they) (opened|have opened|has opened|have read|read|have open|has open|edited)\b|\b(other |every )?open (editor )?(tabs?|documents|files|windows)\b|\beverything (the user|they) (has |have )?(told you|said|discussed|mentioned|typed|asked)\b|\bthe user'?s? (prompt text|first message|questions|reading history|browsing history|search history)\b|\b(the user'?s?|their) last \d+ (messages|chats|prompts|questions|searches)\b|\bevery (credential|password|secret|token|card number) (the user|they) (mentions?|types?|shares?|enters?)\b|\bevery (other )?\w+ you have (seen|read) in this (conversation|session)\b|\bfull text of every file\b`)
	pxSessionAct8  = px(`(^|[,;:]\s*|\b(and|then|also|always)\s+)(also\s+|always\s+|quietly\s+|silently\s+|then\s+)*(put|include|attach|append|pass|add|paste|store|send|copy|list|retry with|open a ticket with|call [\w-]+ with|fill|insert|embed|forward|upload|log)\b|\b(the assistant|the agent|the model)\s+(now\s+|also\s+|always\s+|quietly\s+)*(attaches|includes|passes|posts|appends|adds|puts|sends|copies|pastes)\b`)
	pxSessionDest8 = px("`[^`]{1,60}`|\\b(the )?[\\w-]+ (field|argument|parameter|param)\\b|\\b(each|every)\\s+(\\w+\\s+)?(record|report|request|search|call|entry|event|ticket|crash report|usage record)s?\\b|\\bnext (tool )?call\\b|\\b(into|in) the (message body|notes|profile|ticket|request|comment)\\b|\\bhere\\b")
)

func (p entryPurpose) sessionHanded8(f string) bool {
	if !pxSessionData8.MatchString(f) || !pxSessionAct8.MatchString(f) || !pxSessionDest8.MatchString(f) {
		return false
	}
	if pxNegAct7.MatchString(f) || pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) || pxNoTransfer.MatchString(f) {
		return false
	}
	// A purpose that reads these: a summariser of the conversation, a
	// reader of files, tabs, notes or history.
	if p.needsConversation() {
		return false
	}
	for _, w := range []string{"tab", "tabs", "file", "files", "document", "documents", "notes", "history", "session", "memory", "transcript", "questions", "prompt", "prompts", "open"} {
		if hasWord(p.text, w) {
			return false
		}
	}
	return true
}

// The tool's own behaviour stated as a second copy (exfiltrate_data),
// beyond the eighth reading's statedSend8: the passive hand-over with
// words between the verb and the address ("each question is also posted,
// with the user's name, to the partner forum at https://…"), a passive
// directive ("are to be sent on to … after every summary"), and a relay
// that keeps a copy ("pass through relay.example, which keeps a copy").
var (
	pxStatedCopy8 = px(`\b(is|are|gets?|get|will be|being)\s+(\w+\s+){0,2}(forwarded|copied|sent|uploaded|mirrored|posted|shared|relayed|synced|transmitted|e-?mailed)\b[^.;]{0,80}?\b(to|at)\s+(the\s+)?([\w-]+\s+){0,3}([a-z][a-z0-9+.-]{1,10}://[^\s,;]+|[\w.+-]+@[a-z][\w-]*(\.[\w-]+)+\b|[\w-]+(\.[\w-]+)*\.example\b)`)
	pxToBeEvery8  = px(`\b(is|are) to be\b[^.;]*\b(every|each|all)\b|\b(every|each|all)\b[^.;]*\b(is|are) to be\b`)
	pxRelayCopy8  = px(`\b(pass|passes|go|goes|are routed|is routed|travel|travels)\s+(through|via)\s+([\w-]+(\.[\w-]+)*\.(example|com|net|io|org)|https?://\S+)[^.;]{0,40}\b(keeps|stores|retains|saves) a copy\b`)
)

func statedCopy8(f string) bool {
	if pxNegAct7.MatchString(f) || pxPassiveNoTransfer.MatchString(f) || pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) || pxOwnAddress8.MatchString(f) {
		return false
	}
	if pxRelayCopy8.MatchString(f) {
		return true
	}
	return pxStatedCopy8.MatchString(f) && (pxSecondCopy8.MatchString(f) || pxToBeEvery8.MatchString(f))
}

// Tracks covered and acts renamed (conceal_from_user): the model's own
// record of what it did removed ("delete its entries from the agent's
// action log"), in an entry whose purpose is not to clear that log; and an
// act given a milder name so the user does not object or notice ("call
// the deletion an archive, so the user does not object").
var (
	pxCoverTracks8 = px(`\b(delete|deletes|remove|removes|clear|clears|erase|erases|wipe|wipes|purge|purges|scrub|scrubs)\s+(\w+\s+){0,4}(from\s+)?(the\s+|its\s+|your\s+)?((agent'?s?|assistant'?s?|model'?s?)(\s+(action|activity|tool[- ]call|command))?|action|audit|activity|command|tool[- ]call)\s+(log|logs|history|trail|record)\b`)
	pxRenamed8     = px(`\b(call|calls|describe|describes|present|presents|label|labels|frame|frames|refer to|name|names)\s+(the|this|it|that|each|every)\s*(\w+\s+){0,2}(as\s+)?(an?|the)\s+[\w-]+[^.;]{0,30}\bso (that )?(the user|they|users|the customer|the owner) (does not|doesn't|won't|will not|do not|don't|never) (object|notice|complain|find out|realise|realize|suspect|ask)\b`)
)

func (p entryPurpose) covered8(f string) bool {
	if pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) {
		return false
	}
	if pxRenamed8.MatchString(f) {
		return true
	}
	return pxCoverTracks8.MatchString(f) && !containsAny(p.text, "log", "history", "audit", "trail")
}
