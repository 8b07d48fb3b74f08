// Package policy owns the decision rules of docs/methodology.md §9–§12: the
// version-table check, the fail-closed gate and guards G1–G7, decisions
// D1–D6 with MEASURED_CHECKS, the grade ladder, the gate map (GATE_MAP) and
// the decision rows.
//
// It reads a run directory (internal/rundir) and the blobs it cites, and
// nothing else: no network, no model, no database, no clock it was not given.
// It must not change a run's files; it writes only decisions.* and
// gate_map.json beside them.
package policy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/rundir"
)

// Reason codes (docs/methodology.md §9). Each is stable: it is stored on
// decision rows, in the database and in publications, and served to readers.
const (
	CodeVersionPairNotAllowed = "version_pair_not_allowed"

	CodeGateNotRecorded      = "gate_not_recorded"       // G1
	CodeGateFailedAsRecorded = "gate_failed_as_recorded" // G2
	CodeGateNotRecomputable  = "gate_not_recomputable"   // G3

	// The gate's own codes (recorded in G2, recomputed in G3), in order.
	CodeMinifiedOnly              = "minified_only"
	CodeRuntimeGenerated          = "runtime_generated"
	CodeDeclarationNotParsed      = "declaration_not_parsed"
	CodeNoRegistrationSite        = "no_registration_site"
	CodeArchiveUnreadable         = "archive_unreadable"
	CodeExtractionBudgetExceeded  = "extraction_budget_exceeded"
	CodeAdvertisedToolsNotParsed  = "advertised_tools_not_parsed"
	CodeNoSurfaceExamined         = "no_surface_examined"
	CodeNotAnalyzed               = "not_analyzed"
	CodePartialDescription        = "partial_description"
	CodeModelCheckSkipped         = "model_check_skipped"
	CodeNotAnalyzedRecorded       = "not_analyzed_recorded" // G4
	CodeCheckMissing              = "check_missing"         // G5
	CodeCheckFailed               = "check_failed"          // G5
	CodeExcerptUnverified         = "excerpt_unverified"    // G6
	CodeVerifierRejected          = "verifier_rejected"     // G7
	CodeNotAServer                = "not_a_server"          // D4: out of scope, not a refusal
	CodeEvidenceUnpublishable     = "evidence_unpublishable"
	guardVersion, guardD4, guardP = "version", "D4", "publish"
)

// GateEntry is one row of the gate map: a reason code, the guard or decision
// that records it, and one line a website reader understands.
type GateEntry struct {
	Code  string `json:"code"`
	Guard string `json:"guard"`
	Line  string `json:"line"`
}

// GateMap is GATE_MAP: every reason code a decision or a publication can
// record, in the order of docs/methodology.md §9. The lines are the table of
// that section word for word; the website reads the exported file.
var GateMap = []GateEntry{
	{CodeVersionPairNotAllowed, guardVersion, "The surface was read by an extractor version this methodology version does not describe, so nothing is decided under it."},
	{CodeGateNotRecorded, "G1", "The run recorded no gate result for this package (or no gate file at all)."},
	{CodeGateFailedAsRecorded, "G2", "The run's own gate said this package cannot be graded."},
	{CodeGateNotRecomputable, "G3", "There is no surface row for this package, so the gate could not be checked again."},
	{CodeMinifiedOnly, "G3", "The tools are registered only inside minified or obfuscated bundles, which no one can inspect."},
	{CodeRuntimeGenerated, "G3", "The server builds its tools from external data when it runs, so they are not in the package."},
	{CodeDeclarationNotParsed, "G3", "The package registers tools in readable source that the extractor could not read."},
	{CodeNoRegistrationSite, "G3", "No place in the source registers a tool, prompt or resource."},
	{CodeArchiveUnreadable, "G3", "The downloaded package is not a tar or zip archive that can be read safely."},
	{CodeExtractionBudgetExceeded, "G3", "Reading the source went past the per-package budget (time, memory, resolution steps, nesting depth or the entries cap), so it was not read in full."},
	{CodeAdvertisedToolsNotParsed, "G3", "The package names a tool (in its manifest, server.json or README) that was not found where tools are registered."},
	{CodeNoSurfaceExamined, "G3", "No tool, prompt, resource or resource template was found to examine."},
	{CodeNotAnalyzed, "G3", "At least one description or text the model receives could not be read or was not analysed."},
	{CodePartialDescription, "G3", "A description is built from parts not in the source, and nothing was found in the parts that are."},
	{CodeModelCheckSkipped, "G3", "The check for instructions aimed at the model was skipped for this package."},
	{CodeNotAnalyzedRecorded, "G4", "The run recorded an entry as not analysed."},
	{CodeCheckMissing, "G5", "A check that always runs has no result for this package."},
	{CodeCheckFailed, "G5", "A check or the fetch crashed on this package."},
	{CodeExcerptUnverified, "G6", "A finding's quoted text was not found in the stored evidence it cites."},
	{CodeVerifierRejected, "G7", "A model finding's quote does not lie inside the text of a declared entry."},
	{CodeNotAServer, guardD4, "The package is not an MCP server (a client, SDK or tool around one); it is out of scope, not refused."},
	{CodeEvidenceUnpublishable, guardP, "A finding's evidence cannot be published without personal data, so the package is published as not gradeable."},
}

// GateEntryFor returns the gate map's entry for code.
func GateEntryFor(code string) (GateEntry, bool) {
	for _, e := range GateMap {
		if e.Code == code {
			return e, true
		}
	}
	return GateEntry{}, false
}

// emittedCodes lists every code this package's code can write, in one place
// so the gate map test can check each has an entry. Add a code here when a
// new path records it.
var emittedCodes = []string{
	CodeVersionPairNotAllowed, CodeGateNotRecorded, CodeGateFailedAsRecorded, CodeGateNotRecomputable,
	CodeMinifiedOnly, CodeRuntimeGenerated, CodeDeclarationNotParsed, CodeNoRegistrationSite,
	CodeArchiveUnreadable, CodeExtractionBudgetExceeded, CodeAdvertisedToolsNotParsed, CodeNoSurfaceExamined,
	CodeNotAnalyzed, CodePartialDescription, CodeModelCheckSkipped, CodeNotAnalyzedRecorded,
	CodeCheckMissing, CodeCheckFailed, CodeExcerptUnverified, CodeVerifierRejected, CodeNotAServer,
}

// gateMapDoc is the exported shape (openapi.yaml GateMap).
type gateMapDoc struct {
	MethodologyVersion string      `json:"methodology_version"`
	Codes              []GateEntry `json:"codes"`
}

