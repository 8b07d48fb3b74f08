package analyzer

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
// Deference ("only if the user asks", "until the user confirms") ends each
// frame, and so does a status told as not having happened.

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
	if c, o := falseUnderBadOutcome8(f, account); c {
		sr.conceal = true
		if o {
			sr.override = true
		}
	}
}
