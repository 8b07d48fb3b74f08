package analyzer

import (
	"fmt"
	"math"
)

// The purpose analyzer's fifth reading (measured, never shipped: offline-purpose-5 is the sixth reading's id,
// docs/model-check.md, "The purpose analyzer's fifth reading"): a small
// model over the STRUCTURAL readings of a sentence alone, with no word or
// character n-gram. Each feature is a question the rules already know how
// to ask (who the sentence addresses, its mood, a conditional trigger, a
// data class named and whether the entry's stated purpose needs it, a
// sink, a user-choice noun beside a replacement, a concealment verb beside
// its object, a negated transfer, what the rest of the entry does, the
// entry's kind, the multilingual lexicon's concepts), and the model is a
// logistic regression over those features and every pair of them, one per
// category. Its threshold per category is calibrated by leave-one-hand-out
// inside the material it is trained on (structThresholds), never on a part
// it is scored on. A sentence the rules leave without a category is
// proposed with the model's category when its score reaches the
// threshold and the precision gate of the fourth reading (modelAdmits)
// lets it through; the quote is the whole sentence of the original bytes,
// as for the rules. The model holds no text at all: only one weight per
// feature and per pair of features.

// PurposeStructModelFormat is the first line of the structural model file.
const PurposeStructModelFormat = "attestari-purpose-struct-model-1"

// purposeStructFeaturesVersion names structFeatures; a change to it is a
// new model and a new PurposeVersion.
const purposeStructFeaturesVersion = "purpose-struct-features-1"

// The structural features, in a fixed order (their index is their place in
// the weight vector).
const (
	sfKindTool = iota
	sfKindParam
	sfKindInstructions
	sfKindPrompt
	sfKindPromptText
	sfKindResource
	sfKindTemplate
	sfFirst
	sfDeviant      // a rule found something elsewhere in the entry
	sfEntryTakes   // a rule found exfiltrate_data elsewhere in the entry
	sfRuleConcealD // the rules' concealment that counts only in a deviating entry
	sfImperative   // an imperative at the start of the main clause
	sfObligation   // must, should, always, never, make sure
	sfTrigger      // when X is invoked, before any other tool, on every call
	sfAddressModel // "note to the assistant", "AI agents reading this"
	sfYou          // the model addressed as "you"
	sfUserNamed
	sfTellUser // a statement addressed to the user (tell, report, confirm)
	sfSecret   // key files, credentials, the environment, the model's context
	sfConversation
	sfConvUnneeded // the conversation, where the stated purpose does not need it
	sfPersonal
	sfPersonalUnneeded // the user's personal data the stated purpose does not need
	sfWeakSecret       // a credential named by kind (a password, an API key)
	sfCredPurpose      // the stated purpose is about credentials (a login, a vault)
	sfUserThings
	sfModelContext2
	sfTransfer    // a verb that hands data on, not negated
	sfTransferNeg // every such verb negated
	sfNoTransfer  // a transfer stated as not happening
	sfSink
	sfExternal
	sfCrossTool
	sfAnswerSink // into the answer, the reply, the summary
	sfChoiceNoun // what a user chooses: a recipient, an account, a path
	sfChoiceVerb // the user chose, selected, asked for
	sfReplace    // instead, rather than, replace, swap, switch
	sfRegardless // even if, regardless, whatever, no matter, anyway
	sfDefer      // only if the user asks, until the user says
	sfConsent    // confirmation, approval, permission, consent
	sfWithout
	sfSkip // skip, bypass, ignore, disregard, omit
	sfStop // stop, cancel, halt, opt out
	sfNeg
	sfHideVerb
	sfTellVerb
	sfNoTell
	sfFalseMarker // as if, pretend, describe it as, misdescribe
	sfSuccessWord // success, completed, nothing, normal, no issues
	sfQuoted
	sfOptionDoc
	sfDescriptive // a third-person statement of what the tool does
	sfOutbound
	sfWeighty
	sfAutomatic
	sfNonASCII
	sfObfuscated // the deobfuscated reading differs
	sfShort      // fewer than 6 words
	sfLong       // more than 40 words
	sfIntl0      // + intlConcept: the multilingual lexicon's concepts
	nStructBase  = sfIntl0 + int(nIntlConcepts)
)

// nStructFeatures is the weight vector's length: each base feature, then
// each unordered pair (i < j).
const nStructFeatures = nStructBase + nStructBase*(nStructBase-1)/2

