// What the policy does with the vocabulary (internal/vocab): the checks that
// must run, the outcomes that refuse, the severity order and
// MEASURED_CHECKS. The gate map's export is decision.ExportGateMap; the
// codes the policy can emit are listed for the gate-map test in codes_test.go.

package policy

import (
	"github.com/attestari/attestari/internal/vocab"
)

// RunningChecks are the checks that run and must each have a result row (G5).
var RunningChecks = []string{vocab.CheckProvenance, vocab.CheckSurface, vocab.CheckModel}

// refusingOutcomes are the surface outcomes that refuse the grade under a
// code of the same name, in the gate's order.
var refusingOutcomes = []string{
	vocab.OutcomeMinifiedOnly, vocab.OutcomeRuntimeGenerated, vocab.OutcomeDeclarationNotParsed,
	vocab.OutcomeNoRegistrationSite, vocab.OutcomeArchiveUnreadable, vocab.OutcomeExtractionBudgetExceeded,
}

var severityRank = map[string]int{vocab.SeverityInfo: 0, vocab.SeverityLow: 1, vocab.SeverityMedium: 2, vocab.SeverityHigh: 3}

// MeasuredChecks is MEASURED_CHECKS: the only pairs that may place a finding
// above info (D5). Adding a pair is a methodology change citing §18.
var MeasuredChecks = []MeasuredPair{{Check: vocab.CheckModel, Tag: "*"}}

// Measured reports whether (check, tag) is in MeasuredChecks.
func Measured(check, tag string) bool {
	for _, p := range MeasuredChecks {
		if p.Check == check && (p.Tag == "*" || p.Tag == tag) {
			return true
		}
	}
	return false
}
