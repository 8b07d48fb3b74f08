package analyzer

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The generalisation protocol of the purpose analyzer's fourth reading
// (docs/model-check.md, "The purpose analyzer's fourth reading"): the
// development material is split BY HAND, one part per hand that wrote it,
// and every choice is judged on leave-one-part-out folds: train the second
// stage on every part but one (its thresholds chosen on the split3 held-out
// sources of those parts, never on the scored part) and score the reading
// on the part left out, with the scoring rules of internal/eval (a span is
// found when a proposal of its category overlaps it; a proposal overlapping
// a span of its category is correct, one overlapping only another
// category's span a mismatch, any other a false positive). The figures
// printed are the ones docs/model-check.md reports; `make purpose-folds`
// runs it (a few CPU minutes: one training per fold).

var (
	purposeFoldsFlag   = flag.Bool("folds", false, "train and score the purpose analyzer's leave-one-part-out folds and print their figures")
	purposeFoldsOnly   = flag.String("folds-only", "", "with -folds, score only the fold of this part (its figures alone, no average)")
	purposeFoldsListFP = flag.Bool("folds-list", false, "with -folds, also list each fold's incorrect findings on clean cases and its missed spans")
	purposeFoldsRules  = flag.Bool("folds-rules-only", false, "with -folds, score the rules alone (no model stage, no training) on each part")
)

// purposeFoldParts is the development material by hand, in the order of
// the training's hashing. test3 is the third blind part's hand-written
// cases only: its runtime-truth clean base (in blind3_cases.jsonl) is the
// admission control set and is never read here.
var purposeFoldParts = []struct {
	name  string
	files []string
}{
	{"dev", []string{"cases.jsonl"}},
	{"test", []string{"test_poisoned.jsonl", "test_clean.jsonl"}},
	{"test2", []string{"blind_poisoned.jsonl", "blind_clean.jsonl"}},
	{"test3", []string{"blind3_poisoned.jsonl", "blind3_clean.jsonl"}},
	{"hand6", []string{"hand6_poisoned.jsonl", "hand6_clean.jsonl"}},
	{"hand7", []string{"hand7_poisoned.jsonl", "hand7_clean.jsonl"}},
}

// foldFigures is one reading's figures on one scored part.
type foldFigures struct {
	spans, found                     int
	catSpans, catFound               [3]int
	kindSpans, kindFound             map[string]int
	findings, correct, mismatch, fp  int
	clean, fpClean                   int
	catFindings, catCorrect, catFPCl [3]int
	listed                           []string // with -folds-list: incorrect findings on clean, missed spans
}

func newFoldFigures() *foldFigures {
	return &foldFigures{kindSpans: map[string]int{}, kindFound: map[string]int{}}
}