// ExportGateMap returns the bytes of gate_map.json: the map of the
// methodology in force, encoded like every run file.
func ExportGateMap() []byte {
	b, err := rundir.Marshal(gateMapDoc{MethodologyVersion: methodology.Version, Codes: GateMap})
	if err != nil {
		// Marshal of strings cannot fail; a failure is a build defect.
		panic("policy: gate map does not encode: " + err.Error())
	}
	return b
}

// Check ids (docs/methodology.md §5). Only the first three run; the gate
// requires a result row of each of those and of nothing else.
const (
	CheckProvenance        = "publisher_provenance"
	CheckSurface           = "undetermined_tool_surface"
	CheckModel             = "model_directed_text"
	TagReassigned          = "description_reassigned_at_runtime"
	outcomeParsed          = "parsed"
	outcomeNotAServer      = "not_a_server"
	modelOutcomeSkipped    = "skipped"
	modelOutcomeUnreadable = "descriptions_not_statically_readable"
)

// RunningChecks are the checks that run and must each have a result row (G5).
var RunningChecks = []string{CheckProvenance, CheckSurface, CheckModel}

// Description states (docs/methodology.md §5.2).
const (
	StateReadable   = "readable"
	StatePartial    = "partial"
	StateUnreadable = "unreadable"
	StateAbsent     = "absent"
)

// refusingOutcomes are the surface outcomes that refuse the grade under a
// code of the same name, in the gate's order.
var refusingOutcomes = []string{
	CodeMinifiedOnly, CodeRuntimeGenerated, CodeDeclarationNotParsed,
	CodeNoRegistrationSite, CodeArchiveUnreadable, CodeExtractionBudgetExceeded,
}

// Gradeability is the gate (docs/methodology.md §9, "the gate's own codes"):
// the function the pipeline runs to write gradeable.json and that G3 runs
// again at decision time. It reads the package's result rows, its surface row
// and its findings, and returns every reason it finds, in the section's order.
// Rows of other packages are ignored, so callers may pass a whole run's rows.
//
// not_a_server is not a gate code: it is decided as out of scope (D4) before
// the gate applies. Here it yields ok=false with the reason not_a_server, so
// that a gradeable.json row never says ok for a package that is not graded.
// A nil surface cannot be recomputed: ok=false, gate_not_recomputable.
func Gradeability(results []rundir.Result, surface *rundir.Surface, findings []rundir.Finding) (ok bool, reasons []string) {
	if surface == nil {
		return false, []string{CodeGateNotRecomputable}
	}
	pkg := surface.Package.Key()
	add := func(code string) {
		for _, r := range reasons {
			if r == code {
				return
			}
		}
		reasons = append(reasons, code)
	}

	// 1. the surface outcome. An outcome the methodology does not name is a
	// surface the gate cannot read: fail closed.
	switch surface.Outcome {
	case outcomeParsed:
	case outcomeNotAServer:
		return false, []string{CodeNotAServer}
	default:
		known := false
		for _, o := range refusingOutcomes {
			if surface.Outcome == o {
				add(o)
				known = true
			}
		}
		if !known {
			add(CodeGateNotRecomputable)
		}
	}

	// 2. advertised tool names, compared byte for byte with parsed names.
	parsed := make(map[string]bool, len(surface.Tools))
	for _, t := range surface.Tools {
		parsed[t.Name] = true
	}
	for _, a := range surface.AdvertisedTools {
		// A stale advertisement (a name that occurs nowhere in the package's
		// source, methodology §5.2) is recorded on the row and refuses nothing.
		if !parsed[a.Name] && !a.Stale {
			add(CodeAdvertisedToolsNotParsed)
			break
		}
	}

	// 3. nothing examined: instructions and parameter descriptions alone do
	// not make a surface.
	if surface.Outcome == outcomeParsed && len(surface.Tools)+len(surface.Prompts)+len(surface.Resources)+len(surface.ResourceTemplates) == 0 {
		add(CodeNoSurfaceExamined)
	}

	var model *rundir.Result
	for i := range results {
		if results[i].Package.Key() == pkg && results[i].Check == CheckModel {
			model = &results[i]
			break
		}
	}

	// 4. not analysed: an unreadable entry of any kind (a state not recorded,
	// or not one of the four, counts as unreadable), or the model check's
	// result says an entry was not analysed.
	entries := surface.AllEntries()
	for _, e := range entries {
		switch e.DescriptionState {
		case StateReadable, StatePartial, StateAbsent:
		default:
			add(CodeNotAnalyzed)
		}
	}
	if model != nil && (len(model.NotAnalyzed) > 0 || model.Outcome == modelOutcomeUnreadable) {
		add(CodeNotAnalyzed)
	}

	// 5. a partial entry no finding quotes, unless a model finding of
	// severity high already places the package at F.
	high := false
	for _, f := range findings {
		if f.Package.Key() == pkg && f.Check == CheckModel && f.Severity == SeverityHigh {
			high = true
		}
	}
	if !high {
		for _, e := range entries {
			if e.DescriptionState == StatePartial && !quoted(findings, pkg, e) {
				add(CodePartialDescription)
				break
			}
		}
	}

	// 6. the model check was skipped.
	if model != nil && model.Outcome == modelOutcomeSkipped {
		add(CodeModelCheckSkipped)
	}
	return len(reasons) == 0, reasons
}

// quoted reports whether a model finding of pkg quotes entry e. A prompt's
// message text is reported as surface_kind prompt under the prompt's name.
func quoted(findings []rundir.Finding, pkg string, e rundir.Entry) bool {
	for _, f := range findings {
		if f.Package.Key() != pkg || f.Check != CheckModel || f.Tag == TagReassigned {
			continue
		}
		kind := f.SurfaceKind
		if kind == "" {
			kind = "tool"
		}
		switch {
		case kind == e.Kind && f.EntryName == e.Name:
			return true
		case e.Kind == "prompt_text" && kind == "prompt" && f.EntryName == e.Parent:
			return true
		}
	}
	return false
}

// PolicyName is the name of the decision policy every row cites.
const PolicyName = "severity-ladder"

// Severities (docs/methodology.md §6).
const (
	SeverityHigh   = "high"
	SeverityMedium = "medium"
	SeverityLow    = "low"
	SeverityInfo   = "info"
)

var severityRank = map[string]int{SeverityInfo: 0, SeverityLow: 1, SeverityMedium: 2, SeverityHigh: 3}

// Verdicts of a package row.
const (
	VerdictGraded       = "graded"
	VerdictNotGradeable = "not_gradeable"
	VerdictOutOfScope   = "out_of_scope"
)

