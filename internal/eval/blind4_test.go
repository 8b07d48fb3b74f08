package eval

import (
	"strings"
	"testing"
)

// test4 is a part of its own, like test2 and test3: its name is accepted,
// it is not retired (it has never been scored), it is selected alone,
// reported apart (after test3) under --split all, and its misses and
// incorrect findings are withheld.
func TestBlind4PartIsReportedApartAndWithheld(t *testing.T) {
	if err := CheckSplitName(SplitTest4); err != nil {
		t.Fatal(err)
	}
	if !MeasuredOnly(SplitTest4) || Retired(SplitTest4) {
		t.Fatalf("test4: measured only %v, retired %v", MeasuredOnly(SplitTest4), Retired(SplitTest4))
	}
	if p, ok := BlindPartOf(SplitTest4); !ok || p.CorpusFile != "blind4_cases.jsonl" || p.HandPrefix == Blind3.HandPrefix || p.TruthPrefix == Blind3.TruthPrefix {
		t.Fatalf("BlindPartOf(test4) = %+v, %v", p, ok)
	}
	checkBlindPartApart(t, SplitTest4, SplitTest3)
}

// A case of test4 is held to the same corpus checks as the other blind
// parts: CheckBlindPart refuses one that says another split.
func TestBlind4CasesSayTheirSplit(t *testing.T) {
	c := Case{ID: "blind4-x", Description: "Reads a gauge.", Source: "written blind: g", Split: SplitTest3}
	if err := CheckBlindPart(SplitTest4, []Case{c}, nil); err == nil || !strings.Contains(err.Error(), "blind4-x") {
		t.Fatalf("a case saying test3 passed as test4: %v", err)
	}
	c.Split = SplitTest4
	if err := CheckBlindPart(SplitTest4, []Case{c}, nil); err != nil {
		t.Fatal(err)
	}
}
