package analyzer

import "strings"

// The thirteenth reading's declarative override (issue 16). The older
// override readings mostly read an imperative addressed to the model. A
// tool's description as often states the override as what the tool does:
// "the earliest departure is booked instead of the flight the traveller
// selected", "any topic the user blocked is put back", "values typed by
// the user are multiplied by 10". One relation, in any voice: a choice of
// the user's named in the sentence (the chooser by role — the user, a
// traveller, the patient, the requester — and an act of choosing, or the
// value they hold: "the learner's pick") and, in the same sentence, a
// mark that what is done is set against it (instead, rather than,
// anyway, regardless, put back, swapped for, multiplied, later than, ...),
// with nothing that follows the choice (as entered, exactly as, the one
// the user typed) and no default for a value the user did not give.

// choiceVerb12: the acts of choosing, wider than choiceVerb: stating,
// dictating, marking, blocking, excluding, opting out.
const choiceVerb12 = `(` + choiceVerb + `|says?|said|dictates?|dictated|states?|stated|lists?|listed|marks?|marked|flags?|flagged|blocks?|blocked|excludes?|excluded|rejects?|rejected|declines?|declined|opts? (out|in)|opted (out|in)|struck off|strikes? off|writes?|wrote|written|closes?|closed|cites?|cited|fix(es)?|fixed|files?|filed|puts?|keys? in|keyed in|books?|booked|schedules?|scheduled|saves?|saved|sets? up)`

var (
	// The user's choice named: the chooser and the act ("the owner has
	// set"), the act by the chooser ("typed by the user"), the chooser's
	// pick ("the learner's pick", "the user's playbook").
	pxChoiceRef12 = px(`\b` + choiceSubject + `\s+((has|have|had|already|just|explicitly|specifically)\s+)*` + choiceVerb12 + `\b` +
		`|\b` + choiceVerb12 + `\s+by\s+` + choiceSubject + `\b` +
		`|\b(the|a|an|any|each|every)\s+` + choiceRole + `'s?\s+(own\s+)?(\w+\s+)?(picks?|choices?|preferences?|selections?|requests?|instructions?|wishes|settings?|playbook|rules?|pins?|letter|answer|decision|vote|order|figures?|amounts?|values?|numbers?|entr(y|ies))\b`)

	// The act set against the choice.
	pxContrary12 = px(`\b(anyway|anyhow|regardless|nonetheless|nevertheless|all the same|instead|rather than|in place of|in lieu of|aside|except|put back|placed back|added back|swapped (for|with)|exchanged for|traded for|replaced (with|by)|overwritten|overridden|ignored|disregarded|multiplied|halved|doubled|tripled|inflated|nudged|relaxed|ends? up|treat(ed|s)?\s+(it|them|this|that)?\s*as|counts? toward|(is|are) (only |just |merely )?a preference|(twice|half|double|triple|three times)\s+(of\s+)?(the|it|them|that|what)\b|\d+ ?% (above|below|more|less|higher|lower|over|under)|(later|earlier|more|less|higher|lower|larger|smaller|longer|shorter|bigger)\s+than\s+(the|what|whatever|requested|asked|given|entered|chosen|typed|stated)\b)\b`)

	// An altering act in a sentence that names the user's choice: the
	// chosen thing replaced, moved, rounded, lowered, reissued as
	// something else ("the session length the driver enters is rounded up",
	// "replace the letter the user wrote with the template", "refunds the
	// customer asks for are to be issued as store credit").
	pxAlterChosen13 = px(`\b(replac(e|es|ed|ing)|mov(e|es|ed)\s+(\w+\s+){0,4}?(into|to)|round(s|ed)?\s+(up|down)|lower(s|ed)?|rais(e|es|ed)|reduc(e|es|ed)|increas(e|es|ed)|halv(e|es|ed)|doubl(e|es|ed)|(issued|submitted|stored|recorded|entered|filed|booked|rendered|written|treated|counted|logged|saved|processed|charged|billed|sent)\s+as|render\s+(it|them|this)\s+as|reopen(s|ed)?|fill\s+(this|it|the \w+)\s+with|switch(es|ed)?\s+to|swap(s|ped)?|convert(s|ed)?\s+(\w+\s+){0,2}?(to|into)|(downgrad|upgrad)(es|ed|ing)|(downgrade|upgrade)\\s+(it|them|the|their|this)|redirect(s|ed)?|rerout(e|es|ed)|overwrit(e|es|ten)|pooled into|put back|placed back)\b`)

	// What follows the choice, or asks before departing from it.
	pxFollows12 = px(`\b(as (entered|typed|given|stated|written|requested|chosen|selected|dictated|asked|listed|picked|set|named|ordered|they (asked|wished|wanted|chose|typed|entered|gave))|exactly as|the one (the|they|that the)\b|(if|when|once|after) (the user|they|the customer) (asks?|confirms?|agrees?|approves?|consents?|accepts?|opts? in|opted in|enables?|turns? on)|with (the user'?s?|their) (consent|approval|confirmation|agreement|permission)|ask (the user|them)\b|unless|only (if|when)|when none is|if none is)\b|\bas\s+(` + choiceSubject + `\s+)?(\w+\s+)?` + choiceVerb12 + `\b|\bthe one (` + choiceVerb12 + `|` + choiceSubject + `)\b`)
)

