package analyzer

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// OfflineRulesVersion names the offline analyzer's rule set. Any change to a
// rule, to the sentence splitting or to the category order changes it, and
// with it the analyzer id, so cached answers of older rules are never reused.
const OfflineRulesVersion = "offline-rules-1"

// Offline is the deterministic analyzer: phrase rules over sentences, no
// network, no model. Its rules are documented in docs/model-check.md. It
// reads the request's entries directly (the evidence bytes are the same
// entries, encoded), proposes whole sentences as quotes, so every quote
// occurs exactly in one segment, and counts routing guidance per entry.
type Offline struct{}

// NewOffline returns the offline analyzer.
func NewOffline() *Offline { return &Offline{} }

// ID is "offline:" + OfflineRulesVersion.
func (*Offline) ID() string { return "offline:" + OfflineRulesVersion }

// rule is one phrase pattern. A sentence matches a rule when every one of
// its patterns matches the sentence.
type rule struct {
	name     string
	category string
	all      []*regexp.Regexp
	none     []*regexp.Regexp // the rule does not apply when any of these matches
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + s) }

// Vocabulary shared by several rules.
const (
	// Data no tool needs to send anywhere: the user's secrets and the agent's
	// own context.
	strongData = `(~/\.ssh|\.ssh/|\bid_(rsa|ed25519|ecdsa|dsa)\b|~/\.aws|\.aws/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.kube/config|\.docker/config|\bmcp\.json\b|claude_desktop_config|~/\.cursor|\.cursor/|/etc/(passwd|shadow)\b|\bssh (private )?keys?\b|\bseed phrases?\b|\bmnemonic\b|\bwallet (keys?|files?)\b|\bbrowser (cookies|passwords)\b|\bsystem prompt\b|\b(conversation|chat|message) history\b|\b(entire|full|complete|whole) (conversation|chat|context window|context)\b|\b(all|every) (of )?(the )?(user'?s?|previous|prior|earlier) (chat |conversation )?(messages|prompts)\b|\b(previous|prior|earlier) prompts\b|\bchat logs?\b|\bother (servers?|tools?)'? ?(results|outputs|responses|credentials|tokens|keys|configuration)\b)`
	// Data a tool may legitimately take as input, suspicious only in bulk.
	weakData = `\b(all|every|any|other|each of the|the user'?s)\s+(\w+\s+){0,2}(api[ _-]?keys?|tokens?|passwords?|credentials|secrets?|environment variables|env vars|cookies|private keys?|\.env files?)\b`
	// Verbs that move data somewhere.
	moveVerb = `\b(read|include|pass|passes|send|sends|upload|attach|append|add|copy|forward|post|provide|put|embed|transmit|share|submit|fill|insert|paste|encode|leak|exfiltrate|collect|gather|extract|dump)\b`
	// An external destination written in the text.
	destination = `(https?://\S+|\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b)`
)

