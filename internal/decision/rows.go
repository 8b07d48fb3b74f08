// Package decision is the format of a decision (methodology §12): the rows
// `attestari decide` writes into decisions.json and decisions.jsonl, the
// header they rest on, the run diff a cycle writes as diff.json, and the
// gate map written beside them as gate_map.json. It is a leaf: it imports
// only the standard library and other leaves (manifest, methodology, rundir,
// vocab), so the publication format and the store read a decision without
// importing the policy that makes it. It decides nothing: every rule is in
// internal/policy, which keeps these names as aliases.
package decision

import (
	"time"

	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Stamps are what every row carries (docs/methodology.md §12).
type Stamps struct {
	Policy             string    `json:"policy"`
	MethodologyVersion string    `json:"methodology_version"`
	MethodologySHA256  string    `json:"methodology_sha256"`
	CodeCommit         string    `json:"code_commit"`
	CodeDirty          bool      `json:"code_dirty"`
	DecidedAt          time.Time `json:"decided_at"`
	AnalyzerModel      string    `json:"analyzer_model"`
	PromptSHA256       string    `json:"prompt_sha256"`
	PromptSHA256Source string    `json:"prompt_sha256_source"` // recorded, reconstructed, none
	VerifierVersion    string    `json:"verifier_version"`
	ExtractorVersion   string    `json:"extractor_version"`
	// SharedHostsSource is "deciding_machine" when the context tags were
	// computed with the deciding machine's shared hosts (policy.Options
	// .SharedHostsFromMachine); absent when they came from run.json or
	// were not computed.
	SharedHostsSource string `json:"shared_hosts_source,omitempty"`
}

// SharedHostsDecidingMachine is Stamps.SharedHostsSource for a decision
// whose context tags read the deciding machine's shared hosts.
const SharedHostsDecidingMachine = vocab.SharedHostsDecidingMachine

// Subject is the attested manifest every row of a subject carries.
type Subject struct {
	ToolHashes     []manifest.ToolHash `json:"tool_hashes"`
	ManifestHash   string              `json:"manifest_hash,omitempty"`
	ManifestReason string              `json:"manifest_reason,omitempty"`
}

// Blocking is one reason a package is not gradeable, with the guard that
// recorded it and what exactly failed: Detail is the one-line summary; File
// and Line the first place it failed, when a place says it; Names the tools,
// entries, checks, files or findings involved (every one, in the order
// found); Partial, for partial_description, each partial entry no finding
// quotes, with its holes. Everything here is built where the reason is found
// and says what a publisher would change; none of it decides anything. For
// a surface outcome, Names are the places the outcome rests on (file:line).
// Findings lists the findings a reason rests on, apart from Names, so that
// what is served can leave withheld findings out.
type Blocking struct {
	Code    string         `json:"code"`
	Guard   string         `json:"guard"`
	Detail  string         `json:"detail,omitempty"`
	File    string         `json:"file,omitempty"`
	Line    int            `json:"line,omitempty"`
	Names   []string       `json:"names,omitempty"`
	Partial []PartialEntry `json:"partial,omitempty"`
	// Findings are the ids of the findings the reason rests on (G6, G7,
	// evidence_unpublishable). A refused package's findings are withheld, so
	// what is served of such a reason never names or places them.
	Findings []string `json:"findings,omitempty"`
}

// PartialEntry is a partial description as a client would receive it: Text
// is the literal text with the substitutions left out (joined where they
// were), and each hole says where in Text a substitution sits and the source
// it could not read.
type PartialEntry struct {
	Kind  string        `json:"kind"`
	Name  string        `json:"name"`
	File  string        `json:"file"`
	Line  int           `json:"line"`
	Text  string        `json:"text"`
	Holes []PartialHole `json:"holes"`
	// TextWithheld is set ("personal_data") only by publication, when Text
	// and the holes' sources are left out because the package's rows carry
	// personal data.
	TextWithheld string `json:"text_withheld,omitempty"`
}

// PartialHole is one substitution of a partial description: Offset is a byte
// offset into PartialEntry.Text, Line the source line, Source the source
// bytes of the expression.
type PartialHole struct {
	Offset int    `json:"offset"`
	Line   int    `json:"line"`
	Source string `json:"source"`
}

// GateRecord is a gate result: as the run recorded it, or as recomputed.
type GateRecord struct {
	OK      bool     `json:"ok"`
	Reasons []string `json:"reasons"`
}

// MCPSurface is the shape of a package's surface (§12 mcp_surface).
type MCPSurface struct {
	Tools                 int  `json:"tools"`
	Prompts               int  `json:"prompts"`
	PromptTexts           int  `json:"prompt_texts"`
	Resources             int  `json:"resources"`
	ResourceTemplates     int  `json:"resource_templates"`
	Instructions          int  `json:"instructions"`
	ParameterDescriptions int  `json:"parameter_descriptions"`
	Sampling              bool `json:"sampling"`
	Elicitation           bool `json:"elicitation"`
}

// CapabilityRow is a capability inventory entry with its verification at
// decision time (Verification on the embedded entry, and why).
type CapabilityRow struct {
	rundir.Capability
	VerificationDetail string `json:"verification_detail,omitempty"`
}

// Capability verification outcomes.
const (
	CapVerified         = "verified"
	CapNotVerifiable    = "not_verifiable"
	CapFileHashMismatch = "file_hash_mismatch"
	CapFileNotInArchive = "file_not_in_artifact"
	CapSpanOutOfRange   = "span_out_of_range"
	CapExcerptMismatch  = "excerpt_mismatch"
	CapLineMismatch     = "line_mismatch"
)

// FindingCounts counts a package's findings by decision.
type FindingCounts struct {
	Confirmed int `json:"confirmed"`
	Noted     int `json:"noted"`
	Withheld  int `json:"withheld"`
}

// PackageRow is one package's decision.
type PackageRow struct {
	Row string `json:"row"` // "package"
	Stamps
	Subject
	Package             rundir.PackageRef   `json:"package"`
	Verdict             string              `json:"verdict"`
	Grade               string              `json:"grade,omitempty"`
	BlockedBy           []string            `json:"blocked_by,omitempty"`
	Reason              string              `json:"reason,omitempty"` // out_of_scope: not_a_server
	Blocking            []Blocking          `json:"blocking,omitempty"`
	SurfaceOutcome      string              `json:"surface_outcome"`
	ArtifactSHA256      string              `json:"artifact_sha256,omitempty"`
	GateRecorded        *GateRecord         `json:"gate_recorded"`
	GateRecomputed      *GateRecord         `json:"gate_recomputed"`
	Findings            FindingCounts       `json:"findings"`
	HighestConfirmed    string              `json:"highest_confirmed_severity,omitempty"`
	Capabilities        []CapabilityRow     `json:"capabilities"`
	CapabilitiesOmitted int                 `json:"capabilities_omitted"`
	MCPSurface          *MCPSurface         `json:"mcp_surface"`
	DelegatesTo         *rundir.Delegation  `json:"delegates_to,omitempty"`
	DelegatedFrom       []rundir.PackageRef `json:"delegated_from,omitempty"`
	Budget              *rundir.Budget      `json:"budget,omitempty"`
}

// Verification is what G6 and G7 concluded about one finding.
type Verification struct {
	Outcome  string `json:"outcome"`  // verified, failed, not_evaluated
	Excerpt  string `json:"excerpt"`  // G6: verified or why not
	Verifier string `json:"verifier"` // G7: verified, exempt, not_applicable, or the rejection
	Detail   string `json:"detail,omitempty"`
}

// Verification outcomes.
const (
	Verified              = "verified"
	VerifyFailed          = "failed"
	NotEvaluated          = "not_evaluated"
	VerifierNotApplicable = "not_applicable"
	VerifierExempt        = "exempt"
)

// FindingRow is one finding's decision.
type FindingRow struct {
	Row string `json:"row"` // "finding"
	Stamps
	Subject
	ID               string              `json:"id"`
	Package          rundir.PackageRef   `json:"package"`
	Check            string              `json:"check"`
	Tag              string              `json:"tag"`
	Title            string              `json:"title"`
	SurfaceKind      string              `json:"surface_kind,omitempty"`
	EntryName        string              `json:"entry_name,omitempty"`
	Analyzer         string              `json:"analyzer,omitempty"`
	SeverityAssigned string              `json:"severity_assigned"`
	SeverityDecided  string              `json:"severity_decided,omitempty"`
	Decision         string              `json:"decision"`
	Rule             string              `json:"rule"`
	SeverityRules    []string            `json:"severity_rules,omitempty"` // D6, D5 when they applied
	BlockedBy        []string            `json:"blocked_by,omitempty"`
	Evidence         rundir.Evidence     `json:"evidence"`
	EvidenceSHA256   string              `json:"evidence_sha256"`
	ExcerptSHA256    string              `json:"excerpt_sha256"`
	Verification     Verification        `json:"verification"`
	ContextTags      []rundir.ContextTag `json:"context_tags,omitempty"`
	ContextTagsNote  string              `json:"context_tags_note,omitempty"`
}

// Counts summarise a decision.
type Counts struct {
	Packages     int `json:"packages"`
	Graded       int `json:"graded"`
	NotGradeable int `json:"not_gradeable"`
	OutOfScope   int `json:"out_of_scope"`
	// NotExamined counts the candidates the run could not examine as asked
	// (§4): apart from Packages, which counts subjects only.
	NotExamined int            `json:"not_examined"`
	Grades      map[string]int `json:"grades"`
	Reasons     map[string]int `json:"reasons"`
	Findings    FindingCounts  `json:"findings"`
}

// Header is the first row of decisions.jsonl: the stamps and what the
// decision rests on.
type Header struct {
	Row string `json:"row"` // "header"
	Stamps
	RunID                 string                    `json:"run_id"`
	RunStatus             string                    `json:"run_status"`
	RunMethodologyVersion string                    `json:"run_methodology_version"`
	RunMethodologySHA256  string                    `json:"run_methodology_sha256"`
	RunVerifierVersion    string                    `json:"run_verifier_version"`
	PromptLayout          string                    `json:"prompt_layout"`
	PromptVersion         string                    `json:"prompt_version"`
	CandidatesFile        string                    `json:"candidates_file"`
	CandidatesSHA256      string                    `json:"candidates_sha256"`
	Inputs                []rundir.InputFile        `json:"inputs"`
	MissingFiles          []string                  `json:"missing_files"`
	VersionPairAllowed    bool                      `json:"version_pair_allowed"`
	MeasuredChecks        []MeasuredPair            `json:"measured_checks"`
	RunningChecks         []string                  `json:"running_checks"`
	GateMapSHA256         string                    `json:"gate_map_sha256"`
	Counts                Counts                    `json:"counts"`
	Capabilities          map[string]int            `json:"capability_verification"`
	VersionTable          []methodology.VersionPair `json:"version_table"`
}

// Decisions is everything one decision of a run produced.
type Decisions struct {
	Header   Header       `json:"header"`
	Packages []PackageRow `json:"packages"`
	Findings []FindingRow `json:"findings"`
	// NotExamined lists the candidates the run could not examine as asked
	// (§4): not package rows, never published, in no count but their own.
	NotExamined []NotExaminedRow `json:"not_examined"`
}

// MeasuredPair is one (check, tag) pair whose precision has been measured
// (docs/methodology.md §18). Tag "*" stands for every tag of the check.
type MeasuredPair struct {
	Check string `json:"check"`
	Tag   string `json:"tag"`
}

// NotExaminedRow is one candidate the run could not examine as asked. It is
// not a decision about a package: it is never published and never counted
// in the population.
type NotExaminedRow struct {
	Row string `json:"row"` // "not_examined"
	Stamps
	// Package is the candidate as the candidates file asked for it: its
	// version is the specifier when no version was resolved.
	Package rundir.PackageRef `json:"package"`
	Stage   string            `json:"stage"`
	Kind    string            `json:"kind"`
	// Reason is the failure's message: what is wrong, in plain words.
	Reason string `json:"reason"`
}