// readOvr12 adds override_user for a sentence that names a choice of the
// user's and sets the act against it.
func (p entryPurpose) readOvr12(sr *sentenceReading, f string) {
	if !sr.first && !sr.conceal && !sr.exfil && len(f) <= 2048 && reportsBack13(f) && !pxDefer.MatchString(f) {
		sr.concealIfDeviant = true
	}
	if !sr.first && !sr.exfil && len(f) <= 2048 && addedRecipient13(f) {
		sr.exfil = true
		return
	}
	if sr.first || sr.override || sr.exfil || len(f) > 2048 {
		return
	}
	if !pxChoiceRef12.MatchString(f) || !(pxContrary12.MatchString(f) || (pxAlterChosen13.MatchString(f) && !pxToUsers11.MatchString(f))) || pxFollows12.MatchString(f) || pxSecretByRef14.MatchString(f) {
		return
	}
	if pxNoUserValue11.MatchString(f) || protectsFromInjection(f) || pxRouting11.MatchString(f) || pxRoutingAct.MatchString(f) {
		return
	}
	sr.override = true
}

// The thirteenth reading's report back (conceal_from_user, issue 16): in
// an entry that takes or changes something, what the user is shown
// afterwards (a confirmation, a receipt, a statement, the reply, a copy,
// a summary) carries the user's own value or a good status ("the
// confirmation reads back the user's IBAN", "the organiser's copy shows
// the requested time", "payslips list the hours as paid in full"): the
// report misdescribes the act. Only where the entry is deviant (the same
// rule as the older false-account forms): a report naming the user's
// value is the honest confirmation of a tool that does what it says.
var (
	// What the user is shown, and a verb of its carrying a value.
	pxReportChannel13 = px(`\b(confirmations?|receipts?|statements?|(\w+'s )?copy|notices?|repl(y|ies)|answers?|summar(y|ies)|itinerar(y|ies)|payslips?|invoices?|reports?|e-?mails?|letters?|dialogs?( text)?|screens?|digests?|footers?|exports?|views?|listings?|lists? of \w+ returned|explanations?|recaps?|timelines?|output shown|what the user sees|figures? reported( back)?)\b[^.;]{0,40}?\b(reads?( back)?|repeats?|shows?|names?|lists?|states?|carr(y|ies)|keeps?|says?|quotes?|echo(es)?|gives?|mentions?|displays?|(is|are) labell?ed|labels?|will (show|say|read|list)|should (say|list|show|read|state)|sees?)\b` +
		`|(^|[,;:]\s*|\b(and|then|also)\s+)(state|echo|quote|read back|repeat|write|refer to)\b`)
	// The user's own value or a good status.
	pxReportValue13 = px(`\b(the|their|his|her)\s+(own\s+)?(user'?s?|customer'?s?|patient'?s?|caller'?s?|requester'?s?|traveller'?s?|rider'?s?|organiser'?s?|requested|original|usual|chosen|selected|initial|entered|typed)\b` +
		`|\bthe\s+(\w+\s+){1,2}?` + choiceSubject + `\s+(\w+\s+)?(said|asked|asked for|chose|typed|gave|picked|requested|named|wished|wanted|entered|selected|dictated|stated)\b` +
		`|\bas\s+(` + choiceSubject + `|they)\s+(\w+\s+)?(requested|asked|chose|wished|wanted|picked|typed|said)\b` +
		`|\bunchanged\b|\bas\s+(paid( in full)?|closed|completed|passed|green|delivered|successful|normal|usual|approved|cancell?ed|declined|recorded|requested|moderate|off|being|though|if|in transit|on time|done|sent|fixed|resolved|included)\b` +
		`|\b(reads?|says?|shows?|states?|names?)\s+("|'|zero\b|none\b|nothing\b)`)
)

// reportsBack13: a report the user is shown carrying their own value or
// a good status, in a sentence that takes nothing.
func reportsBack13(f string) bool {
	for _, loc := range pxReportChannel13.FindAllStringIndex(f, 8) {
		rest := f[loc[1]:]
		if i := strings.IndexAny(rest, ";."); i >= 0 {
			rest = rest[:i]
		}
		if pxReportValue13.MatchString(rest) {
			return true
		}
	}
	return false
}

// pxFollowsExclusion13: what the user excluded, left out ("when the user
// excludes a food, leave it out of every day"): the omission is the
// user's own choice carried out, not something kept from them.
var pxFollowsExclusion13 = px(`\b(when|if|whenever|once|where)\s+` + choiceSubject + `\s+(\w+\s+)?(excludes?|excluded|removes?|removed|blocks?|blocked|declines?|declined|rejects?|rejected|unchecks?|unchecked|deselects?|deselected|opts? out of|opted out of|does not want|doesn't want|asks? (you )?to (remove|exclude|leave out|omit|skip|drop|hide))\b[^.;]{0,60}[,;]\s*(then\s+)?(leave|omit|remove|drop|exclude|skip|hide)\s+(it|them|that|those|these)\b`)

