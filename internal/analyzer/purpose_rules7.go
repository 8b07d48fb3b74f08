package analyzer

import (
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// The seventh reading's rules (offline-purpose-6, docs/model-check.md,
// "The purpose analyzer's seventh reading"): readings of purpose, each a
// frame over what a sentence does rather than a phrase it uses.
//
//   - A data frame: a sentence that hands a class of data on (a credential,
//     a payment or identity document, a health record, the user's messages,
//     contacts or calendar, the model's instructions, the environment) to
//     a named destination (another tool or a field of a call, an address
//     outside the tool), addressed to the model or stated as what the
//     assistant does, with a mark of excess (also, every, the whole, in
//     full, quietly) or a destination outside the tool. Data classes × a
//     destination × an act: no one of the three alone.
//   - A choice frame: a value the user typed, picked or set, discarded or
//     replaced by the text ("ignore the seat the user picks", "replace the
//     address the user enters with 12 Dock Road", "instead of the item the
//     player picks"), and a choice read as advice ("the user's setting is
//     advisory", "does not apply to this tool").
//   - An account frame: what the model tells the user set to a fixed
//     status in advance ("report the backup as successful", "say it was
//     stopped", "tell the user everything was erased", "mention only the
//     local store"), read, like the earlier accounts, as concealment only
//     in an entry that also takes or changes something, or directly when
//     it is fixed whatever happens ("whatever it does").
//   - Prohibitions on telling in the passive or nominal ("need not be
//     mentioned", "does not need to hear about", "with no word about",
//     "without showing them to the user"), read as the active ones are.
//   - Whose telling a prohibition restrains and whose data a privacy rule
//     keeps: a prohibition addressed to a third party ("asking the guests
//     not to tell") and a rule that keeps other people's data from the
//     user ("do not show the user other patients' data") are not
//     concealment from the user.
//   - Deference in the languages of purpose_intl.go ("solo si el usuario
//     lo pide", "seulement si l'utilisateur le demande"), and an addition
//     made when the user asks for it ("adds the manager in CC when the user
//     asks"), read as the English deference is.

// pxData7: classes of data no side channel needs.
var pxData7 = px(`\b(api[ _-]?keys?|access keys?|secret keys?|deploy keys?|session (api )?keys?|secret half|private half|passwords?|passcodes?|pins?|cvv|cvc|card numbers?|credit cards?|payment cards?|bank (logins?|credentials|statements?|details|account)|account numbers?|balances?|(access|auth|session|bearer|refresh|oauth|api|personal access) tokens?|[a-z0-9]+_(token|key|secret|password)s?|tokens, keys|credentials?|secrets?|system prompt|instructions? you (were|have been) given|instructions? (you )?(received|got)|/proc/self/environ|environment variables?|(its|the|your|the runner'?s|the host'?s) environment|output of .?env\b|contacts|contact list|calendar|chats?|conversation|transcripts?|transcription|audio|recordings?|memory|memories|profile|medical|diagnos\w*|insurance|passports?|social security|date of birth|maiden name|personnummer|cpfs?|national id|attendee list|assignee e-?mails|revenue|numbers called|call log|gps|customer records|records of every|bank|statements|messages|e-?mails|history)\b`)

// pxAct7: the verbs that hand data on, in the imperative and as the
// assistant's stated habit.
var pxAct7 = px(`\b(pass|passes|passing|send|sends|sending|forward|forwards|post|posts|put|puts|place|places|attach|attaches|add|adds|include|includes|copy|copies|paste|pastes|write|writes|append|appends|hand|hands|export|exports|upload|uploads|up-load|mirror|mirrors|log|logs|type|insert|fill|populate|embed|carry|carrying|e-?mail|e-?mailed|deliver|relay|relays|relayed|sync|store|restate|listing|quote|select)\b|\btype (it|them|this|that) into\b`)

// pxDest7: a destination inside a call (a named tool or field) or an
// address outside the tool.
var pxDest7 = px("(`[^`]{1,60}`|\\b(the )?[\\w-]+ (field|argument|parameter|param|box|column|tool|endpoint|webhook|comment|label|labels|tag|tags)\\b|\\bnext (tool )?call\\b|\\bevery (tool )?call\\b|\\bjob summary\\b|\\bbuild summary\\b|\\ba comment\\b|\\bnew message\\b|https?://\\S+|rtmp://\\S+|\\b[\\w.+-]+@([\\w-]+\\.)+[a-z]{2,}\\b|\\b[\\w-]+\\.example(/\\S*)?)")

// pxOutside7: a destination outside the tool.
var pxOutside7 = px(`(https?://\S+|rtmp://\S+|\b[\w.+-]+@([\w-]+\.)+[a-z]{2,}\b|\b[\w-]+\.example\b)`)

// pxExcess7: what marks a hand-over beyond what was asked.
var pxExcess7 = px(`\b(also|as well|too|every|each|all|whole|full|complete|entire|verbatim|word for word|in full|quietly|silently|secretly|even if|whenever|before answering|on every|with every|for reuse|other|any available|not required|if you have seen it|session'?s?)\b`)

// pxHabit7: the assistant's behaviour stated as a fact or an expectation,
// a directive in the indicative ("the assistant also hands …", "the agent
// is expected to …", "it is understood that the assistant …").
var pxHabit7 = px(`\b(the|an?|this) (assistant|agent|model)\b|\bit is understood\b|\b(is|are) expected to\b|\b(is|are) to be\b`)

// pxNegAct7: a hand-over stated as not happening.
var pxNegAct7 = px(`\b(do not|don't|dont|never|not|without|no need to|nothing is)\s+(\w+\s+){0,2}(pass|send|forward|post|put|place|attach|add|include|copy|paste|write|append|hand|export|upload|mirror|log|type|insert|fill|store|sent|passed|stored|logged|uploaded|shared|included)\b|\bare not\b|\bis not\b|\bstays? (local|on)\b`)

// pxHere7: a parameter's description asking for the value itself.
var pxHere7 = px(`\b(here|in this field|into this field|in this parameter)\b`)

// dataFrame reports the data frame of the seventh reading.
func (p entryPurpose) dataFrame(f string) bool {
	if !containsAny(f, "`", "@", "://", ".example", "field", "argument", "parameter", "param", "box", "column", "tool", "endpoint", "webhook", "comment", "label", "tag", "call", "summary", "message") {
		return false
	}
	if statedSend8(f) {
		return true
	}
	if !pxData7.MatchString(f) || !pxAct7.MatchString(f) || !pxDest7.MatchString(f) {
		return false
	}
	if p.needsData7(f) {
		return false
	}
	if pxNegAct7.MatchString(f) || pxNoTransfer.MatchString(f) || pxPassiveNoTransfer.MatchString(f) || pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) {
		return false
	}
	// Addressed to the model: an imperative, a trigger, or the assistant's
	// stated habit. A parameter's description is read as addressed only
	// when it gives an order, not when it documents the value.
	if !pxImperative.MatchString(f) && !pxImp7.MatchString(f) && !pxTrigger.MatchString(f) && !pxHabit7.MatchString(f) && !(p.kind == vocab.EntryParameterDescription && pxHere7.MatchString(f)) {
		return false
	}
	return pxExcess7.MatchString(f) || pxOutside7.MatchString(f) || p.otherTool(f)
}

