package eval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
)

func TestSourceKey(t *testing.T) {
	for in, want := range map[string]string{
		"npm:@scope/server-x@1.2.3": "npm:@scope/server-x",
		"npm:plain@0.0.1":           "npm:plain",
		"npm:noversion":             "npm:noversion",
		"adapted from https://example.org/post (pattern of the disclosure)": "https://example.org/post",
		"https://example.org/post":                        "https://example.org/post",
		"see http://example.org/a, then more":             "http://example.org/a",
		"written for this corpus: Spanish phrasing  ":     "written for this corpus: Spanish phrasing",
		"a citation ending in https://example.org/x/1).":  "https://example.org/x/1",
		"two https://example.org/first https://other/two": "https://example.org/first",
	} {
		if got := SourceKey(in); got != want {
			t.Errorf("SourceKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// The rule recomputed here from its published statement: the parity of the
// first byte of SHA-256("attestari-eval-split-1\n" + key).
func TestSplitOfIsThePublishedRule(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 64; i++ {
		src := "written for this corpus: case " + strings.Repeat("x", i)
		h := sha256.Sum256([]byte("attestari-eval-split-1\n" + src))
		want := SplitDev
		if h[0]%2 == 1 {
			want = SplitTest
		}
		if got := SplitOf(src, nil); got != want {
			t.Fatalf("SplitOf(%q) = %s, want %s", src, got, want)
		}
		seen[want] = true
		// A pinned key is dev whatever its hash.
		if got := SplitOf(src, map[string]bool{src: true}); got != SplitDev {
			t.Fatalf("pinned source %q put in %s", src, got)
		}
	}
	if !seen[SplitDev] || !seen[SplitTest] {
		t.Fatalf("64 sources all fell on one side: %v", seen)
	}
	// Versions of one package, and citations of one URL, share a side.
	if SplitOf("npm:pkg@1.0.0", nil) != SplitOf("npm:pkg@2.0.0", nil) {
		t.Fatal("two versions of one package split apart")
	}
	if SplitOf("adapted from https://example.org/a (one)", nil) != SplitOf("https://example.org/a", nil) {
		t.Fatal("two citations of one URL split apart")
	}
}

// A case moved by hand fails the check, in a small corpus and in the real
// one.
func TestCheckSplitsRefusesAMovedCase(t *testing.T) {
	var cases []Case
	for i, src := range []string{"npm:a@1", "npm:b@1", "npm:c@1", "npm:d@1", "written for this corpus: w", "https://example.org/p"} {
		cases = append(cases, Case{ID: string(rune('a' + i)), Source: src, Split: SplitOf(src, nil)})
	}
	if err := CheckSplits(cases, nil); err != nil {
		t.Fatal(err)
	}
	for i := range cases {
		moved := append([]Case(nil), cases...)
		moved[i].Split = map[string]string{SplitDev: SplitTest, SplitTest: SplitDev}[moved[i].Split]
		if err := CheckSplits(moved, nil); !errors.Is(err, ErrSplit) || !strings.Contains(err.Error(), "case "+moved[i].ID+" ") {
			t.Fatalf("case %s moved: %v", moved[i].ID, err)
		}
		moved[i].Split = ""
		if err := CheckSplits(moved, nil); !errors.Is(err, ErrSplit) {
			t.Fatalf("case %s without a split: %v", moved[i].ID, err)
		}
	}
	// Pinning a source makes its (hash-test) case wrong until it says dev.
	for _, c := range cases {
		if c.Split == SplitTest {
			if err := CheckSplits([]Case{c}, map[string]bool{SourceKey(c.Source): true}); !errors.Is(err, ErrSplit) {
				t.Fatalf("a pinned source left in test: %v", err)
			}
			break
		}
	}
	real, err := LoadCases(filepath.Join(evalDir, testCorpusFile))
	if err != nil {
		t.Fatal(err)
	}
	pinned := DevPinnedKeys(loadFiles(t, DevPinnedFiles))
	real[0].Split = SplitDev
	if err := CheckSplits(real, pinned); !errors.Is(err, ErrSplit) {
		t.Fatalf("a test case moved to dev by hand passed the check: %v", err)
	}
}

func TestSelectSplit(t *testing.T) {
	cs := []Case{{ID: "a", Split: SplitDev}, {ID: "b", Split: SplitTest}, {ID: "c", Split: SplitDev}}
	ids := func(cs []Case) string {
		var b strings.Builder
		for _, c := range cs {
			b.WriteString(c.ID)
		}
		return b.String()
	}
	for split, want := range map[string]string{SplitDev: "ac", SplitTest: "b", SplitAll: "abc", "": "abc"} {
		got, err := SelectSplit(cs, split)
		if err != nil || ids(got) != want {
			t.Fatalf("split %q: %q, %v; want %q", split, ids(got), err, want)
		}
	}
	if _, err := SelectSplit(cs, "train"); !errors.Is(err, ErrSplit) {
		t.Fatalf("unknown split: %v", err)
	}
	if _, err := SelectSplit(cs[:1], SplitTest); !errors.Is(err, ErrSplit) {
		t.Fatalf("a part with no case: %v", err)
	}
	noSplit := append(append([]Case(nil), cs...), Case{ID: "d"})
	if _, err := SelectSplit(noSplit, SplitDev); !errors.Is(err, ErrSplit) || !strings.Contains(err.Error(), "case d") {
		t.Fatalf("a case without a split was silently left out: %v", err)
	}
	if got, err := SelectSplit(noSplit, SplitAll); err != nil || ids(got) != "abcd" {
		t.Fatalf("all: %q, %v", ids(got), err)
	}
	if _, err := ReadCases(strings.NewReader(`{"id":"x","kind":"clean","surface_kind":"tool","tool_name":"t","description":"d","expected_spans":[],"source":"s","split":"train"}`)); !errors.Is(err, ErrCorpus) {
		t.Fatalf("a split other than dev or test read: %v", err)
	}
}

// mixedCorpus is smallCorpus with its cases in two parts: p1 and c1 dev,
// p2 and c2 test.
func mixedCorpus() string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(smallCorpus), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if strings.Contains(l, `"id":"p2"`) || strings.Contains(l, `"id":"c2"`) {
			l = strings.Replace(l, `"split":"dev"`, `"split":"test"`, 1)
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// --split scores only its part; all scores both and reports each part
// apart from the same answers; several files joined by commas are one
// corpus.
func TestCommandScoresOnlyItsSplit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mixed.jsonl")
	writeFile(t, path, mixedCorpus())
	run := func(split string) Report {
		t.Helper()
		var buf bytes.Buffer
		rep, err := Command{Cases: path, Analyzer: analyzer.NameOffline, Split: split}.Run(context.Background(), &buf)
		if err != nil {
			t.Fatalf("split %s: %v", split, err)
		}
		return rep
	}
	dev, test, all := run(SplitDev), run(SplitTest), run(SplitAll)
	if dev.Corpus.Cases != 2 || dev.Corpus.Poisoned != 1 || dev.Corpus.LabelledSpans != 2 || dev.Corpus.Split != SplitDev {
		t.Fatalf("dev corpus %+v", dev.Corpus)
	}
	if test.Corpus.Cases != 2 || test.Corpus.Poisoned != 1 || test.Corpus.LabelledSpans != 1 || test.Corpus.Split != SplitTest {
		t.Fatalf("test corpus %+v", test.Corpus)
	}
	if all.Corpus.Cases != 4 || dev.Samples[0].PerSplit != nil {
		t.Fatalf("all corpus %+v; a one-part evaluation has per-split figures %v", all.Corpus, dev.Samples[0].PerSplit)
	}
	ps := all.Samples[0].PerSplit
	if len(ps) != 2 {
		t.Fatalf("per split %v", ps)
	}
	for name, one := range map[string]Report{SplitDev: dev, SplitTest: test} {
		got, want := ps[name], one.Samples[0]
		if got.SpansExpected != want.SpansExpected || got.SpansFound != want.SpansFound || got.Findings != want.Findings ||
			got.CorrectFindings != want.CorrectFindings || got.FPOnClean != want.FPOnClean || got.CasesClean != want.CasesClean ||
			got.Precision != want.Precision || got.PerCategory["exfiltrate_data"] != want.PerCategory["exfiltrate_data"] {
			t.Fatalf("split %s inside all: %+v; scored alone: %+v", name, got, want)
		}
	}
	if all.Samples[0].SpansExpected != ps[SplitDev].SpansExpected+ps[SplitTest].SpansExpected {
		t.Fatal("the parts do not add up to the whole")
	}
	text := all.Text()
	for _, want := range []string{"split dev: 1 poisoned cases with 2 spans, 1 clean", "split test: 1 poisoned cases with 1 spans, 1 clean", "split all)"} {
		if !strings.Contains(text, want) {
			t.Fatalf("text report lacks %q:\n%s", want, text)
		}
	}
	// Two files joined by a comma are scored as their concatenation.
	lines := strings.SplitAfter(mixedCorpus(), "\n")
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	writeFile(t, a, strings.TrimSuffix(lines[0], "\n")) // no final newline: its line must not run into the next file's
	writeFile(t, b, strings.Join(lines[1:], ""))
	var buf bytes.Buffer
	joined, err := Command{Cases: a + "," + b, Analyzer: analyzer.NameOffline, Split: SplitTest}.Run(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	if joined.Corpus.File != "a.jsonl,b.jsonl" || joined.Corpus.Cases != 2 || joined.Samples[0].SpansFound != test.Samples[0].SpansFound {
		t.Fatalf("joined files: %+v", joined.Corpus)
	}
	// A part the corpus does not hold, an unknown part, and a file without
	// splits asked for a part are errors, not empty reports.
	for _, c := range []Command{
		{Cases: a, Analyzer: analyzer.NameOffline, Split: SplitTest},
		{Cases: path, Analyzer: analyzer.NameOffline, Split: "holdout"},
		{Cases: writeCorpus(t), Analyzer: analyzer.NameOffline, Split: SplitDev, JSON: true},
	} {
		if c.Split == SplitDev {
			// smallCorpus says dev everywhere; strip the splits.
			writeFile(t, c.Cases, strings.ReplaceAll(smallCorpus, `,"split":"dev"`, ""))
		}
		if _, err := c.Run(context.Background(), &buf); !errors.Is(err, ErrSplit) {
			t.Fatalf("%+v: %v", c, err)
		}
	}
	if _, err := (Command{Cases: a + ",", Analyzer: analyzer.NameOffline}).Run(context.Background(), &buf); !errors.Is(err, ErrUsage) {
		t.Fatalf("an empty path in the list: %v", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A recording of one part replays to that part's figures: the whole file is
// recorded with its split, and the replay selects the same cases again.
func TestRecordAndReplayOneSplit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mixed.jsonl")
	writeFile(t, path, mixedCorpus())
	for _, split := range []string{SplitDev, SplitTest, SplitAll} {
		rec := filepath.Join(dir, "rec-"+split)
		live, err := run(t, Command{Cases: path, Analyzer: analyzer.NameOffline, Record: rec, Split: split})
		if err != nil {
			t.Fatal(err)
		}
		replayed, err := run(t, Command{Replay: rec})
		if err != nil {
			t.Fatal(err)
		}
		if figures(t, live) != figures(t, replayed) {
			t.Fatalf("split %s: replay differs from the live evaluation:\n%s\n%s", split, figures(t, live), figures(t, replayed))
		}
		if replayed.Corpus.Split != split {
			t.Fatalf("replayed split %q, recorded %q", replayed.Corpus.Split, split)
		}
		if split != SplitAll && replayed.Corpus.Cases != 2 {
			t.Fatalf("split %s replayed %d cases", split, replayed.Corpus.Cases)
		}
		other := SplitTest
		if split == SplitTest {
			other = SplitDev
		}
		if _, err := run(t, Command{Replay: rec, Split: other}); !errors.Is(err, ErrRecording) {
			t.Fatalf("recording of %s replayed as %s: %v", split, other, err)
		}
		if _, err := run(t, Command{Replay: rec, Split: split, Cases: path}); err != nil {
			t.Fatalf("replay naming its own split and corpus: %v", err)
		}
	}
}

// Incorrect findings inside one part of an --split all evaluation are
// counted in that part, not in the other, and listed once in the report (a
// nil map here once ended the process).
func TestPerSplitCountsIncorrectFindings(t *testing.T) {
	cs, err := ReadCases(strings.NewReader(mixedCorpus()))
	if err != nil {
		t.Fatal(err)
	}
	rep := Evaluate(context.Background(), cs, &alternating{calls: map[string]int{}}, 2)
	s1, s2 := rep.Samples[0], rep.Samples[1]
	dev1, test1, dev2 := s1.PerSplit[SplitDev], s1.PerSplit[SplitTest], s2.PerSplit[SplitDev]
	if s1.FPOnClean != 1 || dev1.FPOnClean != 1 || dev1.CasesClean != 1 || test1.FPOnClean != 0 || test1.CasesClean != 1 {
		t.Fatalf("sample 1: whole %d FP; dev %d on %d clean; test %d on %d clean", s1.FPOnClean, dev1.FPOnClean, dev1.CasesClean, test1.FPOnClean, test1.CasesClean)
	}
	if s2.CategoryMismatches != 1 || dev2.CategoryMismatches != 1 || s2.PerSplit[SplitTest].CategoryMismatches != 0 {
		t.Fatalf("sample 2 mismatches: whole %d, dev %d", s2.CategoryMismatches, dev2.CategoryMismatches)
	}
	if dev1.Precision != 0.5 || !dev1.PrecisionDefined || test1.PrecisionDefined {
		t.Fatalf("precision dev %v (%v), test defined %v", dev1.Precision, dev1.PrecisionDefined, test1.PrecisionDefined)
	}
	if len(rep.FalsePositives) != 2 { // the false positive on c1 and the mismatch on p1
		t.Fatalf("listed %d incorrect findings: %+v", len(rep.FalsePositives), rep.FalsePositives)
	}
}

// A report lists the misses and incorrect findings of development cases and
// only counts those of test cases, unless asked to show them.
func TestReportWithholdsTestCaseTexts(t *testing.T) {
	cs, err := ReadCases(strings.NewReader(mixedCorpus()))
	if err != nil {
		t.Fatal(err)
	}
	rep := Evaluate(context.Background(), cs, &alternating{calls: map[string]int{}}, 1)
	ids := func(r Report) string {
		var b strings.Builder
		for _, m := range r.Misses {
			b.WriteString(m.CaseID + " ")
		}
		return b.String()
	}
	if got := ids(rep); got != "p1 p2 " {
		t.Fatalf("misses before withholding: %q", got)
	}
	rep.WithholdTestCases()
	if got := ids(rep); got != "p1 " || rep.Withheld == nil || rep.Withheld.Misses != 1 || rep.Withheld.FalsePositives != 0 {
		t.Fatalf("misses after withholding: %q, withheld %+v", got, rep.Withheld)
	}
	if strings.Contains(rep.Text(), "quietly rewrite") || !strings.Contains(rep.Text(), "test part: 1 missed spans and 0 incorrect findings not listed") {
		t.Fatalf("text report:\n%s", rep.Text())
	}
	// Through the command: withheld by default, listed on request, and
	// nothing to withhold in a development-only report.
	path := filepath.Join(t.TempDir(), "mixed.jsonl")
	writeFile(t, path, mixedCorpus())
	for _, show := range []bool{false, true} {
		var buf bytes.Buffer
		r, err := Command{Cases: path, Analyzer: analyzer.NameOffline, Split: SplitTest, ShowTestCases: show}.Run(context.Background(), &buf)
		if err != nil {
			t.Fatal(err)
		}
		if listed := strings.Contains(buf.String(), "quietly rewrite"); listed != show || (r.Withheld != nil) == show {
			t.Fatalf("show %v: listed %v, withheld %+v\n%s", show, listed, r.Withheld, buf.String())
		}
	}
	var buf bytes.Buffer
	r, err := Command{Cases: path, Analyzer: analyzer.NameOffline, Split: SplitDev}.Run(context.Background(), &buf)
	if err != nil || r.Withheld != nil {
		t.Fatalf("dev report withheld %+v, %v", r.Withheld, err)
	}
}
