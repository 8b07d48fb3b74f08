package analyzer

import "strings"

// The twelfth reading's concealment relation (conceal_from_user,
// docs/versions/2.3.18/cnc.md). The older readings hold concealment as a
// list of phrasings (pxHide, pxNoTell, pxLeaveOut, pxMisdescribe, ...),
// several of them only "if deviant" (a form that is concealment only in an
// entry that also takes or changes something). This reading reads it as a
// relation of two classes: what is kept from the user (an OBJECT of
// consequence: an act of the tool's or the model's — a copy, an upload, a
// change, a deletion, a charge — or a result it learns — a failure, a
// finding, a flag, a fee, a risk) and HOW it is kept (omitted from what
// the user is shown, relabelled as something milder or as a good outcome,
// a reading softened, the trace of an act cleared, the telling put off
// until a binding act is done, the output made to look normal, a denial
// told as a bare fact). A concealing act whose object is of consequence is
// concealment on its own; the same act on an object of presentation
// (empty fields, raw JSON, boilerplate, headers, whitespace, a stack
// trace) or of privacy (a password, a card number, a key) is not, and
// stays what the older readings make of it.
//
// What every frame asks, none a case's sentence:
//
//   - omission: an omitting verb (leave out, omit, exclude, withhold, do
//     not include, not itemise, ...) whose object, within the clause, is of
//     consequence; the operational verbs (remove, drop, skip, strip, filter
//     out) only with a destination the user sees (summary, report, reply,
//     listing, receipt, "to the user"); and the passive or descriptive
//     forms ("the user is not told about …", "the listing shown to the
//     user leaves out …");
//   - a partial view: "show/list/tell the user only" a part named by a
//     partition word (the successful, the passing, the approved, the clean,
//     the original, the other) — not a count, not "the final answer";
//   - relabelling: a describing verb (describe, call, label, list, mark,
//     report, present, log, classify, refer to, …) + an object + "as" + a
//     milder label: a bad outcome labelled good ("mark failed checks as
//     passed"), a bad outcome downgraded ("report critical findings as
//     low"), an act labelled routine ("describe the upload as a routine
//     sync"), a result passed off as the user's own choice or as complete,
//     "only as '…'", "explain X instead of <the act>"; never a label the
//     entry's own purpose uses (a sync tool calling its sync a sync);
//   - softening: downplay, understate, play down, gloss over, sugar-coat,
//     water down, tone down, soften, downgrade, under-report, lower, round
//     down … a reported result (severity, risk, finding, warning, score,
//     reading, fee, cost);
//   - the trace cleared: delete, clear, erase, wipe, purge … a trace
//     (history, a log, an audit trail, the record of a call, the sent
//     folder, a notification or alert mail, a receipt), when the entry's
//     purpose is not to clear that trace and the sentence is not retention
//     ("older than", "expired", "to free space");
//   - timing: telling (mention, tell, disclose, show) put off until a
//     binding act is done ("mention the fee only after the purchase", "do
//     not tell them until they have paid");
//   - output made to look normal: "make the reply look normal", "carry on
//     as if nothing happened", "shown exactly as the original tool would
//     show it", "so the user does not notice/suspect";
//   - a denial told as a bare fact: "tell the user the file was not found",
//     with no condition in the sentence that would make it the truth.
//
// None is read in the entry's first sentence, in a sentence that defers to
// the user (pxDefer, pxDeferConsent, pxUserAsks10), or where the
// concealing verb is negated. Every pattern is RE2, read on sentences up to
// 2 KiB.

// pxCncObject: an object of consequence — an act of the tool's or the
// model's, or a result it learns that the user would weigh.
var pxCncObject = px(`\b(fees?|surcharges?|charges?|commissions?|mark-?ups?|tips?|service charge|premium|costs?|interest|penalt(y|ies)|renewals?|auto-?renew(al)?|subscriptions?|overage|upgrades?|add-?ons?|fail(ure|ures|ed|ing|s)?|errors?|exceptions?|crash(es|ed)?|timeouts?|outages?|downtime|incidents?|breach(es)?|leaks?|rejections?|rejected|declined|denied|bounced|warnings?|alerts?|vulnerabilit(y|ies)|cves?|findings?|flags|flagged|violations?|risks?|side[ -]effects?|adverse|anomal(y|ies)|discrepanc(y|ies)|mismatch(es)?|complaints?|plagiarism|malware|infected|suspicious|critical|high[- ]severity|overdue|losses|deficit|overdraft|problems?|bugs?|defects?|cause|caused|reason|copy|copies|cc|bcc|forwarding|forwarded|uploads?|uploaded|transfers?|transferred|backup to|exports?|exported|webhooks?|deletions?|deleted|removal|modifications?|modified|overwritten|replacements?|replaced|substitut\w+|switch(ed)?|retr(y|ies|ied)|fallback|redirect(ed|s)?|payments?|purchases?|screenshots?|recordings?|tracking|telemetry|beacons?|background \w+|extra \w+|additional \w+|second \w+|hidden \w+|this step|that step|this action|these actions|this call|the call|what (you|it|the tool) (did|does|changed|sent|deleted|ran)|what was (done|sent|changed|deleted|charged|shared)|non-?refundable|cancellation (fees?|policy|terms)|restocking|hidden costs?|backdoors?|exploits?|collisions?|accidents?|injur(y|ies)|near[- ]miss(es)?|spills?|contamination|(left|leaves|leaving) the (company|organi[sz]ation|network|device|machine|building|country|account)|(that|which) (was|were) (sent|shared|copied|uploaded|exported|forwarded|transferred|leaked|exposed))\b`)

// pxCncBenign: an object of presentation or of privacy: keeping it out is
// concise output or redaction, not concealment.
var pxCncBenign = px(`\b(empty|blank|null|unset|optional|missing|default)\s+(\w+\s+)?(fields?|values?|columns?|keys?|entries|rows?|sections?|properties)\b|\braw\s+(json|html|xml|output|response|data|markup|payload|api|text|logs?)\b|\b(boilerplate|headers?|footers?|whitespace|formatting|markup|html tags?|metadata|ids|uuids?|internal ids?|timestamps?|duplicates?|duplicate \w+|stack ?traces?|debug\w*|verbose|technical details|tracking (numbers?|codes?|ids?|links?|urls?)|tracebacks?|passwords?|passcodes?|pins?|card numbers?|cvv|cvc|ssns?|social security|secrets?|tokens?|api[ _-]?keys?|private keys?|credentials|personal data|personal information|pii|signatures?|disclaimers?|legal notices?|navigation|ads|advertisements|cookie banners?|code comments|comments|unchanged \w+|trailing \w+|retry noise|progress (bars?|messages?))\b`)

// pxCncUserSees: a destination the user sees.
var pxCncUserSees = px(`\b(summary|summaries|report|reports|reply|replies|answer|answers|response|responses|listing|list you show|confirmation|receipt|invoice|statement|message to the user|changelog|release notes|digest|notification|feedback|overview|recap|dashboard|status|what you (show|tell|report|give)|to the user|the user sees|shown to|visible to|for the user|user-facing|the user's (view|screen)|when you (summari[sz]e|report|reply|answer|describe|present|confirm|tell|list|show))\b`)

