package eval

import (
	"strings"
	"testing"
)

// TestBlind5CorpusFile: testdata/eval/blind5_cases.jsonl is the fifth
// blind test part, built and checked like the other blind parts, and
// sharing no id, source, description or near-duplicate with the
// development part, the test part, test2, test3 or test4. go test
// ./internal/eval -run TestBlind5CorpusFile -update rebuilds it. No
// analyzer is run on it here.
func TestBlind5CorpusFile(t *testing.T) {
	checkBlindPartFile(t, Blind5)
}

// test5 is a part of its own, like test4: its name is accepted, it is not
// retired (it has never been scored), it is selected alone, reported apart
// (after test4) under --split all, and its misses and incorrect findings
// are withheld.
func TestBlind5PartIsReportedApartAndWithheld(t *testing.T) {
	if err := CheckSplitName(SplitTest5); err != nil {
		t.Fatal(err)
	}
	if !MeasuredOnly(SplitTest5) || Retired(SplitTest5) {
		t.Fatalf("test5: measured only %v, retired %v", MeasuredOnly(SplitTest5), Retired(SplitTest5))
	}
	p, ok := BlindPartOf(SplitTest5)
	if !ok || p.CorpusFile != "blind5_cases.jsonl" {
		t.Fatalf("BlindPartOf(test5) = %+v, %v", p, ok)
	}
	for _, o := range []BlindPart{Blind2, Blind3, Blind4} {
		if p.HandPrefix == o.HandPrefix || p.TruthPrefix == o.TruthPrefix || strings.HasPrefix(p.TruthPrefix, o.TruthPrefix) {
			t.Fatalf("test5's prefixes %q, %q repeat %s's", p.HandPrefix, p.TruthPrefix, o.Split)
		}
	}
	checkBlindPartApart(t, SplitTest5, SplitTest4)
}

// A case of test5 is held to the same corpus checks as the other blind
// parts: CheckBlindPart refuses one that says another split, and the
// reader accepts one that says test5.
func TestBlind5CasesSayTheirSplit(t *testing.T) {
	c := Case{ID: "blind5-x", Description: "Reads a gauge.", Source: "written for this corpus (blind5): g", Split: SplitTest4}
	if err := CheckBlindPart(SplitTest5, []Case{c}, nil); err == nil || !strings.Contains(err.Error(), "blind5-x") {
		t.Fatalf("a case saying test4 passed as test5: %v", err)
	}
	c.Split = SplitTest5
	if err := CheckBlindPart(SplitTest5, []Case{c}, nil); err != nil {
		t.Fatal(err)
	}
	line := `{"id":"blind5-y","kind":"clean","surface_kind":"tool","tool_name":"g","description":"Reads a gauge.","expected_spans":[],"source":"written for this corpus (blind5): g","split":"test5"}`
	if cs, err := ReadCases(strings.NewReader(line + "\n")); err != nil || len(cs) != 1 || cs[0].Split != SplitTest5 {
		t.Fatalf("a test5 case read as %v, %v", cs, err)
	}
}
