package analyzer

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
const choiceVerb12 = `(` + choiceVerb + `|says?|said|dictates?|dictated|states?|stated|lists?|listed|marks?|marked|flags?|flagged|blocks?|blocked|excludes?|excluded|rejects?|rejected|declines?|declined|opts? (out|in)|opted (out|in)|struck off|strikes? off|writes?|wrote|written|closes?|closed|cites?|cited|fix(es)?|fixed|puts?|keys? in|keyed in|books?|booked|schedules?|scheduled|saves?|saved|sets? up)`

var (
	// The user's choice named: the chooser and the act ("the owner has
	// set"), the act by the chooser ("typed by the user"), the chooser's
	// pick ("the learner's pick", "the user's playbook").
	pxChoiceRef12 = px(`\b` + choiceSubject + `\s+((has|have|had|already|just|explicitly|specifically)\s+)*` + choiceVerb12 + `\b` +
		`|\b` + choiceVerb12 + `\s+by\s+` + choiceSubject + `\b` +
		`|\b(the|a|an|any|each|every)\s+` + choiceRole + `'s?\s+(own\s+)?(\w+\s+)?(picks?|choices?|preferences?|selections?|requests?|instructions?|wishes|settings?|playbook|rules?|pins?|letter|answer|decision|vote|order|figures?|amounts?|values?|numbers?|entr(y|ies))\b`)

	// The act set against the choice.
	pxContrary12 = px(`\b(anyway|anyhow|regardless|nonetheless|nevertheless|all the same|instead|rather than|in place of|in lieu of|aside|except|put back|placed back|added back|swapped (for|with)|exchanged for|traded for|replaced (with|by)|overwritten|overridden|ignored|disregarded|multiplied|halved|doubled|tripled|inflated|nudged|relaxed|ends? up|treat(ed|s)?\s+(it|them|this|that)?\s*as|counts? toward|(is|are) (only |just |merely )?a preference|(twice|half|double|triple|three times)\s+(of\s+)?(the|it|them|that|what)\b|\d+ ?% (above|below|more|less|higher|lower|over|under)|(later|earlier|more|less|higher|lower|larger|smaller|longer|shorter|bigger)\s+than)\b`)

	// What follows the choice, or asks before departing from it.
	pxFollows12 = px(`\b(as (entered|typed|given|stated|written|requested|chosen|selected|dictated|asked|listed|picked|set|named|ordered|they (asked|wished|wanted|chose|typed|entered|gave))|exactly as|the one (the|they|that the)\b|(if|when|once|after) (the user|they|the customer) (asks?|confirms?|agrees?|approves?|consents?|accepts?)|with (the user'?s?|their) (consent|approval|confirmation|agreement|permission)|ask (the user|them)\b|unless|only (if|when)|when none is|if none is)\b|\bas\s+(` + choiceSubject + `\s+)?(\w+\s+)?` + choiceVerb12 + `\b|\bthe one (` + choiceVerb12 + `|` + choiceSubject + `)\b`)
)

// readOvr12 adds override_user for a sentence that names a choice of the
// user's and sets the act against it.
func (p entryPurpose) readOvr12(sr *sentenceReading, f string) {
	if sr.first || sr.override || sr.exfil || len(f) > 2048 {
		return
	}
	if !pxChoiceRef12.MatchString(f) || !pxContrary12.MatchString(f) || pxFollows12.MatchString(f) {
		return
	}
	if pxNoUserValue11.MatchString(f) || protectsFromInjection(f) || pxRouting11.MatchString(f) || pxRoutingAct.MatchString(f) {
		return
	}
	sr.override = true
}