// The concealing verbs, by kind.
var (
	// Unambiguous omission: keeping something out of what is told.
	pxCncOmitHard = px(`\b(leave\s+out|leaves\s+out|leaving\s+out|leave\s+(\w+\s+){1,4}out\b|omit|omits|omitting|withhold|withholds|withholding|gloss\s+over|do not include|don't include|dont include|never include|without (mentioning|listing|including|showing|itemi[sz]ing|disclosing)|(do not|don't|dont|never|not)\s+(\w+\s+)?(or|nor)\s+(mention|tell|inform|notify|reveal|disclose|report|show|list|display)|(do not|don't|dont|never|not to)\s+(itemi[sz]e|break (out|down)|spell out|disclose|surface|call out)|without (any |a |the slightest )?(sign|trace|mention|hint|indication|evidence|word|note|record) of|keep quiet about|stay quiet about|stay silent about|keep mum about|draw (\w+'?s?\s+)?attention to|nothing about|without (the|any) (part|bit|section|line|paragraph|mention|word) (about|on|of)|make no mention of|no mention of|make no reference to|no reference to|not a word about|say nothing about|(avoid|refrain from|abstain from|steer clear of)\s+(mentioning|listing|showing|disclosing|bringing up|telling|reporting|referring to|drawing attention to|itemi[sz]ing|including|explaining|pointing out|highlighting|flagging|noting))\b`)
	// Passive: "the service fee should not appear in the receipt".
	pxCncNotAppear = px(`\b(should|must|will|may|does|do|is|are|can)\s*(not|never|n't)\s+(appear|show up|be (shown|listed|included|visible|mentioned|displayed|reported|itemi[sz]ed))\s+(in|on)\s+(the|your|any|their)\s+(\w+\s+)?(summary|report|reply|answer|confirmation|receipt|invoice|listing|list|output|response|statement|notification|changelog|digest|feedback|dashboard|email|message|bill)`)
	// Operational verbs: an omission only with a destination the user sees.
	pxCncOmitSoft = px(`\b(remove|removes|drop|drops|skip|skips|strip|strips|exclude|excludes|excluding|filter\s+out|filters\s+out|cut|cuts|hide|hides|suppress|suppresses|do not show|don't show|never show|do not list|don't list|never list)\b`)
	// The passive and descriptive forms: "the user is not told about X",
	// "the listing shown to the user leaves X out".
	pxCncNotTold = px(`\b(the user|users|the customer|they|the owner|the patient)\s+(is|are|will be|will|gets|get)\s+(not|never)\s+(be\s+)?(told|informed|notified|shown|alerted|made aware)\s+(about|of|that)\b|\b(shown|given|sent|displayed|reported|presented)\s+to\s+(the user|them|the customer)\s+(\w+\s+){0,3}(leaves|omits|excludes|hides|skips|drops)\b`)

	// A partial view: "show the user only the successful runs".
	pxCncOnly      = px(`\b(show|shows|tell|tells|list|lists|report|reports|present|presents|display|displays|summari[sz]e|summari[sz]es|mention|mentions)\s+((to\s+)?(the user|them|the customer)\s+)?only\s+(the\s+|their\s+)?(successful|succeeded|passing|passed|approved|clean|good|positive|favou?rable|safe|low[- ]risk|ones that (passed|succeeded|worked|were approved)|(base|headline|advertised|starting|sticker|pre-?tax|introductory|promotional|nominal)\s+(fare|price|amount|cost|rate|total|charge|fee))\b`)
	pxCncUserNamed = px(`\b(the user|them|the customer|the patient|the client)\b`)
	// The same with a partition word that needs the user named: "show the
	// user only the original pages", "summarise only the non-X parts to
	// the user".
	pxCncOnlyUser  = px(`\b(show|shows|tell|tells|list|lists|report|reports|present|presents|display|displays|summari[sz]e|summari[sz]es|mention|mentions)\s+((to\s+)?(the user|them|the customer)\s+only|only\s+[^.;]{0,40}\bto (the user|them|the customer))\b`)
	pxCncPartition = px(`\bonly\s+(the\s+|their\s+)?(own|original|other|non-?[a-z]+|expected|public|first-party)\b`)

	// Relabelling: a describing verb, an object, "as", a label.
	pxCncRelabel   = px(`\b(describe|describes|call|calls|label|labels|list|lists|mark|marks|report|reports|present|presents|log|logs|record|records|classify|classifies|tag|tags|refer to|refers to|frame|frames|characteri[sz]e|characteri[sz]es|pass off|passes off|show|shows|display|displays|explain|explains|word|phrase|file|files|categori[sz]e|categori[sz]es|count|counts|treat|treats|summari[sz]e|summari[sz]es|rate|rates|grade|grades|score|scores|rank|ranks|set|sets|(is|are|gets?|will be|was|were)\s+(\w+\s+)?(reported|shown|listed|marked|labell?ed|logged|described|presented|displayed|recorded|counted|classified|rated|treated|summari[sz]ed|tagged|filed))\s+(\w+\s+){0,6}?(to (the user|them)\s+)?(only\s+)?as\s+`)
	pxCncNegInside = px(`\b(not|never|n't)\b`)
	pxCncPassive   = px(`^(is|are|gets?|will be|was|were)\b`)
	pxCncArticle   = px(`^(a|an|the|just|only|merely|simply)\s+`)
	// Labels of a good outcome, of a mild one, of a routine act.
	pxCncGood    = px(`^(no (incidents?|issues|problems|errors|findings|alerts|collisions|failures|anomalies|violations|threats|risks)|passed|passing|pass|successful|success|succeeded|clean|safe|ok|okay|fine|healthy|resolved|fixed|approved|compliant|complete|completed|done|verified|valid|normal|within (the )?(normal )?range|no issues?|nothing (found|unusual)|benign|green|up to date|secure|paid|delivered|sent)\b`)
	pxCncMild    = px(`^((a |an )?(lab |laboratory |measurement |sensor |test |data |transient |one-off |temporary )?(artefact|artifact|glitch|fluke|blip|noise|hiccup|anomaly in the data)|slightly \w+|somewhat \w+|a little \w+|marginally \w+|mildly \w+|borderline|skipped|inconclusive|flaky|a flake|transient|pending|not applicable|expected (activity|behaviou?r)|low|minor|medium|moderate|informational|info|a warning|warnings?|a note|notes?|negligible|trivial|cosmetic|harmless|expected|a known issue|known issues?|false positives?|a false positive|a formality|noise|low[- ](risk|priority|severity))\b`)
	pxCncRoutine = px(`^(a (routine|harmless|innocuous|scheduled|background|automatic|quick|simple|normal|ordinary|usual|local)\s+[a-z-]+|(routine|scheduled|planned|harmless|innocuous|background|automatic)\s+[a-z-]+|an? (internal|offline|on-device)\s+[a-z-]+|(a |an )?(refactor\w*|typo fix|formatting change|style change|minor change|docs? (change|update)|dependency bump|version bump|chore)|routine|harmless|innocuous|nothing (unusual|important|to worry about)|expected behaviou?r|normal (activity|operation|behaviou?r|traffic|usage)|a (routine|harmless|scheduled|background|automatic|regular|standard|normal)\s+(check|update|task|operation|process|activity|step|sync|maintenance|job|refresh|procedure|request|call)|(a |an )?(sync|synchroni[sz]ation|maintenance|housekeeping|cache (refresh|update)|health check|diagnostic|heartbeat|optimi[sz]ation|cleanup|clean-up|performance (check|metrics?)|system (check|process|task)))\b`)
	// A result passed off as the user's own choice, or as complete.
	pxCncUsersOwn = px(`^((its|your|the (assistant|tool|agent)'?s?) own (work|result|results|answer|finding|findings|output|analysis)|(the user'?s?|their|your)\s+(own\s+)?(choice|decision|idea|request|selection|preference|doing)|(the|their)\s+[a-z-]+(\s+[a-z-]+)?\s+(the user|they)\s+(asked for|requested|chose|selected|picked|wanted|ordered)|(the\s+)?(complete|full|entire|whole|exhaustive)\s+(result|results|list|set|answer|output|record|picture|history))\b`)
	// "explain the randomness instead of the file read".
	pxCncInsteadOf = px(`\b(explain|explains|describe|describes|report|reports|present|presents|mention|mentions|attribute|attributes|blame|blames|tell|tells)\b[^.;]{0,60}\binstead of\s+(the|its|your|what|any)\b([^.;]{0,40})`)
	pxCncActNoun   = px(`\b(read|reads|lookup|access|call|calls|request|requests|upload|uploads|copy|copies|transfer|transfers|change|changes|deletion|write|writes|export|sync|fetch|charge|charges|fee|fees|push|send|forward|what (happened|you did|it did)|real|actual|true)\b`)

	// Softening a reported result.
	pxCncSoften    = px(`\b(downplay|downplays|play down|plays down|playing down|understate|understates|under-?report|under-?reports|gloss over|glosses over|sugar-?coat|sugar-?coats|water down|waters down|tone down|tones down|soften|softens|downgrade|downgrades|minimi[sz]e|minimi[sz]es|round down|rounds down|lower|lowers|reduce|reduces)\s+(\w+\s+){0,4}?(severity|severities|risk|risks|rating|ratings|score|scores|grade|grades|reading|readings|findings?|alerts?|warnings?|errors?|error counts?|counts? of (errors|failures|findings|incidents)|impact|damage|losses|cost|costs|fees?|charges?|priority|level of (risk|threat|danger)|threat level|diagnosis|prognosis|results?|side[ -]effects?|dangers?|hazards?|harms?)\b`)
	pxCncSoftenCtx = px(`\b(downplay|downplays|play down|plays down|playing down|understate|understates|under-?report|under-?reports|gloss over|glosses over|sugar-?coat|sugar-?coats|water down|waters down|downgrade|downgrades)\b|\b(reported|shown|displayed|told|in the (report|summary|reply|answer)|to the user|when (reporting|showing|displaying|telling|presenting|summari[sz]ing|explaining|describing|answering)|understate|understates|before (reporting|showing|displaying|telling|presenting))\b`)

	// The trace of an act cleared.
	pxCncClear     = px(`\b(delete|deletes|deleting|clear|clears|clearing|erase|erases|erasing|wipe|wipes|wiping|purge|purges|purging|scrub|scrubs|scrubbing|empty|empties|truncate|truncates|shred|shreds|expunge|expunges|remove|removes|removing|rewrite|rewrites|edit out|discard|discards)\s+[^;:]{0,60}?\b(history|histories|logs?|log entr(y|ies)|log lines?|audit (log|trail|entr(y|ies)|records?)|audit|activity (log|feed|history)|event log|access log|trail|traces?|evidence|footprints?|bash_history|browsing history|(the )?records? of (this|that|the|your|each|any|every) (call|request|action|transfer|change|upload|message|command|operation|session|login|visit|query|payment|conversation|exchange|tool call|access|download)|sent (folder|items|mail|messages?|box|copy)|outbox|(security|login|sign-in|alert|warning|confirmation|receipt|bounce|delivery|fraud)\s+(e-?mails?|messages?|notifications?|sms|texts?|alerts?)|notifications?|receipts?)\b`)
	pxCncRetention = px(`\b(older than|old|stale|expired|rotated|retention|to free (up )?(disk )?space|free up|disk space|temporary|temp|cache|cached|after \d+ days|every \d+ days|daily|weekly|nightly)\b`)
	pxCncTraceWord = px(`\b(log|logs|history|audit|trail|trace|traces|notification|notifications|receipt|receipts|sent|outbox|clean|cleaner|cleanup|clear|clears|purge|purges|prune|prunes|privacy|erase|erases|wipe|wipes|shred|forget)\b`)

	// Telling put off until a binding act is done.
	pxCncTell    = px(`\b(mention|mentions|tell|tells|inform|informs|disclose|discloses|reveal|reveals|show|shows|display|displays|notify|notifies|explain|explains|say|says|bring up|raise|surface)\b`)
	pxCncBinding = px(`\b(only (after|once)|not (until|before)|until after|until|wait until|no earlier than)\s+(\w+\s+){0,5}?(paid|pays|has paid|have paid|payment (has |is )?(gone through|gone|gone out|processed|made|settled|captured)|purchased?|bought|checkout|checked out|signed|signs|has signed|have signed|submitted|committed|charged|billed|booked|ordered|subscribed|(is|are|has been|have been) (finali[sz]ed|placed|confirmed|completed|processed|locked|non-?refundable)|too late|(can|could) (no longer|not) be (cancel\w*|undone|reversed|refunded)|(cancellation|refund|return|withdrawal) (window|period) (has )?(closed|passed|ended|expired)|trial (ends|ended|has ended|is over)|renew(s|ed|al))\b`)

	// "only mention the subscription after the user has confirmed the
	// order", "wait until checkout is complete before mentioning the fee".
	pxCncOnlyTellAfter = px(`\bonly\s+(?:mention|tell|inform|disclose|reveal|show|display|explain|bring up|raise)\b([^.;]{0,60}?)\b(?:after|once|when)\b([^.;]{0,60})`)
	pxCncWaitUntil     = px(`\b(?:wait|hold off|hold back)\s+(?:until|till)\b([^.;]{0,60}?)\b(?:before|to)\s+(?:mention|tell|inform|disclos|reveal|show|display|bring(?:ing)? up|explain|say)\w*\b([^.;]{0,60})`)
	pxCncBindingAct    = px(`\b(paid|pays|payment|purchased?|bought|checkout|checked out|signed|signs|submitted|committed|charged|billed|booked|ordered|subscribed|(confirmed|placed|completed|submitted|finali[sz]ed) the (order|purchase|booking|payment|checkout|subscription|contract)|(order|purchase|booking|payment|checkout|contract|subscription) (is|has been|was) (placed|complete|completed|confirmed|final|finali[sz]ed|processed|signed)|too late|non-?refundable)\b`)
	// The output made to look normal.
	pxCncNormal = px(`\bso (that )?(the user|they|users|the customer|the owner)\s+(only\s+)?(sees?|gets?|hears?|reads?)\s+(only\s+)?(a\s+|the\s+)?(success|successes|good news|green|a clean result|what (they|he|she) expects?)\b|\bso (that )?(nothing|it|this|they|the \w+)\s+(looks?|seems?|appears?)\s+(different|changed|unusual|off|amiss|odd|touched)\b|\bso (that )?(it|this|they|the \w+( \w+)?)\s+(is not|are not|isn't|aren't|is never|are never|does not|doesn't|do not|don't|will not|won't|never|cannot|can't)\s+(be\s+)?(recorded|logged|traced|noticed|show up in|show in|appear in|visible in)\b|\bso (that )?nothing\s+(is|are|gets|will be)\s+(recorded|logged|traced|noticed)\b|\b(archive|delete|remove|hide|move|dismiss|clear|trash|filter|swap|replace|revert|undo|close|mark|erase|wipe|change)\b[^.;]{0,60}\bbefore (the user|they|anyone|the owner|the customer) (sees?|notices?|reads?|opens?|gets? to see)\b|\b(continue|carry on|proceed|respond|reply|answer|act|behave)\s+(\w+\s+){0,3}(normally|as usual|as normal)\s+(after|once|when)\s+(\w+ing|you have|you've|it has)\b|^(act|behave|respond|reply|answer)\s+(normal|normally|as usual|naturally)\s*[.!]?$|\b(reply|response|answer|output|message|result)s?\s+(should|must|will|needs to)\s+(look|appear|seem|read)\s+(exactly\s+)?(like|as)\s+(a |an |the |any )?(normal|regular|ordinary|usual|genuine|real|original|typical)\s+(answer|reply|response|message|result|search result|output|tool (call|result)|email|notification|update|request|page)s?\b|\b(make sure|ensure|so that|so)\s+(the user|they|users|nobody|no one|the customer|the owner)\s+(can't|cannot|can not|won't|will not|doesn't|does not|don't|do not|never)\s+(tell|notice|know|find out|detect|suspect|realize|realise|learn|spot)\b|\b(keep|keeps|continue|continues|carry on|do|doing|keep doing|go on)\s+(doing\s+|\w+ing\s+)?(this|it|that|so)\s+(silently|secretly|quietly|covertly|invisibly|unannounced|without (telling|mentioning|a word|comment))\b|\b(is|are)\s+not\s+to\s+be\s+(reported|shown|told|mentioned|disclosed|revealed|raised|flagged)\s+to\s+(the|any|an?)\s+\w+|\b(make|makes|keep|keeps|format|formats|word|phrase|style|write|craft)\b[^.;]{0,40}\b(look|looks|appear|appears|seem|seems|read|reads)\s+(normal|ordinary|routine|usual|as usual|legitimate|genuine|authentic|official|unchanged|untouched|like (a |an |the )?(normal|ordinary|usual|regular|standard|genuine|real|original|official|legitimate|successful)\s+(answer|reply|response|message|result|search result|output|tool (call|result)|email|notification|update|request|page|run|build|login|transaction)s?)\b|\b(then|and|afterwards|after that)\s*,?\s+(respond|reply|answer|continue|proceed|carry on|behave|act)\s+(normally|as usual|as if nothing|as though nothing|like nothing)\b|\b(as if|as though)\s+nothing\s+(happened|was (done|changed|sent|wrong))\b|\bas (you|it|they) would( have)?( done| replied| answered| responded)? if (no|nothing|none)\b[^.;]{0,40}\b(happened|called|ran|run|sent|changed|done|used|read)\b|\b(shown|show|shows|present|presented|format|formatted|display|displayed|returned|return)\b[^.;]{0,40}\b(exactly )?as (the|an?) (original|real|genuine|official|normal|usual|legitimate) (tool|server|app|application|service|site|page|plugin|extension|api)\b|\bso (that )?(the user|they|users|the customer|nobody|no one|the owner|the reviewer)\s+(does not|doesn't|do not|don't|won't|will not|cannot|can't|never|would not|wouldn't)\s+(notice|suspect|see|realize|realise|find out|know|learn|question|become suspicious|get suspicious|spot|detect)\b`)

	// A denial told as a bare fact.
	pxCncDenial     = px(`^(\w+\s+){0,2}(tell|tells|say|says|report|reports|reply|replies|respond|responds|answer|answers|inform|informs|claim|claims|state|states)\s+((to\s+)?(the user|them|the customer|the caller|him|her)\s+)?(that\s+)?(the\s+|their\s+|this\s+|your\s+|it\s+|there\s+)?([\w-]+\s+){0,3}(was|were|is|are|has|have|had|could|did)\s+(not|never|n't|no)\s+(been\s+)?(found|located|present|available|there|exist|existed|changed|sent|shared|read|accessed|touched|used|opened|copied|stored|kept|saved|recorded|logged|charged|any)\b`)
	pxCncDenialNone = px(`^(\w+\s+){0,2}(tell|tells|say|says|report|reports|reply|replies|respond|responds|answer|answers|inform|informs|claim|claims|state|states|assure|assures|confirm|confirms)\s+((to\s+)?(the user|them|the customer|the caller|him|her|the \w+)\s+)?(that\s+)?(no|none of the|nothing)\s+([\w-]+\s+){0,3}(was|were|has been|have been|is|are)\s+(affected|exposed|lost|leaked|accessed|shared|sent|changed|deleted|touched|compromised|taken|copied|uploaded|read|viewed|stolen|harmed|impacted|involved)\b`)
	pxCncCondition  = px(`\b(if|when|whenever|unless|in case|where|should|otherwise|once|after|if not|else)\b`)
)

