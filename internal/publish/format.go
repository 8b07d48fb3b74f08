package publish

import (
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publication"
)

// The publication's format lives in the leaf internal/publication, so that
// the store loads a publication without importing the step that makes it;
// these are its names as publish's callers know them.

type (
	Header       = publication.Header
	Counts       = publication.Counts
	StatusCounts = publication.StatusCounts
	Tool         = publication.Tool
	Package      = publication.Package
	AppealStatus = publication.AppealStatus
	Finding      = publication.Finding
	EvidenceRef  = publication.EvidenceRef
	EvidenceItem = publication.EvidenceItem
	Publication  = publication.Publication
	Diff         = publication.Diff
	DiffWithheld = publication.DiffWithheld
	DiffSide     = publication.DiffSide
)

// Schema names this version of the publication format.
const Schema = publication.Schema

// Files of a publication directory.
const (
	HeaderFile       = publication.HeaderFile
	PackagesFile     = publication.PackagesFile
	FindingsFile     = publication.FindingsFile
	EvidenceFile     = publication.EvidenceFile
	GateMapFile      = publication.GateMapFile
	DiffFile         = publication.DiffFile
	EvidenceDir      = publication.EvidenceDir
	AttestationsFile = publication.AttestationsFile
)

// ErrAttestation is publication.ErrAttestation: errors.Is holds for either name.
var ErrAttestation = publication.ErrAttestation

// ValidID reports whether id may name a publication (publication.ValidID).
func ValidID(id string) bool { return publication.ValidID(id) }

// SideOf is publication.SideOf.
func SideOf(id string, pkgs []Package, findings []Finding) DiffSide {
	return publication.SideOf(id, pkgs, findings)
}

// OutcomeOf is publication.OutcomeOf.
func OutcomeOf(p Package) policy.Outcome { return publication.OutcomeOf(p) }

// FromRunDiff is publication.FromRunDiff.
func FromRunDiff(d policy.RunDiff) Diff { return publication.FromRunDiff(d) }

// ProjectDiff is publication.ProjectDiff.
func ProjectDiff(d Diff, cur DiffSide, prev *DiffSide) Diff {
	return publication.ProjectDiff(d, cur, prev)
}
