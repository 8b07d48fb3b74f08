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
	if code, _, errs := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "test9"); code != 2 || !strings.Contains(errs, "--split is dev, test, test2, test3, test4, test5 or all") {
		t.Fatalf("unknown split: exit %d, %s", code, errs)
	}
}

// --split test3 scores the third blind test part alone, and --split all
// reports it after test2, as a part of its own.
func TestEvalBlind3SplitThroughCLI(t *testing.T) {
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	blind := `{"id":"b2","kind":"clean","surface_kind":"tool","tool_name":"q","description":"Reads one sensor.","expected_spans":[],"source":"written blind for this test","split":"test2"}` + "\n" +
		`{"id":"b3","kind":"clean","surface_kind":"tool","tool_name":"r","description":"Reads two sensors.","expected_spans":[],"source":"written blind for another test","split":"test3"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+blind), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "test3")
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split test3)") {
		t.Fatalf("--split test3: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "all")
	i2, i3 := strings.Index(out, "  split test2: 0 poisoned cases with 0 spans, 1 clean"), strings.Index(out, "  split test3: 0 poisoned cases with 0 spans, 1 clean")
	if code != 1 || i2 < 0 || i3 < i2 {
		t.Fatalf("--split all: exit %d\n%s", code, out)
	}
}

// --split test4 scores the fourth blind test part alone, and --split all
// reports it after test3, as a part of its own.
func TestEvalBlind4SplitThroughCLI(t *testing.T) {
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	blind := `{"id":"b3","kind":"clean","surface_kind":"tool","tool_name":"r","description":"Reads two sensors.","expected_spans":[],"source":"written blind for another test","split":"test3"}` + "\n" +
		`{"id":"b4","kind":"clean","surface_kind":"tool","tool_name":"s","description":"Reads three sensors.","expected_spans":[],"source":"written blind for a fourth test","split":"test4"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+blind), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "test4")
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split test4)") {
		t.Fatalf("--split test4: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "all")
	i3, i4 := strings.Index(out, "  split test3: 0 poisoned cases with 0 spans, 1 clean"), strings.Index(out, "  split test4: 0 poisoned cases with 0 spans, 1 clean")
	if code != 1 || i3 < 0 || i4 < i3 {
		t.Fatalf("--split all: exit %d\n%s", code, out)
	}
}

// --split test5 scores the fifth blind test part alone, and --split all
// reports it after test4, as a part of its own.
func TestEvalBlind5SplitThroughCLI(t *testing.T) {
	home := t.TempDir()
	cases := filepath.Join(home, "cases.jsonl")
	blind := `{"id":"b4","kind":"clean","surface_kind":"tool","tool_name":"s","description":"Reads three sensors.","expected_spans":[],"source":"written blind for a fourth test","split":"test4"}` + "\n" +
		`{"id":"b5","kind":"clean","surface_kind":"tool","tool_name":"u","description":"Reads four sensors.","expected_spans":[],"source":"written blind for a fifth test","split":"test5"}` + "\n"
	if err := os.WriteFile(cases, []byte(evalCorpus+blind), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "test5")
	if code != 1 || !strings.Contains(out, "corpus            1 cases: 0 poisoned") || !strings.Contains(out, "split test5)") {
		t.Fatalf("--split test5: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, home, "eval", "--cases", cases, "--analyzer", "none", "--split", "all")
	i4, i5 := strings.Index(out, "  split test4: 0 poisoned cases with 0 spans, 1 clean"), strings.Index(out, "  split test5: 0 poisoned cases with 0 spans, 1 clean")
	if code != 1 || i4 < 0 || i5 < i4 {
		t.Fatalf("--split all: exit %d\n%s", code, out)
	}
}