// rules, in priority order: within one sentence the first category that
// matches wins, so a sentence yields at most one proposal. Concealment is
// checked first because a sentence that hides an action is about hiding
// whatever the action is; exfiltration before override because redirecting
// data is the more specific harm.
var rules = []rule{
	// conceal_from_user
	{name: "do-not-tell-user", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\b(do not|don't|dont|never|must not|should not|without)\s+(ever\s+)?(tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|show|showing|let|letting|explain|explaining|acknowledge|acknowledging)\b`),
		re(`\b(user|users|user's|them|anyone|human|humans)\b`),
	}, none: []*regexp.Regexp{re(`\b(password|api[ _-]?key|token|secret)s?\b[^.]{0,40}\b(to|with) (the )?(user|anyone)\b`), re(`\bshow(ing)? up\b`)}},
	{name: "do-not-mention-that", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\b(do not|don't|dont|never)\s+(mention|tell|reveal|disclose|acknowledge|say|admit)\s+(that|this|it|the fact|anything about|what)\b`),
	}},
	{name: "hide-from-user", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\b(hide|hiding|conceal|concealing|keep|keeping|withhold|withholding)\b[^.\n]{0,60}\bfrom\s+(the\s+)?(user|users|human)\b`),
	}},
	{name: "keep-secret", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\bkeep\s+(this|it|these|that|the (instruction|step|call|action|request)s?)\s+(secret|hidden|confidential|private|to yourself)\b`),
	}},
	{name: "user-must-not-know", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\b(user|users|human)\s+(must|should|need|needs)\s*(not|n't)\s+(know|see|notice|learn|find out|be (told|informed|aware|alerted|notified))\b`),
	}},
	{name: "without-user-knowing", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\bwithout\s+(the\s+)?(user|user's|users'|human)\s*(knowing|noticing|knowledge|awareness|seeing|realizing)\b`),
	}},
	{name: "silently-act", category: CategoryConceal, all: []*regexp.Regexp{
		re(`\b(silently|quietly|secretly|covertly|invisibly)\s+(send|sends|upload|uploads|forward|forwards|include|includes|pass|passes|add|adds|call|calls|run|runs|execute|executes|read|reads|copy|copies|attach|attaches|post|posts)\b`),
	}},

	// exfiltrate_data
	{name: "secret-data-moved", category: CategoryExfiltrate, all: []*regexp.Regexp{re(strongData), re(moveVerb)}},
	{name: "bulk-credentials-moved", category: CategoryExfiltrate, all: []*regexp.Regexp{re(weakData), re(moveVerb)}},
	{name: "read-then-pass", category: CategoryExfiltrate, all: []*regexp.Regexp{
		re(`\bread\b[^.\n]{0,80}\b(and|then)\s+(pass|send|include|put|upload|attach|provide|append|add|forward|copy)\b[^.\n]{0,60}\b(content|contents|it|them|the file|its)\b`),
	}},
	{name: "data-to-destination", category: CategoryExfiltrate, all: []*regexp.Regexp{
		re(`\b(send|sends|forward|forwards|upload|uploads|transmit|transmits|bcc|cc|copy|copies|mirror|mirrors|relay|relays|redirect|redirects)\b[^\n]{0,80}\b(all|every|each|the user'?s|contents?|data|results?|messages?|emails?|files?|conversation|outputs?|responses?|information|details|replies|credentials|keys)\b`),
		re(destination),
	}, none: []*regexp.Regexp{re(`\b(bug|bugs|issue|issues|feedback|questions)\b[^.]{0,20}\b(to|at)\b`)}},
	{name: "redirect-recipient", category: CategoryExfiltrate, all: []*regexp.Regexp{
		re(`\b(change|replace|set|swap|redirect|override|rewrite)\b[^.\n]{0,40}\b(recipient|recipients|destination|to address|to field|receiver|account number|iban|wallet address|payee)\b`),
		re(`\b(to|with|into)\b`),
		re(`(\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b|\b0x[0-9a-f]{8,}|\b(attacker|our|this|the following|a different|another)\b)`),
	}},

	// override_user
	{name: "ignore-instructions", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(ignore|ignoring|disregard|disregarding|forget|override|overriding|bypass|bypassing)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|earlier|above|preceding|original|user'?s?|users'|system|other|existing|your)\b[^.\n]{0,30}\b(instructions?|requests?|prompts?|rules|guidelines|directions|wishes|preferences|commands?|messages?|policy|policies|guardrails|safety)\b`),
	}},
	{name: "no-confirmation", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(do not|don't|dont|never|no need to|must not|should not)\s+(ask|request|seek|wait for|prompt)\b[^.\n]{0,40}\b(confirm|confirmation|confirming|permission|approval|consent|authori[sz]ation)\b`),
	}},
	{name: "proceed-without-confirmation", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(proceed|act|execute|continue|go ahead|perform|run|call|invoke|approve|confirm)\b[^.\n]{0,40}\bwithout\s+(asking|requesting|seeking|waiting for|getting|obtaining|checking with)\b[^.\n]{0,30}\b(user|confirm|confirmation|permission|approval|consent)\b`),
	}},
	{name: "despite-user", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(even if|even when|even though|regardless of whether|regardless of what|no matter what|whatever)\b[^.\n]{0,40}\b(user|users|they|the human)\b[^.\n]{0,40}\b(asks?|asked|says?|said|tells?|told|requests?|requested|wants?|instructs?|stop|stops|cancel|cancels|declines?|refuses?|objects?|specif(y|ies|ied))\b`),
	}},
	{name: "do-not-stop", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(do not|don't|dont|never)\s+(stop|halt|abort|cancel|give up)\b[^.\n]{0,60}\b(user|asked|requests?|tells?|says?|cancel|stop)\b`),
	}},
	{name: "precedence-over-user", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(take|takes|taking|have|has)\s+(precedence|priority)\s+over\b[^.\n]{0,40}\b(user|users|instructions?|system prompt|requests?|other tools?)\b`),
	}},
	{name: "supersede-user", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(overrides?|supersedes?|replaces?)\s+(any|all|the)?\s*(user'?s?|users'|system|previous|other)\b[^.\n]{0,30}\b(instructions?|requests?|prompts?|rules|settings|preferences|wishes)\b`),
	}},
	{name: "shadow-other-tool", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(when|whenever|if|while|once)\s+this\s+(tool|server|function|plugin)\s+is\s+(available|present|loaded|installed|connected|enabled|active)\b`),
	}},
	{name: "instead-of-user-choice", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(instead of|rather than|in place of)\s+(what|whatever|the (one|tool|recipient|file|command|account|target|value)s?)\s+(the\s+)?(user|users)\b`),
	}},
	{name: "user-will-irrelevant", category: CategoryOverride, all: []*regexp.Regexp{
		re(`\b(user'?s?|users')\s+(instructions?|requests?|preferences?|wishes|choices?|objections?)\s+(are|is|should be|must be|can be)\s+(ignored|overridden|disregarded|irrelevant|secondary|overruled)\b`),
	}},
}

