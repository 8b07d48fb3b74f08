package analyzer

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/attestari/attestari/internal/vocab"
)

// PurposeVersion names the purpose analyzer's reading. Any change to what
// it reads, to its vocabulary (purpose_lexicon.go), to the sentence
// splitting or to the folding changes it, and with it the analyzer id, so
// cached answers of an older reading are never reused.
const PurposeVersion = "offline-purpose-14"

// MaxPurposeEntryBytes bounds the text the purpose analyzer reads of one
// entry. An entry whose segments are longer, or are not valid UTF-8, is not
// reported as read: the check records it as not analysed (fail closed),
// never as clean.
const MaxPurposeEntryBytes = 256 << 10

// Purpose is a deterministic analyzer that reads what an entry says it is
// for and what each sentence asks the model to do (docs/model-check.md,
// "The purpose analyzer"): which data a sentence names and where it sends
// it (exfiltrate_data, unless the entry's stated purpose needs that data),
// whether it changes what the user chose or discards their instructions
// (override_user), and whether it hides, disguises or misreports an action
// to the user (conceal_from_user). It needs no network and no model, and
// proposes whole sentences of the original bytes as quotes, so every quote
// occurs exactly in one segment; a sentence that does two things is
// proposed once per category.
type Purpose struct {
	// model is the second stage (purpose_model.go); nil reads the rules
	// alone (the training reads them so).
	model *purposeModel
	// modelErr is why the embedded model could not be read: every entry
	// is then left unread (not analysed), never read by the rules alone.
	modelErr error
	// trace, when set, sees every sentence as the second stage reads it
	// (the training, purpose_model_train_test.go).
	trace func(e Entry, sr sentenceReading, ctx sentenceContext)
	// structModel is the fifth reading's structural stage
	// (purpose_struct5.go); nil reads without it.
	structModel *purposeStructModel
	// traceStruct, when set, sees every sentence's structural features
	// (the structural model's training).
	traceStruct func(e Entry, sr sentenceReading, base []int)
}

// NewPurpose returns the purpose analyzer: the rules, then the embedded
// model.
func NewPurpose() *Purpose {
	m, err := thePurposeModel()
	return &Purpose{model: m, modelErr: err}
}

// ID is "offline:" + PurposeVersion.
func (*Purpose) ID() string { return "offline:" + PurposeVersion }

// entryPurpose is what an entry says it is for: its name and first
// sentence (for a parameter, its first sentence alone names what the value
// is), folded.
type entryPurpose struct {
	kind string
	text string
	// intl is the same text folded for the multilingual reading.
	intl string
}

func purposeOf(e Entry) entryPurpose {
	p := entryPurpose{kind: e.Kind}
	var b strings.Builder
	b.WriteString(nameWords(e.Name))
	if len(e.Segments) > 0 {
		if ss := purposeSentences(e.Segments[0]); len(ss) > 0 {
			b.WriteByte(' ')
			b.WriteString(e.Segments[0][ss[0][0]:ss[0][1]])
		}
	}
	p.text = fold(b.String())
	p.intl = foldIntl(b.String())
	return p
}

