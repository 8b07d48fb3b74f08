package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
)

var updateCorpus = flag.Bool("update", false, "rebuild testdata/eval/cases.jsonl from its sources and testdata/corpus/truth")

var evalDir = filepath.Join("..", "..", "testdata", "eval")

// The files of testdata/eval: the hand-written cases of each part, and the
// two files built from them and from the runtime truth.
var (
	devHandFiles  = []string{"disclosures.jsonl", "clean_written.jsonl", "dev_poisoned.jsonl", "dev_clean.jsonl"}
	testHandFiles = []string{"test_poisoned.jsonl", "test_clean.jsonl"}
)

const (
	devCorpusFile  = "cases.jsonl"
	testCorpusFile = "test_cases.jsonl"
)

func loadFiles(t *testing.T, names []string) []Case {
	t.Helper()
	var out []Case
	for _, f := range names {
		cs, err := LoadCases(filepath.Join(evalDir, f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, cs...)
	}
	return out
}

func writeCases(t *testing.T, name string, cases []Case) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(evalDir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCorpusFile: testdata/eval/cases.jsonl is the development part (the
// hand-written dev files, then the runtime-truth clean cases the split rule
// puts in dev) and test_cases.jsonl the test part (the hand-written test
// files, then the truth cases of test). go test ./internal/eval -run
// TestCorpusFile -update rebuilds both when a source changes. Every case's
// split is the rule's (split.go), no source is on both sides, and ids are
// unique across the two files.
func TestCorpusFile(t *testing.T) {
	devHand, testHand := loadFiles(t, devHandFiles), loadFiles(t, testHandFiles)
	pinned := DevPinnedKeys(loadFiles(t, DevPinnedFiles))
	if *updateCorpus {
		skip := map[string]bool{}
		for _, c := range append(append([]Case{}, devHand...), testHand...) {
			skip[c.Description] = true
		}
		truth, err := TruthCleanCases(filepath.Join("..", "..", "testdata", "corpus", "truth"), skip)
		if err != nil {
			t.Fatal(err)
		}
		dev, test := append([]Case{}, devHand...), append([]Case{}, testHand...)
		for _, c := range truth {
			c.Split = SplitOf(c.Source, pinned)
			if c.Split == SplitTest {
				test = append(test, c)
			} else {
				dev = append(dev, c)
			}
		}
		writeCases(t, devCorpusFile, dev)
		writeCases(t, testCorpusFile, test)
	}
	dev, err := LoadCases(filepath.Join(evalDir, devCorpusFile))
	if err != nil {
		t.Fatal(err)
	}
	test, err := LoadCases(filepath.Join(evalDir, testCorpusFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(dev) < len(devHand) || !reflect.DeepEqual(dev[:len(devHand)], devHand) {
		t.Fatalf("%s does not start with the hand-written dev cases; rebuild with -update", devCorpusFile)
	}
	if len(test) < len(testHand) || !reflect.DeepEqual(test[:len(testHand)], testHand) {
		t.Fatalf("%s does not start with the hand-written test cases; rebuild with -update", testCorpusFile)
	}
	for _, c := range dev {
		if c.Split != SplitDev {
			t.Fatalf("%s: case %s in %s says split %q", devCorpusFile, c.ID, devCorpusFile, c.Split)
		}
	}
	for _, c := range test {
		if c.Split != SplitTest {
			t.Fatalf("%s: case %s says split %q", testCorpusFile, c.ID, c.Split)
		}
	}
	all := append(append([]Case{}, dev...), test...)
	if err := CheckSplits(all, pinned); err != nil {
		t.Fatal(err)
	}
	// No source on both sides, checked on the data, not through the rule.
	side := map[string]string{}
	for _, c := range all {
		k := SourceKey(c.Source)
		if s, ok := side[k]; ok && s != c.Split {
			t.Fatalf("source %q has cases in %s and in %s", k, s, c.Split)
		}
		side[k] = c.Split
	}
	// The pinned files are development cases, whatever the hash says.
	for _, c := range loadFiles(t, DevPinnedFiles) {
		if c.Split != SplitDev {
			t.Fatalf("case %s of a pinned file says split %q", c.ID, c.Split)
		}
	}
	ids, descs := map[string]bool{}, map[string]string{}
	for _, c := range all {
		if ids[c.ID] {
			t.Fatalf("id %s is in both parts", c.ID)
		}
		ids[c.ID] = true
		if prev, ok := descs[c.Description]; ok {
			t.Fatalf("cases %s and %s have the same description", prev, c.ID)
		}
		descs[c.Description] = c.ID
	}
	for name, part := range map[string][]Case{devCorpusFile: dev, testCorpusFile: test} {
		spans, clean := 0, 0
		for _, c := range part {
			spans += len(c.ExpectedSpans)
			if c.Kind == KindClean {
				clean++
			}
		}
		if spans < MinLabelledSpans || clean < MinCleanControlSet {
			t.Fatalf("%s: %d spans and %d clean descriptions is below the bar it is meant to meet", name, spans, clean)
		}
	}
	// Worked examples of the prompt are never measured.
	ex, _ := analyzer.Examples()
	for _, e := range ex {
		for _, c := range all {
			for _, s := range e.Entry.Segments {
				if c.Description == s {
					t.Fatalf("worked example %s is in the corpus as %s", e.ID, c.ID)
				}
			}
		}
	}
}

// The offline analyzer's figures on each part of the corpus as
// docs/model-check.md states them: spans found, findings, correct findings,
// false positives on clean descriptions, clean descriptions, poisoned cases
// detected, category mismatches, and whether the admission test holds. A
// change to the rules or to the corpus fails here until the document is
// restated.
var docOffline = map[string]struct {
	file  string
	figs  []int
	holds bool
}{
	SplitDev:  {devCorpusFile, []int{111, 123, 111, 4, 4360, 105, 8}, false},
	SplitTest: {testCorpusFile, []int{39, 39, 39, 0, 2992, 39, 0}, false},
}

func TestOfflineFiguresAsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "model-check.md"))
	if err != nil {
		t.Fatal(err)
	}
	for split, want := range docOffline {
		var buf bytes.Buffer
		rep, err := Command{Cases: filepath.Join(evalDir, want.file), Analyzer: analyzer.NameOffline, Split: split}.Run(context.Background(), &buf)
		if err != nil {
			t.Fatal(err)
		}
		s := rep.Samples[0]
		got := []int{s.SpansFound, s.Findings, s.CorrectFindings, s.FPOnClean, s.CasesClean, s.CasesDetected, s.CategoryMismatches}
		if !reflect.DeepEqual(got, want.figs) || rep.AdmissionHolds != want.holds {
			t.Fatalf("%s: offline figures %v (admission %v) differ from docs/model-check.md %v (%v); restate the document", split, got, rep.AdmissionHolds, want.figs, want.holds)
		}
		if !bytes.Contains(buf.Bytes(), []byte("admission test holds in every sample: "+yes(want.holds))) {
			t.Fatal("text report")
		}
		// Every case was analysed and every offline proposal verified, so
		// the figures are about detection, not about lost quotes.
		if s.CasesNotAnalyzed != 0 || s.RejectedProposals != 0 {
			t.Fatalf("%s: %d cases not analysed, %d proposals rejected", split, s.CasesNotAnalyzed, s.RejectedProposals)
		}
		if js, err := rep.JSON(); err != nil || !json.Valid(js) {
			t.Fatalf("json report: %v", err)
		}
		if !bytes.Contains(doc, []byte(rep.Corpus.SHA256)) {
			t.Fatalf("docs/model-check.md does not state the sha256 %s of %s; restate it", rep.Corpus.SHA256, want.file)
		}
		for _, want := range []string{analyzer.PromptSHA256, analyzer.PromptVersion, analyzer.OfflineRulesVersion, rep.VerifierVersion} {
			if !bytes.Contains(doc, []byte(want)) {
				t.Fatalf("docs/model-check.md does not state %s; restate the recorded evaluation", want)
			}
		}
	}
	var discard bytes.Buffer
	if _, err := (Command{Cases: filepath.Join(evalDir, devCorpusFile), Analyzer: "gpt"}).Run(context.Background(), &discard); err == nil {
		t.Fatal("unknown analyzer accepted")
	}
}