// Finding decisions.
const (
	DecisionConfirmed = "confirmed" // D1
	DecisionNoted     = "noted"     // D2
	DecisionWithheld  = "withheld"  // D3, D4
)

// MeasuredPair is one (check, tag) pair whose precision has been measured
// (docs/methodology.md §18). Tag "*" stands for every tag of the check.
type MeasuredPair struct {
	Check string `json:"check"`
	Tag   string `json:"tag"`
}

// MeasuredChecks is MEASURED_CHECKS: the only pairs that may place a finding
// above info (D5). Adding a pair is a methodology change citing §18.
var MeasuredChecks = []MeasuredPair{{Check: CheckModel, Tag: "*"}}

// Measured reports whether (check, tag) is in MeasuredChecks.
func Measured(check, tag string) bool {
	for _, p := range MeasuredChecks {
		if p.Check == check && (p.Tag == "*" || p.Tag == tag) {
			return true
		}
	}
	return false
}

// Options carries what a decision needs besides the run: the clock and the
// code's identity. Every field is optional except Now.
type Options struct {
	Now        func() time.Time
	CodeCommit string
	CodeDirty  bool
	// PromptSHA256 is the SHA-256 of the findings prompt of the deciding code,
	// stamped as reconstructed only when the run header recorded none.
	PromptSHA256 string
	// OpenArtifact opens a stored artifact's bytes and returns a reader of its
	// members by path (internal/artifact wired by cmd/attestari). With it, a
	// capability whose file is not itself a blob is verified against the
	// artifact; without it, such a capability is not_verifiable.
	OpenArtifact func(ctx context.Context, data []byte) (func(path string) ([]byte, bool), error)
	// ContextTags computes the exfiltrate_data context tags at decision time
	// (internal/checks exfil_context). Nil keeps the tags the run recorded.
	ContextTags func(ctx context.Context, f rundir.Finding, s *rundir.Surface, member func(path string) ([]byte, bool)) ([]rundir.ContextTag, error)
}

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
}

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

// ErrMethodologyMismatch is returned when the embedded methodology document's
// version line differs from methodology.Version: the policy refuses to decide
// beside a document it does not match (§21).
var ErrMethodologyMismatch = errors.New("methodology document and code disagree")

// ErrNotARunDirectory is returned when a directory holds none of a run's files.
var ErrNotARunDirectory = errors.New("not a run directory")

// InvalidRowError reports a run-file row the policy cannot decide on at all
// (a finding with no id, or a severity outside §6). It fails the whole
// decision with one clear error instead of guessing.
type InvalidRowError struct {
	File   string
	Row    int
	Reason string
}

func (e *InvalidRowError) Error() string {
	return fmt.Sprintf("%s row %d: %s", e.File, e.Row, e.Reason)
}

// Decide decides every package of the run in runDir under the methodology
// in force, reading blobs through blobs. A run file that is missing is a
// recorded reason on every package it concerns; a file that is not JSON of
// the expected shape, or a row that cannot be decided, is an error.
func Decide(ctx context.Context, runDir string, blobs Blobs, opts Options) (*Decisions, error) {
	if opts.Now == nil {
		return nil, errors.New("policy: decide: Options.Now is required")
	}
	if v, err := methodology.ParseVersionLine(methodology.Document()); err != nil || v != methodology.Version {
		return nil, fmt.Errorf("policy: decide: %w: the document says %q (%v), the code says %s", ErrMethodologyMismatch, v, err, methodology.Version)
	}
	files, err := rundir.Read(runDir)
	if err != nil {
		return nil, fmt.Errorf("policy: decide %s: %w", runDir, err)
	}
	if len(files.Missing) == len(rundir.SevenFiles)+1 {
		return nil, fmt.Errorf("policy: decide %s: %w: none of run.json and the seven run files exists", runDir, ErrNotARunDirectory)
	}
	if err := validate(files); err != nil {
		return nil, fmt.Errorf("policy: decide %s: %w", runDir, err)
	}
	d := newDecider(ctx, files, blobs, opts)
	return d.run()
}

// validate rejects rows that no rule can decide.
func validate(f *rundir.Files) error {
	seen := map[string]bool{}
	for i, x := range f.Findings {
		if x.ID == "" {
			return &InvalidRowError{File: rundir.FindingsFile, Row: i, Reason: "finding has no id"}
		}
		if seen[x.ID] {
			return &InvalidRowError{File: rundir.FindingsFile, Row: i, Reason: fmt.Sprintf("duplicate finding id %q", x.ID)}
		}
		seen[x.ID] = true
		if _, ok := severityRank[x.Severity]; !ok {
			return &InvalidRowError{File: rundir.FindingsFile, Row: i, Reason: fmt.Sprintf("finding %s has severity %q, not one of high, medium, low, info", x.ID, x.Severity)}
		}
	}
	return nil
}

func has(missing []string, name string) bool { return slices.Contains(missing, name) }

// perPackage holds one package's rows of every run file.
type perPackage struct {
	ref         rundir.PackageRef
	surfaces    []*rundir.Surface
	gradeable   []rundir.Gradeable
	results     []rundir.Result
	findings    []rundir.Finding
	notAnalyzed []rundir.NotAnalyzed
	failures    []rundir.Failure
	records     []rundir.Record
	// joined: the package is in the run because a package of it delegates
	// to it (summary.json joined_by), not because the candidates file lists it.
	joined bool
}

// grouped is a run's rows by package, in key order, and who delegates to whom.
type grouped struct {
	pkgs      map[string]*perPackage
	keys      []string
	delegated map[string][]rundir.PackageRef
}

// groupRun sorts every row of the run files by package.
func groupRun(f *rundir.Files) grouped {
	g := grouped{pkgs: map[string]*perPackage{}, delegated: map[string][]rundir.PackageRef{}}
	get := func(ref rundir.PackageRef) *perPackage {
		k := ref.Key()
		p, ok := g.pkgs[k]
		if !ok {
			p = &perPackage{ref: ref}
			g.pkgs[k] = p
			g.keys = append(g.keys, k)
		}
		return p
	}
	for i := range f.Surfaces {
		s := &f.Surfaces[i]
		p := get(s.Package)
		p.surfaces = append(p.surfaces, s)
		if t := s.DelegatesTo; t != nil && t.ResolvedVersion != "" {
			target := rundir.PackageRef{Registry: t.Registry, Name: t.Name, Version: t.ResolvedVersion}.Key()
			g.delegated[target] = append(g.delegated[target], s.Package)
		}
	}
	for _, x := range f.Gradeable {
		p := get(x.Package)
		p.gradeable = append(p.gradeable, x)
	}
	for _, r := range f.Results {
		p := get(r.Package)
		p.results = append(p.results, r)
	}
	for _, x := range f.Findings {
		p := get(x.Package)
		p.findings = append(p.findings, x)
	}
	for _, n := range f.NotAnalyzed {
		p := get(n.Package)
		p.notAnalyzed = append(p.notAnalyzed, n)
	}
	for _, s := range f.Summary.Packages {
		p := get(s.Package)
		p.failures = append(p.failures, s.Failures...)
		p.joined = p.joined || s.JoinedBy != ""
	}
	for _, r := range f.Records {
		p := get(r.Package)
		p.records = append(p.records, r)
	}
	sort.Strings(g.keys)
	return g
}

