// Package analyzer owns the language-model side of model_directed_text: the
// analysis prompt and its evidence encoding, the strict parsing of an
// analyzer's structured answer, and the three analyzers behind one interface
// (Anthropic's Messages API, any OpenAI-compatible chat-completions endpoint,
// and an offline deterministic analyzer that needs no network).
//
// It proposes; it never decides. A proposal is only text an analyzer says it
// saw: the deterministic verifier in internal/checks decides whether it
// becomes a finding. This package must not read surfaces, files or run
// directories, must not import internal/checks or internal/policy, and must
// never name a model provider's host: endpoints and credentials are
// configuration (ATTESTARI_* environment variables or the Config structs).
//
// A refused, truncated, malformed or unparseable answer is an error of a
// fixed class (ErrRefused, ErrTruncated, ErrMalformed, ErrUnavailable) that
// the check records as "not analysed", never as clean.
package analyzer

import (
	"context"
	"errors"
)

// Categories: the only three kinds of proposal that can become findings
// (docs/methodology.md §5.4).
const (
	CategoryExfiltrate = "exfiltrate_data"
	CategoryOverride   = "override_user"
	CategoryConceal    = "conceal_from_user"
)

// Categories lists the three categories in their fixed order.
var Categories = []string{CategoryExfiltrate, CategoryOverride, CategoryConceal}

// ValidCategory reports whether c is one of the three categories.
func ValidCategory(c string) bool {
	for _, k := range Categories {
		if c == k {
			return true
		}
	}
	return false
}

// Analyzer reads one evidence block and proposes quoted spans. ID names the
// analyzer and its model (for example "offline:offline-rules-1" or
// "anthropic:<model>"); it is part of the proposal cache key and rides on
// every finding row, so two analyzers never share cached answers.
type Analyzer interface {
	ID() string
	Analyze(ctx context.Context, req Request) (Response, error)
}

// Entry is one text of a server's surface as the analyzer sees it. Segments
// are the literal segments of the text in order: one for a readable text, and
// for a partial text the pieces between its holes, which the analyzer is told
// never to quote across.
type Entry struct {
	ID       string   `json:"entry_id"`
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	Parent   string   `json:"parent,omitempty"`
	File     string   `json:"file"`
	State    string   `json:"state"`
	Segments []string `json:"segments"`
}

// Request is one analyzer call: the system prompt bytes (whose SHA-256 is
// prompt_sha256), the evidence message (the delimited JSON block; its SHA-256
// is the evidence half of the proposal cache key), and the entries the block
// holds, so an analyzer that needs no model can read them without parsing.
type Request struct {
	SystemPrompt   []byte
	Evidence       []byte
	Entries        []Entry
	PromptSHA256   string
	EvidenceSHA256 string
}

// Proposal is one span an analyzer proposes. EntryID, Quote, Category and
// Rationale come from the answer; Kind, Name and File are filled from the
// request's entry of that id (empty when the answer named an id the request
// does not hold, which the verifier then rejects).
type Proposal struct {
	EntryID   string `json:"entry_id"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	File      string `json:"file"`
	Quote     string `json:"quote"`
	Category  string `json:"category"`
	Rationale string `json:"rationale"`
}

// EntryReport is the analyzer's statement that it read one entry, with the
// number of routing-guidance spans it counted there (ordering, rate and
// "call X first" guidance: counted, never a finding).
type EntryReport struct {
	EntryID         string `json:"entry_id"`
	RoutingGuidance int    `json:"routing_guidance_count"`
}

// Usage is what one Analyze call spent.
type Usage struct {
	Calls        int   `json:"calls"` // HTTP attempts, retries included
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Response is a parsed, strictly valid answer. Entries lists every entry the
// answer reports on; an entry of the request missing from it was not
// analysed.
type Response struct {
	Analyzer   string        `json:"analyzer"`
	Model      string        `json:"model,omitempty"`
	StopReason string        `json:"stop_reason"`
	Proposals  []Proposal    `json:"proposals"`
	Entries    []EntryReport `json:"entries"`
	Usage      Usage         `json:"usage"`
	// Answer is the answer's bytes exactly as they arrived (the tool_use
	// input, the message content or the tool call's arguments), set by the
	// network analyzers whenever an answer arrived, parsed or not, so an
	// evaluation can record it and rescore it offline (internal/eval).
	Answer []byte `json:"-"`
}

// Failure classes. Every error Analyze returns wraps exactly one of them
// (errors.Is); Reason maps each to the not_analyzed reason recorded.
var (
	// ErrRefused: the model declined to answer (a refusal stop reason, a
	// refusal message, a content filter).
	ErrRefused = errors.New("analyzer refused")
	// ErrTruncated: the answer was cut off (max_tokens, length, context window).
	ErrTruncated = errors.New("analyzer answer truncated")
	// ErrMalformed: an answer arrived and does not parse exactly as the schema.
	ErrMalformed = errors.New("analyzer answer malformed")
	// ErrUnavailable: no answer: retries exhausted, a client error status,
	// a transport failure, a timeout.
	ErrUnavailable = errors.New("analyzer unavailable")
	// ErrEvidence: the evidence could not be encoded as a block the
	// delimiter cannot appear in.
	ErrEvidence = errors.New("evidence not encodable")
)

// Not-analysed reasons for entries an analyzer call did not cover.
const (
	ReasonRefused     = "analyzer_refused"
	ReasonTruncated   = "analyzer_truncated"
	ReasonMalformed   = "analyzer_malformed"
	ReasonUnavailable = "analyzer_unavailable"
	ReasonEvidence    = "evidence_not_encodable"
	ReasonCancelled   = "analysis_cancelled"
	ReasonError       = "analyzer_error"
)

// Reason is the not_analyzed reason for an Analyze error.
func Reason(err error) string {
	switch {
	case errors.Is(err, ErrRefused):
		return ReasonRefused
	case errors.Is(err, ErrTruncated):
		return ReasonTruncated
	case errors.Is(err, ErrMalformed):
		return ReasonMalformed
	case errors.Is(err, ErrEvidence):
		return ReasonEvidence
	case errors.Is(err, ErrUnavailable):
		return ReasonUnavailable
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ReasonCancelled
	default:
		return ReasonError
	}
}