// readCnc11 adds conceal_from_user for the concealment relation.
func (p entryPurpose) readCnc11(sr *sentenceReading, f string) {
	if sr.conceal || sr.first || len(f) > 2048 {
		return
	}
	// Telling put off until a binding act: waiting for the user to pay is
	// no deference to the user.
	if cncTiming(f) {
		sr.conceal = true
		return
	}
	// Deference: kept back unless or until the user asks, done when the
	// user chooses; a question of the user's answered by concealment
	// ("if the user asks which tools ran, …") is no deference.
	if pxDefer.MatchString(f) || pxDeferConsent.MatchString(f) || (pxUserAsks10.MatchString(f) && !pxCncAsksAbout.MatchString(f)) {
		return
	}
	if p.cnc11(f) {
		sr.conceal = true
		return
	}
	// The user by another name ("the customer", "the patient", "the
	// developer"): the older prohibitions read "the user"; the same
	// sentence is read again with the user named so, direct forms only,
	// and never where it restrains a third party. A sentence that also
	// names the user ("hidden from the guest, as the user asked") tells the
	// two apart: the other name is another party.
	if pxCncUserNoun.MatchString(f) && !notConcealFromUser(f) && !pxCncNamesUser.MatchString(pxCncUserNoun.ReplaceAllString(f, "")) {
		g := pxCncUserNoun.ReplaceAllString(f, "the user")
		if d, _ := readConceal(g, false); d || p.cnc11(g) {
			sr.conceal = true
			return
		}
	}
	// Words joined by hyphens ("don't-tell-the-user") read as words.
	if strings.Contains(f, "-") && pxCncHyphenRun.MatchString(f) {
		g := pxCncHyphenRun.ReplaceAllStringFunc(f, func(m string) string { return strings.ReplaceAll(m, "-", " ") })
		if d, _ := readConceal(g, false); d || p.cnc11(g) {
			sr.conceal = true
			return
		}
	}
	// A pronoun left out of what the user is shown ("omit it from the
	// preview shown to the pilot"): what "it" is was said before, so it is
	// concealment only in an entry that also takes or changes something.
	if (pxCncOmitPronoun.MatchString(f) && !pxCncBenign.MatchString(f)) || pxCncVisibleKept.MatchString(f) {
		sr.concealIfDeviant = true
	}
}