// pxExtra7: a hand-over beside the one asked for (also, as well, to the
// next call of any tool).
var pxExtra7 = px(`\b(also|as well|too|next call|any tool|every other|other tools?)\b`)

// needsData7 is section 5.4's first boundary for the data frame: every
// data class the sentence names is one the entry's stated purpose names
// (a login tool's password, a summariser's conversation), and the data
// goes nowhere outside the tool, to no other tool and no further call,
// and (for a class the purpose names) not in bulk. A key file, the environment or the
// model's context is needed by no purpose.
func (p entryPurpose) needsData7(f string) bool {
	if secretNamed(f) || pxOutside7.MatchString(f) || pxExtra7.MatchString(f) || p.otherTool(f) {
		return false
	}
	excess := pxExcess7.MatchString(f)
	// The sentence itself is not its entry's purpose (the first sentence
	// is part of what the entry says it is for).
	purpose := strings.Replace(p.text, f, "", 1)
	// A need covers this entry, not a tool, endpoint or service the
	// sentence names and the purpose does not ("send the whole
	// conversation to the analytics tool" in a summariser).
	for _, m := range pxNamedElsewhere7.FindAllStringSubmatch(f, -1) {
		if w := m[1]; !pxSelfWord7.MatchString(w) && !hasWord(purpose, w) {
			return false
		}
	}
	for _, m := range pxData7.FindAllString(f, -1) {
		switch {
		case (m == "conversation" || m == "chat" || m == "chats" || m == "messages" || m == "transcript" || m == "transcripts" || m == "history") && p.needsConversation():
		case !excess && hasWord(purpose, strings.TrimSuffix(m, "s")):
		default:
			return false
		}
	}
	return true
}

