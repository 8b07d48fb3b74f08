package vocab

// PolicyName is the name of the decision policy every decision row cites.
const PolicyName = "severity-ladder"

// Severities of a finding (methodology §6).
const (
	SeverityHigh   = "high"
	SeverityMedium = "medium"
	SeverityLow    = "low"
	SeverityInfo   = "info"
)

// Verdicts of a package's decision row.
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

// Decision rules (methodology §6): the rule a finding row cites for its
// decision, and the severity rules applied to it.
const (
	RuleD1 = "D1"
	RuleD2 = "D2"
	RuleD3 = "D3"
	RuleD4 = "D4"
	RuleD5 = "D5"
	RuleD6 = "D6"
)

// Public finding statuses: what a publication and the API say of a finding.
// A confirmed or noted finding is published under its decision; an appeal
// gives it one of the other two.
const (
	StatusConfirmed         = DecisionConfirmed
	StatusNoted             = DecisionNoted
	StatusUnderAppeal       = "under_appeal"
	StatusWithdrawnOnAppeal = "withdrawn_on_appeal"
)