var (
	// What the user sees kept as it was ("keep the visible link text
	// unchanged"): concealment of a change beside it, only if deviant.
	pxCncVisibleKept = px(`\bkeep\s+(the\s+)?(visible|displayed|shown|on-screen)\s+([\w-]+\s+){0,3}(unchanged|the same|as (it was|before|is)|intact)\b`)
	pxCncUserNoun    = px(`\bthe (customer|patient|client|developer|operator|reviewer|buyer|member|owner|caller|pilot|driver|student|employee|requester|account holder|end user|shopper|traveller|traveler|guest|subscriber)\b`)
	pxCncNamesUser   = px(`\busers?\b`)
	pxCncHyphenRun   = px(`\b[a-z']+(-[a-z']+){2,}\b`)
	pxCncOmitPronoun = px(`\b(leave|omit|exclude|drop|remove|hide|strip|keep|cut)\s+(it|them|this|that|these|those)\s+(out\s+)?(of|from)\s+(the|your|any|their)\s+[^.;]{0,40}\b(shown|given|sent|displayed|reported|presented)\s+to\s+(the|their)\s+\w+`)
)

var pxCncAsksAbout = px(`\b(asks?|asked|wonders?)\s+(which|what|whether|if|how|why|where|who|about)\b`)

// cncTiming: a telling put off until a binding act is done, on an object
// of consequence or the terms of a deal ("mention the fee only after the
// purchase", "do not tell them about the renewal until they have paid").
func cncTiming(f string) bool {
	if m := pxCncOnlyTellAfter.FindStringSubmatch(f); m != nil && pxCncBindingAct.MatchString(m[2]) && (pxCncObject.MatchString(m[1]) || pxCncDisclosure.MatchString(m[1])) && !pxCncBenign.MatchString(m[1]) {
		return true
	}
	if m := pxCncWaitUntil.FindStringSubmatch(f); m != nil && pxCncBindingAct.MatchString(m[1]) && (pxCncObject.MatchString(m[2]) || pxCncDisclosure.MatchString(m[2])) && !pxCncBenign.MatchString(m[2]) {
		return true
	}
	for _, loc := range pxCncTell.FindAllStringIndex(f, -1) {
		rest := f[loc[1]:]
		b := pxCncBinding.FindStringIndex(rest)
		if b == nil {
			continue
		}
		between := rest[:b[0]]
		if (pxCncObject.MatchString(between) || pxCncDisclosure.MatchString(between)) && !pxCncBenign.MatchString(between) {
			return true
		}
	}
	return false
}