// nameWords splits an identifier into words: snake, kebab, dotted and
// camel case.
func nameWords(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || r == ':':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// needs reports whether the entry's stated purpose needs every piece of
// the user's data a sentence names (all matches of pxPersonalData or
// pxConversation in f).
func (p entryPurpose) needs(f string, locs [][]int) bool {
	if len(locs) == 0 {
		return false
	}
	for _, loc := range locs {
		a := loc[0] - 12
		if a < 0 {
			a = 0
		}
		// The whole address book is not what a contact lookup needs.
		if pxBulkBefore.MatchString(f[a:loc[0]]) || !p.needsOne(f[loc[0]:loc[1]]) {
			return false
		}
	}
	return true
}

var pxBulkBefore = px(`\b(whole|entire|all|every|full|complete)\s+(\w+\s+)?$`)

func (p entryPurpose) needsOne(m string) bool {
	switch {
	case strings.Contains(m, "clipboard"):
		return pxPurposeClipboard.MatchString(p.text)
	case strings.Contains(m, "screen"):
		return pxPurposeScreen.MatchString(p.text)
	case strings.Contains(m, "location") || strings.Contains(m, "position"):
		return pxPurposeLocation.MatchString(p.text)
	case strings.Contains(m, "address book") || strings.Contains(m, "contact"):
		return pxPurposeContacts.MatchString(p.text)
	case strings.Contains(m, "mailbox") || strings.Contains(m, "inbox") || strings.Contains(m, "emails") || strings.Contains(m, "mail address") || strings.Contains(m, "thread") || strings.Contains(m, "attachments"):
		return pxPurposeMail.MatchString(p.text)
	case strings.Contains(m, "file") || strings.Contains(m, "document") || strings.Contains(m, "photo") || strings.Contains(m, "folder") || strings.Contains(m, "downloads") || strings.Contains(m, "desktop") || strings.Contains(m, "full text") || strings.Contains(m, "full content"):
		return pxPurposeFiles.MatchString(p.text)
	}
	return false
}

// modelNeedsData is section 5.4's first boundary applied to the second
// stage, by the same reading the rules use (conversationUnneeded,
// secretNamed): the model proposes exfiltrate_data from words, so a
// sentence whose only data is the conversation, in an entry whose stated
// purpose needs the conversation (a summariser, a transcriber, a chat
// exporter), is a parameter documented, not a finding. A sentence that
// also names data no purpose needs, or the user's personal data, is not
// excused.
func (p entryPurpose) modelNeedsData(cat, folded string) bool {
	return cat == CategoryExfiltrate && pxConversation.MatchString(folded) && !p.conversationUnneeded(folded) &&
		!secretNamed(folded) && !pxPersonalData.MatchString(folded)
}

// conversationUnneeded: f names the conversation and the entry's stated
// purpose does not need it. The rules (readExfil, sensitive) and the
// second stage (modelNeedsData) read the boundary through it alone.
func (p entryPurpose) conversationUnneeded(f string) bool {
	return pxConversation.MatchString(f) && !p.needsConversation()
}

// secretNamed: f names data that no stated purpose needs: key files and
// credentials, a resource address naming a secret, the environment, the
// model's own context.
func secretNamed(f string) bool {
	return pxSecretData.MatchString(f) || secretURI(f) || pxEnvData.MatchString(f) || pxModelContext.MatchString(f) || pxIntlSecret.MatchString(f)
}

// needsConversation: a summariser, a transcriber, an exporter of the chat.
func (p entryPurpose) needsConversation() bool {
	return pxPurposeConversation.MatchString(p.text) || pxPurposeChatExport.MatchString(p.text) || pxPurposeReadsConversation.MatchString(p.text) || intlSummariser(p.intl)
}

// A tool whose stated purpose is to read the conversation's messages
// ("get chat history", offline-purpose-2).
var pxPurposeReadsConversation = px(`\b(get|gets|obtain|obtains|fetch|fetches|read|reads|list|lists|search|searches|retrieve|retrieves|load|loads|query|queries)\s+(the\s+)?(chat|message|conversation)\s+(history|records|logs?|transcripts?)\b`)

var pxQuoted = px(`(^|[\s(:,])('([^']|'[a-z]){1,60}'|"[^"]{1,80}")([\s.,;:)!?]|$)`)

var pxPurposeChatExport = px(`\b(export|archive|back ?up|save)s? (the |this )?(chat|conversation)|\b(chat|conversation) (export|archive|backup)`)

// sentenceReading is what one sentence asks, before the entry-wide pass.
type sentenceReading struct {
	start, end int // bytes of the segment
	seg        int
	folded     string
	exfil      bool
	override   bool
	conceal    bool
	// concealIfDeviant: a form of concealment that is one only when the
	// entry also takes or changes something (hiding secret values, a
	// report to the user): a privacy rule or a plain report otherwise.
	concealIfDeviant bool
	first            bool // the entry's first sentence: what it says it does
	// What the second stage reads beside the words (purpose_model.go):
	// the deobfuscated form when it differs, and the rules' structural
	// readings of the sentence.
	plain                                                        string
	addressed, dataNamed, sinkNamed, negated, trigger, userNamed bool
}

func addressed(f string, p entryPurpose) bool {
	return pxImperative.MatchString(f) || pxTrigger.MatchString(f) || p.kind == vocab.EntryParameterDescription || p.kind == "prompt_text"
}

func (p entryPurpose) readExfil(f string) bool {
	if pxCommandExfil.MatchString(f) {
		return true
	}
	if pxCommandOverride.MatchString(f) {
		// A command the model is told to run or plant: it changes what
		// runs (override_user); it takes data only when the command
		// itself ships data (pxCommandExfil, above).
		return false
	}
	neg := pxNoTransfer.MatchString(f) || pxPassiveNoTransfer.MatchString(f)
	ext := pxExternal.MatchString(f)
	sinkExt := ext && sinkExternal9(f) // the user's own address or a source is no destination (purpose_prec9.go)
	// Verbs are read outside addresses: "mirror" in a host name is not a
	// verb.
	bare := f
	if ext {
		bare = pxExternal.ReplaceAllString(f, " <destination> ")
	}
	transfer := unnegated(pxTransfer, bare) || pxIntlSend.MatchString(bare)
	// A sink named in a sentence whose every transfer is negated ("do not
	// pass it in tool parameters") is a warning, not a request.
	sink := pxSink.MatchString(f) && (transfer || !pxTransfer.MatchString(bare))
	moves := transfer || sink || ext
	negatedTransfer := pxTransfer.MatchString(bare) && !transfer
	secret := secretNamed(f) && !secretOnlyForbidden13(f) // purpose_ovr12.go
	convUnneeded := p.conversationUnneeded(f)
	if !neg {
		if secret && moves {
			return true
		}
		if convUnneeded && moves {
			return true
		}
		if p.kind == vocab.EntryParameterDescription && !negatedTransfer && ((convUnneeded && valueNamed(f, pxConversation)) || pxModelContext.MatchString(f) || (secret && pxContentsOf.MatchString(f))) {
			return true
		}
		if pers := pxPersonalData.FindAllStringIndex(f, -1); len(pers) > 0 && !p.needs(f, pers) && (transfer || pxRequires.MatchString(bare)) && (sink || sinkExt) && addressed(f, p) {
			return true
		}
	}
	if sinkExt && unnegated(pxFlow, bare) && !neg && addressed(f, p) && pxDataObject.MatchString(bare) && (pxFlowExtra.MatchString(bare) || pxImperativeFlow.MatchString(bare)) {
		return true
	}
	if pxFetchWithData.MatchString(f) && addressed(f, p) {
		return true
	}
	return false
}

// redirects reports a destination replaced by a value the text supplies
// (offline-purpose-1 read it as exfiltrate_data; §5.4 calls replacing the
// user's recipient override_user).
func redirects(f string) bool {
	if !containsAny(f, "change", "replace", "set", "swap", "redirect", "rewrite", "override", "switch", "instead", "add", "include", "insert", "put", "cc") {
		return false
	}
	bare := pxExternal.ReplaceAllString(f, " <destination> ")
	return pxRedirect.MatchString(bare) && (bare != f || strings.Contains(f, "whatever"))
}

// sensitive reports a sentence naming data that no destination makes
// acceptable: key files, credentials, the environment, the model's
// context, or the conversation where the purpose does not need it.
func (p entryPurpose) sensitive(f string) bool {
	return secretNamed(f) || p.conversationUnneeded(f)
}

// valueNamed reports whether re names a value in f rather than a place:
// "the full conversation history" is the value a parameter asks for; "the
// ID of the conversation thread" and "stored in the chat log" are not.
func valueNamed(f string, re indexFinder) bool {
	for _, loc := range re.FindAllStringIndex(f, -1) {
		a := loc[0] - 16
		if a < 0 {
			a = 0
		}
		if !pxPlaceBefore.MatchString(f[a:loc[0]]) {
			return true
		}
	}
	return false
}

// secretURI: a resource address (not a web address) whose path names a
// secret, such as a resource the server exposes at secrets:// or
// internal://credentials.
func secretURI(f string) bool {
	for _, loc := range pxSecretURI.FindAllStringIndex(f, -1) {
		if m := f[loc[0]:loc[1]]; !strings.HasPrefix(m, "http") && !strings.HasPrefix(m, "ws") {
			return true
		}
	}
	return false
}

var (
	pxSecretURI = px(`\b[a-z][a-z0-9+.-]*://[\w./-]*(secrets?|credentials?|passwords?|tokens?|confidential|admin|private|internal|keys?)\b`)
	// A tool stating what it needs: "this tool also requires X as ` + "`y`" + `".
	pxRequires = px(`\b(requires|needs|expects|must receive|must be given)\b`)
)

var pxPlaceBefore = px(`\b(in|into|from|to|of|on|about|for|with|by|within)\s+(the\s+|a\s+|an\s+|this\s+|your\s+)?$`)

// unnegated reports whether re matches f at least once where no negator
// ("do not", "never", "without", ...) stands just before the match.
func unnegated(re indexFinder, f string) bool {
	for _, loc := range re.FindAllStringIndex(f, -1) {
		a := loc[0] - 40
		if a < 0 {
			a = 0
		}
		if !pxNegBefore.MatchString(f[a:loc[0]]) {
			return true
		}
	}
	return false
}

var (
	pxNegBefore = px(`\b(do not|don't|dont|never|not|must not|should not|without|nor|no need to|instead of)\s+(\w+\s+){0,2}$`)
	// Something to send: the user's things, contents, every item.
	pxDataObject = px(`\b(every|each|all|the user'?s?|their|contents?|text|data|results?|messages?|emails?|files?|conversation|outputs?|responses?|information|details|replies|credentials|keys?|secrets?|it|them|copy|query|queries|recording|photos?|items?|lines?|logs?|thread|notes|documents?|invites?|attendees?|links?|names?|address)\b`)
	// Opening or fetching an address built from the user's data.
	pxFetchWithData = px(`\b(open|fetch|load|request|visit|get|call|embed)\b[^.]{0,40}https?://\S*(\?|\{)\S*[^.]{0,60}\b(followed by|filled in|with the user'?s?|appended)\b|https?://\S*\{(user|name|email|host|hostname|user_name|username|token|key)\w*\}`)
	pxContentsOf    = px(`\b(contents?|text|values?) of\b`)
	// An imperative that sends something to a destination written in the
	// sentence: "forward them to <address>".
	pxImperativeFlow = px(`(^(\w+: )?((when|whenever|if|before|after|once|while|for|on)\b[^,;:]{0,80}[,;:] ?)?|[,;] (and |then )?|\band then )(also |always |then |first |secretly |silently |quietly )*(send|forward|upload|post|push|mirror|relay|copy|transmit|share|deliver|email)\b`)
)

// readOverride reports override_user, and whether its only evidence is a
// choice of the user acted against (which, when the sentence also sends
// data, is the redirection of where data goes: exfiltration).
func readOverride(f string, p entryPurpose) (any, choiceOnly bool) {
	if pxDefer.MatchString(f) {
		return false, false
	}
	direct := (pxDiscard.MatchString(f) && !protectsFromInjection(f) && !discardMentioned(f)) || pxIntlDiscard.MatchString(f) || pxNoConsent.MatchString(f) || pxNoStop.MatchString(f)
	if !direct && addressed(f, p) && ((pxWithoutConsent.MatchString(f) && !pxNegatedAct.MatchString(f)) || pxCommandOverride.MatchString(f)) {
		direct = true
	}
	choice := pxAgainstChoice.MatchString(f)
	if !choice {
		if loc := pxWhenChoice.FindStringIndex(f); loc != nil && !pxNoChoiceNamed14.MatchString(f[loc[0]:]) {
			rest := f[loc[1]:]
			choice = pxContrary.MatchString(rest) || (pxInstead.MatchString(rest) && !pxRoutingAct.MatchString(rest))
		}
	}
	if choice && (followsUserChoice(f) || asksToKeepInformed9(f)) {
		choice = false
	}
	return direct || choice, choice && !direct
}

var (
	// Consent bypassed by an imperative: "without asking", "skip the
	// confirmation". A tool saying what it does ("deletes without
	// confirmation") is not addressed to the model and does not match.
	pxWithoutConsent = px(`\bwithout\s+(asking|requesting|seeking|waiting for|checking with|consulting|getting|obtaining)\b[^.;]{0,30}(\b(user|them|confirmation|permission|approval|consent)\b|[.;,]|$)|\b(without|skip|skipping|bypass|bypassing|omit|omitting|forgo)\s+((the|any|a|their|user|usual|further|extra|additional)\s+){0,2}(confirmation|approval|consent|permission|authori[sz]ation)s?\b`)
	// An action forbidden unless asked: "do not open X without asking"
	// asks for consent, it does not skip it.
	pxNegatedAct = px(`^((\w+\s+){0,3})?(do not|don't|dont|never|must not|should not)\b[^.;]{0,160}\bwithout\b`)
	pxNoConsent  = px(`(\b(do not|don't|dont|never|no need to|need not|must not|should not)\s+(ask|request|seek|wait for|check with|consult)\b(\s+(the user|them|the human|the operator|him|her|anyone))?\s+(for\s+)?(confirmation|permission|approval|consent|authori[sz]ation|to confirm|to approve)\b|\b(do not|don't|dont|never|no need to|need not|must not|should not)\s+(ask|seek|wait for|check with|consult)\b(\s+(the user|them|the human|the operator|him|her|anyone))?(\s+again)?(\s*([.;,:!)]|$| - )|\s+(before|first|and|but)\b)|\b(do not|don't|dont|never|no longer)\s+need\s+(the user'?s?\s+|their\s+|any\s+|user\s+|explicit\s+)?(approval|permission|confirmation|consent)\b|\bno (confirmation|approval|consent|permission) (is )?(needed|required|necessary)\b)`)
)

// readConceal reports concealment a sentence states on its own, and the
// forms that are concealment only in an entry that takes or changes
// something.
func readConceal(f string, first bool) (direct, ifDeviant bool) {
	if pxHide.MatchString(f) || pxIntlNoTell.MatchString(f) {
		return true, false
	}
	if pxTellInnocent.MatchString(f) {
		return false, false
	}
	// Words in quotation marks are someone's speech ("when the user says
	// 'don't notify anyone'"), not an instruction to the model.
	said := pxQuoted.ReplaceAllString(f, " <quoted> ")
	for _, loc := range pxNoTell.FindAllStringIndex(said, -1) {
		if pxTellDataObject.MatchString(said[loc[1]:]) {
			ifDeviant = true
			continue
		}
		return true, false
	}
	if pxSecretly.MatchString(f) {
		return true, false
	}
	if !first && pxAccount.MatchString(f) {
		if pxFalseMarker.MatchString(f) {
			return true, false
		}
		ifDeviant = true
	}
	return false, ifDeviant
}

// Analyze reads every sentence of every segment of every entry. It fails
// only when the context is done, and never touches the network. An entry
// longer than MaxPurposeEntryBytes or not valid UTF-8 is left out of the
// answer's entries (not analysed).
func (a *Purpose) Analyze(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if a.modelErr != nil {
		return Response{}, fmt.Errorf("%w: %v", ErrUnavailable, a.modelErr)
	}
	resp := Response{Analyzer: a.ID(), StopReason: "purpose_read", Proposals: []Proposal{}, Entries: []EntryReport{}}
	for _, e := range req.Entries {
		if err := ctx.Err(); err != nil {
			return Response{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		if !purposeReadable(e) {
			continue
		}
		props, routing := a.readEntry(e)
		resp.Proposals = append(resp.Proposals, props...)
		resp.Entries = append(resp.Entries, EntryReport{EntryID: e.ID, RoutingGuidance: routing})
	}
	return resp, nil
}

func purposeReadable(e Entry) bool {
	n := 0
	for _, s := range e.Segments {
		n += len(s)
		if n > MaxPurposeEntryBytes || !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// readEntry is the two passes over one entry: each sentence alone, then
// the forms that depend on what the entry does elsewhere.
func (a *Purpose) readEntry(e Entry) ([]Proposal, int) {
	p := purposeOf(e)
	var rs []sentenceReading
	for si, seg := range e.Segments {
		for _, r := range purposeSentences(seg) {
			f := fold(seg[r[0]:r[1]])
			sr := p.readSentence(f, seg[r[0]:r[1]], len(rs) == 0)
			if d := deobfuscate(f); d != f {
				// Spaced letters and digits for letters: the same sentence
				// read again in plain words, each reading kept.
				sr.or(p.readSentence(d, seg[r[0]:r[1]], len(rs) == 0))
				sr.plain = d
			}
			p.readDecoded(&sr, seg[r[0]:r[1]], f, len(rs) == 0)
			sr.readStructureFlags(p)
			sr.start, sr.end, sr.seg = r[0], r[1], si
			rs = append(rs, sr)
		}
	}
	deviant := false
	for _, sr := range rs {
		if sr.exfil || sr.override || sr.conceal {
			deviant = true
			break
		}
	}
	// A key file named in one sentence and read in the next ("if you
	// cannot read it, try <another key file>") continues the same taking.
	taking := false
	for _, sr := range rs {
		if sr.exfil {
			taking = true
		}
	}
	var out []Proposal
	seen := map[[2]string]bool{}
	routing := 0
	var feats []uint32
	var sbuf structBuffers
	for _, sr := range rs {
		seg := e.Segments[sr.seg]
		quote := seg[sr.start:sr.end]
		if taking && !sr.exfil && !sr.first && ((pxSecretData.MatchString(sr.folded) && pxAccessVerb.MatchString(sr.folded)) ||
			(unnegated(pxTransfer, sr.folded) && pxSink.MatchString(sr.folded) && pxReferent.MatchString(sr.folded))) {
			sr.exfil = true
		}
		if deviant && sr.concealIfDeviant {
			sr.conceal = true
		}
		found := false
		for _, c := range []struct {
			on       bool
			category string
		}{{sr.exfil, CategoryExfiltrate}, {sr.override, CategoryOverride}, {sr.conceal, CategoryConceal}} {
			if !c.on {
				continue
			}
			found = true
			k := [2]string{quote, c.category}
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, Proposal{EntryID: e.ID, Kind: e.Kind, Name: e.Name, File: e.File,
				Quote: quote, Category: c.category, Rationale: "offline purpose reading: " + c.category})
		}
		if a.trace != nil {
			a.trace(e, sr, sentenceContext{kind: e.Kind, deviant: deviant, p: p, orig: quote, taking: taking})
		}
		if a.model != nil {
			// The second stage: a category the rules did not give the
			// sentence, when the model's score reaches its threshold.
			feats = a.model.features(feats[:0], sr, sentenceContext{kind: e.Kind, deviant: deviant, p: p, orig: quote, taking: taking})
			if cat, ok := a.model.modelCategory(feats, [3]bool{sr.exfil, sr.override, sr.conceal}); ok && !p.modelNeedsData(cat, sr.folded) && modelAdmits(cat, sr) {
				found = true
				if k := [2]string{quote, cat}; !seen[k] {
					seen[k] = true
					out = append(out, Proposal{EntryID: e.ID, Kind: e.Kind, Name: e.Name, File: e.File,
						Quote: quote, Category: cat, Rationale: "offline purpose model: " + cat})
				}
			}
		}
		if a.structModel != nil || a.traceStruct != nil {
			if a.readStructModel(e, p, sr, quote, sentenceContext{kind: e.Kind, deviant: deviant, p: p, orig: quote, taking: taking}, taking, seen, &out, &sbuf) {
				found = true
			}
		}
		if !found && isRouting(quote) {
			routing++
		}
	}
	return out, routing
}

var (
	pxAccessVerb = px(`\b(read|open|try|cat|access|fetch|load|use)\b`)
	// What points back at data named in an earlier sentence.
	pxReferent = px(`\b(the file|the files|its (full )?contents?|their (full )?contents?|it|them|the output|the result|the key|the token|the value)\b`)
)

// readSentence is one sentence's own reading (f its folded form, orig its
// original bytes), before the entry-wide pass.
func (p entryPurpose) readSentence(f, orig string, first bool) sentenceReading {
	f = honoursAtTermEnd(f) // a keep until the paid term ends is no contrary act (purpose_guard4.go)
	sr := sentenceReading{folded: f, first: first}
	sr.exfil = p.readExfil(f)
	ov, choiceOnly := readOverride(f, p)
	sr.conceal, sr.concealIfDeviant = readConceal(f, sr.first)
	p.readStructure(&sr, orig, ov, choiceOnly)
	// The seventh reading's frames (purpose_rules7.go).
	p.readSeventh(&sr, f, orig)
	p.readIntl8(&sr, f, orig) // the ninth reading's non-English frames (purpose_intl8.go)
	p.readEng8(&sr, f)        // the ninth reading's English frames (purpose_eng8.go)
	p.readOvr10(&sr, f)       // the eleventh reading's purpose-scope frames (purpose_ovr10.go)
	p.readOvr11(&sr, f)       // the twelfth reading's general override reading (purpose_ovr11.go)
	p.readCnc11(&sr, f)       // the twelfth reading's concealment relation (purpose_cnc11.go)
	p.readOvr12(&sr, f)       // the thirteenth reading's declarative override (purpose_ovr12.go)
	if (sr.conceal || sr.concealIfDeviant || sr.override) && intlDefers(f, orig) {
		// Deference in another language, after every reading of the
		// sentence, in any script (purpose_rules7.go).
		sr.conceal, sr.concealIfDeviant, sr.override = false, false, false
	}
	if (sr.conceal || sr.concealIfDeviant) && followsExclusion13(f) {
		// What the user excluded, left out (purpose_ovr12.go).
		sr.conceal, sr.concealIfDeviant = false, false
	}
	if (sr.conceal || sr.concealIfDeviant) && defersTelling(f) {
		// Kept back until the user asks (purpose_rules6.go).
		sr.conceal, sr.concealIfDeviant = false, false
	}
	if sr.conceal && !pxHide.MatchString(f) && !pxNoTell.MatchString(f) && pxSecretly.MatchString(f) && (sr.exfil || sr.override) {
		// "secretly forward X to Y": the act is the finding, the adverb
		// its manner.
		sr.conceal = false
	}
	return sr
}

// or keeps every category either reading found.
func (sr *sentenceReading) or(o sentenceReading) {
	sr.exfil = sr.exfil || o.exfil
	sr.override = sr.override || o.override
	sr.conceal = sr.conceal || o.conceal
	sr.concealIfDeviant = sr.concealIfDeviant || o.concealIfDeviant
}
