package eval

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/vocab"
)

// TestBlindCorpusFile: testdata/eval/blind_cases.jsonl is the blind test
// part, the hand-written blind files then the clean base (the runtime
// truth the split rule puts in the test part), all test2. go test
// ./internal/eval -run 'TestCorpusFile|TestBlindCorpusFile' -update
// rebuilds it. It holds what docs/model-check.md says it holds, and shares
// no id, source, description or near-duplicate with the other two parts.
// No analyzer is run on it here.
func TestBlindCorpusFile(t *testing.T) {
	checkBlindPartFile(t, Blind2)
}

// TestBlind3CorpusFile: testdata/eval/blind3_cases.jsonl is the third
// blind test part, built and checked like test2, and sharing no id,
// source, description or near-duplicate with the development part, the
// test part or test2. go test ./internal/eval -run TestBlind3CorpusFile
// -update rebuilds it. No analyzer is run on it here.
func TestBlind3CorpusFile(t *testing.T) {
	checkBlindPartFile(t, Blind3)
}

// TestBlind4CorpusFile: testdata/eval/blind4_cases.jsonl is the fourth
// blind test part, built and checked like test2 and test3, and sharing no
// id, source, description or near-duplicate with the development part, the
// test part, test2 or test3. go test ./internal/eval -run
// TestBlind4CorpusFile -update rebuilds it. No analyzer is run on it here.
func TestBlind4CorpusFile(t *testing.T) {
	checkBlindPartFile(t, Blind4)
}

// otherParts are the hand-written and built cases of every part but p:
// dev and test from their built files, and each other blind part from its
// built file.
func otherParts(t *testing.T, p BlindPart) map[string][]Case {
	t.Helper()
	parts := map[string][]Case{}
	for name, file := range map[string]string{SplitDev: devCorpusFile, SplitTest: testCorpusFile} {
		cs, err := LoadCases(filepath.Join(evalDir, file))
		if err != nil {
			t.Fatal(err)
		}
		parts[name] = cs
	}
	for _, o := range BlindParts() {
		if o.Split == p.Split {
			continue
		}
		cs, err := LoadCases(filepath.Join(evalDir, o.CorpusFile))
		if err != nil {
			t.Fatal(err)
		}
		parts[o.Split] = cs
	}
	return parts
}

