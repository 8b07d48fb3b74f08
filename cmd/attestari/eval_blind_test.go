package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --split test2 scores the blind test part alone, and --split all reports
// it as a part of its own; the none analyzer is the one run on it.
func TestEvalBlindSplitThroughCLI(t *testing.T) {
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	blind := `{"id":"b1","kind":"clean","surface_kind":"tool","tool_name":"q","description":"Reads one sensor.","expected_spans":[],"source":"written blind for this test","split":"test2"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+blind), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "test2")
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split test2)") {
		t.Fatalf("--split test2: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "all")
	if code != 1 || !strings.Contains(out, "  split dev: 1 poisoned cases") || !strings.Contains(out, "  split test2: 0 poisoned cases with 0 spans, 1 clean") {
		t.Fatalf("--split all: exit %d\n%s", code, out)
	}
	if code, _, errs := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "test9"); code != 2 || !strings.Contains(errs, "--split is dev, hand6, hand7, test, test2, test3, test4, test5 or all") {
		t.Fatalf("unknown split: exit %d, %s", code, errs)
	}
}

// checkBlindSplitAfter checks, on a corpus holding one clean case of the
// part earlier and one of the blind part blind, that --split blind scores
// the blind part alone and that --split all reports it after earlier, as a
// part of its own.
func checkBlindSplitAfter(t *testing.T, earlier, blind string) {
	t.Helper()
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	lines := `{"id":"e1","kind":"clean","surface_kind":"tool","tool_name":"q","description":"Reads one sensor.","expected_spans":[],"source":"written blind for this test","split":"` + earlier + `"}` + "\n" +
		`{"id":"b1","kind":"clean","surface_kind":"tool","tool_name":"r","description":"Reads two sensors.","expected_spans":[],"source":"written blind for another test","split":"` + blind + `"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", blind)
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split "+blind+")") {
		t.Fatalf("--split %s: exit %d\n%s", blind, code, out)
	}
	code, out, _ = runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "all")
	ie, ib := strings.Index(out, "  split "+earlier+": 0 poisoned cases with 0 spans, 1 clean"), strings.Index(out, "  split "+blind+": 0 poisoned cases with 0 spans, 1 clean")
	if code != 1 || ie < 0 || ib < ie {
		t.Fatalf("--split all: exit %d\n%s", code, out)
	}
}

// --split test3 scores the third blind test part alone, and --split all
// reports it after test2, as a part of its own.
func TestEvalBlind3SplitThroughCLI(t *testing.T) { checkBlindSplitAfter(t, "test2", "test3") }

// --split test4 scores the fourth blind test part alone, and --split all
// reports it after test3, as a part of its own.
func TestEvalBlind4SplitThroughCLI(t *testing.T) { checkBlindSplitAfter(t, "test3", "test4") }

// --split test5 scores the fifth blind test part alone, and --split all
// reports it after test4, as a part of its own.
func TestEvalBlind5SplitThroughCLI(t *testing.T) { checkBlindSplitAfter(t, "test4", "test5") }

// --split hand6 scores the sixth hand-written part alone, and the report
// names it development material: it never says the admission test holds.
func TestEvalHand6SplitThroughCLI(t *testing.T) {
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	line := `{"id":"h1","kind":"clean","surface_kind":"tool","tool_name":"q","description":"Reads one sensor.","expected_spans":[],"source":"written for this test","split":"hand6"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+line), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "hand6")
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split hand6)") || !strings.Contains(out, "development material") {
		t.Fatalf("--split hand6: exit %d\n%s", code, out)
	}
}

// --split hand7 scores the seventh hand-written part alone, and the report
// names it development material: it never says the admission test holds.
func TestEvalHand7SplitThroughCLI(t *testing.T) {
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	line := `{"id":"h1","kind":"clean","surface_kind":"tool","tool_name":"q","description":"Reads one sensor.","expected_spans":[],"source":"written for this test","split":"hand7"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+line), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "hand7")
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split hand7)") || !strings.Contains(out, "development material") {
		t.Fatalf("--split hand7: exit %d\n%s", code, out)
	}
}