type decider struct {
	ctx       context.Context
	files     *rundir.Files
	opts      Options
	blobs     *blobCache
	stamps    Stamps
	headerOK  bool
	headerWhy string
	pkgs      map[string]*perPackage
	keys      []string
	delegated map[string][]rundir.PackageRef
	capCounts map[string]int
}

func newDecider(ctx context.Context, f *rundir.Files, blobs Blobs, opts Options) *decider {
	d := &decider{ctx: ctx, files: f, opts: opts, blobs: newBlobCache(blobs), capCounts: map[string]int{}}
	h := f.Header
	d.stamps = Stamps{
		Policy:             PolicyName,
		MethodologyVersion: methodology.Version,
		MethodologySHA256:  methodology.SHA256(),
		CodeCommit:         opts.CodeCommit,
		CodeDirty:          opts.CodeDirty,
		DecidedAt:          opts.Now().UTC(),
		AnalyzerModel:      h.AnalyzerModel,
		PromptSHA256:       h.PromptSHA256,
		PromptSHA256Source: "recorded",
		VerifierVersion:    checks.VerifierVersion,
		ExtractorVersion:   h.ExtractorVersion,
	}
	if h.PromptSHA256 == "" {
		d.stamps.PromptSHA256, d.stamps.PromptSHA256Source = opts.PromptSHA256, "reconstructed"
		if opts.PromptSHA256 == "" {
			d.stamps.PromptSHA256Source = "none"
		}
	}
	switch {
	case has(f.Missing, rundir.HeaderFile):
		d.headerWhy = "run.json is missing, so the extractor version of the run is unknown"
	case !methodology.ExtractorAllowed(methodology.Version, h.ExtractorVersion):
		d.headerWhy = fmt.Sprintf("the run header's extractor %q is not paired with methodology %s in the version table", h.ExtractorVersion, methodology.Version)
	default:
		d.headerOK = true
	}

	g := groupRun(f)
	d.pkgs, d.keys, d.delegated = g.pkgs, g.keys, g.delegated
	return d
}

func (d *decider) run() (*Decisions, error) {
	out := &Decisions{Packages: make([]PackageRow, 0, len(d.keys)), Findings: []FindingRow{}, NotExamined: []NotExaminedRow{}}
	counts := Counts{Grades: map[string]int{}, Reasons: map[string]int{}}
	recordsMissing := has(d.files.Missing, rundir.RecordsFile)
	for _, k := range d.keys {
		if err := d.ctx.Err(); err != nil {
			return nil, fmt.Errorf("policy: decide: %w", err)
		}
		// Before everything, the version table included: a candidate the
		// run could not examine as asked is not a subject (§4, §9).
		if fl, ok := notExamined(d.pkgs[k], recordsMissing); ok {
			out.NotExamined = append(out.NotExamined, NotExaminedRow{Row: "not_examined", Stamps: d.stamps,
				Package: d.pkgs[k].ref, Stage: fl.Stage, Kind: fl.Kind, Reason: fl.Message})
			counts.NotExamined++
			continue
		}
		row, frows, err := d.decidePackage(d.pkgs[k])
		if err != nil {
			return nil, err
		}
		d.blobs.reset()
		out.Packages = append(out.Packages, row)
		out.Findings = append(out.Findings, frows...)
		counts.Packages++
		switch row.Verdict {
		case VerdictGraded:
			counts.Graded++
			counts.Grades[row.Grade]++
		case VerdictNotGradeable:
			counts.NotGradeable++
			for _, c := range row.BlockedBy {
				counts.Reasons[c]++
			}
		case VerdictOutOfScope:
			counts.OutOfScope++
			counts.Reasons[row.Reason]++
		}
		counts.Findings.Confirmed += row.Findings.Confirmed
		counts.Findings.Noted += row.Findings.Noted
		counts.Findings.Withheld += row.Findings.Withheld
	}
	h := d.files.Header
	missing := d.files.Missing
	if missing == nil {
		missing = []string{}
	}
	inputs := d.files.Inputs
	if inputs == nil {
		inputs = []rundir.InputFile{}
	}
	out.Header = Header{
		Row:                   "header",
		Stamps:                d.stamps,
		RunID:                 h.RunID,
		RunStatus:             h.Status,
		RunMethodologyVersion: h.MethodologyVersion,
		RunMethodologySHA256:  h.MethodologySHA256,
		RunVerifierVersion:    h.VerifierVersion,
		PromptLayout:          h.PromptLayout,
		PromptVersion:         h.PromptVersion,
		CandidatesFile:        h.CandidatesFile,
		CandidatesSHA256:      h.CandidatesSHA256,
		Inputs:                inputs,
		MissingFiles:          missing,
		VersionPairAllowed:    d.headerOK,
		MeasuredChecks:        MeasuredChecks,
		RunningChecks:         RunningChecks,
		GateMapSHA256:         rundir.SHA256Hex(ExportGateMap()),
		Counts:                counts,
		Capabilities:          d.capCounts,
		VersionTable:          methodology.VersionTable(),
	}
	return out, nil
}

// block records a reason once per code, in order: the first detail, file and
// line win; later additions of the same code add the names not yet listed.
type blocker struct{ list []Blocking }

func (b *blocker) add(code, detail string) {
	b.addAt(Blocking{Code: code, Detail: detail})
}

func (b *blocker) addAt(r Blocking) {
	for i := range b.list {
		if x := &b.list[i]; x.Code == r.Code {
			for _, n := range r.Names {
				if !slices.Contains(x.Names, n) {
					x.Names = append(x.Names, n)
				}
			}
			for _, n := range r.Findings {
				if !slices.Contains(x.Findings, n) {
					x.Findings = append(x.Findings, n)
				}
			}
			x.Partial = append(x.Partial, r.Partial...)
			return
		}
	}
	g, _ := GateEntryFor(r.Code)
	r.Guard = g.Guard
	b.list = append(b.list, r)
}