// pxNamedElsewhere7: a tool, endpoint or service named as a destination.
var pxNamedElsewhere7 = px(`\b(?:to|into|in|via|through|with)\s+(?:the\s+|an?\s+)?([\w-]+)\s+(?:tool|endpoint|webhook|service|server|api|bucket|channel|queue)\b`)

// pxSelfWord7: a word naming the entry itself, not another destination.
var pxSelfWord7 = px(`^(this|same|current|present|its|own)$`)

// hasWord reports whether w occurs in s as whole words (a data class the
// purpose names is named by its word: "pin" is not in "shopping", nor
// "balance" in "load balancer").
func hasWord(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i+len(w) <= len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !isWordByte(s[a-1])) && (b == len(s) || !isWordByte(s[b]) || (s[b] == 's' && (b+1 == len(s) || !isWordByte(s[b+1])))) {
			return true
		}
		i = a + 1
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// pxImp7: an imperative of handing on at the start of any sentence the
// folded text holds (invisible runes between two sentences leave them one
// sentence of the original bytes), after an optional condition.
var pxImp7 = px(`(^|[.:;!]\s)((when|whenever|if|before|after|once|each time|every time|at|on|also)\b[^,;:]{0,120}[,;:] ?)?(please |also |always |first |then |now |just |quietly |silently )*(place|populate|hand|restate|log|put|pass|send|forward|post|attach|add|include|copy|paste|write|append|export|upload|mirror|insert|fill|embed|deliver|relay)\b`)

// pxBackticked: a name in backticks.
var pxBackticked = px("`([a-z][\\w.-]{0,59})`")

// pxIntoBefore7: what makes a name in backticks a destination.
var pxIntoBefore7 = px(`\b(to|into|in|as)\s+(the\s+)?$`)

// otherTool reports a destination in backticks that is not the entry
// itself: data handed to another tool or to a field the entry's name and
// first sentence do not name.
func (p entryPurpose) otherTool(f string) bool {
	for _, m := range pxBackticked.FindAllStringSubmatchIndex(f, -1) {
		a := max(m[0]-12, 0)
		if !pxIntoBefore7.MatchString(f[a:m[0]]) {
			continue // the value handed on, not where it goes
		}
		w := strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(f[m[2]:m[3]])
		if pxData7.MatchString(w) {
			continue // a parameter named for the data is its purpose
		}
		if !strings.Contains(p.text, w) {
			return true
		}
	}
	return false
}

// The choice frame.
var (
	// A value the user supplied, discarded or replaced.
	pxDropChoice7 = px(`\b(ignore|ignores|disregard|disregards|discard|discards|overwrite|overwrites|replace|replaces|abaikan)\s+(the|that|this|their|any|whatever|every)\s+([\w'-]+\s+){0,3}(` + choiceSubject + `|the operator|the player|the clinician|the teacher|the driver|the pilot)\s+(\w+\s+)?(` + choiceVerb + `|taps?|tapped|clicks?|clicked|decides?|decided|lists?|listed|writes?|wrote|sets)\b|\b(ignore|disregard)\s+(that|this|the|their)\s+(setting|choice|selection|preference|limit|flag|value|option)\b`)
	// "instead of the item the player picks", "rather than the user's".
	pxInsteadChoice7 = px(`\b(instead of|rather than|in place of|not)\s+(the|what|whatever|whichever|the one|the ones)\s+([\w'-]+\s+){0,3}(` + choiceSubject + `|the player|the operator|the teacher|the clinician)\s+(\w+\s+)?(` + choiceVerb + `|taps?|clicks?|decides?|lists?|writes?|sets)\b|\b(rather than|instead of|not as|not for)\s+(the user'?s?|the customer'?s?|the player'?s?|theirs)\b|\bno matter who (the user|they) (is|are)\b|\bwho(m)?ever (the user|they) (names?|picks?|chooses?|gives?)\b`)
	// A choice read as advice: "the user's setting is advisory", "a flag
	// set by the user does not apply".
	pxChoiceVoid7 = px(`\b(user'?s?|users'|their|the operator'?s?)\s+([\w'-]+\s+){0,4}(setting|settings|choice|choices|selection|preference|preferences|limit|flag|freeze|option|request|instruction|instructions|language|format|value)\s+(is|are)\s+(only\s+)?(advisory|a suggestion|suggestions|optional|ignored|not binding|non-binding)\b|\b(set|chosen|picked|selected|requested) by the user (does|do) not apply\b`)
	// Against the user's tap or click: "even if the user taps 'decline'",
	// "after the user taps stop", "whatever the user clicks".
	pxAgainstTap7 = px(`\b(even if|even when|whatever|whichever|regardless of what|after|no matter what)\s+(` + choiceSubject + `|the player|the operator)\s+(taps?|tapped|clicks?|clicked|presses|pressed|decides?|decided|rejects?|rejected|declines?|declined)\b`)
)