// scoreFold runs a on every case and tallies the figures as internal/eval
// does (quotes are exact substrings of the one segment, so their place is
// their first occurrence, as the verifier maps them).
func scoreFold(t testing.TB, a *Purpose, cases []trainCase) *foldFigures {
	t.Helper()
	ff := newFoldFigures()
	for _, c := range cases {
		name := c.ToolName
		if name == "" {
			name = c.ID
		}
		e := Entry{ID: c.ID, Kind: c.SurfaceKind, Name: name, File: "case.json", State: "readable", Segments: []string{c.Description}}
		resp, err := a.Analyze(context.Background(), Request{Entries: []Entry{e}})
		if err != nil {
			t.Fatal(err)
		}
		type rng struct{ a, b, cat int }
		var spans []rng
		for _, s := range c.ExpectedSpans {
			i := strings.Index(c.Description, s.Text)
			if i < 0 {
				continue
			}
			spans = append(spans, rng{i, i + len(s.Text), categoryIndex(s.Category)})
		}
		var props []rng
		for _, p := range resp.Proposals {
			i := strings.Index(c.Description, p.Quote)
			if i < 0 {
				t.Fatalf("%s: quote not a substring", c.ID)
			}
			props = append(props, rng{i, i + len(p.Quote), categoryIndex(p.Category)})
		}
		over := func(x, y rng) bool { return x.a < y.b && y.a < x.b }
		if c.Kind == "clean" {
			ff.clean++
		}
		for _, s := range spans {
			ff.spans++
			ff.catSpans[s.cat]++
			ff.kindSpans[c.SurfaceKind]++
			found := false
			for _, p := range props {
				if p.cat == s.cat && over(p, s) {
					ff.found++
					ff.catFound[s.cat]++
					ff.kindFound[c.SurfaceKind]++
					found = true
					break
				}
			}
			if !found && *purposeFoldsListFP && s.cat >= 0 {
				ff.listed = append(ff.listed, fmt.Sprintf("missed [%s] %s (%s): %q", Categories[s.cat], c.ID, c.SurfaceKind, c.Description[s.a:s.b]))
			}
		}
		for _, p := range props {
			ff.findings++
			ff.catFindings[p.cat]++
			correct, other := false, false
			for _, s := range spans {
				if over(p, s) {
					if s.cat == p.cat {
						correct = true
					} else {
						other = true
					}
				}
			}
			switch {
			case correct:
				ff.correct++
				ff.catCorrect[p.cat]++
			case other:
				ff.mismatch++
			default:
				ff.fp++
				if c.Kind == "clean" {
					ff.fpClean++
					ff.catFPCl[p.cat]++
					if *purposeFoldsListFP && p.cat >= 0 {
						ff.listed = append(ff.listed, fmt.Sprintf("FP on clean [%s] %s (%s, %s): %q", Categories[p.cat], c.ID, c.SurfaceKind, name, c.Description[p.a:p.b]))
					}
				}
			}
		}
	}
	return ff
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func (ff *foldFigures) line(label string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s recall %d/%d (%.1f%%) | exfil %d/%d (%.1f%%) override %d/%d (%.1f%%) conceal %d/%d (%.1f%%) | precision %.1f%% (%d of %d; %d mismatches, %d FP) | FP on clean %d of %d (%.2f per 500)",
		label, ff.found, ff.spans, pct(ff.found, ff.spans),
		ff.catFound[0], ff.catSpans[0], pct(ff.catFound[0], ff.catSpans[0]),
		ff.catFound[1], ff.catSpans[1], pct(ff.catFound[1], ff.catSpans[1]),
		ff.catFound[2], ff.catSpans[2], pct(ff.catFound[2], ff.catSpans[2]),
		pct(ff.correct, ff.findings), ff.correct, ff.findings, ff.mismatch, ff.fp,
		ff.fpClean, ff.clean, 5*pct(ff.fpClean, ff.clean))
	kinds := make([]string, 0, len(ff.kindSpans))
	for k := range ff.kindSpans {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	b.WriteString("\n                       by kind:")
	for _, k := range kinds {
		fmt.Fprintf(&b, " %s %d/%d", k, ff.kindFound[k], ff.kindSpans[k])
	}
	fmt.Fprintf(&b, "\n                       findings by category (correct of proposed, FP on clean): exfil %d of %d (%d), override %d of %d (%d), conceal %d of %d (%d)",
		ff.catCorrect[0], ff.catFindings[0], ff.catFPCl[0], ff.catCorrect[1], ff.catFindings[1], ff.catFPCl[1], ff.catCorrect[2], ff.catFindings[2], ff.catFPCl[2])
	return b.String()
}

// loadFoldParts reads each part's cases.
func loadFoldParts(t testing.TB) [][]trainCase {
	t.Helper()
	out := make([][]trainCase, len(purposeFoldParts))
	for i, p := range purposeFoldParts {
		out[i] = loadTrainFiles(t, p.files)
	}
	return out
}

// TestPurposeFoldParts: the folds partition the material: every case of
// the training files is in exactly one part, and no case id is in two.
func TestPurposeFoldParts(t *testing.T) {
	parts := loadFoldParts(t)
	seen := map[string]string{}
	n := 0
	for i, p := range parts {
		if len(p) == 0 {
			t.Fatalf("part %s is empty", purposeFoldParts[i].name)
		}
		for _, c := range p {
			if prev, ok := seen[c.ID]; ok {
				t.Fatalf("case %s is in %s and %s", c.ID, prev, purposeFoldParts[i].name)
			}
			seen[c.ID] = purposeFoldParts[i].name
			n++
		}
	}
	all, _ := loadTrainCases(t)
	if n != len(all) {
		t.Fatalf("the folds hold %d cases, the training material %d", n, len(all))
	}
}

// TestPurposeFolds trains and scores each leave-one-part-out fold (with
// -folds) and prints, for each, the rules alone and the rules with the
// fold's model, then the fold average.
func TestPurposeFolds(t *testing.T) {
	if !*purposeFoldsFlag {
		t.Log("fold figures are computed with -folds (make purpose-folds)")
		return
	}
	parts := loadFoldParts(t)
	if *purposeFoldsRules {
		foldsRulesOnly(t, parts)
		return
	}
	structParts := structPartSentences(parts)
	readings := []string{"rules", "rules+model", "rules+struct", "rules+model+struct"}
	sums := make([][4]float64, len(readings)) // recall, precision, fp/500, min category recall
	lowest := make([]float64, len(readings))
	for k := range lowest {
		lowest[k] = 100
	}
	folds := 0
	for i := range parts {
		if *purposeFoldsOnly != "" && purposeFoldParts[i].name != *purposeFoldsOnly {
			continue
		}
		var train []trainCase
		var structTrain [][]structSentence
		for j := range parts {
			if j != i {
				train = append(train, parts[j]...)
				structTrain = append(structTrain, structParts[j])
			}
		}
		design, thresholds := splitTrain(train)
		raw := trainPurposeModel(trainSentences(design), trainSentences(thresholds), "fold-"+purposeFoldParts[i].name)
		m, err := parsePurposeModel(gzipModel(t, raw))
		if err != nil {
			t.Fatal(err)
		}
		sm, err := parsePurposeStructModel(trainStructModel(structTrain, "fold-"+purposeFoldParts[i].name))
		if err != nil {
			t.Fatal(err)
		}
		figs := []*foldFigures{
			scoreFold(t, &Purpose{}, parts[i]),
			scoreFold(t, &Purpose{model: m}, parts[i]),
			scoreFold(t, &Purpose{structModel: sm}, parts[i]),
			scoreFold(t, &Purpose{model: m, structModel: sm}, parts[i]),
		}
		var lines []string
		for k, ff := range figs {
			lines = append(lines, ff.line(readings[k]))
		}
		t.Logf("fold %s (scored on %d cases; n-gram thresholds %v; structural thresholds %v)\n%s", purposeFoldParts[i].name, len(parts[i]), m.hdr.Threshold, sm.hdr.Threshold, strings.Join(lines, "\n"))
		for _, l := range figs[len(figs)-1].listed {
			t.Logf("fold %s: %s", purposeFoldParts[i].name, l)
		}
		folds++
		for k, ff := range figs {
			s := &sums[k]
			s[0] += pct(ff.found, ff.spans)
			s[1] += pct(ff.correct, ff.findings)
			s[2] += 5 * pct(ff.fpClean, ff.clean)
			mc := 100.0
			for c := range 3 {
				mc = min(mc, pct(ff.catFound[c], ff.catSpans[c]))
			}
			s[3] += mc
			lowest[k] = min(lowest[k], pct(ff.found, ff.spans))
		}
	}
	n := float64(folds)
	for k, r := range readings {
		t.Logf("fold average, %-19s recall %.1f%%, precision %.1f%%, FP %.2f per 500 clean, lowest category recall %.1f%%; lowest fold recall %.1f%%", r+":", sums[k][0]/n, sums[k][1]/n, sums[k][2]/n, sums[k][3]/n, lowest[k])
	}
}

// foldsRulesOnly scores the rules alone (&Purpose{}, no model stage) on
// each part (or the one -folds-only names): nothing is trained, so the
// figure of a part does not depend on the others. These are the "rules
// alone" rows of docs/model-check.md; with -folds-list it lists the
// part's incorrect findings on clean cases and its missed spans.
func foldsRulesOnly(t *testing.T, parts [][]trainCase) {
	t.Helper()
	scored := 0
	for i := range parts {
		if *purposeFoldsOnly != "" && purposeFoldParts[i].name != *purposeFoldsOnly {
			continue
		}
		ff := scoreFold(t, &Purpose{}, parts[i])
		t.Logf("part %s, rules alone (scored on %d cases)\n%s", purposeFoldParts[i].name, len(parts[i]), ff.line("rules"))
		for _, l := range ff.listed {
			t.Logf("part %s: %s", purposeFoldParts[i].name, l)
		}
		scored++
	}
	if scored == 0 {
		t.Fatalf("-folds-only %q names no part", *purposeFoldsOnly)
	}
}
