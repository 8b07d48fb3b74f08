package vocab

// Check ids (methodology §5), on every result, finding and not-analysed row.
// The first three run; the gate requires a result row of each of those and
// of nothing else.
const (
	CheckProvenance = "publisher_provenance"
	CheckSurface    = "undetermined_tool_surface"
	CheckModel      = "model_directed_text"
)

// Declared check ids: checks the methodology declares and that do not run;
// every report lists them as not assessed.
const (
	CheckUndeclaredNetworkCalls = "undeclared_network_calls"
	CheckDependencyRisk         = "dependency_risk"
	CheckAbandonment            = "abandonment"
	CheckForkDivergence         = "fork_divergence"
)

// Result outcomes: the outcome of a result row (results.json).
const (
	// ResultRan: the check ran; its counts and not-analysed list say how far.
	ResultRan = "ran"
	// ResultNoDescriptions: no entry carries text to read (clean for the
	// model check).
	ResultNoDescriptions = "no_descriptions_present"
	// ResultDescriptionsUnreadable: entries carry text and none of it is
	// readable.
	ResultDescriptionsUnreadable = "descriptions_not_statically_readable"
	// ResultSkipped: there was text to read and the check could not run at
	// all (no analyzer, no cached answer): the gate records
	// model_check_skipped.
	ResultSkipped = "skipped"
	// ResultError: the check crashed or had nothing to run on; the pipeline
	// writes it with a failure row, the model check when a package has no
	// surface row.
	ResultError = "error"
	// ResultFailed is written by no stage of this version; the guard reads
	// it as a crash all the same (G5), so a run directory written by hand or
	// by another tool fails closed.
	ResultFailed = "failed"
)

// TagReassigned is the model check's tag for a description assigned a new
// value at run time (methodology §5.4). It quotes the assigning statement,
// not a description, so G7 does not apply to it.
const TagReassigned = "description_reassigned_at_runtime"