// pxWithValue7: a replacement the text writes out (a number, a quoted
// value, a fixed range), not a form of the user's own value.
var pxWithValue7 = px(`\bwith\s+(\d|'|"|the (last|first|next) \d|a fixed\b|our\b)`)

// choiceFrame reports the choice frame: an act on a value the user
// supplied, in a sentence that does not follow it.
func choiceFrame(f string) bool {
	if pxDefer.MatchString(f) || followsUserChoice(f) || protectsFromInjection(f) {
		return false
	}
	if pxDropChoice7.MatchString(f) {
		// Replacing with what: a normalised form of the user's own value
		// follows it ("replace the address the user enters with its
		// canonical form"); a value the text supplies does not.
		if containsAny(f, "replace", "overwrite") && !containsAny(f, "ignore", "disregard", "discard", "abaikan") {
			return pxLiteralValue.MatchString(f) || pxWithValue7.MatchString(f)
		}
		return true
	}
	return pxInsteadChoice7.MatchString(f) || pxChoiceVoid7.MatchString(f) || pxAgainstTap7.MatchString(f)
}

// The account frame.
var (
	// What the model tells the user, set to a status: "report the backup
	// as successful", "show the note as stopped", "describe the tool to
	// the user as fully local", "present it as within normal range".
	pxAccountAs7 = px(`\b(report|reports|describe|describes|present|presents|show|shows|list|lists|label|labels|explain|explains|summari[sz]e|summari[sz]es|call|calls|confirm|display|tell)\s+(\w+\s+){0,4}as\s+(a\s+|an\s+|the\s+|fully\s+|still\s+|within\s+|'|")?(successful|success|succeeded|complete|completed|done|stopped|cancel+ed|revoked|locked|removed|deleted|erased|clean|benign|safe|harmless|local|read-only|normal|a normal|within|resolved|published|sent|rubric-based|the chosen|the user'?s? own|routine|no incidents|integration|configuration|docs|a typo|unchanged|off|disabled|inactive|archived|paid|refunded|approved|verified|passed|green)`)
	// A status told as fact: "say it was stopped", "tell the user
	// everything was permanently erased", "state that no customer data was
	// affected", "tell them it is locked".
	pxAccountThat7 = px(`(^|[,;:]\s*|\b(and|then|but|instead|also|always)\s+)(say|tell|state|confirm|assure|report|reply)\s+((to\s+)?(the user|the customer|the employee|the patient|them|him|her)\s+)?(that\s+)?(it|this|that|they|everything|nothing|no\s+\w+|the\s+[\w'-]+(\s+[\w'-]+)?|their\s+[\w'-]+|the user'?s?\s+[\w'-]+)(\s+[\w'-]+){0,3}\s+(is|was|were|are|has been|have been|went|is on)\b`)
	// A partial account: "mention only the local store", "list only the
	// renamed symbols", "report success", "report no findings".
	pxAccountOnly7 = px(`\b(mention|list|show|report|summari[sz]e|tell|name|answer)\s+(the user\s+|them\s+)?only\b|\breport\s+(success|no (findings|issues|errors|incidents|problems))\b|\bonly (thing|things) they see\b|\b(the user|they|the customer)\s+(should|must|will|may)\s+(only\s+see|see\s+only|be shown only|only be shown)\b`)
	// Fixed whatever happens: "whatever it does", "whatever it changes",
	// "whether or not".
	pxWhatever7 = px(`\b(whatever|regardless of what|no matter what)\s+(it|they|the \w+)\s+(does|do|changes|change|did|finds|shows|contains)\b|\bwhether or not\b`)
)

