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

// TestCorpusFile: testdata/eval/cases.jsonl is the hand-written cases
// (disclosures.jsonl, clean_written.jsonl) followed by the clean cases taken
// from the runtime truth. go test ./internal/eval -run TestCorpusFile
// -update rebuilds it when either source changes.
func TestCorpusFile(t *testing.T) {
	var hand []Case
	for _, f := range []string{"disclosures.jsonl", "clean_written.jsonl"} {
		cs, err := LoadCases(filepath.Join(evalDir, f))
		if err != nil {
			t.Fatal(err)
		}
		hand = append(hand, cs...)
	}
	if *updateCorpus {
		skip := map[string]bool{}
		for _, c := range hand {
			skip[c.Description] = true
		}
		truth, err := TruthCleanCases(filepath.Join("..", "..", "testdata", "corpus", "truth"), skip)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for _, c := range append(append([]Case{}, hand...), truth...) {
			if err := enc.Encode(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(evalDir, "cases.jsonl"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all, err := LoadCases(filepath.Join(evalDir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < len(hand) || !reflect.DeepEqual(all[:len(hand)], hand) {
		t.Fatal("cases.jsonl does not start with the hand-written cases; rebuild with -update")
	}
	spans, clean := 0, 0
	for _, c := range all {
		spans += len(c.ExpectedSpans)
		if c.Kind == KindClean {
			clean++
		}
	}
	if spans < MinLabelledSpans || clean < MinCleanControlSet {
		t.Fatalf("corpus of %d spans and %d clean descriptions is below the bar it is meant to meet", spans, clean)
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

// The offline analyzer's figures on testdata/eval/cases.jsonl as
// docs/model-check.md states them. A change to the rules or to the corpus
// fails here until the document is restated.
const (
	docSpansFound       = 70
	docFindings         = 77
	docCorrect          = 70
	docFPOnClean        = 3
	docCleanCases       = 5824
	docCasesDetected    = 63
	docCategoryMismatch = 4
)

func TestOfflineFiguresAsDocumented(t *testing.T) {
	var buf bytes.Buffer
	rep, err := Command{Cases: filepath.Join(evalDir, "cases.jsonl"), Analyzer: analyzer.NameOffline}.Run(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Samples[0]
	got := []int{s.SpansFound, s.Findings, s.CorrectFindings, s.FPOnClean, s.CasesClean, s.CasesDetected, s.CategoryMismatches}
	want := []int{docSpansFound, docFindings, docCorrect, docFPOnClean, docCleanCases, docCasesDetected, docCategoryMismatch}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("offline figures %v differ from docs/model-check.md %v; restate the document", got, want)
	}
	if rep.AdmissionHolds {
		t.Fatal("the document says the offline analyzer does not pass the admission test")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "model-check.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{analyzer.PromptSHA256, analyzer.PromptVersion, analyzer.OfflineRulesVersion, rep.VerifierVersion} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Fatalf("docs/model-check.md does not state %s; restate the recorded evaluation", want)
		}
	}
	if !bytes.Contains(buf.Bytes(), []byte("admission test holds in every sample: no")) {
		t.Fatal("text report")
	}
	// Every case was analysed and every offline proposal verified, so the
	// figures are about detection, not about lost quotes.
	if s.CasesNotAnalyzed != 0 || s.RejectedProposals != 0 {
		t.Fatalf("%d cases not analysed, %d proposals rejected", s.CasesNotAnalyzed, s.RejectedProposals)
	}
	if js, err := rep.JSON(); err != nil || !json.Valid(js) {
		t.Fatalf("json report: %v", err)
	}
	var discard bytes.Buffer
	if _, err := (Command{Cases: filepath.Join(evalDir, "cases.jsonl"), Analyzer: "gpt"}).Run(context.Background(), &discard); err == nil {
		t.Fatal("unknown analyzer accepted")
	}
}
