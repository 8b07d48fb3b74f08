package policy

import "github.com/attestari/attestari/internal/decision"

// The decision's format lives in the leaf internal/decision, so that the
// publication format and the store read decisions without importing the
// policy; these are its names as policy's callers know them.

type (
	Stamps         = decision.Stamps
	Subject        = decision.Subject
	Blocking       = decision.Blocking
	PartialEntry   = decision.PartialEntry
	PartialHole    = decision.PartialHole
	GateRecord     = decision.GateRecord
	MCPSurface     = decision.MCPSurface
	CapabilityRow  = decision.CapabilityRow
	FindingCounts  = decision.FindingCounts
	PackageRow     = decision.PackageRow
	Verification   = decision.Verification
	FindingRow     = decision.FindingRow
	Counts         = decision.Counts
	Header         = decision.Header
	Decisions      = decision.Decisions
	MeasuredPair   = decision.MeasuredPair
	NotExaminedRow = decision.NotExaminedRow
	RunDiff        = decision.RunDiff
	Outcome        = decision.Outcome
	PackageChange  = decision.PackageChange
	FindingRef     = decision.FindingRef
	ToolChange     = decision.ToolChange
	ManifestChange = decision.ManifestChange
)

// SharedHostsDecidingMachine is decision.SharedHostsDecidingMachine.
const SharedHostsDecidingMachine = decision.SharedHostsDecidingMachine

// Capability verification outcomes (decision.Cap*).
const (
	CapVerified         = decision.CapVerified
	CapNotVerifiable    = decision.CapNotVerifiable
	CapFileHashMismatch = decision.CapFileHashMismatch
	CapFileNotInArchive = decision.CapFileNotInArchive
	CapSpanOutOfRange   = decision.CapSpanOutOfRange
	CapExcerptMismatch  = decision.CapExcerptMismatch
	CapLineMismatch     = decision.CapLineMismatch
)

// Verification outcomes (decision.Verified, ...).
const (
	Verified              = decision.Verified
	VerifyFailed          = decision.VerifyFailed
	NotEvaluated          = decision.NotEvaluated
	VerifierNotApplicable = decision.VerifierNotApplicable
	VerifierExempt        = decision.VerifierExempt
)

// DiffFile is decision.DiffFile, the run's diff.json.
const DiffFile = decision.DiffFile

// ExportGateMap returns the bytes of gate_map.json (decision.ExportGateMap).
func ExportGateMap() []byte { return decision.ExportGateMap() }
