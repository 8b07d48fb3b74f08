package population

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

func pkgRow(name, verdict, grade string, blocked ...string) policy.PackageRow {
	return policy.PackageRow{Row: "package", Package: rundir.PackageRef{Registry: "npm", Name: name, Version: "1.0.0"},
		Verdict: verdict, Grade: grade, BlockedBy: blocked}
}

// sample is a decision of six packages: two graded (A, C), three refused
// (one on partial_description alone beside the restating code, one on two
// codes, one on not_analyzed with its restatement), one out of scope; a
// delegation target among them; three findings and one candidate not
// examined. Its header records the counts policy.Decide would.
func sample() *policy.Decisions {
	pk := []policy.PackageRow{
		pkgRow("secret-name-a", vocab.VerdictGraded, "A"),
		pkgRow("secret-name-b", vocab.VerdictGraded, "C"),
		pkgRow("secret-name-c", vocab.VerdictNotGradeable, "", vocab.CodeGateFailedAsRecorded, vocab.CodePartialDescription),
		pkgRow("secret-name-d", vocab.VerdictNotGradeable, "", vocab.CodeGateFailedAsRecorded, vocab.CodeMinifiedOnly, vocab.CodePartialDescription),
		pkgRow("secret-name-e", vocab.VerdictNotGradeable, "", vocab.CodeGateFailedAsRecorded, vocab.CodeNotAnalyzed, vocab.CodeNotAnalyzedRecorded),
		pkgRow("secret-name-f", vocab.VerdictOutOfScope, ""),
	}
	pk[5].Reason = vocab.CodeNotAServer
	pk[1].DelegatedFrom = []rundir.PackageRef{pk[0].Package}
	d := &policy.Decisions{Packages: pk,
		Findings:    []policy.FindingRow{{ID: "f1", Decision: vocab.DecisionConfirmed}, {ID: "f2", Decision: vocab.DecisionNoted}, {ID: "f3", Decision: vocab.DecisionWithheld}},
		NotExamined: []policy.NotExaminedRow{{Package: rundir.PackageRef{Registry: "npm", Name: "secret-name-g", Version: "^1"}}},
	}
	d.Header.RunID = "20261201T000000Z-00000000"
	d.Header.DecidedAt = time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC)
	d.Header.MethodologyVersion = "9.9.9"
	d.Header.CandidatesFile = "candidates/weekly.json"
	d.Header.Counts = policy.Counts{Packages: 6, Graded: 2, NotGradeable: 3, OutOfScope: 1, NotExamined: 1,
		Grades: map[string]int{"A": 1, "C": 1},
		Reasons: map[string]int{vocab.CodeGateFailedAsRecorded: 3, vocab.CodePartialDescription: 2, vocab.CodeMinifiedOnly: 1,
			vocab.CodeNotAnalyzed: 1, vocab.CodeNotAnalyzedRecorded: 1, vocab.CodeNotAServer: 1},
		Findings: policy.FindingCounts{Confirmed: 1, Noted: 1, Withheld: 1}}
	return d
}

func TestFiguresKeepTheGroupsApart(t *testing.T) {
	f, err := FromDecisions(sample())
	if err != nil {
		t.Fatal(err)
	}
	if f.Packages != 6 || f.Gradeable != 2 || f.NotGradeable != 3 || f.OutOfScope != 1 || f.NotExamined != 1 || f.DelegationTargets != 1 {
		t.Errorf("groups: %+v", f)
	}
	if f.Grades["A"] != 1 || f.Grades["C"] != 1 || len(f.Grades) != 2 {
		t.Errorf("grades: %v", f.Grades)
	}
	if f.Findings != (policy.FindingCounts{Confirmed: 1, Noted: 1, Withheld: 1}) {
		t.Errorf("findings: %+v", f.Findings)
	}
	want := []ReasonCount{
		{vocab.CodeGateFailedAsRecorded, 3, 0},
		{vocab.CodePartialDescription, 2, 1}, // alone on c; d has minified_only too
		{vocab.CodeMinifiedOnly, 1, 0},
		{vocab.CodeNotAnalyzed, 1, 1}, // its restatement does not count against "alone"
		{vocab.CodeNotAnalyzedRecorded, 1, 0},
	}
	if len(f.Reasons) != len(want) {
		t.Fatalf("reasons: %+v", f.Reasons)
	}
	for i := range want {
		if f.Reasons[i] != want[i] {
			t.Errorf("reason %d: %+v, want %+v", i, f.Reasons[i], want[i])
		}
	}
}

// TestFiguresRefuseADisagreement: rows that do not add up to the recorded
// counts are not stated (a hand-edited or truncated decisions.json).
func TestFiguresRefuseADisagreement(t *testing.T) {
	for name, edit := range map[string]func(d *policy.Decisions){
		"a row lost":      func(d *policy.Decisions) { d.Packages = d.Packages[:5] },
		"a grade changed": func(d *policy.Decisions) { d.Packages[1].Grade = "B" },
		"a reason added": func(d *policy.Decisions) {
			d.Packages[2].BlockedBy = append(d.Packages[2].BlockedBy, vocab.CodeCheckFailed)
		},
		"a finding lost":     func(d *policy.Decisions) { d.Findings = d.Findings[1:] },
		"an unknown verdict": func(d *policy.Decisions) { d.Packages[0].Verdict = "maybe" },
	} {
		d := sample()
		edit(d)
		if _, err := FromDecisions(d); !errors.Is(err, ErrInconsistent) {
			t.Errorf("%s: err %v, want ErrInconsistent", name, err)
		}
	}
}

// TestMarkdownNamesNoPackage: the page states the figures and the run,
// names no package, and is the same bytes when written twice.
func TestMarkdownNamesNoPackage(t *testing.T) {
	f, err := FromDecisions(sample())
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := WriteMarkdown(&a, f, "attestari population X"); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&b, f, "attestari population X"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes differ")
	}
	s := a.String()
	if strings.Contains(s, "secret-name") {
		t.Errorf("the page names a package:\n%s", s)
	}
	for _, want := range []string{
		"Run `20261201T000000Z-00000000`, decided 2026-12-01 10:30 UTC under methodology 9.9.9",
		"Written by `attestari population X`",
		"candidates file `candidates/weekly.json` (SHA-256",
		"| examined (every package row; 1 joined as delegation targets) | 6 | 100% |",
		"| servers graded (gradeable) | 2 | 33.3% |",
		"| servers not gradeable | 3 | 50.0% |",
		"| not servers (out of scope, `not_a_server`) | 1 | 16.7% |",
		"could not examine as asked (§4: not a subject, in no count above): 1.",
		"| C | 1 |",
		"| [`partial_description`](methodology.md#9-gradeability-the-gate-fails-closed) | 2 | 1 |",
		"| confirmed (D1) | 1 |\n| noted (D2) | 1 |\n| withheld (D3, D4) | 1 |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
}
