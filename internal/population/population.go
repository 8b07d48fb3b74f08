// Package population states the sample figures of a decided pass exactly
// as methodology §4 and §18 define them: the selected candidates the run
// could not examine as asked (in no count), the packages that are not
// servers (out of scope), the servers graded, the servers not gradeable by
// reason code, and the findings confirmed, noted and withheld. It reads a
// run directory's decisions.json and nothing else, names no package and
// quotes no package text, so its report can be committed and shown
// (docs/population.md, the website's "The latest pass"). It decides
// nothing: every figure is a count of rows policy.Decide wrote, checked
// against the counts the decision itself recorded.
package population

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// ErrInconsistent is a decision whose rows do not add up to the counts its
// header recorded: the figures are not stated from it.
var ErrInconsistent = errors.New("population: the decision's rows disagree with its recorded counts")

// ReasonCount is one reason code's refusals.
type ReasonCount struct {
	Code string `json:"code"`
	// Packages is the number of not-gradeable packages whose blocked_by
	// includes the code (a package refused on several codes is counted
	// under each).
	Packages int `json:"packages"`
	// Alone is the number refused on this code and no other, apart from
	// the codes that restate the gate the run recorded
	// (gate_failed_as_recorded, not_analyzed_recorded), which accompany
	// the gate's own codes.
	Alone int `json:"alone"`
}

// Figures are the sample figures of one decided run.
type Figures struct {
	RunID              string    `json:"run_id"`
	DecidedAt          time.Time `json:"decided_at"`
	MethodologyVersion string    `json:"methodology_version"`
	ExtractorVersion   string    `json:"extractor_version"`
	VerifierVersion    string    `json:"verifier_version"`
	AnalyzerModel      string    `json:"analyzer_model"`
	CandidatesFile     string    `json:"candidates_file"`
	CandidatesSHA256   string    `json:"candidates_sha256"`

	// NotExamined counts the selected candidates the run could not
	// examine as asked (§4): apart from every other figure.
	NotExamined int `json:"not_examined"`
	// Packages counts the subjects: every package row, selected or joined
	// by delegation.
	Packages int `json:"packages"`
	// DelegationTargets counts the packages another package of the run
	// delegates to (§4, Delegation), included in Packages.
	DelegationTargets int `json:"delegation_targets"`
	// OutOfScope counts the packages that are not servers (D4).
	OutOfScope int `json:"out_of_scope"`
	// Gradeable counts the servers graded; Grades splits them by grade.
	Gradeable int            `json:"gradeable"`
	Grades    map[string]int `json:"grades"`
	// NotGradeable counts the servers refused a grade; Reasons splits
	// them by reason code, most frequent first.
	NotGradeable int           `json:"not_gradeable"`
	Reasons      []ReasonCount `json:"reasons"`
	// Findings counts the findings by decision (D1–D4).
	Findings policy.FindingCounts `json:"findings"`
}

// restating are the codes that restate the run's recorded gate beside the
// gate's own codes; "alone" is counted without them.
var restating = map[string]bool{vocab.CodeGateFailedAsRecorded: true, vocab.CodeNotAnalyzedRecorded: true}

// Read states the figures of the decided run in dir.
func Read(dir string) (*Figures, error) {
	var d policy.Decisions
	if _, err := rundir.ReadJSON(dir, policy.DecisionsFile, &d); err != nil {
		return nil, fmt.Errorf("population.Read %s: %w", dir, err)
	}
	return FromDecisions(&d)
}