func (b *blocker) codes() []string {
	out := make([]string, len(b.list))
	for i, x := range b.list {
		out[i] = x.Code
	}
	return out
}

func (d *decider) decidePackage(p *perPackage) (PackageRow, []FindingRow, error) {
	var surface *rundir.Surface
	if len(p.surfaces) == 1 {
		surface = p.surfaces[0]
	}
	att := manifest.Compute(surface)
	stamps := d.stamps
	row := PackageRow{
		Row: "package", Stamps: stamps, Package: p.ref,
		Subject:      Subject{ToolHashes: att.Tools, ManifestHash: att.ManifestHash, ManifestReason: att.Reason},
		Capabilities: []CapabilityRow{},
	}
	if surface != nil {
		row.ExtractorVersion = surface.ExtractorVersion
		row.SurfaceOutcome = surface.Outcome
		row.ArtifactSHA256 = surface.ArtifactSHA256
		row.MCPSurface = &MCPSurface{
			Tools: len(surface.Tools), Prompts: len(surface.Prompts), PromptTexts: len(surface.PromptTexts),
			Resources: len(surface.Resources), ResourceTemplates: len(surface.ResourceTemplates),
			Instructions: len(surface.Instructions), ParameterDescriptions: len(surface.ParameterDescriptions),
			Sampling: surface.Sampling != nil, Elicitation: surface.Elicitation != nil,
		}
		row.DelegatesTo = surface.DelegatesTo
		b := surface.Budget
		row.Budget = &b
		row.CapabilitiesOmitted = surface.CapabilitiesOmitted
	}
	// Every package of the run that delegates to this one (methodology §4),
	// once each, in key order whatever order the surfaces came in.
	if from := d.delegated[p.ref.Key()]; len(from) > 0 {
		from = slices.Clone(from)
		slices.SortFunc(from, func(a, b rundir.PackageRef) int { return strings.Compare(a.Key(), b.Key()) })
		row.DelegatedFrom = slices.Compact(from)
	}
	if len(p.gradeable) > 0 {
		g := &GateRecord{OK: true, Reasons: []string{}}
		for _, r := range p.gradeable {
			g.OK = g.OK && r.OK
			for _, c := range r.Reasons {
				if !slices.Contains(g.Reasons, c) {
					g.Reasons = append(g.Reasons, c)
				}
			}
		}
		row.GateRecorded = g
	}

	var art *artifactMembers
	if surface != nil {
		art = &artifactMembers{d: d, sha: surface.ArtifactSHA256}
		caps, err := d.verifyCapabilities(surface, art)
		if err != nil {
			return row, nil, err
		}
		row.Capabilities = caps
	}

	// Before the guards: the version table, then scope (§9).
	var b blocker
	evaluated := false
	switch {
	case !d.headerOK:
		b.add(CodeVersionPairNotAllowed, d.headerWhy)
	case surface != nil && !methodology.ExtractorAllowed(methodology.Version, surface.ExtractorVersion):
		b.add(CodeVersionPairNotAllowed, fmt.Sprintf("the surface row's extractor %q is not paired with methodology %s in the version table", surface.ExtractorVersion, methodology.Version))
	case surface != nil && surface.Outcome == outcomeNotAServer:
		row.Verdict, row.Reason = VerdictOutOfScope, CodeNotAServer
	default:
		evaluated = true
	}

	verifs := make([]Verification, len(p.findings))
	for i := range verifs {
		verifs[i] = Verification{Outcome: NotEvaluated, Excerpt: NotEvaluated, Verifier: NotEvaluated}
	}
	if evaluated {
		if err := d.guards(p, surface, &b, &row, verifs, art); err != nil {
			return row, nil, err
		}
	}

	if row.Verdict == "" {
		if len(b.list) == 0 {
			row.Verdict = VerdictGraded
		} else {
			row.Verdict = VerdictNotGradeable
			row.BlockedBy = b.codes()
			row.Blocking = b.list
		}
	}

	frows, err := d.decideFindings(p, surface, &row, verifs, art)
	if err != nil {
		return row, nil, err
	}
	return row, frows, nil
}

