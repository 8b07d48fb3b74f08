package publication

import (
	"slices"

	"github.com/attestari/attestari/internal/decision"
	"github.com/attestari/attestari/internal/rundir"
)

// Diff is diff.json as a publication carries it: the run's diff
// (decision.RunDiff, which stays complete in the run directory for the
// operator) projected onto what publications publish. A finding appears by
// reference only when a publication publishes it; every other one is a
// count. A package change shows the outcomes as published on both sides.
type Diff struct {
	RunID         string `json:"run_id"`
	PreviousRunID string `json:"previous_run_id,omitempty"`
	// PreviousPublicationID is the publication of the previous run the
	// "from" side is taken from; absent when that run has none, and then no
	// change and no removed finding is named.
	PreviousPublicationID string                    `json:"previous_publication_id,omitempty"`
	PackagesAdded         []rundir.PackageRef       `json:"packages_added"`
	PackagesRemoved       []rundir.PackageRef       `json:"packages_removed"`
	Changes               []decision.PackageChange  `json:"changes"`
	FindingsAdded         []decision.FindingRef     `json:"findings_added"`
	FindingsRemoved       []decision.FindingRef     `json:"findings_removed"`
	FindingsWithheld      DiffWithheld              `json:"findings_withheld"`
	Manifests             []decision.ManifestChange `json:"manifests"`
}

// DiffWithheld counts the added and removed findings of a run diff that no
// publication on their side publishes.
type DiffWithheld struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// DiffSide is what one publication publishes, as far as a diff needs it.
type DiffSide struct {
	PublicationID string
	// Findings holds the ids of the findings it publishes.
	Findings map[string]bool
	// Outcomes holds its packages' outcomes as published, by PackageRef.Key.
	Outcomes map[string]decision.Outcome
}

// SideOf is the DiffSide of a publication's packages and findings.
func SideOf(id string, pkgs []Package, findings []Finding) DiffSide {
	s := DiffSide{PublicationID: id, Findings: map[string]bool{}, Outcomes: map[string]decision.Outcome{}}
	for _, p := range pkgs {
		s.Outcomes[p.Package.Key()] = OutcomeOf(p)
	}
	for _, f := range findings {
		s.Findings[f.ID] = true
	}
	return s
}

// OutcomeOf is a package's outcome as published.
func OutcomeOf(p Package) decision.Outcome {
	return decision.Outcome{Version: p.Package.Version, Verdict: p.Verdict, Grade: p.Grade, BlockedBy: p.BlockedBy}
}

// FromRunDiff is a run diff before projection, with nothing counted yet.
func FromRunDiff(d decision.RunDiff) Diff {
	return Diff{RunID: d.RunID, PreviousRunID: d.PreviousRunID, PackagesAdded: d.PackagesAdded, PackagesRemoved: d.PackagesRemoved,
		Changes: d.Changes, FindingsAdded: d.FindingsAdded, FindingsRemoved: d.FindingsRemoved, Manifests: d.Manifests}
}

// ProjectDiff keeps of d only what the publications on its two sides
// publish (docs/publish-contract.md, section 3.7): an added finding only when
// cur publishes it, a removed one only when prev does, the rest counted in
// FindingsWithheld; a change only when both sides publish the package and
// their published outcomes differ, shown as published. prev is nil when the
// previous run has no publication. Projecting a projected diff again with
// the same sides changes nothing, so a reader may apply it to any diff it
// serves, including one a publication made before this projection existed
// carried whole.
func ProjectDiff(d Diff, cur DiffSide, prev *DiffSide) Diff {
	out := Diff{RunID: d.RunID, PreviousRunID: d.PreviousRunID, FindingsWithheld: d.FindingsWithheld,
		PackagesAdded: nonNilSlice(d.PackagesAdded), PackagesRemoved: nonNilSlice(d.PackagesRemoved),
		Changes: []decision.PackageChange{}, FindingsAdded: []decision.FindingRef{}, FindingsRemoved: []decision.FindingRef{},
		Manifests: nonNilSlice(d.Manifests)}
	if prev != nil {
		out.PreviousPublicationID = prev.PublicationID
	}
	for _, f := range d.FindingsAdded {
		if cur.Findings[f.ID] {
			out.FindingsAdded = append(out.FindingsAdded, f)
		} else {
			out.FindingsWithheld.Added++
		}
	}
	for _, f := range d.FindingsRemoved {
		if prev != nil && prev.Findings[f.ID] {
			out.FindingsRemoved = append(out.FindingsRemoved, f)
		} else {
			out.FindingsWithheld.Removed++
		}
	}
	if prev == nil {
		return out
	}
	for _, c := range d.Changes {
		to, okTo := cur.Outcomes[c.Package.Key()]
		from, okFrom := prev.Outcomes[c.Package.Key()]
		if !okTo || !okFrom || sameOutcome(from, to) {
			continue
		}
		out.Changes = append(out.Changes, decision.PackageChange{Package: c.Package, From: from, To: to})
	}
	return out
}

func sameOutcome(a, b decision.Outcome) bool {
	return a.Version == b.Version && a.Verdict == b.Verdict && a.Grade == b.Grade && slices.Equal(a.BlockedBy, b.BlockedBy)
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