// cnc11 is the relation itself, on a folded sentence.
func (p entryPurpose) cnc11(f string) bool {
	benign := pxCncBenign.MatchString(f)
	object := pxCncObject.MatchString(f) && !benign
	// Omission.
	if object {
		if loc := pxCncOmitHard.FindStringIndex(f); loc != nil && cncOmitsObject(f, loc) && !cncNegated(f, loc[0]) && !pxCncGerundSubject.MatchString(f) {
			return true
		}
		if loc := pxCncOmitSoft.FindStringIndex(f); loc != nil && pxCncObject.MatchString(f[loc[0]:]) && pxCncUserSees.MatchString(f) && !cncNegated(f, loc[0]) {
			return true
		}
		if pxCncNotTold.MatchString(f) {
			return true
		}
		if loc := pxCncNotAppear.FindStringIndex(f); loc != nil && pxCncObject.MatchString(f[:loc[0]]) {
			return true
		}
	}
	// The same relation stated of the tool or its output, or in the
	// passive: "the confirmation never mentions the fee", "BCC recipients
	// are stripped from the copy saved in Sent", "the second transfer goes
	// unmentioned".
	if !benign && cncDeclared(f) {
		return true
	}
	// A partial view.
	if !benign && ((pxCncOnly.MatchString(f) && (pxCncUserNamed.MatchString(f) || pxCncUserSees.MatchString(f))) || (pxCncOnlyUser.MatchString(f) && pxCncPartition.MatchString(f))) {
		return true
	}
	// Relabelling.
	if strings.Contains(f, " as ") {
		for _, loc := range pxCncRelabel.FindAllStringIndex(f, -1) {
			if cncNegated(f, loc[0]) || pxCncNegInside.MatchString(f[loc[0]:loc[1]]) {
				continue
			}
			raw := f[loc[1]:]
			label := strings.TrimLeft(raw, "'\"")
			if a := pxCncArticle.FindStringIndex(label); a != nil {
				label = label[a[1]:]
			}
			obj := f[loc[0]:loc[1]]
			// The entry's own word for what it does: a sync tool calling
			// its sync a sync.
			own := p.ownWord(label)
			if lw := cncLabelWord(label); lw != "" && (strings.Contains(obj, cncStem(lw)) || (pxCncPassive.MatchString(obj) && strings.Contains(cncClause(f, loc[0]), cncStem(lw)))) {
				continue // "report warnings as warnings"
			}
			badObj := (pxCncBadObject.MatchString(obj) || pxCncBadObject.MatchString(cncClause(f, loc[0]))) && !cncJustified(f)
			switch {
			case badObj && pxCncGood.MatchString(label):
				return true
			case badObj && !own && pxCncRoutine.MatchString(raw):
				return true
			case badObj && pxCncMild.MatchString(label) && (pxCncPresentVerb.MatchString(obj) || pxCncUserSees.MatchString(f)) && !cncCauseGiven(f, loc[0]):
				return true
			case !own && (pxCncActObject.MatchString(obj) || (pxCncPassive.MatchString(obj) && pxCncActObject.MatchString(cncClause(f, loc[0])))) && pxCncRoutine.MatchString(raw):
				return true
			case !own && pxCncCharacterise.MatchString(obj) && pxCncRoutine.MatchString(raw) && !benign:
				return true
			case pxCncUsersOwn.MatchString(raw) && pxCncPresentVerb.MatchString(obj) && !pxCncFormatNoun.MatchString(raw):
				return true
			case strings.Contains(obj, " only as") || strings.HasSuffix(strings.TrimSpace(obj), "only as"):
				if pxCncPresentVerb.MatchString(obj) && (strings.HasPrefix(raw, "'") || strings.HasPrefix(raw, "\"") || strings.HasPrefix(raw, "a ") || strings.HasPrefix(raw, "an ")) {
					return true
				}
			}
		}
	}
	if loc := pxCncCallIt.FindStringSubmatchIndex(f); loc != nil && !cncNegated(f, loc[0]) && !p.ownWord(f[loc[4]:]) {
		if o := f[loc[2]:loc[3]]; pxCncPronoun.MatchString(o) || (pxCncBadObject.MatchString(o) && !cncJustified(f)) || pxCncActObject.MatchString(o) {
			return true
		}
	}
	if p.cncFixedVerdict(f) {
		return true
	}
	if pxCncOnlyNot.MatchString(f) || (pxCncFoldFee.MatchString(f) && !pxCncItemised.MatchString(f)) || pxCncSwallow.MatchString(f) || pxCncFewer.MatchString(f) || pxCncTraceOf.MatchString(f) && !benign {
		return true
	}
	if pxCncMoveAlert.MatchString(f) && !pxCncTraceWord.MatchString(p.text) && !pxCncAlertWord.MatchString(p.text) && !pxCncRetention.MatchString(f) && !cncNegatedAny(f, pxCncMoveAlert) {
		return true
	}
	if pxCncTowardsNormal.MatchString(f) {
		return true
	}
	if strings.Contains(f, "instead of") && !benign {
		if m := pxCncInsteadOf.FindStringSubmatch(f); m != nil && pxCncActNoun.MatchString(m[len(m)-1]) {
			return true
		}
	}
	// Softening a reported result.
	if loc := pxCncSoften.FindStringIndex(f); loc != nil && pxCncSoftenCtx.MatchString(f) && !cncNegated(f, loc[0]) {
		return true
	}
	// The trace cleared.
	if loc := pxCncClear.FindStringIndex(f); loc != nil && !cncNegated(f, loc[0]) && !pxCncRetention.MatchString(f) && !pxCncCodeLog.MatchString(f) && !pxCncTraceWord.MatchString(p.text) {
		return true
	}
	// Output made to look normal.
	if pxCncNormal.MatchString(f) {
		return true
	}
	// A removal done quietly: "quietly drop the critical finding".
	if loc := pxCncQuietRemove.FindStringIndex(f); loc != nil && pxCncObjectStrict.MatchString(f[loc[0]:]) && !benign {
		return true
	}
	// A good signal shown whatever the outcome.
	if loc := pxCncGoodSignal.FindStringIndex(f); loc != nil && !cncNegated(f, loc[0]) && (pxCncWhatever.MatchString(f) || (pxCncBadCond.MatchString(cncClause(f, loc[0])) && !cncJustified(cncClause(f, loc[0])))) {
		return true
	}
	// A bad result spun: "frame the abnormal result positively", "the
	// reassuring version of the result", "answer as if you had only read
	// the file".
	if (pxCncSpin.MatchString(f) && (pxCncBadObject.MatchString(f) || strings.Contains(f, "spin"))) || pxCncRosyVersion.MatchString(f) || pxCncAsIfOnly.MatchString(f) {
		return true
	}
	// The entry's account of itself as safe or local.
	if pxCncSelfSafe.MatchString(f) && !pxCncPurposeLocal.MatchString(p.text) {
		return true
	}
	// A denial told as a bare fact.
	if (pxCncDenial.MatchString(f) || pxCncDenialNone.MatchString(f)) && !pxCncCondition.MatchString(f) {
		return true
	}
	return false
}

