package eval

import (
	"strings"
	"testing"
)

// unscoredPart names a test part no report has scored, for tests of the
// admission rule only (tally does not check split names).
const unscoredPart = "unscored"

// TestDevelopmentAdmitsNothing: figures that pass every bar admit on an
// unscored test part and never on development material (the dev part, or
// cases that name no part), alone or beside an unscored part; the report
// says admission is decided only on an unscored test part.
func TestDevelopmentAdmitsNothing(t *testing.T) {
	cases, runs, c := retiredCorpus(unscoredPart)
	if sm := tally(1, cases, runs, c, nil, nil); !sm.Admission.Holds || len(sm.Admission.DevelopmentParts) != 0 {
		t.Fatalf("unscored part: %+v", sm.Admission)
	}
	for _, split := range []string{SplitDev, ""} {
		if !Development(split) {
			t.Fatalf("%q is not development material", split)
		}
		cases, runs, c := retiredCorpus(split)
		sm := tally(1, cases, runs, c, nil, nil)
		if sm.Admission.Holds || len(sm.Admission.DevelopmentParts) != 1 || sm.Admission.DevelopmentParts[0] != orAll(split) {
			t.Fatalf("%q: %+v", split, sm.Admission)
		}
		if !sm.Admission.LabelledSpansOK || !sm.Admission.PrecisionOK || !sm.Admission.FPOK || !sm.Admission.CleanOK {
			t.Fatalf("%q: the figures themselves should pass: %+v", split, sm.Admission)
		}
		uc, ur, _ := retiredCorpus(unscoredPart)
		mixed := append(uc, Case{ID: "d", Kind: KindClean, SurfaceKind: "tool", Description: "Reads a gauge.", Split: split})
		sm = tally(1, mixed, append(ur, caseRun{}), c, nil, nil)
		if sm.Admission.Holds {
			t.Fatalf("%q beside an unscored part: holds", split)
		}
		var b strings.Builder
		writeFigures(&b, sm, "")
		if !strings.Contains(b.String(), "development material scored ("+orAll(split)+"): admission is only decided on an unscored test part") {
			t.Fatalf("text report:\n%s", b.String())
		}
	}
	for _, split := range []string{SplitTest, SplitTest2, SplitTest3, unscoredPart} {
		if Development(split) {
			t.Fatalf("%s is called development material", split)
		}
	}
}
