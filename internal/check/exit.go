package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// ExitOptions are the flags that turn a report into an exit code.
type ExitOptions struct {
	// FailBelow is a grade (A, B, C, F): a graded package fails (exit 1)
	// when its grade is worse. Empty: any confirmed finding fails.
	FailBelow string
	// FailOn, when not nil, is advisory mode: a refusal exits 2 only when
	// one of its codes is in FailOn; the other codes are tolerated
	// (reported, marked tolerated).
	FailOn []string
}

// grades in order, best first (methodology §11).
var grades = []string{"A", "B", "C", "F"}

// ValidGrade reports whether g is a grade of the ladder.
func ValidGrade(g string) bool { return slices.Contains(grades, g) }

// ValidCode reports whether c is a reason code of the gate map.
func ValidCode(c string) bool {
	_, ok := vocab.GateEntryFor(c)
	return ok
}

// SetExit computes r.Exit and marks the tolerated reasons.
func SetExit(r *Report, o ExitOptions) {
	switch r.Verdict.Verdict {
	case VerdictNotExamined:
		r.Exit = Exit{ExitUsage, "the target could not be examined as asked: " + firstDetail(r)}
		return
	case vocab.VerdictGraded:
		if o.FailBelow != "" {
			if slices.Index(grades, r.Verdict.Grade) > slices.Index(grades, o.FailBelow) {
				r.Exit = Exit{ExitFinding, fmt.Sprintf("grade %s is below --fail-below %s", r.Verdict.Grade, o.FailBelow)}
				return
			}
			r.Exit = Exit{ExitClean, fmt.Sprintf("would be graded %s, at or above --fail-below %s", r.Verdict.Grade, o.FailBelow)}
			return
		}
		if r.Verdict.Confirmed > 0 {
			r.Exit = Exit{ExitFinding, fmt.Sprintf("would be graded %s with %d confirmed finding(s)", r.Verdict.Grade, r.Verdict.Confirmed)}
			return
		}
		r.Exit = Exit{ExitClean, "would be graded " + r.Verdict.Grade + " with no confirmed finding"}
		return
	}
	// Refused (not_gradeable) or out of scope.
	var failing []string
	for i := range r.Reasons {
		c := r.Reasons[i].Code
		if o.FailOn != nil && !slices.Contains(o.FailOn, c) {
			r.Reasons[i].Tolerated = true
			continue
		}
		failing = append(failing, c)
	}
	if len(failing) > 0 {
		r.Exit = Exit{ExitRefused, "would be refused: " + strings.Join(dedupe(failing), ", ")}
		return
	}
	// Advisory mode tolerates every code; a finding the pass would withhold
	// from the model check still fails the step, since it is what a grade
	// would rest on once the refusal is fixed.
	for _, f := range r.Findings {
		if f.Check == vocab.CheckModel && f.SeverityAssigned != vocab.SeverityInfo {
			r.Exit = Exit{ExitFinding, "every refusal code is tolerated (--fail-on), and the model check found " + f.Tag + " (" + f.ID + "), withheld while the package is refused"}
			return
		}
	}
	r.Exit = Exit{ExitClean, "would be refused, for codes --fail-on tolerates only: " + strings.Join(r.Verdict.BlockedBy, ", ")}
}

func firstDetail(r *Report) string {
	if len(r.Reasons) > 0 {
		return r.Reasons[0].Detail
	}
	return ""
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