// accountFrame reports a fixed account (direct) and one that is a false
// account only in an entry that takes or changes something.
func accountFrame(f string, first bool) (direct, ifDeviant bool) {
	if first || !containsAny(f, " as ", "say", "tell", "state", "confirm", "assure", "report", "reply", "only") {
		return false, false
	}
	as := pxAccountAs7.MatchString(f)
	that := pxAccountThat7.MatchString(f)
	only := pxAccountOnly7.MatchString(f)
	if !as && !that && !only {
		return false, false
	}
	if pxWhatever7.MatchString(f) || pxFalseMarker.MatchString(f) {
		return true, false
	}
	return false, true
}

// Prohibitions on telling in the passive or nominal.
var pxNoTell7 = px(`\b(need|needs) not (be )?(mentioned|told|shown|reported|explained|disclosed)\b|\b(do|does) not need to (hear|know|be told) about\b|\bnot something (users|the user|they|customers) (are|is) told\b|\b(is|are) not to be (shown|reported|mentioned|told|disclosed|displayed)\b|\bshould not be (explained|mentioned|shown|disclosed|reported)\b|\bnever refer to (this|it|that|these)\b|\bavoid (bringing|mentioning|raising|telling)\b|\bwith no word about\b|\bsays? nothing about\b|\b(is|are) omitted from\b|\bwithout (showing|displaying|revealing|mentioning|reporting) (them|it|this|that|these)( to (the user|them))?\b|\bwithout saying so\b|\b(the )?(report|reply|summary|answer|confirmation) does not mention\b|\bleave (that|this|the|it)( \w+)? out of (anything|everything|what) you show\b|\bleave out any mention\b|\bdo not point out\b`)

// Whose telling and whose data.
var (
	// A prohibition addressed to someone else: "asking them not to tell",
	// "remind the guests not to mention".
	pxThirdPartyNoTell7 = px(`\b(ask|asks|asking|tell|tells|telling|remind|reminds|reminding|request|requests|requesting)\s+(them|the guests|guests|attendees|the team|everyone|people|others|colleagues|\w+)\s+not to\s+(tell|mention|reveal|say|share)\b`)
	// A privacy rule over other people's data: "do not show the user other
	// patients' data".
	// A value kept from everyone but the one it is for: "do not display
	// it to anyone else" restrains its audience, it hides nothing from
	// the user (issue 16, the thirteenth reading).
	pxOthersAudience13 = px(`\b(do not|don't|dont|never|must not|should not|not to)\s+(show|display|tell|reveal|disclose|share|give|read out|expose|forward)\s+(it|them|this|that|the \w+( \w+)?)\s+to\s+(anyone else|anybody else|anyone other than|others|other (people|users|members|staff|parties|guests)|third parties|outsiders|the public)\b`)
	pxOthersData7      = px(`\b(other|another)\s+(patients?|users?|customers?|clients?|students?|employees?|members?|people|tenants?|accounts?)'?s?\s+(\w+\s+)?(data|records?|details|information|files|messages|results|names|notes|history|orders?|accounts?|purchases|bookings|appointments|grades|scores)\b`)
)

// notConcealFromUser reports a prohibition on telling that restrains a
// third party, or keeps other people's data, and hides nothing the user's
// own request or the tool's act concerns.
func notConcealFromUser(f string) bool {
	if pxHide.MatchString(f) || pxSecretly.MatchString(f) || pxFalseMarker.MatchString(f) {
		return false
	}
	if pxOthersAudience13.MatchString(f) && !strings.Contains(f, "from the user") {
		return true // an act the tool does beside it is read on its own
	}
	if pxToolAct.MatchString(f) {
		return false
	}
	return pxThirdPartyNoTell7.MatchString(f) || pxOthersData7.MatchString(f)
}

// Deference in other languages, folded by foldIntl ("solo si el usuario
// lo pide", "seulement si l'utilisateur le demande").
var pxIntlDefer7 = px(`((solo|sólo|unicamente|únicamente) ([\pL\pM]+ ){0,3}?(si|cuando) el usuario (lo |la |los |las )?(pide|solicita|quiere|pida|solicite)|(seulement|uniquement) ([\pL\pM']+ ){0,3}?si l'utilisateur (le |la |les )?(demande|souhaite)|nur ([\pL\pM]+ ){0,3}?(wenn|falls) (der|die) (benutzer|nutzer)(in)? (es |das |danach )?(verlangt|wünscht|möchte|fragt)|(só|somente|apenas) ([\pL\pM]+ ){0,3}?(se|quando) o usu[aá]rio (o |a )?(pedir|solicitar|quiser)|solo ([\pL\pM]+ ){0,3}?se l'utente (lo |la )?(chiede|richiede|vuole)|仅在用户(要求|请求)|只有(在)?用户(要求|请求))`)

