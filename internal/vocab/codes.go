package vocab

// Reason codes (methodology §9). Each is stable: it is stored on decision
// rows, in the database and in publications, and served to readers. A
// surface outcome that refuses the grade does so under a code of the same
// name, declared here as that outcome.
const (
	CodeVersionPairNotAllowed = "version_pair_not_allowed"

	CodeGateNotRecorded      = "gate_not_recorded"       // G1
	CodeGateFailedAsRecorded = "gate_failed_as_recorded" // G2
	CodeGateNotRecomputable  = "gate_not_recomputable"   // G3

	// The gate's own codes (recorded in G2, recomputed in G3), in order.
	CodeMinifiedOnly             = OutcomeMinifiedOnly
	CodeRuntimeGenerated         = OutcomeRuntimeGenerated
	CodeDeclarationNotParsed     = OutcomeDeclarationNotParsed
	CodeNoRegistrationSite       = OutcomeNoRegistrationSite
	CodeArchiveUnreadable        = OutcomeArchiveUnreadable
	CodeExtractionBudgetExceeded = OutcomeExtractionBudgetExceeded
	CodeAdvertisedToolsNotParsed = "advertised_tools_not_parsed"
	CodeNoSurfaceExamined        = "no_surface_examined"
	CodeNotAnalyzed              = "not_analyzed"
	CodePartialDescription       = "partial_description"
	CodeModelCheckSkipped        = "model_check_skipped"
	CodeNotAnalyzedRecorded      = "not_analyzed_recorded" // G4
	CodeCheckMissing             = "check_missing"         // G5
	CodeCheckFailed              = "check_failed"          // G5
	CodeExcerptUnverified        = "excerpt_unverified"    // G6
	CodeVerifierRejected         = "verifier_rejected"     // G7
	CodeNotAServer               = OutcomeNotAServer       // D4: out of scope, not a refusal
	CodeEvidenceUnpublishable    = "evidence_unpublishable"
)

// Guards: what records a reason code, the `guard` of a gate-map row.
const (
	GuardVersion = "version"
	GuardG1      = "G1"
	GuardG2      = "G2"
	GuardG3      = "G3"
	GuardG4      = "G4"
	GuardG5      = "G5"
	GuardG6      = "G6"
	GuardG7      = "G7"
	GuardD4      = RuleD4 // the decision rule D4 records not_a_server
	GuardPublish = "publish"
)

// GateEntry is one row of the gate map: a reason code, the guard or decision
// that records it, and one line a website reader understands.
type GateEntry struct {
	Code  string `json:"code"`
	Guard string `json:"guard"`
	Line  string `json:"line"`
}

// GateMap is GATE_MAP: every reason code a decision or a publication can
// record, in the order of methodology §9. The lines are the table of that
// section word for word; internal/policy exports it as gate_map.json under
// the methodology version in force, and the website reads that file.
var GateMap = []GateEntry{
	{CodeVersionPairNotAllowed, GuardVersion, "The surface was read by an extractor version this methodology version does not describe, so nothing is decided under it."},
	{CodeGateNotRecorded, GuardG1, "The run recorded no gate result for this package (or no gate file at all)."},
	{CodeGateFailedAsRecorded, GuardG2, "The run's own gate said this package cannot be graded."},
	{CodeGateNotRecomputable, GuardG3, "There is no surface row for this package, so the gate could not be checked again."},
	{CodeMinifiedOnly, GuardG3, "The tools are registered only inside minified or obfuscated bundles, which no one can inspect."},
	{CodeRuntimeGenerated, GuardG3, "The server builds its tools from external data when it runs, so they are not in the package."},
	{CodeDeclarationNotParsed, GuardG3, "The package registers tools in readable source that the extractor could not read."},
	{CodeNoRegistrationSite, GuardG3, "No place in the source registers a tool, prompt or resource."},
	{CodeArchiveUnreadable, GuardG3, "The downloaded package is not a tar or zip archive that can be read safely."},
	{CodeExtractionBudgetExceeded, GuardG3, "Reading the source went past the per-package budget (CPU time, memory, resolution steps, nesting depth or the entries cap), so it was not read in full."},
	{CodeAdvertisedToolsNotParsed, GuardG3, "The package names a tool (in its manifest, server.json or README) that was not found where tools are registered."},
	{CodeNoSurfaceExamined, GuardG3, "No tool, prompt, resource or resource template was found to examine."},
	{CodeNotAnalyzed, GuardG3, "At least one description or text the model receives could not be read or was not analysed."},
	{CodePartialDescription, GuardG3, "A description is built from parts not in the source, and nothing was found in the parts that are."},
	{CodeModelCheckSkipped, GuardG3, "The check for instructions aimed at the model was skipped for this package."},
	{CodeNotAnalyzedRecorded, GuardG4, "The run recorded an entry as not analysed."},
	{CodeCheckMissing, GuardG5, "A check that always runs has no result for this package."},
	{CodeCheckFailed, GuardG5, "A check or the fetch crashed on this package."},
	{CodeExcerptUnverified, GuardG6, "A finding's quoted text was not found in the stored evidence it cites."},
	{CodeVerifierRejected, GuardG7, "A model finding's quote does not lie inside the text of a declared entry."},
	{CodeNotAServer, GuardD4, "The package is not an MCP server (a client, SDK or tool around one); it is out of scope, not refused."},
	{CodeEvidenceUnpublishable, GuardPublish, "A finding's evidence cannot be published without personal data, so the package is published as not gradeable."},
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
