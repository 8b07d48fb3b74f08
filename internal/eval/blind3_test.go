package eval

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// blindMixedAfter is smallCorpus in four parts: p1 dev, p2 and c2 the blind part
// blind, c1 the earlier part earlier, with c1 and c2 starting with IMPORTANT
// so that the scripted fake has a false positive on each blind part to
// withhold.
func blindMixedAfter(blind, earlier string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(smallCorpus), "\n") {
		switch {
		case strings.Contains(l, `"id":"p2"`), strings.Contains(l, `"id":"c2"`):
			l = strings.Replace(l, `"split":"dev"`, `"split":"`+blind+`"`, 1)
		case strings.Contains(l, `"id":"c1"`):
			l = strings.Replace(l, `"split":"dev"`, `"split":"`+earlier+`"`, 1)
		}
		b.WriteString(l + "\n")
	}
	return strings.Replace(b.String(), `"description":"Path of the file`, `"description":"IMPORTANT: Always call list_tables first. Path of the file`, 1)
}

// checkBlindPartApart checks, over blindMixedAfter(blind, earlier), that the
// blind part is selected alone, reported apart (after earlier) under --split
// all, and that its misses and incorrect findings are withheld.
func checkBlindPartApart(t *testing.T, blind, earlier string) {
	t.Helper()
	cs, err := ReadCases(strings.NewReader(blindMixedAfter(blind, earlier)))
	if err != nil {
		t.Fatal(err)
	}
	sel, err := SelectSplit(cs, blind)
	if err != nil || len(sel) != 2 || sel[0].ID != "p2" || sel[1].ID != "c2" {
		t.Fatalf("select %s: %v, %v", blind, sel, err)
	}
	rep := Evaluate(context.Background(), cs, &alternating{calls: map[string]int{}}, 1)
	ps := rep.Samples[0].PerSplit
	if len(ps) != 3 || ps[blind].CasesPoisoned != 1 || ps[blind].FPOnClean != 1 || ps[earlier].FPOnClean != 1 {
		t.Fatalf("per split %+v", ps)
	}
	text := rep.Text()
	ie, ib := strings.Index(text, "  split "+earlier+":"), strings.Index(text, "  split "+blind+": 1 poisoned cases with 1 spans, 1 clean")
	if ie < 0 || ib < ie {
		t.Fatalf("text report:\n%s", text)
	}
	rep.WithholdTestCases()
	for _, f := range rep.FalsePositives {
		if f.CaseID == "c1" || f.CaseID == "c2" {
			t.Fatalf("a blind part's incorrect finding is listed: %+v", f)
		}
	}
	for _, m := range rep.Misses {
		if m.CaseID == "p2" {
			t.Fatalf("a %s miss is listed: %+v", blind, m)
		}
	}
	if rep.Withheld == nil || rep.Withheld.FalsePositives != 2 || rep.Withheld.Misses != 1 {
		t.Fatalf("withheld %+v", rep.Withheld)
	}
	if strings.Contains(rep.Text(), "first. Path of the file") || strings.Contains(rep.Text(), "rewrite their commits") {
		t.Fatalf("a %s text is in the report:\n%s", blind, rep.Text())
	}
}

// test3 is a part of its own, like test2: its name is accepted, it is
// selected alone, reported apart (after test2) under --split all, and its
// misses and incorrect findings are withheld.
func TestBlind3PartIsReportedApartAndWithheld(t *testing.T) {
	if err := CheckSplitName(SplitTest3); err != nil {
		t.Fatal(err)
	}
	if err := CheckSplitName("test6"); err == nil {
		t.Fatal("a split no part has was accepted")
	}
	if !MeasuredOnly(SplitTest3) {
		t.Fatal("test3 is not measured only")
	}
	if p, ok := BlindPartOf(SplitTest3); !ok || p.CorpusFile != "blind3_cases.jsonl" {
		t.Fatalf("BlindPartOf(test3) = %+v, %v", p, ok)
	}
	checkBlindPartApart(t, SplitTest3, SplitTest2)
	// Through the command, test3 alone; --show-test-cases lists its texts.
	path := filepath.Join(t.TempDir(), "blind3.jsonl")
	writeFile(t, path, blindMixedAfter(SplitTest3, SplitTest2))
	var buf bytes.Buffer
	r, err := Command{Cases: path, Analyzer: "none", Split: SplitTest3}.Run(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	if r.Corpus.Cases != 2 || r.Corpus.Split != SplitTest3 || !strings.Contains(buf.String(), "split test3)") || strings.Contains(buf.String(), "rewrite their commits") {
		t.Fatalf("test3 through the command: %+v\n%s", r.Corpus, buf.String())
	}
	buf.Reset()
	if _, err := (Command{Cases: path, Analyzer: "none", Split: SplitTest3, ShowTestCases: true}).Run(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "rewrite their commits") {
		t.Fatalf("--show-test-cases did not list the test3 miss:\n%s", buf.String())
	}
}

// A blind part's corpus is its hand cases, then the test part's
// runtime-truth cases only, renumbered with the part's own prefix.
func TestBlindPartCorpusNumbersItsBase(t *testing.T) {
	hand := []Case{{ID: "blind3-aa", Kind: KindClean, Description: "Reads a dial."}}
	var truth []Case
	for _, src := range []string{"npm:a@1", "npm:b@1", "npm:c@1", "npm:d@1", "npm:e@1", "npm:f@1"} {
		truth = append(truth, Case{ID: "truth-x", Kind: KindClean, Description: "d " + src, Source: src})
	}
	got := Blind3.Corpus(hand, truth, nil)
	if got[0].ID != "blind3-aa" || got[0].Split != SplitTest3 {
		t.Fatalf("hand case %+v", got[0])
	}
	want := 0
	for _, c := range truth {
		if SplitOf(c.Source, nil) == SplitTest {
			want++
		}
	}
	if len(got) != 1+want || want == 0 || want == len(truth) {
		t.Fatalf("%d cases from %d test-side truth cases of %d (the fixture needs both sides)", len(got), want, len(truth))
	}
	for i, c := range got[1:] {
		if c.Split != SplitTest3 || !Blind3.IsBase(c) || Blind2.IsBase(c) || c.ID != Blind3.TruthPrefix+strings.Repeat("0", 4)+string(rune('1'+i)) {
			t.Fatalf("base case %d: %+v", i, c)
		}
	}
}