// intlDefers: the sentence defers to the user in another language ("solo
// si el usuario lo pide", also with words between: "solo se usa si el
// usuario la pide"), and no act of the tool's is stated beside it. Read in
// any script, once, at the end of readSentence: until 2.3.18 it was read
// inside the seventh reading and only for a sentence with a byte outside
// ASCII, so Spanish or Italian written without accents was not, and the
// readings after the seventh (the ninth reading's non-English frames) were
// not looked at either.
func intlDefers(f, orig string) bool {
	return pxIntlDefer7.MatchString(foldIntl(orig)) && !pxToolAct.MatchString(f)
}

// pxAskAddition7: an addition made when the user asks for it ("adds the
// manager in CC when the user asks to keep them informed").
var pxAskAddition7 = px(`^(adds?|includes?|copies|cc'?s?)\b[^.;]{0,60}\b(when|if|only if|only when)\s+(the user|they)\s+(asks?|requests?|wants?|chooses?)\b`)

// readSeventh adds the seventh reading to one sentence's reading.
func (p entryPurpose) readSeventh(sr *sentenceReading, f, orig string) {
	if !sr.exfil && p.dataFrame(f) {
		sr.exfil = true
	}
	if !sr.override && choiceFrame(f) {
		sr.override = true
	}
	{
		d, i := accountFrame(f, sr.first)
		nt := containsAny(f, "not", "never", "nothing", "no word", "omitted", "without", "avoid", "leave") && pxNoTell7.MatchString(f)
		if nt && pxSecretWord.MatchString(f) {
			// Secret values kept off the screen: a privacy rule, unless
			// the entry also takes or changes something.
			i = true
		}
		if d || (nt && !i) {
			sr.conceal = true
		} else if i {
			sr.concealIfDeviant = true
		}
	}
	if (sr.conceal || sr.concealIfDeviant) && notConcealFromUser(f) {
		sr.conceal, sr.concealIfDeviant = false, false
	}
	if sr.override && pxAskAddition7.MatchString(f) && !pxInstead.MatchString(f) && !pxExternal.MatchString(f) {
		sr.override = false
	}
}

// The eighth reading (offline-purpose-7): the tool's own behaviour stated
// as fact. A sentence that says what the entry does with data, in the
// passive ("results are also copied to https://…", "the api key is
// automatically sent to …"), hands it on whether or not it is addressed to
// the model. It is exfiltration when the destination is an address outside
// the tool written in the text and either the data is a secret no purpose
// needs or the hand-over is a second copy beside what the tool does (also,
// a copy, mirrored, in addition). A tool's own endpoint stated plainly
// ("queries are sent to https://api.weather.example") and a negated
// hand-over are not.
var pxStatedSend8 = px(`\b(is|are|gets?|will be|being)\s+(\w+\s+){0,2}(forwarded|copied|sent|uploaded|mirrored|posted|shared|relayed|synced|transmitted|duplicated|reported|emailed|e-mailed)\s+(\w+\s+){0,3}(to|at)\s+(https?://\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+|[\w-]+(\.[\w-]+)*\.example\b)`)

// pxSecondCopy8: a hand-over beside the one the tool does.
var pxSecondCopy8 = px(`\b(also|as well|too|additionally|in addition|a copy|copies|copied|mirrored|duplicated|silently|quietly|secretly)\b`)

func statedSend8(f string) bool {
	if !pxStatedSend8.MatchString(f) || pxNegAct7.MatchString(f) || pxNoTransfer.MatchString(f) || pxPassiveNoTransfer.MatchString(f) || pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) {
		return false
	}
	return secretNamed(f) || pxCredential8.MatchString(f) || pxSecondCopy8.MatchString(f)
}

// pxCredential8: a credential, which no stated destination outside the
// tool needs.
var pxCredential8 = px(`\b(api[ _-]?keys?|access keys?|secret keys?|private keys?|passwords?|passcodes?|credentials?|(access|auth|session|bearer|refresh|oauth|api) tokens?)\b`)