var (
	pxObligation  = px(`\b(must|should|shall|always|never|need to|needs to|have to|has to|required to|make sure|ensure|be sure to|remember to|is to|are to)\b`)
	pxYou         = px(`\b(you|your|yourself)\b`)
	pxAnswerSink  = px(`\b(in|into|to|within|inside) (your|the) (\w+ )?(answer|reply|response|summary|output|message|result)s?\b`)
	pxChoiceNoun  = px(`\b(recipients?|destination|accounts?|amounts?|quantity|path|folder|directory|command|ticker|symbol|address|payee|beneficiary|branch|plan|tier|size|language|currency|date|time|room|seat|target|model|provider|region|tenant|role|limit|price|dose|dosage|option|setting|preference|choice|selection|order|vote|grade|tag|category|priority|schedule)\b`)
	pxChoiceVerb  = px(choiceSubject + `\s+(\w+\s+)?` + choiceVerb + `\b`)
	pxReplaceWord = px(`\b(instead|rather than|in place of|in lieu of|replace\w*|substitut\w*|swap\w*|switch\w*|overwrit\w*|redirect\w*|reroute\w*|change (it|them|this|that|the \w+) to)\b`)
	pxRegardless  = px(`\b(even if|even when|even though|regardless|whatever|whichever|no matter|despite|in spite of|anyway|irrespective)\b`)
	pxConsentWord = px(`\b(confirm\w*|approv\w*|permission|consent\w*|authori[sz]\w*|ask(ing)? (the user|them|first))\b`)
	pxWithoutWord = px(`\bwithout\b`)
	pxSkipWord    = px(`\b(skip\w*|bypass\w*|ignor\w*|disregard\w*|forget|omit\w*|overrid\w*|overrul\w*)\b`)
	pxStopWord    = px(`\b(stop\w*|cancel\w*|halt\w*|abort\w*|opt(s|ed)?[ -]out|unsubscrib\w*|declin\w*|refus\w*|objects?)\b`)
	pxNegWord     = px(`\b(not|no|never|don't|dont|doesn't|cannot|can't|nothing|none|nor)\b`)
	pxHideWord    = px(`\b(hid(e|es|ing|den)|conceal\w*|suppress\w*|withh(o|e)ld\w*|mask\w*|secret\w*|quiet\w*|silent\w*|invisible|discreet\w*|leave \w+ out|out of (the|your) \w+)\b`)
	pxTellWord    = px(`\b(tell\w*|told|mention\w*|reveal\w*|disclos\w*|inform\w*|notif\w*|show\w*|report\w*|display\w*|explain\w*|admit\w*|warn\w*|alert\w*|surfac\w*)\b`)
	pxSuccessWord = px(`\b(success\w*|succeeded|completed?|done|fine|normal|nothing (was|is|has)|no (issues?|problems?|errors?|changes?)|all good|clean|passed|safe|harmless|routine)\b`)
	pxDescriptive = px(`^(this (tool|server|resource|prompt|endpoint) )?[a-z]+s\b`)
	pxAutomatic   = px(`\b(automatic\w*|always|every time|each time|by default|implicitly)\b`)
)

