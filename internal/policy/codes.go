// The stable vocabulary of decisions: reason codes and the gate map, check
// ids, description states, severities, verdicts and finding decisions.

package policy

import (
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