// guards evaluates G1–G7 in order, recording every failure.
func (d *decider) guards(p *perPackage, surface *rundir.Surface, b *blocker, row *PackageRow, verifs []Verification, art *artifactMembers) error {
	missing := d.files.Missing

	// G1 and G2.
	switch {
	case has(missing, rundir.GradeableFile):
		b.add(CodeGateNotRecorded, "gradeable.json is missing")
	case len(p.gradeable) == 0:
		b.add(CodeGateNotRecorded, "gradeable.json has no row for the package")
	case !row.GateRecorded.OK:
		b.addAt(Blocking{Code: CodeGateFailedAsRecorded, Detail: "recorded reasons: " + strings.Join(row.GateRecorded.Reasons, ", "), Names: slices.Clone(row.GateRecorded.Reasons)})
	}

	// G3.
	switch {
	case has(missing, rundir.SurfacesFile):
		b.add(CodeGateNotRecomputable, "surfaces.json is missing")
	case len(p.surfaces) == 0:
		b.add(CodeGateNotRecomputable, "surfaces.json has no row for the package")
	case len(p.surfaces) > 1:
		b.add(CodeGateNotRecomputable, fmt.Sprintf("surfaces.json has %d rows for the package", len(p.surfaces)))
	case has(missing, rundir.ResultsFile):
		b.add(CodeGateNotRecomputable, "results.json is missing")
	case has(missing, rundir.FindingsFile):
		b.add(CodeGateNotRecomputable, "findings.json is missing")
	default:
		ok, reasons := Gradeability(p.results, surface, p.findings)
		row.GateRecomputed = &GateRecord{OK: ok, Reasons: reasons}
		if reasons == nil {
			row.GateRecomputed.Reasons = []string{}
		}
		for _, c := range reasons {
			b.addAt(gateBlocking(c, surface, p.results, p.findings))
		}
	}

	// G4.
	switch {
	case has(missing, rundir.NotAnalyzedFile):
		b.add(CodeNotAnalyzedRecorded, "not_analyzed.json is missing, so nothing can show every entry was analysed")
	default:
		r := Blocking{Code: CodeNotAnalyzedRecorded}
		n := 0
		for _, list := range append([][]rundir.NotAnalyzed{p.notAnalyzed}, resultsNotAnalyzed(p.results)...) {
			for _, x := range list {
				n++
				r.firstPlace(x.File, x.Line)
				r.addName(entryLabel(x.Kind, x.Name))
			}
		}
		if n > 0 {
			r.Detail = fmt.Sprintf("%d not-analysed entries recorded", n)
			b.addAt(r)
		}
	}

	// G5: check_missing before check_failed, as §9 lists them.
	if has(missing, rundir.ResultsFile) {
		b.add(CodeCheckMissing, "results.json is missing")
	} else {
		for _, c := range RunningChecks {
			if !slices.ContainsFunc(p.results, func(r rundir.Result) bool { return r.Check == c }) {
				b.addAt(Blocking{Code: CodeCheckMissing, Detail: "no result row for " + c, Names: []string{c}})
			}
		}
	}
	for _, r := range p.results {
		if r.Outcome == "error" || r.Outcome == "failed" {
			b.addAt(Blocking{Code: CodeCheckFailed, Detail: fmt.Sprintf("%s result says %s: %s", r.Check, r.Outcome, r.Detail), Names: []string{r.Check}})
		}
	}
	if has(missing, rundir.SummaryFile) {
		b.add(CodeCheckFailed, "summary.json is missing, so no crash can be ruled out")
	}
	for _, f := range p.failures {
		if f.Stage == "fetch" || slices.Contains(RunningChecks, f.Stage) || f.Stack != "" {
			b.addAt(Blocking{Code: CodeCheckFailed, Detail: fmt.Sprintf("stage %s failed: %s", f.Stage, f.Kind), Names: []string{f.Stage}})
		}
	}

	// G6.
	if has(missing, rundir.FindingsFile) {
		b.add(CodeExcerptUnverified, "findings.json is missing, so no finding can be verified")
	}
	for i, f := range p.findings {
		outcome, detail, err := d.verifyExcerpt(f)
		if err != nil {
			return err
		}
		verifs[i].Excerpt, verifs[i].Detail = outcome, detail
		if outcome != Verified {
			b.addAt(Blocking{Code: CodeExcerptUnverified, Detail: fmt.Sprintf("finding %s: %s %s", f.ID, outcome, detail), File: f.Evidence.Path, Line: f.Evidence.LineStart, Findings: []string{f.ID}})
		}
	}

	// G7.
	for i, f := range p.findings {
		switch {
		case f.Check != CheckModel:
			verifs[i].Verifier = VerifierNotApplicable
		case f.Tag == TagReassigned:
			verifs[i].Verifier = VerifierExempt
		default:
			reason, detail, err := d.verifyModelFinding(f, surface, art)
			if err != nil {
				return err
			}
			verifs[i].Verifier = reason
			if reason != Verified {
				if verifs[i].Detail == "" {
					verifs[i].Detail = detail
				}
				b.addAt(Blocking{Code: CodeVerifierRejected, Detail: fmt.Sprintf("finding %s: %s", f.ID, detail), File: f.Evidence.Path, Line: f.Evidence.LineStart, Findings: []string{f.ID}})
			}
		}
	}
	for i := range verifs {
		verifs[i].Outcome = Verified
		if verifs[i].Excerpt != Verified || (verifs[i].Verifier != Verified && verifs[i].Verifier != VerifierNotApplicable && verifs[i].Verifier != VerifierExempt) {
			verifs[i].Outcome = VerifyFailed
		}
	}
	return nil
}

// gateBlocking says what a recomputed gate code rests on, for the row: the
// summary, the first place, and the names involved. It reads the same rows
// Gradeability read and decides nothing.
func gateBlocking(code string, s *rundir.Surface, results []rundir.Result, findings []rundir.Finding) Blocking {
	r := Blocking{Code: code}
	switch code {
	case CodeAdvertisedToolsNotParsed:
		parsed := map[string]bool{}
		for _, t := range s.Tools {
			parsed[t.Name] = true
		}
		for _, a := range s.AdvertisedTools {
			if !parsed[a.Name] && !a.Stale && !slices.Contains(r.Names, a.Name) {
				if len(r.Names) == 0 {
					r.File, r.Line = a.Source, a.Line
				}
				r.Names = append(r.Names, a.Name)
			}
		}
		r.Detail = "advertised, not parsed: " + strings.Join(r.Names, ", ")
	case CodeGateNotRecomputable:
		r.Detail = fmt.Sprintf("surface outcome %q is not one the methodology names", s.Outcome)
	case CodeMinifiedOnly, CodeRuntimeGenerated, CodeDeclarationNotParsed, CodeNoRegistrationSite, CodeArchiveUnreadable, CodeExtractionBudgetExceeded:
		r.Detail = s.OutcomeDetail
		for i, e := range s.OutcomeEvidence {
			if i == 0 {
				r.File, r.Line = e.File, e.Line
				if e.Detail != "" {
					r.Detail = joinDetail(r.Detail, e.File+": "+e.Detail)
				}
			}
			if e.File != "" {
				r.addName(place(e.File, e.Line))
			}
		}
	case CodeNoSurfaceExamined:
		r.Detail = "the parsed surface has no tool, prompt, resource or resource template"
	case CodeNotAnalyzed:
		for _, e := range s.AllEntries() {
			switch e.DescriptionState {
			case StateReadable, StatePartial, StateAbsent:
				continue
			}
			r.firstPlace(e.File, e.Line)
			r.addName(entryLabel(e.Kind, e.Name))
			if r.Detail == "" {
				r.Detail = fmt.Sprintf("%s could not be read", entryLabel(e.Kind, e.Name))
				if e.UnreadableReason != "" {
					r.Detail += ": " + e.UnreadableReason
				}
			}
		}
		if m := modelResult(results, s.Package.Key()); m != nil {
			for _, n := range m.NotAnalyzed {
				r.firstPlace(n.File, n.Line)
				r.addName(entryLabel(n.Kind, n.Name))
				if r.Detail == "" {
					r.Detail = fmt.Sprintf("%s was not analysed: %s", entryLabel(n.Kind, n.Name), n.Reason)
				}
			}
			if r.Detail == "" && m.Outcome == modelOutcomeUnreadable {
				r.Detail = "the model check could not read the surface: " + m.Detail
			}
		}
	case CodePartialDescription:
		pkg := s.Package.Key()
		for _, e := range s.AllEntries() {
			if e.DescriptionState != StatePartial || quoted(findings, pkg, e) {
				continue
			}
			r.firstPlace(e.File, e.Line)
			r.addName(entryLabel(e.Kind, e.Name))
			pe := PartialEntry{Kind: e.Kind, Name: e.Name, File: e.File, Line: e.Line, Text: e.DescriptionRaw, Holes: []PartialHole{}}
			for _, h := range e.Holes {
				pe.Holes = append(pe.Holes, PartialHole{Offset: h.RawOffset, Line: h.Line, Source: h.Source})
			}
			r.Partial = append(r.Partial, pe)
		}
		holes := 0
		for _, pe := range r.Partial {
			holes += len(pe.Holes)
		}
		r.Detail = fmt.Sprintf("%d partial description(s) with %d substitution(s) no finding quotes: %s", len(r.Partial), holes, strings.Join(r.Names, ", "))
	case CodeModelCheckSkipped:
		r.Detail = "the model check was skipped"
		if m := modelResult(results, s.Package.Key()); m != nil && m.Detail != "" {
			r.Detail += ": " + m.Detail
		}
	}
	return r
}