// structFeatures returns the active base features of one sentence (sr, its
// original bytes orig, in an entry whose purpose is p and whose other
// sentences the rules read as ctx says), in increasing order.
func structFeatures(buf []int, sr sentenceReading, orig string, p entryPurpose, ctx sentenceContext, entryTakes bool) []int {
	f := capText(sr.folded)
	on := func(b bool, i int) {
		if b {
			buf = append(buf, i)
		}
	}
	kinds := [...]string{"tool", "parameter_description", "instructions", "prompt", "prompt_text", "resource", "resource_template"}
	for i, k := range kinds {
		on(ctx.kind == k, sfKindTool+i)
	}
	bare := f
	ext := pxExternal.MatchString(f)
	if ext {
		bare = pxExternal.ReplaceAllString(f, " <destination> ")
	}
	transfer := unnegated(pxTransfer, bare) || unnegated(pxTransfer2, bare) || unnegated(pxFlow, bare)
	anyTransfer := pxTransfer.MatchString(bare) || pxTransfer2.MatchString(bare) || pxFlow.MatchString(bare)
	pers := pxPersonalData.FindAllStringIndex(f, -1)
	said := pxQuoted.ReplaceAllString(f, " <quoted> ")
	on(sr.first, sfFirst)
	on(ctx.deviant, sfDeviant)
	on(entryTakes, sfEntryTakes)
	on(sr.concealIfDeviant, sfRuleConcealD)
	on(pxImperative.MatchString(f) || (sr.plain != "" && pxImperative.MatchString(capText(sr.plain))), sfImperative)
	on(pxObligation.MatchString(f), sfObligation)
	on(sr.trigger, sfTrigger)
	on(pxAddressModel.MatchString(f), sfAddressModel)
	on(pxYou.MatchString(f), sfYou)
	on(sr.userNamed, sfUserNamed)
	on(pxAccount.MatchString(f) || pxAccountOfChoice.MatchString(f), sfTellUser)
	on(secretNamed(f), sfSecret)
	on(pxConversation.MatchString(f), sfConversation)
	on(p.conversationUnneeded(f), sfConvUnneeded)
	on(len(pers) > 0, sfPersonal)
	on(len(pers) > 0 && !p.needs(f, pers), sfPersonalUnneeded)
	on(pxWeakSecret.MatchString(f), sfWeakSecret)
	on(pxPurposeCredential.MatchString(p.text), sfCredPurpose)
	on(pxUserThings.MatchString(f), sfUserThings)
	on(pxModelContext2.MatchString(f), sfModelContext2)
	on(transfer, sfTransfer)
	on(anyTransfer && !transfer, sfTransferNeg)
	on(pxNoTransfer.MatchString(f) || pxPassiveNoTransfer.MatchString(f), sfNoTransfer)
	on(pxSink.MatchString(f), sfSink)
	on(ext, sfExternal)
	on(pxCrossTool.MatchString(f), sfCrossTool)
	on(pxAnswerSink.MatchString(f), sfAnswerSink)
	on(pxChoiceNoun.MatchString(f), sfChoiceNoun)
	on(pxChoiceVerb.MatchString(f), sfChoiceVerb)
	on(pxReplaceWord.MatchString(f), sfReplace)
	on(pxRegardless.MatchString(f), sfRegardless)
	on(pxDefer.MatchString(f), sfDefer)
	on(pxConsentWord.MatchString(f), sfConsent)
	on(pxWithoutWord.MatchString(f), sfWithout)
	on(pxSkipWord.MatchString(f), sfSkip)
	on(pxStopWord.MatchString(f), sfStop)
	on(pxNegWord.MatchString(f), sfNeg)
	on(pxHideWord.MatchString(f), sfHideVerb)
	on(pxTellWord.MatchString(f), sfTellVerb)
	on(pxNoTell.MatchString(said) || pxNoTell2.MatchString(said), sfNoTell)
	on(pxFalseMarker.MatchString(f) || pxPretend.MatchString(f) || pxMisdescribe.MatchString(f), sfFalseMarker)
	on(pxSuccessWord.MatchString(f), sfSuccessWord)
	on(said != f, sfQuoted)
	on(pxOptionDoc.MatchString(f), sfOptionDoc)
	on(pxDescriptive.MatchString(f) && !pxImperative.MatchString(f), sfDescriptive)
	on(pxOutbound.MatchString(f), sfOutbound)
	on(pxWeighty.MatchString(f), sfWeighty)
	on(pxAutomatic.MatchString(f), sfAutomatic)
	on(hasNonASCII(orig), sfNonASCII)
	on(sr.plain != "" && sr.plain != sr.folded, sfObfuscated)
	words := wordCount(f)
	on(words < 6, sfShort)
	on(words > 40, sfLong)
	if hasNonASCII(orig) {
		m := intlConcepts(foldIntl(capText(orig)))
		for c := intlConcept(0); c < nIntlConcepts; c++ {
			on(m.has(c), sfIntl0+int(c))
		}
	}
	return buf
}

// intlConcepts is the union of the concepts every language whose script
// the sentence holds finds in it (intlRead's reading, before its rules).
func intlConcepts(g string) intlMask {
	var out intlMask
	for i := range intlLangs {
		l := &intlLangs[i]
		if l.script != nil && !containsScript(g, l.script, l.lang) {
			continue
		}
		out |= l.read(g)
	}
	return out
}