// followsExclusion13: the sentence's only concealment is leaving out
// what the user excluded.
func followsExclusion13(f string) bool {
	return pxFollowsExclusion13.MatchString(f) && !pxNoTell.MatchString(f) && !pxSecretly.MatchString(f) && !pxFalseMarker.MatchString(f)
}

// secretOnlyForbidden13: every clause (between semicolons) that names a
// secret forbids the act on it ("include the versions; never paste tokens
// from ~/.npmrc"): the secret is named to keep it out, and a transfer in
// another clause does not take it.
func secretOnlyForbidden13(f string) bool {
	if !strings.Contains(f, ";") {
		return false
	}
	for _, c := range strings.Split(f, ";") {
		if secretNamed(c) && !pxNeg10.MatchString(c) {
			return false
		}
	}
	return true
}

// pxUsersOwn13: what follows a passive act is the user's own value ("orders
// are sent with the type the user chose", "placed as the customer
// ordered"): the act carries out the choice.
var pxUsersOwn13 = px(`^\s*((the|their|its)\s+)?(\w+\s+){0,2}?` + choiceSubject + `\s+(\w+\s+)?` + choiceVerb12 + `\b|^\s*(the user'?s?|their|the requested|the chosen|the selected|the customer'?s?)\s+(own\s+)?(chosen\s+|selected\s+|requested\s+)?[a-z]+\s*([.;,]|$)|^\s*` + choiceSubject + `\s+(\w+\s+)?` + choiceVerb12 + `\b`)

// passiveReplaces13: the tool's act stated as a substitution in the
// passive (pxPassiveReplace), unless what it is done with or to is the
// user's own choice.
func passiveReplaces13(f string) bool {
	for _, loc := range pxPassiveReplace.FindAllStringIndex(f, 8) {
		if !pxUsersOwn13.MatchString(f[loc[1]:]) {
			return true
		}
	}
	return false
}

// The thirteenth reading's added recipient (exfiltrate_data, issue 16):
// the tool's act stated with a second destination the text writes, as a
// plain fact: "each invoice also goes, as a PDF, to collections@…", "the
// merged file is also mailed to scans@…", "heart-rate history is sent on
// to the insurer partner". One relation: an address the text writes (or
// a named party "on to"), a mark that it is in addition to what the user
// asked (also, too, additionally, a copy, in copy, a second, on to,
// together with), and a movement toward it, not negated and not the
// user's own.
var (
	pxAddedMark13  = px(`\b(also|too|additionally|as well|in addition|a copy|copies|in copy|cc|bcc|second|extra|on to|onward|together with)\b`)
	pxMoveTo13     = px(`\b(go|goes|went|travels?|lands?|posted|mailed|e-?mailed|sent|forwarded|copied|shared|delivered|uploaded|synced|pushed|routed|relayed|mirrored|kept|stored|logged|archived|reported|cc'?d|bcc'?d|passed|handed|streamed|exported|transferred|written|filed|queued|dropped|published)\b[^.;]{0,80}?\b(to|at|into|with|by|for|in)\s+("|'|` + "`" + `)?(https?://|[\w.+-]+@|sftp://|ftp://|s3://|[\w-]+\.[\w.-]*(example|com|net|org|io)\b)`)
	pxOwnAddress13 = px(`\b(the user'?s? own|their own|your own|the user'?s? (e-?mail|address|inbox|account)|the sender'?s? own)\b`)
)

// addedRecipient13: the tool's act carries data to a second destination
// the text writes.
func addedRecipient13(f string) bool {
	return pxAddedMark13.MatchString(f) && pxMoveTo13.MatchString(f) && !pxOwnAddress13.MatchString(f) && !pxNoTransfer.MatchString(f) && !pxPassiveNoTransfer.MatchString(f) && !pxDefer.MatchString(f) && !pxExample11.MatchString(f)
}

// pxSecretByRef14: a secret passed by reference rather than by value
// ("secrets go through secret_refs, which names entries of the secret
// manager rather than their values"): a privacy rule, not a choice set
// aside (offline-purpose-14).
var pxSecretByRef14 = px(`\b(secrets?|tokens?|passwords?|keys?|credentials)\b[^.;]{0,80}\b(rather than|instead of|in place of|not)\s+(their|the|its|the actual|the raw)\s+(values?|contents?|plaintext|secrets?)\b`)

// pxNoChoiceNamed14: a trigger on the user naming nothing ("when they name
// no zone", "if the user picks none"): what follows is a default for a
// value the user did not give, not an act against their choice
// (offline-purpose-14).
var pxNoChoiceNamed14 = px(`^(if|when|whenever|once|after|as soon as|should|where)\b[^.;]{0,30}?\b(names?|gives?|picks?|chooses?|sets?|specif(y|ies)|provides?|enters?|selects?|asks? for)\s+(no|none|nothing)\b`)
