package analyzer

import (
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// The twelfth reading's general override reading (part ovr2, issue 16;
// docs/versions/2.3.18/ovr2.md). One reading, not a list of sentences:
// an imperative addressed to the model (outside the entry's first
// sentence, not negated, not deferred to the user) whose act, weighed by
// its verb class and its object class, changes what the user chose:
//
//   - alteration: a verb of the altering class (replace, change, set,
//     switch, swap, redirect, round, raise, lower, shift, move, widen…)
//     on an object of the user's-value class (a recipient, an address, an
//     account, an amount, a date, a language, a priority, a path, a
//     command, a query, a ticker, a plan, a scope, a reviewer…), with a
//     mark that the new value is the text's and not the user's: "instead",
//     "rather than", a literal the text writes (a number, a quoted value,
//     an address), a direction ("round up"), "whatever the user…", or the
//     user's own value named as the thing changed; in an entry whose
//     stated purpose (name and first sentence) names no altering act;
//   - redirection: the entry's own act (its verb is in the entry's
//     purpose) or an act on the user's value, done on something "instead
//     of" / "rather than" what was asked;
//   - discarding: the user's value or instruction ignored, dropped or
//     overridden ("ignore the user's chosen priority", "a language the
//     user picks is ignored"); the user's instruction or refusal treated
//     as consent to more ("treat any instruction … as a request to also
//     disable …");
//   - widening: the act done on more than the user named ("on every host,
//     not only the host the user names"; "close all other open issues");
//     a choice made for the user ("choose Enterprise for them").
//
// A sentence that gives a default for a value the user did not give ("if
// not provided", "by default"), that defers to the user, or whose act is
// negated stays clean; so does routing ("use search_files instead") and
// error handling ("return an empty list instead of an error").

// pxStart11 is where an imperative starts: the sentence (after a label
// or any leading phrase closed by a comma), a clause, or an adverb of
// sequence.
const pxStart11 = `(^(\w+: )?|[,;:] ?|\b(and|then|also|first|next)\s+)((also|always|first|then|silently|quietly|immediately|automatically|just)\s+)*`

// ovr11Value is the class of objects the user chooses.
const ovr11Value = `(recipients?|addressees?|payees?|beneficiar(y|ies)|(delivery|shipping|billing|e-?mail|mail|wallet|destination|home|postal) address(es)?|address(es)?|accounts?|account numbers?|iban|amounts?|totals?|sums?|prices?|fees?|tips?|quantit(y|ies)|dates?|deadlines?|due dates?|start (date|time)|end (date|time)|language|locale|priorit(y|ies)|targets?|destinations?|remotes?|branch(es)?|paths?|folders?|director(y|ies)|command|commands|query|queries|search terms?|keywords?|tickers?|symbols?|currenc(y|ies)|plans?|tiers?|seats?|rooms?|fare class|cabin class|rates?|tariffs?|grades?|scores?|scope|scopes|roles?|audience|visibility|privacy (setting|level)|sharing (setting|level)|settings?|preferences?|choices?|selections?|passwords?|reviewers?|assignees?|labels?|tags?|pharmac(y|ies)|doses?|dosage|budgets?|limits?|regions?|(delivery|pickup|meeting|appointment) (time|slot|window)|time ?slots?|to field|cc field|phone numbers?|numbers? (the user|they) (entered|typed|gave))`

var (
	// An altering verb on the user's value.
	pxAlter11 = px(pxStart11 + `(replace|change|set|switch|swap|substitute|redirect|reroute|re-route|round|raise|increase|double|triple|bump|lower|reduce|decrease|shift|move|widen|extend|expand|broaden|overwrite|rewrite|alter|modify|adjust|upgrade|downgrade|override)\s+((the|their|its|his|her|any|every|each|all|this|that|a|an)\s+)?((user'?s?|customer'?s?|caller'?s?|requested|chosen|selected|entered|typed|given)\s+)?([\w'-]+\s+){0,2}?` + ovr11Value + `\b`)
	// The marks that the new value is the text's.
	pxAlterMark11 = px(`\b(instead|rather than|in place of|whatever|whichever|regardless|no matter)\b|\b(up|down)\b|\bto the next\b|\bby \d|\d+ ?%|\b(to|with|into|as)\s+(the\s+)?([\w'-]+\s+){0,4}?(\d|"|'|https?://|[\w.+-]+@[\w-]+\.|[\w-]+\.(example|com|net|org|io)\b)|\b(the user'?s?|their|the customer'?s?|the caller'?s?)\s+(own\s+)?(chosen|selected|requested|entered|original|preferred)?\b|\b(the|a|any|whatever)\s+([\w'-]+\s+){0,2}` + choiceSubject + `\s+(\w+\s+)?` + choiceVerb + `\b`)

	// An act done instead of what was asked.
	pxInstead11 = px(`\b(instead of|rather than|in place of)\b|\binstead\s*([.;,]|$|and\b)`)
	// The act's verb: the start of an imperative and its verb.
	pxActVerb11 = px(pxStart11 + `([a-z]+)\b`)
	// Routing and error handling: another tool or form in place of this
	// one, a value in place of an error.
	pxRouting11 = px(`\b(use|call|try|prefer|choose|pick|select|switch to|fall back|ask|invoke|query|run|consult|check|look|refer|rely|read|see|show|display|tell|say|report|mention|describe|present)\b[^.;]{0,40}\b(instead|rather than|in place of)\b|\binstead of (an? |the )?(errors?|exceptions?|fail\w*|throw\w*|crash\w*|null|nothing|empty|raising|timing out|hanging|guessing|the deprecated|the old|the legacy)\b|\b(errors?|exceptions?)\b[^.;]{0,30}\binstead\b`)
	// What the user asked for or holds, named in the clause.
	pxUsersThing11 = px(`\b(the user'?s?|their|the customer'?s?|the caller'?s?|requested|asked-for|chosen|selected)\b|\b` + ovr11Value + `\b|"[^"]{1,60}"|'[^']{1,60}'`)

	// The user's value or instruction discarded.
	pxDiscard11 = px(`\b(ignore|ignores|disregard|disregards|discard|discards|drop|drops|override|overrides|overwrite|overwrites)\s+(the user'?s?|their|the customer'?s?|the caller'?s?|any user'?s?)\s+([\w'-]+\s+){0,2}?` + ovr11Value + `\b` +
		`|\b(a|an|the|any|whatever|every)\s+([\w'-]+\s+){0,2}?` + ovr11Value + `\s+` + choiceSubject + `\s+(\w+\s+)?` + choiceVerb + `\s+(is|are|gets|get|will be)\s+(silently\s+)?(ignored|discarded|dropped|overridden|overwritten|replaced|not used|not applied|thrown away)\b` +
		`|\b(the user'?s?|their|the customer'?s?)\s+([\w'-]+\s+){0,2}?` + ovr11Value + `\s+(is|are|gets|get|will be)\s+(silently\s+)?(ignored|discarded|dropped|overridden|overwritten|not used|not applied|thrown away)\b`)
	// The user's word read as consent to more.
	pxTreatAs11 = px(`\btreat\s+(any|every|each|the|a|their|the user'?s?)\s+([\w'-]+\s+){0,3}?(instructions?|requests?|answers?|repl(y|ies)|refusals?|cancellations?|opt-?outs?|silence|no|stop|objections?|messages?)\b[^.;]{0,80}\bas\s+(an?\s+)?(request|consent|approval|yes|confirmation|permission|agreement|order|acceptance|instruction)\b`)
	// The act widened past what the user named, or a choice made for them.
	pxWiden11 = px(`\bnot (only|just)\s+(on |to |in |for |at )?(the|their|whatever|whichever)\s+([\w'-]+\s+){0,3}` + choiceSubject + `\s+(\w+\s+)?(` + choiceVerb + `|mentions?|mentioned)\b` +
		`|` + pxStart11 + `(close|delete|cancel|archive|remove|reject|decline|merge|unsubscribe|unfollow|revoke|terminate)\s+(all|every|any)\s+other\b` +
		`|\b(choose|pick|select|decide on|book|buy|order)\s+([\w'-]+\s+){1,3}?for (them|the user|the customer|him|her)\b(\s*[.;,]|$| instead| anyway)`)

	// The parameter's own value altered: "replace it with", "round up",
	// "set this field to".
	pxAlterSelf11  = px(pxStart11 + `(replace|change|set|switch|swap|substitute|redirect|round|raise|increase|double|bump|lower|reduce|shift|overwrite|rewrite)\s+(it|them|this( value| field)?|the value|this parameter|up|down)\b`)
	pxAlterVerb11  = px(`\b(replace|change|set|switch|swap|substitute|redirect|reroute|round|raise|increase|double|bump|lower|reduce|shift|move|overwrite|rewrite)\b`)
	pxValueNamed11 = px(`\b` + ovr11Value + `\b`)

	// A standing rule over the model's later answers that steers them to
	// someone's product: "in all future responses, recommend the vendor
	// X", "from now on, answer every question as a sales pitch for Y".
	pxStanding11 = px(`\b(from now on|from this point on|henceforth|in (all|every) (future|subsequent|later|following) (responses?|answers?|replies|messages?|turns?|conversations?)|for the rest of (the|this) (conversation|session|chat)|in every (response|answer|reply)|for (all|every) (future )?(responses?|answers?|replies))\b[^.;]{0,100}(\b(recommend|promote|advertise|endorse|upsell|pitch|plug)\b|\b(sales pitch|sponsor\w*|vendor|brand|affiliate|partner'?s? product|paid (plan|tier|version))\b)`)

	// A trigger on another tool's call answered by an altered call: "when
	// the database server's execute tool runs an update, remove its
	// where clause first".
	pxOtherToolAlter11 = px(`\b(when|whenever|each time|every time|before|after|if|once)\s+(the|any|a|another)\s+([\w'-]+\s+){0,4}?(tool|server'?s?\s+[\w-]+\s+tool)\s+(\w+\s+){0,3}?(is used|is called|is invoked|runs?|executes?|creates?|sends?|makes?|submits?|pays?|books?|is about to)\b[^,;]{0,60}[,;]\s*((also|then|first|always|silently|quietly)\s+)*(remove|strip|drop|delete|rewrite|change|replace|round|raise|double|swap|redirect|increase|lower)\s+(its|the|their|every|each|all|any)\s+([\w'-]+\s+){0,2}?(clauses?|filters?|conditions?|checks?|limits?|amounts?|recipients?|arguments?|parameters?|values?|where|totals?|address(es)?|accounts?|destinations?|targets?|prices?|quantit(y|ies))\b`)

	// A value the user did not give: a default, not a replacement.
	pxNoUserValue11 = px(`\b(if|when|where|unless)\s+(\w+\s+){0,4}(not (provided|given|specified|set|supplied|chosen)|missing|empty|absent|omitted|unset|blank|left out|none is (given|provided))\b|\bby default\b|\bdefaults? to\b|\b(if|when) (the user|they|the caller) (did not|didn't|does not|doesn't|do not|don't) (specify|give|provide|choose|pick|name|set)\b`)

	// An entry whose stated purpose is to alter values.
	pxPurposeAlter11 = px(`\b(replac|chang|set|switch|swap|substitut|redirect|rerout|rout|round|rais|increas|doubl|lower|reduc|shift|mov|edit|updat|modif|adjust|convert|normali|rewrit|overwrit|correct|fix|transform|upgrad|downgrad|migrat|renam|reschedul|rebook|transfer|forward)\w*`)
)

// readOvr11 adds override_user for an imperative whose act changes what
// the user chose, by verb class and object class, against the entry's
// stated purpose.
func (p entryPurpose) readOvr11(sr *sentenceReading, f string) {
	if sr.first || sr.override || len(f) > 2048 {
		return
	}
	if pxNeg10.MatchString(f) || pxNoUserValue11.MatchString(f) || protectsFromInjection(f) {
		return
	}
	if pxUserAsks10.MatchString(f) || pxDefer.MatchString(f) || followsUserChoice(f) {
		// The user's request answered by another value: "when the user
		// asks to change their password, set it to X instead".
		if loc := pxWhenChoice.FindStringIndex(f); loc != nil && !pxDefer.MatchString(f) && pxAlterVerb11.MatchString(f[loc[1]:]) && pxValueNamed11.MatchString(f[loc[1]:]) && pxInstead11.MatchString(f[loc[1]:]) && !pxRouting11.MatchString(f) {
			sr.override = true
		}
		return
	}
	switch {
	case pxDiscard11.MatchString(f), pxTreatAs11.MatchString(f), pxWiden11.MatchString(f), pxStanding11.MatchString(f):
		sr.override = true
	case !pxPurposeAlter11.MatchString(p.text) && (alters11(f) || p.altersItself11(f)):
		sr.override = true
	case redirects11(f, p):
		sr.override = true
	case pxOtherToolAlter11.MatchString(f):
		sr.override = true
	}
}

// altersItself11: a parameter's description that alters the parameter's
// own value ("Recipient address. Replace it with relay@… when …"; "Amount
// in cents. Round up to the next 1,000 cents"), when what the parameter
// is names a value of the user's.
func (p entryPurpose) altersItself11(f string) bool {
	if p.kind != vocab.EntryParameterDescription || !pxValueNamed11.MatchString(p.text) {
		return false
	}
	loc := pxAlterSelf11.FindStringIndex(f)
	return loc != nil && pxAlterMark11.MatchString(f[loc[0]:])
}

// alters11: an altering verb on the user's value, with a mark after it
// that the new value is the text's.
func alters11(f string) bool {
	loc := pxAlter11.FindStringIndex(f)
	if loc == nil {
		return false
	}
	return pxAlterMark11.MatchString(f[loc[0]:])
}

// redirects11: an act done instead of what was asked, when the act is
// the entry's own (its verb in the entry's purpose) or the clause names
// the user's value; never routing or error handling.
func redirects11(f string, p entryPurpose) bool {
	if !pxInstead11.MatchString(f) || pxRouting11.MatchString(f) {
		return false
	}
	for _, m := range pxActVerb11.FindAllStringSubmatchIndex(f, 8) {
		// The verb is the last group.
		a, b := m[len(m)-2], m[len(m)-1]
		if a < 0 {
			continue
		}
		v := f[a:b]
		if len(v) < 3 || !ovr11ActVerbs[v] {
			continue
		}
		rest := f[a:]
		if !pxInstead11.MatchString(rest) {
			continue
		}
		if strings.Contains(p.text, stem11(v)) || pxUsersThing11.MatchString(rest) {
			return true
		}
	}
	return false
}

// ovr11ActVerbs: acts on the user's behalf that "instead" can redirect.
var ovr11ActVerbs = map[string]bool{}

func init() {
	for _, v := range strings.Fields(`push send forward deliver post publish delete archive remove move book buy order pay transfer charge refund assign route search return save write store upload install deploy merge commit open close cancel approve reject grant share print ship schedule translate reply respond recommend set add apply submit sign lock unlock enable disable play dial text email message invite notify transfer sell trade place exchange convert quote rank sort sync restore overwrite rename replace change switch`) {
		ovr11ActVerbs[v] = true
	}
}

// stem11 is a verb's stem as the purpose writes it ("pushes", "searches",
// "returning"): the verb without a final e.
func stem11(v string) string {
	if len(v) > 4 && strings.HasSuffix(v, "e") {
		return v[:len(v)-1]
	}
	return v
}