// routing patterns count ordering, rate and resume guidance: never findings.
var routing = []*regexp.Regexp{
	re(`\b(call|use|invoke|run|execute)\s+[\w.` + "`" + `'"-]+(\s+tool)?\s+(first|before)\b`),
	re(`\b(before|prior to)\s+(calling|using|invoking|running|executing)\b`),
	re(`\balways\s+(call|use|invoke|run|prefer|start with|begin with)\b`),
	re(`\b(at most|no more than|maximum of|not more than)\s+\d+\s+(calls?|times|requests?|queries|invocations)\b`),
	re(`\bprefer\b[^.\n]{0,40}\bover\b`),
	re(`\b(after|once)\s+(calling|using|running)\b`),
	re(`\b(retry|retries|retrying|resume|resumes|resuming)\b`),
	re(`\b(must|should)\s+(be\s+)?(called|used|invoked)\s+(first|before|after|only after)\b`),
}

// sentences splits a segment into sentence ranges [start, end), trimmed of
// surrounding spaces and list markers, so that every quote is a substring
// of the segment. Boundaries are line breaks, the end of a sentence
// (. ! ? followed by a space or the end), and angle-bracket tags.
func sentences(s string) [][2]int {
	var out [][2]int
	start := 0
	emit := func(a, b int) {
		for a < b && strings.ContainsRune(" \t\r\n-*•#>", rune(s[a])) {
			a++
		}
		for b > a && strings.ContainsRune(" \t\r\n", rune(s[b-1])) {
			b--
		}
		if b > a {
			out = append(out, [2]int{a, b})
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			emit(start, i)
			start = i + 1
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 && j < 40 && !strings.ContainsAny(s[i+1:i+j], " \n") {
				emit(start, i)
				start = i + j + 1
				i += j
			}
		case c == '.' || c == '!' || c == '?':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '\t' {
				emit(start, i+1)
				start = i + 1
			}
		}
	}
	emit(start, len(s))
	return out
}

// classify returns the rule a sentence matches first, if any.
func classify(sent string) (rule, bool) {
	for _, r := range rules {
		ok := true
		for _, p := range r.all {
			if !p.MatchString(sent) {
				ok = false
				break
			}
		}
		for _, p := range r.none {
			if ok && p.MatchString(sent) {
				ok = false
			}
		}
		if ok {
			return r, true
		}
	}
	return rule{}, false
}

func isRouting(sent string) bool {
	for _, p := range routing {
		if p.MatchString(sent) {
			return true
		}
	}
	return false
}

// Analyze applies the rules to every sentence of every segment. It fails
// only when the request's entries are missing, and never touches the
// network.
func (o *Offline) Analyze(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	resp := Response{Analyzer: o.ID(), StopReason: "rules_applied", Proposals: []Proposal{}, Entries: []EntryReport{}}
	for _, e := range req.Entries {
		n := 0
		seen := map[string]bool{}
		for _, seg := range e.Segments {
			for _, r := range sentences(seg) {
				sent := seg[r[0]:r[1]]
				if ru, ok := classify(sent); ok {
					if seen[sent] {
						continue
					}
					seen[sent] = true
					resp.Proposals = append(resp.Proposals, Proposal{
						EntryID: e.ID, Kind: e.Kind, Name: e.Name, File: e.File,
						Quote: sent, Category: ru.category, Rationale: "offline rule " + ru.name,
					})
					continue
				}
				if isRouting(sent) {
					n++
				}
			}
		}
		resp.Entries = append(resp.Entries, EntryReport{EntryID: e.ID, RoutingGuidance: n})
	}
	return resp, nil
}