func resultsNotAnalyzed(results []rundir.Result) [][]rundir.NotAnalyzed {
	out := make([][]rundir.NotAnalyzed, 0, len(results))
	for _, r := range results {
		out = append(out, r.NotAnalyzed)
	}
	return out
}

// firstPlace sets the reason's place unless it has one.
func (r *Blocking) firstPlace(file string, line int) {
	if r.File == "" && file != "" {
		r.File, r.Line = file, line
	}
}

func (r *Blocking) addName(n string) {
	if !slices.Contains(r.Names, n) {
		r.Names = append(r.Names, n)
	}
}

// entryLabel names a surface entry for a reader: "tool get-docs".
func entryLabel(kind, name string) string {
	if kind == "" {
		kind = "tool"
	}
	return strings.ReplaceAll(kind, "_", " ") + " " + name
}

func joinDetail(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// modelResult is the model check's result row of pkg, if any.
func modelResult(results []rundir.Result, pkg string) *rundir.Result {
	for i := range results {
		if results[i].Package.Key() == pkg && results[i].Check == CheckModel {
			return &results[i]
		}
	}
	return nil
}

// verifyExcerpt is G6 for one finding.
func (d *decider) verifyExcerpt(f rundir.Finding) (outcome, detail string, err error) {
	ev := f.Evidence
	if ev.Excerpt == "" {
		return "excerpt_empty", "", nil
	}
	b, err := d.blobs.get(d.ctx, ev.SHA256)
	if err != nil {
		var be blobErr
		if errors.As(err, &be) {
			return be.outcome, ev.SHA256, nil
		}
		return "", "", fmt.Errorf("policy: decide: finding %s: %w", f.ID, err)
	}
	lo, hi := 0, len(b)
	if ev.LineStart != 0 || ev.LineEnd != 0 {
		if ev.LineStart < 1 || ev.LineEnd < ev.LineStart {
			return "lines_invalid", fmt.Sprintf("lines %d..%d", ev.LineStart, ev.LineEnd), nil
		}
		lo, hi = checks.LineRange(b, ev.LineStart, ev.LineEnd)
	}
	ex := []byte(ev.Excerpt)
	if !bytes.Contains(b[lo:hi], ex) {
		if ev.LineStart != 0 && bytes.Contains(b, ex) {
			return "excerpt_not_in_lines", fmt.Sprintf("lines %d..%d", ev.LineStart, ev.LineEnd), nil
		}
		return "excerpt_not_in_blob", "", nil
	}
	return Verified, "", nil
}

// verifyModelFinding is G7 for one model finding: the verifier's own test,
// applied to the finding's excerpt in the member it cites.
func (d *decider) verifyModelFinding(f rundir.Finding, s *rundir.Surface, art *artifactMembers) (reason, detail string, err error) {
	if s == nil {
		return checks.RejectNoEntry, "no surface row to verify against", nil
	}
	ev := f.Evidence
	fileSHA := map[string]string{}
	for _, sf := range s.Files {
		fileSHA[sf.Path] = sf.SHA256
	}
	var ctxErr error
	fileBytes := func(path string) ([]byte, error) {
		sha, known := fileSHA[path]
		if path == ev.Path {
			if known && sha != ev.SHA256 {
				return nil, fmt.Errorf("the finding cites blob %s for %s, the surface read %s", ev.SHA256, path, sha)
			}
			sha = ev.SHA256
		}
		if sha == "" {
			return nil, fmt.Errorf("no stored bytes known for %s", path)
		}
		b, err := d.blobs.get(d.ctx, sha)
		if err == nil {
			return b, nil
		}
		if d.ctx.Err() != nil {
			ctxErr = d.ctx.Err()
			return nil, ctxErr
		}
		if art != nil {
			if mb, why := art.member(path); mb != nil {
				if rundir.SHA256Hex(mb) != sha {
					return nil, fmt.Errorf("%s in the artifact does not hash to %s", path, sha)
				}
				return mb, nil
			} else if why != "" {
				return nil, fmt.Errorf("%s: %v; artifact: %s", path, err, why)
			}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	_, verr := checks.VerifyExcerpt(s, fileBytes, f.SurfaceKind, f.EntryName, ev.Path, []byte(ev.Excerpt), ev.LineStart, ev.LineEnd)
	if ctxErr != nil {
		return "", "", fmt.Errorf("policy: decide: finding %s: %w", f.ID, ctxErr)
	}
	if verr == nil {
		return Verified, "", nil
	}
	var re *checks.RejectError
	if errors.As(verr, &re) {
		return re.Reason, re.Error(), nil
	}
	return "verifier_error", verr.Error(), nil
}

// artifactMembers opens a package's stored artifact at most once, on demand.
type artifactMembers struct {
	d      *decider
	sha    string
	opened bool
	read   func(string) ([]byte, bool)
	why    string
}

// member returns the bytes of path in the artifact, or why it cannot.
func (a *artifactMembers) member(path string) ([]byte, string) {
	if !a.opened {
		a.opened = true
		switch {
		case a.d.opts.OpenArtifact == nil:
			a.why = "no artifact reader configured"
		case a.sha == "":
			a.why = "the surface row names no artifact"
		default:
			data, err := a.d.blobs.get(a.d.ctx, a.sha)
			if err != nil {
				a.why = "artifact blob: " + err.Error()
				break
			}
			r, err := a.d.opts.OpenArtifact(a.d.ctx, data)
			if err != nil {
				a.why = "artifact unreadable: " + err.Error()
				break
			}
			a.read = r
		}
	}
	if a.read == nil {
		return nil, a.why
	}
	b, ok := a.read(path)
	if !ok {
		return nil, ""
	}
	return b, ""
}

// verifyCapabilities verifies each inventory entry byte for byte (§20): the
// file is the blob named by its SHA-256 if stored, else the artifact member.
func (d *decider) verifyCapabilities(s *rundir.Surface, art *artifactMembers) ([]CapabilityRow, error) {
	out := make([]CapabilityRow, 0, len(s.Capabilities))
	for _, c := range s.Capabilities {
		row := CapabilityRow{Capability: c}
		outcome, detail, err := d.verifyCapability(c, art)
		if err != nil {
			return nil, err
		}
		row.Verification, row.VerificationDetail = outcome, detail
		d.capCounts[outcome]++
		out = append(out, row)
	}
	return out, nil
}

func (d *decider) verifyCapability(c rundir.Capability, art *artifactMembers) (string, string, error) {
	b, err := d.blobs.get(d.ctx, c.FileSHA256)
	if err != nil {
		if d.ctx.Err() != nil {
			return "", "", fmt.Errorf("policy: decide: capability %s:%d: %w", c.File, c.Line, d.ctx.Err())
		}
		mb, why := art.member(c.File)
		switch {
		case mb != nil:
			if rundir.SHA256Hex(mb) != c.FileSHA256 {
				return CapFileHashMismatch, fmt.Sprintf("%s in the artifact does not hash to %s", c.File, c.FileSHA256), nil
			}
			b = mb
		case why != "":
			return CapNotVerifiable, "file not stored as a blob; " + why, nil
		default:
			return CapFileNotInArchive, c.File, nil
		}
	}
	if c.Start < 0 || c.End <= c.Start || c.End > len(b) {
		return CapSpanOutOfRange, fmt.Sprintf("%d..%d in %d bytes", c.Start, c.End, len(b)), nil
	}
	if string(b[c.Start:c.End]) != c.Excerpt {
		return CapExcerptMismatch, fmt.Sprintf("bytes %d..%d differ from the excerpt", c.Start, c.End), nil
	}
	if c.Line > 0 {
		if got := bytes.Count(b[:c.Start], []byte{'\n'}) + 1; got != c.Line {
			return CapLineMismatch, fmt.Sprintf("excerpt starts on line %d, entry says %d", got, c.Line), nil
		}
	}
	return CapVerified, "", nil
}

// decideFindings applies D1–D6 to a package's findings, or withholds them.
func (d *decider) decideFindings(p *perPackage, s *rundir.Surface, row *PackageRow, verifs []Verification, art *artifactMembers) ([]FindingRow, error) {
	out := make([]FindingRow, 0, len(p.findings))
	// D6: the distinct provenance tags on the package.
	provTags := map[string]bool{}
	for _, f := range p.findings {
		if f.Check == CheckProvenance {
			provTags[f.Tag] = true
		}
	}
	highest := -1
	for i, f := range p.findings {
		fr := FindingRow{
			Row: "finding", Stamps: row.Stamps, Subject: row.Subject,
			ID: f.ID, Package: f.Package, Check: f.Check, Tag: f.Tag, Title: f.Title,
			SurfaceKind: f.SurfaceKind, EntryName: f.EntryName, Analyzer: f.Analyzer,
			SeverityAssigned: f.Severity, Evidence: f.Evidence,
			EvidenceSHA256: f.Evidence.SHA256, ExcerptSHA256: rundir.SHA256Hex([]byte(f.Evidence.Excerpt)),
			Verification: verifs[i], ContextTags: f.ContextTags,
		}
		if f.Check == CheckModel && fr.SurfaceKind == "" && f.Tag != TagReassigned {
			fr.SurfaceKind = "tool"
		}
		if f.Check == CheckModel && f.Tag == "exfiltrate_data" {
			if err := d.contextTags(&fr, f, s, art); err != nil {
				return nil, err
			}
		}
		switch row.Verdict {
		case VerdictOutOfScope:
			fr.Decision, fr.Rule = DecisionWithheld, "D4"
			fr.BlockedBy = []string{CodeNotAServer}
			row.Findings.Withheld++
		case VerdictNotGradeable:
			fr.Decision, fr.Rule = DecisionWithheld, "D3"
			fr.BlockedBy = row.BlockedBy
			row.Findings.Withheld++
		default:
			sev := f.Severity
			if f.Check == CheckProvenance {
				fr.SeverityRules = append(fr.SeverityRules, "D6")
				sev = SeverityLow
				if len(provTags) >= 2 {
					sev = SeverityHigh
				}
			}
			if !Measured(f.Check, f.Tag) {
				fr.SeverityRules = append(fr.SeverityRules, "D5")
				sev = SeverityInfo
			}
			fr.SeverityDecided = sev
			if sev == SeverityInfo {
				fr.Decision, fr.Rule = DecisionNoted, "D2"
				row.Findings.Noted++
			} else {
				fr.Decision, fr.Rule = DecisionConfirmed, "D1"
				row.Findings.Confirmed++
				if severityRank[sev] > highest {
					highest = severityRank[sev]
					row.HighestConfirmed = sev
				}
			}
		}
		out = append(out, fr)
	}
	if row.Verdict == VerdictGraded {
		row.Grade = Grade(row.HighestConfirmed)
	}
	return out, nil
}

// contextTags fills the exfiltrate_data context tags: computed at decision
// time when a tagger is configured, else as the run recorded them, and in
// either case a note when there are none.
func (d *decider) contextTags(fr *FindingRow, f rundir.Finding, s *rundir.Surface, art *artifactMembers) error {
	if d.opts.ContextTags != nil && s != nil {
		member := func(path string) ([]byte, bool) {
			b, _ := art.member(path)
			return b, b != nil
		}
		tags, err := d.opts.ContextTags(d.ctx, f, s, member)
		if err != nil {
			if d.ctx.Err() != nil {
				return fmt.Errorf("policy: decide: context tags of %s: %w", f.ID, err)
			}
			fr.ContextTags = nil
			fr.ContextTagsNote = "context tags not computed: " + err.Error()
			return nil
		}
		fr.ContextTags = tags
	}
	if len(fr.ContextTags) == 0 {
		fr.ContextTagsNote = "context tags not computed: no context-tag analyser ran on this finding"
	}
	return nil
}

// Grade is the ladder of docs/methodology.md §11 from the highest confirmed
// severity ("" when nothing is confirmed).
func Grade(highestConfirmed string) string {
	switch highestConfirmed {
	case SeverityHigh:
		return "F"
	case SeverityMedium:
		return "C"
	case SeverityLow:
		return "B"
	default:
		return "A"
	}
}