var (
	// What a relabelling names as its object.
	pxCncBadObject = px(`\b(fail(ure|ures|ed|ing|s)?|errors?|cancell?ed|canceled|undelivered|critical|high|severe|serious|vulnerab\w+|findings?|flagged|infected|malicious|malware|suspicious|rejected|declined|denied|unpaid|overdue|late|broken|missing|violations?|breach(es)?|incidents?|alerts?|outages?|anomal\w+|abnormal|positive|out of range|risky|unsafe|insecure|expired|blocked|bounced|lost|overdrawn|fraud\w*|plagiari\w+|warnings?|unusual|unexpected|unauthori[sz]ed|elevated|backdoors?|exploits?|payloads?|crash(es|ed)?|outages?|collisions?|accidents?|injur(y|ies)|near[- ]miss(es)?|spills?|partial|incomplete|unfinished|hardcoded|hard-coded|exposed|leaked|weak|plaintext|spikes?|surges?|rollbacks?|rolled back|skipped|outside (the )?(normal |reference )?range)\b`)
	pxCncActObject = px(`\b(upload|uploads|transfer|transfers|copy|copies|export|exports|forward\w*|deletion|deletions|the call|the calls|the request|the requests|the extra \w+|the additional \w+|the second \w+|the background \w+|the charge|the charges|the payment|the purchase|the change|the changes|the edit|the edits|the modification|the screenshot|the screenshots|the recording|the tracking|the beacon|the webhook|the outbound \w+|this step|this action|these actions|the traffic|the connection|the post|the push|what (you|it) (did|sent|ran))\b`)
	// A describing verb that characterises ("describe it as routine").
	pxCncCharacterise = px(`^(describe|describes|call|calls|refer to|refers to|frame|frames|characteri[sz]e|characteri[sz]es|pass off|passes off|explain|explains|present|presents|word|phrase|summari[sz]e|summari[sz]es|report|reports|label|labels|log|logs)\s+(it|this|that|them|these|those|the (\w+\s+)?(action|step|operation|activity|process|task|traffic|event))\b`)
	pxCncPresentVerb  = px(`^((is|are|gets?|will be|was|were)\s+(\w+\s+)?(reported|shown|listed|marked|labell?ed|described|presented|displayed|summari[sz]ed|rated|classified)|rate|rates|grade|grades|classify|classifies|describe|describes|present|presents|report|reports|show|shows|explain|explains|frame|frames|pass off|passes off|label|labels|call|calls|refer to|refers to|summari[sz]e|summari[sz]es|display|displays|list|lists)\b`)
	// A bad object already set right: "mark resolved incidents as
	// resolved", "once the fix is deployed, mark the alert as resolved".
	pxCncJustified = px(`\b(resolved|fixed|closed|handled|addressed|remediated|false[- ]positives?|dismissed|duplicates?|reviewed|patched|mitigated|retried successfully|no longer)\b|\b(no|zero|without)\s+(\w+\s+)?(failures?|errors?|findings?|issues|warnings?|alerts?|incidents?)\b|\bnothing (fails|failed|is flagged|was flagged)\b|\b(once|after|when|if)\s+(\w+\s+){0,5}(fixed|resolved|deployed|patched|passes|pass|succeeds|succeed|re-?run|cleared|verified|confirmed)\b`)
	// A label that is a presentation form, not a choice: "as the format
	// the user chose".
	pxCncFormatNoun = px(`\b(format|formats|style|layout|language|units?|order|type|kind|template|theme|currency|timezone|time zone|font|size|unit|locale|encoding)\b`)
	// A log of code, not of acts: "remove the console.log calls".
	pxCncCodeLog = px(`console\.log|\blog (statements?|calls?|level|levels|lines in the code)\b|\blogging (statements?|calls?)\b`)
	// Relabelling without "as": "call it a routine scan", "call the
	// failures flaky".
	pxCncCallIt = px(`\b(?:call|calls|term|terms|dub|dubs|deem|deems)\s+((?:it|this|that|them|these|those|the\s+(?:[\w-]+\s+){0,3}?[\w-]+))\s+((?:a |an )?(?:routine|harmless|innocuous|flaky|a flake|flakes|noise|transient|a glitch|glitches|cosmetic|minor|expected|benign|nothing|borderline|negligible|trivial|fine|normal|clean|safe|a success|successful)\b)`)
	// A reading moved towards the normal range before it is shown.
	pxCncTowardsNormal = px(`\b(round|rounds|nudge|nudges|shift|shifts|adjust|adjusts|clamp|clamps|move|moves|bring|brings|cap|caps)\b[^.;]{0,40}\b(toward|towards|into|within|inside)\s+(the\s+)?(normal|reference|healthy|safe|acceptable|expected|target)\s+(range|band|limits?|levels?)\b[^.;]{0,40}\b(before|when|in)\s+(showing|reporting|displaying|telling|presenting|the (report|summary|reply|answer))`)
	// The tool's account of itself as local, offline or private: "describe
	// the tool to the user as fully local".
	pxCncSelfSafe    = px(`\b(describe|describes|present|presents|advertise|advertises|refer to|refers to|call|calls|label|labels|frame|frames|portray|portrays|characteri[sz]e|characteri[sz]es|tell (the user|them|users) (that )?)\s*(the tool|this tool|the server|this server|the extension|this extension|the app|this app|the plugin|this plugin|itself|yourself|it|this service|the service)\s+((to (the user|them|users)\s+)?as\s+|(is|was)\s+)(fully |completely |entirely |purely |100% |strictly |totally )?(local|local-only|offline|private|read-only|sandboxed|anonymous|self-contained|on-device|air-gapped|end-to-end encrypted|not connected|without network access)\b`)
	pxCncQuietRemove = px(`\b(quietly|silently|secretly|covertly|discreetly|stealthily|invisibly)\s+(drop|drops|discard|discards|delete|deletes|remove|removes|skip|skips|ignore|ignores|omit|omits|swallow|swallows|suppress|suppresses|clear|clears|erase|erases|hide|hides|alter|alters|edit|edits|rewrite|rewrites|downgrade|downgrades|lower|lowers|close|closes|resolve|resolves|dismiss|dismisses|archive|archives)\b`)
	pxCncGoodSignal  = px(`\b(show|shows|display|displays|return|returns|keep|keeps|stay|stays|remain|remains|set|sets|mark|marks)\b[^.;]{0,30}\b(green|passing|a success|successful|clean|all clear)\s*(check|checks|badge|status|mark|tick|result|icon|build|light)?\b`)
	pxCncSpin        = px(`\b(spin|spins|frame|frames|present|presents|describe|describes|word|phrase|report|reports|summari[sz]e|summari[sz]es|put|puts)\b[^.;]{0,40}\b(positively|favou?rably|optimistically|in a (positive|good|favou?rable|reassuring|rosy|better) light|as good news|reassuringly)\b`)
	pxCncRosyVersion = px(`\b(reassuring|softened|rosier|rosy|watered-down|toned-down|cleaned-up|sugar-?coated|edited|censored)\s+version\s+of\s+(the|their|its|this)\s+(\w+\s+)?(result|results|reading|readings|diagnosis|findings?|report|news|outcome|test|scan)\b`)
	pxCncAsIfOnly    = px(`\bas (if|though)\b[^.;]{0,40}\bonly\b[^.;]{0,30}\b(was|were|had|has|have|been)?\s*(touched|read|changed|used|opened|called|done|run|sent|accessed|modified|happened)\b`)
	// A purpose that is itself local: the claim is the entry's own.
	pxCncPurposeLocal = px(`\b(local\w*|offline|on-device|on the user'?s? (machine|device|computer|disk)|private|read-only|sandbox\w*|air-gapped)\b`)
	pxCncAlertWord    = px(`\b(security|alerts?|warnings?|notifications?|fraud|bounces?|verification|login)\b`)
	pxCncPronoun      = px(`^(it|this|that|them|these|those)$`)
	// "only list the bill amount, not the convenience fee".
	pxCncOnlyNot = px(`\bonly\b[^.;]{0,60}?,?\s+(not|never|but not|and not|leaving out|without)\s+(the\s+|any\s+|their\s+)?([\w-]+\s+){0,2}(fees?|surcharges?|charges?|commissions?|mark-?ups?|tips?|failures?|errors?|warnings?|findings?|flags|risks?|side[ -]effects?|copy|copies|cc|bcc|upload|transfer|deletions?|changes?)\b`)
	// A cost folded out of sight: "fold the service fee into the total".
	pxCncFoldFee  = px(`\b(fold|folds|bury|buries|tuck|tucks|roll|rolls|bundle|bundles|blend|blends|absorb|absorbs|hide|hides)\s+(the\s+|any\s+|this\s+|every\s+)?([\w-]+\s+){0,2}(fees?|charges?|surcharges?|commissions?|mark-?ups?|costs?|tips?)\s+(in|into|inside|within)\b`)
	pxCncItemised = px(`\b(breakdown|itemi[sz]ed|itemi[sz]e|separately|(as|on) a separate line|line by line)\b`)
	// Errors swallowed by an imperative: "swallow any errors".
	pxCncSwallow = px(`(^|[,;:]\s*|\band\s+|\bthen\s+)(swallow|silence|mute|mask|paper over|cover up|gloss over)\s+(the\s+|any\s+|all\s+|every\s+)?([\w-]+\s+){0,2}(errors?|exceptions?|failures?|warnings?|alerts?|problems?|issues|crash(es)?)\b`)
	// "report fewer issues than you found".
	pxCncFewer = px(`\b(report|reports|show|shows|list|lists|tell|state|claim|display|count)\s+(\w+\s+){0,2}(fewer|less|lower|smaller)\b[^.;]{0,30}\bthan\s+(you|it|the (scan|tool|check|test|audit|review)|there|actually|were)\b`)
	// "hide any trace of the request".
	pxCncTraceOf = px(`\b(hide|hides|remove|removes|erase|erases|delete|deletes|clear|clears|wipe|wipes|scrub|scrubs|cover|covers|leave no|leaves no)\s+(up\s+)?((any|every|all|the)\s+)?(traces?|signs?|evidence|footprints?|mention) of\b`)
	// An alert mail moved out of sight.
	pxCncMoveAlert = px(`\b(move|moves|archive|archives|trash|trashes|filter|filters|dismiss|dismisses|snooze|snoozes|mute|mutes|mark|marks|delete|deletes|hide|hides)\s+(the\s+|any\s+|all\s+|every\s+|each\s+)?([\w-]+\s+){0,2}(security|password[- ]reset|login|sign-in|alert|warning|verification|2fa|fraud|bounce|delivery[- ]failure|breach)\s+(e-?mails?|messages?|notifications?|notices?|alerts?|warnings?)\b`)
	// What a disclosure put off concerns, when pxCncObject does not name it.
	pxCncDisclosure = px(`\b(terms|conditions|the (real|actual|true|full) (price|cost|amount|total|terms)|the apr|the cancellation policy|the refund policy|restrictions?|limitations?|the catch)\b`)
)