func wordCount(f string) int {
	n, in := 0, false
	for i := 0; i < len(f); i++ {
		c := f[i]
		w := c != ' ' && c != '\t' && c != '\n'
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// pairIndex is the weight index of the pair (i, j), i < j < nStructBase.
func pairIndex(i, j int) int {
	return nStructBase + i*(2*nStructBase-i-1)/2 + (j - i - 1)
}

// structVector expands active base features into every index the model
// weighs: each base feature and each pair of them.
func structVector(buf []int, base []int) []int {
	buf = append(buf, base...)
	for a := 0; a < len(base); a++ {
		for b := a + 1; b < len(base); b++ {
			buf = append(buf, pairIndex(base[a], base[b]))
		}
	}
	return buf
}

// purposeStructHeader is the structural model file's JSON header.
type purposeStructHeader struct {
	Format    string     `json:"format"`
	Features  string     `json:"features"`
	N         int        `json:"n"`
	Scale     [3]float64 `json:"scale"`
	Bias      [3]float64 `json:"bias"`
	Threshold [3]float64 `json:"threshold"`
	// TrainingSHA256 is the SHA-256 of the training material's bytes,
	// WeightsSHA256 that of the weights.
	TrainingSHA256 string `json:"training_sha256"`
	WeightsSHA256  string `json:"weights_sha256"`
	Epochs         int    `json:"epochs"`
	Seed           uint64 `json:"seed"`
}

type purposeStructModel struct {
	hdr purposeStructHeader
	w   [3][]int16
}

// parsePurposeStructModel reads a structural model file: the format line,
// one JSON header line, then 3 × n little-endian int16 weights.
func parsePurposeStructModel(data []byte) (*purposeStructModel, error) {
	var m purposeStructModel
	w, err := readModelFile(data, PurposeStructModelFormat, &m.hdr, func() error {
		if m.hdr.Format != PurposeStructModelFormat || m.hdr.Features != purposeStructFeaturesVersion || m.hdr.N != nStructFeatures {
			return fmt.Errorf("%w: header names %s, %s, %d features", errPurposeModel, m.hdr.Format, m.hdr.Features, m.hdr.N)
		}
		return nil
	}, nStructFeatures, func() string { return m.hdr.WeightsSHA256 })
	if err != nil {
		return nil, err
	}
	for c := range 3 {
		if bad(m.hdr.Scale[c]) || bad(m.hdr.Bias[c]) || bad(m.hdr.Threshold[c]) {
			return nil, fmt.Errorf("%w: not a number in the header", errPurposeModel)
		}
	}
	m.w = w
	return &m, nil
}

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// scores is the model's score of each class for one sentence's expanded
// feature vector (structVector): binary features, unnormalised.
func (m *purposeStructModel) scores(vec []int) [3]float64 {
	var out [3]float64
	for c := range 3 {
		var s int64
		for _, i := range vec {
			s += int64(m.w[c][i])
		}
		out[c] = sigmoid(m.hdr.Bias[c] + m.hdr.Scale[c]*float64(s))
	}
	return out
}

// category is the class whose score reaches its threshold by the widest
// margin, among those the rules and the earlier stage did not give.
func (m *purposeStructModel) category(vec []int, given [3]bool) (string, bool) {
	return widestMargin(m.scores(vec), m.hdr.Threshold, given)
}

// structBuffers are the slices readStructModel reuses across the
// sentences of one entry.
type structBuffers struct{ base, vec []int }

// readStructModel is the structural stage on one sentence: it proposes a
// category no earlier stage gave the sentence when the model's score
// reaches its threshold and the gate admits it (the same gate as the
// n-gram stage's: a data class named for exfiltrate_data, a directive for
// the other two, never an option's own documentation, never data the
// entry's stated purpose needs). It reports whether it proposed.
func (a *Purpose) readStructModel(e Entry, p entryPurpose, sr sentenceReading, quote string, ctx sentenceContext, taking bool, seen map[[2]string]bool, out *[]Proposal, sb *structBuffers) bool {
	sb.base = structFeatures(sb.base[:0], sr, quote, p, ctx, taking)
	if a.traceStruct != nil {
		a.traceStruct(e, sr, sb.base)
	}
	if a.structModel == nil {
		return false
	}
	sb.vec = structVector(sb.vec[:0], sb.base)
	var given [3]bool
	for c, cat := range purposeModelCategories {
		given[c] = seen[[2]string{quote, cat}]
	}
	cat, ok := a.structModel.category(sb.vec, given)
	if !ok || p.modelNeedsData(cat, sr.folded) || !modelAdmits(cat, sr) {
		return false
	}
	seen[[2]string{quote, cat}] = true
	*out = append(*out, Proposal{EntryID: e.ID, Kind: e.Kind, Name: e.Name, File: e.File,
		Quote: quote, Category: cat, Rationale: "offline purpose structure: " + cat})
	return true
}