// FromDecisions counts the rows of d, and refuses when they disagree with
// the counts d's header recorded.
func FromDecisions(d *policy.Decisions) (*Figures, error) {
	h := d.Header
	f := &Figures{
		RunID: h.RunID, DecidedAt: h.DecidedAt.UTC(), MethodologyVersion: h.MethodologyVersion,
		ExtractorVersion: h.ExtractorVersion, VerifierVersion: h.VerifierVersion, AnalyzerModel: h.AnalyzerModel,
		CandidatesFile: h.CandidatesFile, CandidatesSHA256: h.CandidatesSHA256, NotExamined: len(d.NotExamined), Packages: len(d.Packages),
		Grades: map[string]int{}, Reasons: []ReasonCount{},
	}
	including, alone := map[string]int{}, map[string]int{}
	for _, p := range d.Packages {
		if len(p.DelegatedFrom) > 0 {
			f.DelegationTargets++
		}
		switch p.Verdict {
		case vocab.VerdictOutOfScope:
			f.OutOfScope++
		case vocab.VerdictGraded:
			f.Gradeable++
			f.Grades[p.Grade]++
		case vocab.VerdictNotGradeable:
			f.NotGradeable++
			codes := slices.Clone(p.BlockedBy)
			slices.Sort(codes)
			codes = slices.Compact(codes)
			var own []string
			for _, c := range codes {
				including[c]++
				if !restating[c] {
					own = append(own, c)
				}
			}
			if len(own) == 1 {
				alone[own[0]]++
			}
		default:
			return nil, fmt.Errorf("%w: package %s has verdict %q", ErrInconsistent, p.Package.Key(), p.Verdict)
		}
	}
	for _, fr := range d.Findings {
		switch fr.Decision {
		case vocab.DecisionConfirmed:
			f.Findings.Confirmed++
		case vocab.DecisionNoted:
			f.Findings.Noted++
		case vocab.DecisionWithheld:
			f.Findings.Withheld++
		default:
			return nil, fmt.Errorf("%w: finding %s has decision %q", ErrInconsistent, fr.ID, fr.Decision)
		}
	}
	for c, n := range including {
		f.Reasons = append(f.Reasons, ReasonCount{Code: c, Packages: n, Alone: alone[c]})
	}
	sort.Slice(f.Reasons, func(i, j int) bool {
		if f.Reasons[i].Packages != f.Reasons[j].Packages {
			return f.Reasons[i].Packages > f.Reasons[j].Packages
		}
		return f.Reasons[i].Code < f.Reasons[j].Code
	})
	if err := f.agrees(h.Counts); err != nil {
		return nil, err
	}
	return f, nil
}

// agrees compares the figures with the counts the decision recorded. The
// recorded reasons count not_a_server (D4's reason) beside the refusals;
// the figures state it as out of scope.
func (f *Figures) agrees(c policy.Counts) error {
	var diffs []string
	check := func(what string, got, want int) {
		if got != want {
			diffs = append(diffs, fmt.Sprintf("%s %d, recorded %d", what, got, want))
		}
	}
	check("packages", f.Packages, c.Packages)
	check("graded", f.Gradeable, c.Graded)
	check("not gradeable", f.NotGradeable, c.NotGradeable)
	check("out of scope", f.OutOfScope, c.OutOfScope)
	check("not examined", f.NotExamined, c.NotExamined)
	check("findings confirmed", f.Findings.Confirmed, c.Findings.Confirmed)
	check("findings noted", f.Findings.Noted, c.Findings.Noted)
	check("findings withheld", f.Findings.Withheld, c.Findings.Withheld)
	for g, n := range c.Grades {
		check("grade "+g, f.Grades[g], n)
	}
	for g, n := range f.Grades {
		check("grade "+g, n, c.Grades[g])
	}
	got := map[string]int{}
	for _, r := range f.Reasons {
		got[r.Code] = r.Packages
	}
	if f.OutOfScope > 0 || c.Reasons[vocab.CodeNotAServer] > 0 {
		got[vocab.CodeNotAServer] += f.OutOfScope
	}
	for code, n := range c.Reasons {
		check("reason "+code, got[code], n)
	}
	for code, n := range got {
		if _, ok := c.Reasons[code]; !ok {
			check("reason "+code, n, 0)
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		return fmt.Errorf("%w: %s", ErrInconsistent, strings.Join(diffs, "; "))
	}
	return nil
}