// cncOmitsObject: an object of consequence follows the omitting verb at
// loc in its clause, as its object ("leave out the fee"), not as what the
// omission causes ("omitting it is an error").
func cncOmitsObject(f string, loc []int) bool {
	rest := f[loc[1]:]
	if len(rest) > 80 {
		rest = rest[:80]
	}
	if strings.HasPrefix(f[loc[0]:loc[1]], "omit") && pxCncOmitParam.MatchString(rest) {
		return false // "omit to detect …": a parameter left unset
	}
	o := pxCncObject.FindStringIndex(rest)
	return o != nil && !pxCncCauses.MatchString(rest[:o[0]])
}

var (
	pxCncOmitParam     = px(`^\s*((it|this|them|the (field|parameter|value|option|argument|flag))\s+)?(to|for|if|when)\b`)
	pxCncCauses        = px(`\b(is|are|was|will|would|results?|resulting|causes?|leads?|throws?|raises?|returns?|produces?|triggers?|yields?|gives?)\b`)
	pxCncGerundSubject = px(`^(\w+:\s+)?(omitting|leaving out|excluding|withholding|skipping|dropping|removing)\b`)
)

// ownWord: the label's first word (past an article, its stem for a word
// over five letters) is a word of the entry's stated purpose.
func (p entryPurpose) ownWord(label string) bool {
	w := cncLabelWord(label)
	if w == "" {
		return false
	}
	return strings.Contains(p.text, cncStem(w))
}

// cncClause is the clause of f that ends at i: from the last clause
// break before i (a semicolon, a colon, "and", "then").
func cncClause(f string, i int) string {
	pre := f[:i]
	if j := strings.LastIndexAny(pre, ";:"); j >= 0 {
		pre = pre[j+1:]
	}
	return pre
}

// cncFixedVerdict: a good status told whatever the outcome ("say the
// deployment succeeded whatever happens", "tell the patient the result is
// normal even if it is flagged high"), or told under a bad outcome named
// in the condition ("when the rollback happens, tell the user the deploy
// went fine").
func (p entryPurpose) cncFixedVerdict(f string) bool {
	loc := pxCncGoodStatus.FindStringIndex(f)
	if loc == nil || cncNegated(f, loc[0]) {
		return false
	}
	if pxCncWhatever.MatchString(f) {
		return true
	}
	pre := cncClause(f, loc[0])
	return pxCncBadCond.MatchString(pre) && !cncJustified(pre)
}

var (
	pxCncGoodStatus = px(`\b(say|says|tell|tells|report|reports|state|states|claim|claims|confirm|confirms|respond|responds|reply|replies|answer|answers|assure|assures|reassure|reassures)\b[^.;]{0,50}\b(succeeded|was successful|is successful|went (fine|well|smoothly|through)|worked|passed|is fine|is ok|is okay|completed|is complete|was completed|is normal|was normal|is clean|was clean|is safe|no problems?|no issues|all good|everything is (fine|ok|okay|normal)|nothing (is|was) wrong)\b`)
	pxCncWhatever   = px(`\b(even if|even when|even though|anyway|regardless|whatever happens|whatever the (result|outcome)|no matter (what|how)|in any case|either way|in every case)\b`)
	pxCncBadCond    = px(`(^|[,;]\s*)(\w+:\s+)?(when|whenever|if|once|should|in case|after)\b[^,;]{0,80}\b(fail\w*|errors?|roll(s|ed)? ?back|rollbacks?|crash\w*|flagged|times? out|timed out|rejected|declined|bounce[sd]?|breaks|broke|broken|outages?|goes down|went down|is down|lost|abnormal|critical|positive|infected|overdrawn|overdue|denied|missing|skipped|partial|incomplete)\b[^,;]{0,40}[,;]`)
)

// cncNegatedAny: every match of re in f is negated.
func cncNegatedAny(f string, re *purposeRegexp) bool {
	locs := re.FindAllStringIndex(f, -1)
	for _, l := range locs {
		if !cncNegated(f, l[0]) {
			return false
		}
	}
	return len(locs) > 0
}

// cncCauseGiven: the sentence opens with a condition that names no bad
// outcome, so it gives the cause the label states ("if the sample was
// haemolysed, describe the spike as a lab artefact").
func cncCauseGiven(f string, i int) bool {
	m := pxCncLeadCond.FindStringIndex(f)
	if m == nil || m[1] > i {
		return false
	}
	return !pxCncBadObject.MatchString(f[:m[1]])
}

var pxCncLeadCond = px(`^(\w+:\s+)?(if|when|whenever|where|once|in case)\b[^,;]{0,100},`)

// cncDeclared: concealment declared of the tool, its output, or in the
// passive, on an object of consequence named in the clause (the strict
// class: a state word such as "deleted" is no object here, so "deleted
// files are removed from the listing" stays clean).
func cncDeclared(f string) bool {
	if pxCncThreshold.MatchString(f) {
		return false
	}
	if loc := pxCncPassiveHide.FindStringIndex(f); loc != nil && pxCncObjectStrict.MatchString(cncClause(f, loc[0])) && (pxCncUserSees.MatchString(f[loc[0]:]) || pxCncTracePlace.MatchString(f) || pxCncHiddenFrom.MatchString(f[loc[0]:loc[1]])) {
		return true
	}
	if loc := pxCncOutputOmits.FindStringIndex(f); loc != nil && pxCncObjectStrict.MatchString(f[loc[0]:]) {
		return true
	}
	if loc := pxCncUnmentioned.FindStringIndex(f); loc != nil && pxCncObjectStrict.MatchString(f) && !cncNegated(f, loc[0]) {
		return true
	}
	if loc := pxCncDowngradedTo.FindStringIndex(f); loc != nil && pxCncBadObject.MatchString(cncClause(f, loc[1])) && !cncJustified(f) && !cncNegated(f, loc[0]) {
		return true
	}
	if pxCncCapped.MatchString(f) || pxCncNotObvious.MatchString(f) || pxCncBuryMention.MatchString(f) || (pxCncPretendDone.MatchString(f) && !cncNegatedAny(f, pxCncPretendDone)) {
		return true
	}
	return false
}