// checkBlindPartFile is what every blind part's file is checked for: the
// hand-written cases first, every case of the part's split; the base the
// test part's runtime truth, case for case; labels an analyzer cannot
// see; nothing shared with another part; the part's minimums; and the
// file's sha256 stated in docs/model-check.md.
func checkBlindPartFile(t *testing.T, p BlindPart) {
	t.Helper()
	hand := loadFiles(t, p.HandFiles)
	pinned := DevPinnedKeys(loadFiles(t, DevPinnedFiles))
	if *updateCorpus {
		skip := map[string]bool{}
		for _, c := range loadFiles(t, append(append([]string{}, devHandFiles...), testHandFiles...)) {
			skip[c.Description] = true
		}
		truth, err := TruthCleanCases(filepath.Join("..", "..", "testdata", "corpus", "truth"), skip)
		if err != nil {
			t.Fatal(err)
		}
		writeCases(t, p.CorpusFile, p.Corpus(hand, truth, pinned))
	}
	blind, err := LoadCases(filepath.Join(evalDir, p.CorpusFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(blind) < len(hand) || !reflect.DeepEqual(blind[:len(hand)], hand) {
		t.Fatalf("%s does not start with the hand-written blind cases; rebuild with -update", p.CorpusFile)
	}
	for _, c := range blind {
		if c.Split != p.Split {
			t.Fatalf("%s: case %s says split %q", p.CorpusFile, c.ID, c.Split)
		}
	}
	parts := otherParts(t, p)
	dev, test := parts[SplitDev], parts[SplitTest]
	// The base is the test part's runtime truth, case for case, and nothing
	// else: it is referenced by the rule, not written.
	var base, testTruth []Case
	for _, c := range blind[len(hand):] {
		if !p.IsBase(c) {
			t.Fatalf("case %s after the hand-written cases is not of the clean base", c.ID)
		}
		base = append(base, c)
	}
	for _, c := range test {
		if strings.HasPrefix(c.Source, "npm:") && strings.HasPrefix(c.ID, "truth-") {
			testTruth = append(testTruth, c)
		}
	}
	if len(base) != len(testTruth) || len(base) == 0 {
		t.Fatalf("clean base of %d cases; the test part has %d runtime-truth cases", len(base), len(testTruth))
	}
	for i := range base {
		b, tt := base[i], testTruth[i]
		if b.Description != tt.Description || b.Source != tt.Source || b.SurfaceKind != tt.SurfaceKind || b.ToolName != tt.ToolName || b.Kind != KindClean {
			t.Fatalf("clean base case %s is not the test part's runtime-truth case %d", b.ID, i+1)
		}
	}
	// Hand cases: the blind rules. An id or a name the analyzer can see
	// must not carry the label.
	for _, c := range hand {
		if p.IsBase(c) || !strings.HasPrefix(c.ID, p.HandPrefix) {
			t.Fatalf("hand-written blind case id %q: want %s… and not the base's prefix", c.ID, p.HandPrefix)
		}
		words := Tokens(c.ID + " " + c.ToolName)
		for _, w := range []string{"clean", "poison", "poisoned", "benign", "malicious", "twin"} {
			if words[w] {
				t.Fatalf("case %s (%s) names its label with %q", c.ID, c.ToolName, w)
			}
		}
	}
	if err := CheckBlindPart(p.Split, hand, parts); err != nil {
		t.Fatal(err)
	}
	// Ids unique across all parts (the bases included).
	ids := map[string]bool{}
	all := append(append([]Case{}, dev...), test...)
	for _, o := range BlindParts() {
		if o.Split != p.Split {
			all = append(all, parts[o.Split]...)
		}
	}
	for _, c := range append(all, blind...) {
		if ids[c.ID] {
			t.Fatalf("id %s is in two parts", c.ID)
		}
		ids[c.ID] = true
	}
	// What the part is built to hold.
	poisoned, handClean, spans, clean := 0, 0, 0, 0
	perCat, perKind := map[string]int{}, map[string]int{}
	for _, c := range blind {
		if c.Kind == KindClean {
			clean++
			if !p.IsBase(c) {
				handClean++
			}
			continue
		}
		poisoned++
		perKind[c.SurfaceKind]++
		seen := map[string]bool{}
		for _, s := range c.ExpectedSpans {
			spans++
			perCat[s.Category]++
			if seen[s.Text] {
				t.Fatalf("case %s labels %q twice", c.ID, s.Text)
			}
			seen[s.Text] = true
			if strings.TrimSpace(s.Text) != s.Text {
				t.Fatalf("case %s: span %q starts or ends with white space", c.ID, s.Text)
			}
		}
	}
	if poisoned < p.MinPoisoned || spans < p.MinSpans || handClean < p.MinHandClean {
		t.Fatalf("%d poisoned cases, %d spans, %d hand-written clean cases: below %d, %d, %d", poisoned, spans, handClean, p.MinPoisoned, p.MinSpans, p.MinHandClean)
	}
	for _, cat := range analyzer.Categories {
		if perCat[cat] < p.MinSpansPerCategory {
			t.Fatalf("%s: %d spans, below %d", cat, perCat[cat], p.MinSpansPerCategory)
		}
	}
	if spans < MinLabelledSpans || clean < MinCleanControlSet {
		t.Fatalf("%d spans and %d clean descriptions: the admission test could not be applied", spans, clean)
	}
	for kind := range surfaceKinds {
		if perKind[kind] == 0 {
			t.Fatalf("no poisoned case of surface kind %s", kind)
		}
		if kind != "tool" && perKind[kind] >= perKind["tool"] {
			t.Fatalf("%d poisoned %s cases, not fewer than the %d tools", perKind[kind], kind, perKind["tool"])
		}
	}
	// docs/model-check.md states the file it describes.
	raw, err := os.ReadFile(filepath.Join(evalDir, p.CorpusFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "model-check.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(vocab.SHA256Hex(raw))) {
		t.Fatalf("docs/model-check.md does not state the sha256 %s of %s; restate its counts", vocab.SHA256Hex(raw), p.CorpusFile)
	}
	// Worked examples of the prompt are never measured.
	ex, _ := analyzer.Examples()
	for _, e := range ex {
		for _, c := range blind {
			for _, s := range e.Entry.Segments {
				if c.Description == s {
					t.Fatalf("worked example %s is in the blind part as %s", e.ID, c.ID)
				}
			}
		}
	}
}

func TestTokensAndJaccard(t *testing.T) {
	a := Tokens("Sends the REPORT to the address the user gives.")
	for _, w := range []string{"sends", "report", "address", "user", "gives"} {
		if !a[w] {
			t.Fatalf("token %q missing from %v", w, a)
		}
	}
	if len(a) != 7 { // sends the report to address user gives
		t.Fatalf("tokens %v", a)
	}
	if j := Jaccard(a, Tokens("sends, the report; to the address the user gives")); j != 1 {
		t.Fatalf("case and punctuation changed the tokens: %v", j)
	}
	if j := Jaccard(a, Tokens("Rotates a key.")); j != 0 {
		t.Fatalf("disjoint texts: %v", j)
	}
	if j := Jaccard(map[string]bool{}, map[string]bool{}); j != 0 {
		t.Fatalf("two empty texts: %v", j)
	}
	// Text written without spaces is read as character bigrams.
	zh := Tokens("把文件发送给用户")
	if !zh["文件"] || !zh["发送"] || zh["把文件发送给用户"] {
		t.Fatalf("Han tokens %v", zh)
	}
	if j := Jaccard(zh, Tokens("把文件发送给管理员")); j < 0.4 || j >= 1 {
		t.Fatalf("two Chinese sentences sharing most bigrams: %v", j)
	}
	// Greek, Cyrillic and accented words stay words.
	if ru := Tokens("Отправь файл"); !ru["отправь"] || !ru["файл"] {
		t.Fatalf("Cyrillic tokens %v", ru)
	}
	if fr := Tokens("Envoie le fichier à l'équipe"); !fr["équipe"] || !fr["à"] {
		t.Fatalf("French tokens %v", fr)
	}
	// A Devanagari vowel sign is a combining mark: the word stays whole.
	if hi := Tokens("फ़ाइल भेजें"); len(hi) != 2 || !hi["भेजें"] {
		t.Fatalf("Hindi tokens %v", hi)
	}
}

// CheckBlindCases refuses each way a blind case could repeat another part,
// and names only the part, never a test-part case.
func TestCheckBlindCasesRefuses(t *testing.T) {
	dev := []Case{{ID: "pd-1", Description: "Adds two numbers and returns the sum of them.", Source: "https://example.org/post-a", Split: SplitDev}}
	test := []Case{{ID: "secret-test-id", Description: "Lists the open pull requests of a repository by label.", Source: "written for this corpus: pulls", Split: SplitTest}}
	parts := map[string][]Case{SplitDev: dev, SplitTest: test}
	ok := Case{ID: "blind-p-1", Description: "Converts a temperature between Celsius and Kelvin.", Source: "written blind for this corpus: units", Split: SplitTest2}
	if err := CheckBlindCases([]Case{ok}, parts); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		c    Case
		want error
	}{
		"wrong split":     {Case{ID: "blind-p-2", Description: "Reads a sensor.", Source: "written blind: s", Split: SplitTest}, ErrSplit},
		"shared id":       {Case{ID: "pd-1", Description: "Reads a sensor.", Source: "written blind: s", Split: SplitTest2}, ErrCorpus},
		"shared source":   {Case{ID: "blind-p-3", Description: "Reads a sensor.", Source: "adapted from https://example.org/post-a (same post)", Split: SplitTest2}, ErrSplit},
		"shared text":     {Case{ID: "blind-p-4", Description: dev[0].Description, Source: "written blind: s", Split: SplitTest2}, ErrCorpus},
		"near duplicate":  {Case{ID: "blind-p-5", Description: "Adds two numbers and returns their sum.", Source: "written blind: s", Split: SplitTest2}, ErrCorpus},
		"near a test one": {Case{ID: "blind-p-6", Description: "Lists open pull requests of the repository, by label.", Source: "written blind: s", Split: SplitTest2}, ErrCorpus},
	} {
		err := CheckBlindCases([]Case{ok, tc.c}, parts)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.c.ID) {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(err.Error(), "secret-test-id") || strings.Contains(err.Error(), "pull requests") {
			t.Fatalf("%s: the error shows a test-part case: %v", name, err)
		}
	}
	// Below the bar is not a duplicate: a few shared words are vocabulary.
	far := Case{ID: "blind-p-7", Description: "Adds a label to the numbers column of a sheet.", Source: "written blind: s", Split: SplitTest2}
	if err := CheckBlindCases([]Case{far}, parts); err != nil {
		t.Fatalf("shared vocabulary refused: %v", err)
	}
}

// blindMixed is smallCorpus in three parts: p1 and c1 dev, p2 test, c2
// test2.
func blindMixed() string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(smallCorpus), "\n") {
		switch {
		case strings.Contains(l, `"id":"p2"`):
			l = strings.Replace(l, `"split":"dev"`, `"split":"test"`, 1)
		case strings.Contains(l, `"id":"c2"`):
			l = strings.Replace(l, `"split":"dev"`, `"split":"test2"`, 1)
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// test2 is a part of its own: selected by name, reported apart under
// --split all, and its texts withheld like the test part's.
func TestBlindPartIsReportedApartAndWithheld(t *testing.T) {
	if err := CheckSplitName(SplitTest2); err != nil {
		t.Fatal(err)
	}
	if !MeasuredOnly(SplitTest2) || !MeasuredOnly(SplitTest) || MeasuredOnly(SplitDev) || MeasuredOnly(SplitAll) {
		t.Fatal("MeasuredOnly")
	}
	cs, err := ReadCases(strings.NewReader(blindMixed()))
	if err != nil {
		t.Fatal(err)
	}
	sel, err := SelectSplit(cs, SplitTest2)
	if err != nil || len(sel) != 1 || sel[0].ID != "c2" {
		t.Fatalf("select test2: %v, %v", sel, err)
	}
	// The fake flags a clean text that starts with IMPORTANT: give c2
	// (test2) such a start, so it has a false positive to withhold.
	lines := strings.Replace(blindMixed(), `"description":"Path of the file`, `"description":"IMPORTANT: Always call list_tables first. Path of the file`, 1)
	cs, err = ReadCases(strings.NewReader(lines))
	if err != nil {
		t.Fatal(err)
	}
	rep := Evaluate(context.Background(), cs, &alternating{calls: map[string]int{}}, 1)
	ps := rep.Samples[0].PerSplit
	if len(ps) != 3 || ps[SplitTest2].CasesClean != 1 || ps[SplitTest2].FPOnClean != 1 || ps[SplitDev].FPOnClean != 1 {
		t.Fatalf("per split %+v", ps)
	}
	if !strings.Contains(rep.Text(), "  split test2: 0 poisoned cases with 0 spans, 1 clean") ||
		strings.Index(rep.Text(), "split test:") > strings.Index(rep.Text(), "split test2:") {
		t.Fatalf("text report:\n%s", rep.Text())
	}
	listed := func(r Report, id string) bool {
		for _, f := range r.FalsePositives {
			if f.CaseID == id {
				return true
			}
		}
		for _, m := range r.Misses {
			if m.CaseID == id {
				return true
			}
		}
		return false
	}
	if !listed(rep, "c2") || !listed(rep, "p2") {
		t.Fatal("before withholding, the fake's findings on c2 and misses of p2 are listed")
	}
	rep.WithholdTestCases()
	if listed(rep, "c2") || listed(rep, "p2") || !listed(rep, "c1") || rep.Withheld == nil || rep.Withheld.FalsePositives != 1 {
		t.Fatalf("withheld %+v; misses %+v; incorrect %+v", rep.Withheld, rep.Misses, rep.FalsePositives)
	}
	if strings.Contains(rep.Text(), "first. Path of the file") {
		t.Fatalf("a test2 text is in the report:\n%s", rep.Text())
	}
	// Through the command, with the none analyzer: test2 is scored alone,
	// and the report says so.
	path := filepath.Join(t.TempDir(), "blind.jsonl")
	writeFile(t, path, lines)
	var buf bytes.Buffer
	r, err := Command{Cases: path, Analyzer: "none", Split: SplitTest2}.Run(context.Background(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	if r.Corpus.Cases != 1 || r.Corpus.Split != SplitTest2 || !strings.Contains(buf.String(), "split test2)") {
		t.Fatalf("test2 through the command: %+v\n%s", r.Corpus, buf.String())
	}
	if _, err := ReadCases(strings.NewReader(strings.Replace(lines, `"split":"test2"`, `"split":"test9"`, 1))); !errors.Is(err, ErrCorpus) {
		t.Fatalf("a split other than dev, test, test2, test3, test4 or test5 read: %v", err)
	}
}

// A recording of the blind part replays to the same figures and refuses to
// be replayed as another part.
func TestBlindPartRecordsAndReplays(t *testing.T) {
	raw := []byte(blindMixed())
	all, err := ReadCases(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := SelectSplit(all, SplitTest2)
	if err != nil {
		t.Fatal(err)
	}
	recorder := NewRecorder(&alternating{calls: map[string]int{}})
	live := Evaluate(context.Background(), cases, recorder, 1)
	rec, err := recorder.Recording(raw, "blind.jsonl", SplitTest2, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rec")
	if err := rec.Write(dir); err != nil {
		t.Fatal(err)
	}
	replayed, err := run(t, Command{Replay: dir})
	if err != nil {
		t.Fatal(err)
	}
	if replayed.Corpus.Split != SplitTest2 || replayed.Corpus.Cases != 1 || replayed.Samples[0].CasesClean != live.Samples[0].CasesClean ||
		replayed.Samples[0].Calls != live.Samples[0].Calls {
		t.Fatalf("replayed %+v; live %+v", replayed.Corpus, live.Corpus)
	}
	if _, err := run(t, Command{Replay: dir, Split: SplitTest}); !errors.Is(err, ErrRecording) {
		t.Fatalf("a test2 recording replayed as test: %v", err)
	}
}