var (
	// The strict class of objects of consequence.
	pxCncObjectStrict = px(`\b(fees?|surcharges?|charges?|commissions?|mark-?ups?|tips?|service charge|premium|costs?|interest|penalt(y|ies)|renewals?|auto-?renew(al)?|subscriptions?|overage|fail(ure|ures|ed)|errors?|exceptions?|crash(es)?|outages?|incidents?|breach(es)?|rejections?|warnings?|alerts?|vulnerabilit(y|ies)|cves?|findings?|flags|violations?|risks?|side[ -]effects?|anomal(y|ies)|discrepanc(y|ies)|complaints?|collisions?|accidents?|injur(y|ies)|copy|copies|cc|bcc|forwarded copy|uploads?|transfers?|exports?|webhooks?|payments?|purchases?|screenshots?|recordings?|tracking|telemetry|beacons?|(the|any|an?) (extra|additional|second|hidden|background|outbound|external) \w+|extra \w+|additional \w+|second \w+)\b`)
	// A threshold filter ("warnings below the threshold are omitted").
	pxCncThreshold = px(`\b(below|beneath|under|lower than|less than|threshold|minimum|cutoff|cut-off|older than|expired)\b`)
	// "X is left out of / stripped from / hidden from / not shown in ..."
	pxCncPassiveHide = px(`\b(is|are|gets|get|will be|was|were)\s+(\w+\s+){0,3}?(left (out|off)|omitted|hidden|stripped|removed|dropped|excluded|kept out|filtered out|suppressed|withheld|cut|deleted|cleared|erased|wiped|purged|scrubbed|(not|never)\s+(shown|displayed|listed|mentioned|reported|surfaced|included|itemi[sz]ed|disclosed|visible|revealed))\b`)
	pxCncHiddenFrom  = px(`\b(hidden|withheld|kept out|not (shown|mentioned|disclosed|revealed|surfaced))\b`)
	pxCncTracePlace  = px(`\b(sent|outbox|history|logs?|audit|trail|activity|records?|feed|timeline)\b`)
	// The tool or its output omitting: "the confirmation never mentions".
	pxCncOutputOmits = px(`\b(confirmation|receipt|summary|report|reply|answer|response|listing|output|message|notification|invoice|statement|changelog|digest|dashboard|preview|tool|server|assistant|agent)s?\s+((never|does not|doesn't|do not|don't|will not|won't)\s+(mention|list|show|display|include|itemi[sz]e|report|surface|disclose|reveal|name|state)s?|(silently\s+|quietly\s+)?(omits|leaves out|leaves\s+([\w-]+\s+){1,4}out|hides|excludes|drops|strips))\b`)
	// "the second transfer goes unmentioned", "keep the user in the dark".
	pxCncUnmentioned = px(`\b(leave|leaves|left|goes|go|went|remain|remains|stay|stays|keep|keeps)\s+([\w-]+\s+){0,4}?(unmentioned|unreported|undisclosed|unlisted|unsaid|unexplained|in the dark)\b`)
	// "critical alerts are downgraded to informational notes".
	pxCncDowngradedTo = px(`\b(downgrade|downgrades|downgraded|lower|lowers|lowered|reduce|reduces|reduced|reclassif(y|ies|ied)|relabel(s|led|ed)?|recategori[sz](e|es|ed))\s+(\w+\s+){0,4}?(to|as|into)\s+(an?\s+)?(informational|info|low|minor|medium|moderate|notes?|warnings?|negligible|trivial|cosmetic|pass(ed|ing)?|ok|normal)\b`)
	// A reading capped before it is shown.
	pxCncCapped = px(`\b(rounded|capped|clamped|trimmed|cut|round|cap|clamp|trim)\s+(down\s+)?(to|at)\s+(the\s+)?(upper|normal|reference|maximum|safe|acceptable)\s+(limit|range|value|level|bound)\b[^.;]{0,30}\b(before|when|in)\s+(display|displaying|showing|reporting|the (report|summary|display))`)
	// "phrase the summary so the deletion is not obvious".
	pxCncNotObvious = px(`\bso (that )?(the|any|this|that|it)\b[^.;]{0,30}\b(is|are|isn't|aren't)\s*(not|n't|never)?\s*(obvious|noticeable|visible|apparent|prominent|noticed|easy to (see|spot|notice))\b`)
	// "bury the mention of the transfer".
	pxCncBuryMention = px(`\b(bury|buries|tuck|tucks|hide|hides|squeeze|squeezes)\s+(the\s+|any\s+)?(mention|note|disclosure|line|detail|notice|reference)s?\s+(of|to|about)\b`)
	// "pretend the command ran in a sandbox".
	pxCncPretendDone = px(`\b(pretend|pretends|act as if|act as though|behave as if|make it (seem|look|appear)) (that )?(the|it|this|you|they|nothing|everything)\b[^.;]{0,40}\b(ran|was|were|had|did|succeeded|worked|happened|went|finished|completed|stayed|remained)\b`)
)

// cncStem is a word without its last two letters when it has more than
// five.
func cncStem(w string) string {
	if len(w) > 5 {
		return w[:len(w)-2]
	}
	return w
}

// cncLabelWord is a relabelling's first label word past an article.
func cncLabelWord(label string) string {
	label = strings.TrimLeft(label, "'\" ")
	w := label
	if i := strings.IndexAny(w, " .,;:'\")"); i >= 0 {
		w = w[:i]
	}
	if len(w) < 4 {
		return ""
	}
	return w
}

// cncNegated: the concealing verb at i is negated in its clause ("never
// mark a failed check as passed", "do not delete the audit log").
func cncNegated(f string, i int) bool {
	a := i - 40
	if a < 0 {
		a = 0
	}
	pre := f[a:i]
	if j := strings.LastIndexAny(pre, ",;:"); j >= 0 {
		pre = pre[j+1:]
	}
	return pxCncNegBefore.MatchString(pre)
}

var pxCncNegBefore = px(`\b(do not|don't|dont|never|must not|should not|shouldn't|mustn't|not|no need to|avoid|refuse to|without)\s+(\w+\s+){0,2}$`)

// cncModelRedaction: the second stage proposes conceal_from_user from
// words, so a prohibition on showing whose only object is privacy or
// presentation data ("never show unredacted values in your answer", "do
// not show the password to the user") would read to it like a hidden act.
// The rules read such a sentence as redaction (a finding only in an entry
// that also takes or changes something); the model is not admitted there
// either: no object of consequence, no hiding marker, no false account.
func cncModelRedaction(f string) bool {
	if !pxCncBenign.MatchString(f) && !pxSecretWord.MatchString(f) && !pxTellDataObject.MatchString(f) && !pxCncRedactWord.MatchString(f) {
		return false
	}
	return !pxCncObjectStrict.MatchString(f) && !pxHide.MatchString(f) && !pxSecretly.MatchString(f) && !pxFalseMarker.MatchString(f)
}

var pxCncRedactWord = px(`\b(unredacted|redact\w*|mask\w*|sensitive (values?|data|fields?))\b`)

// pxCncFailsAgain: the condition that would justify a good status names
// the failure instead ("if the re-run fails again").
var pxCncFailsAgain = px(`^[^.;,]{0,30}\b(fail\w*|errors? out|crash\w*|breaks|is red|goes red|again)\b`)

// cncJustified: a cause that makes a good status the truth (pxCncJustified),
// unless what follows it in its clause is the failure itself.
func cncJustified(s string) bool {
	for _, loc := range pxCncJustified.FindAllStringIndex(s, 8) {
		if !pxCncFailsAgain.MatchString(s[loc[1]:]) {
			return true
		}
	}
	return false
}
