package analyzer

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

// The ninth reading's model protocol (part mdl, docs/model-check.md, "The
// purpose analyzer's ninth reading"): test3 is held out, so the model stage
// is judged on leave-one-part-out folds over dev, test and test2 ONLY —
// train on two of them (thresholds chosen on the split3 held-out sources of
// those two), score the third — and each candidate (a feature set and a
// training configuration) is compared with the shipped one on the same
// folds. -mdl-test3 scores test3 instead, trained on the three others, for
// its figures alone (the start and end measurement; never a list).
//
//	go test -count=1 -v -timeout 60m -run '^TestPurposeMdlFolds$' ./internal/analyzer -mdl-folds v1,concepts
var (
	mdlFoldsFlag  = flag.String("mdl-folds", "", "comma-separated candidates (mdlCandidates) to score on the dev/test/test2 leave-one-part-out folds")
	mdlFoldsOnly  = flag.String("mdl-folds-only", "", "with -mdl-folds, score only the fold of this part (dev, test or test2)")
	mdlFoldsTest3 = flag.Bool("mdl-test3", false, "with -mdl-folds, score test3 trained on dev, test and test2 (figures only)")
)

type mdlCandidate struct {
	fs  modelFeatureSet
	cfg purposeTrainConfig
}

var (
	fsV1       = modelFeatureSet{words: true, bigrams: true, chars: true, rules: true}
	fsAll      = modelFeatureSet{words: true, bigrams: true, chars: true, rules: true, concepts: true, pairs: true}
	fsConcepts = modelFeatureSet{rules: true, concepts: true, pairs: true}
	fsWords    = modelFeatureSet{words: true, rules: true, concepts: true, pairs: true}
	fsWordsBi  = modelFeatureSet{words: true, bigrams: true, rules: true, concepts: true, pairs: true}
	cfgGated   = purposeTrainConfig{epochs: purposeTrainEpochs, lr: 0.5, l2: purposeTrainL2, maxPosWeight: 10, gated: true, fpPer500: 1.0 / 3}
)

// mdlCandidates are the candidates the protocol compares; v1 is the
// reading shipped before this one (its features and threshold rule).
var mdlCandidates = map[string]mdlCandidate{
	"v1":        {fsV1, mdlCandidatesV1cfg},
	"shipped":   {purposeFeatureSet, purposeTrain},
	"v1g":       {fsV1, cfgGated},
	"all":       {fsAll, cfgGated},
	"concepts":  {fsConcepts, cfgGated},
	"words":     {fsWords, cfgGated},
	"wordsbi":   {fsWordsBi, cfgGated},
	"all-ung":   {fsAll, mdlCandidatesV1cfg},
	"conc-ung":  {fsConcepts, mdlCandidatesV1cfg},
	"words-ung": {fsWords, mdlCandidatesV1cfg},
	"all-p95":   {fsAll, cfgWith(func(c *purposeTrainConfig) { c.precision = 0.95 })},
	"all-g1":    {fsAll, cfgWith(func(c *purposeTrainConfig) { c.gated, c.fpPer500 = true, 1 })},
	"all-g95":   {fsAll, cfgWith(func(c *purposeTrainConfig) { c.gated, c.fpPer500, c.precision = true, 1, 0.95 })},
	"all-pw3":   {fsAll, cfgWith(func(c *purposeTrainConfig) { c.maxPosWeight = 3 })},
	"all-pw30":  {fsAll, cfgWith(func(c *purposeTrainConfig) { c.maxPosWeight = 30 })},
	"all-res":   {fsAll, cfgWith(func(c *purposeTrainConfig) { c.residual = true })},
	"words-p95": {fsWords, cfgWith(func(c *purposeTrainConfig) { c.precision = 0.95 })},
	"all-f1":    {fsAll, cfgWith(func(c *purposeTrainConfig) { c.fpPer500 = 1 })},
	"all-f13":   {fsAll, cfgWith(func(c *purposeTrainConfig) { c.fpPer500 = 1.0 / 3 })},
	"all-gate":  {fsAll, cfgWith(func(c *purposeTrainConfig) { c.gated = true })},
	"v1-p95":    {fsV1, cfgWith(func(c *purposeTrainConfig) { c.precision = 0.95 })},
	// The twelfth reading (part ovr2): the shipped set plus the general
	// override reading's partial frames (purpose_ovr11.go).
	"ovr11":     {modelFeatureSet{words: true, bigrams: true, chars: true, rules: true, concepts: true, pairs: true, ovr11: true}, purposeTrain},
	"ovr11-res": {modelFeatureSet{words: true, bigrams: true, chars: true, rules: true, concepts: true, pairs: true, ovr11: true}, cfgWith(func(c *purposeTrainConfig) { c.fpPer500, c.residual = 1.0/3, true })},
}

// mdlCandidatesV1cfg is offline-purpose-7's training configuration.
var mdlCandidatesV1cfg = purposeTrainConfig{epochs: purposeTrainEpochs, lr: 0.5, l2: purposeTrainL2, maxPosWeight: 10}

// cfgWith is the shipped configuration changed by f.
func cfgWith(f func(*purposeTrainConfig)) purposeTrainConfig {
	c := mdlCandidatesV1cfg
	f(&c)
	return c
}

func TestPurposeMdlFolds(t *testing.T) {
	if *mdlFoldsFlag == "" {
		t.Log("the ninth reading's folds are computed with -mdl-folds CANDIDATES")
		return
	}
	names := strings.Split(*mdlFoldsFlag, ",")
	for _, n := range names {
		if _, ok := mdlCandidates[n]; !ok {
			t.Fatalf("no candidate %q", n)
		}
	}
	parts := loadFoldParts(t)
	idx := map[string]int{}
	for i, p := range purposeFoldParts {
		idx[p.name] = i
	}
	scored := []string{"dev", "test", "test2"}
	if *mdlFoldsTest3 {
		scored = []string{"test3"}
	} else if *mdlFoldsOnly != "" {
		scored = []string{*mdlFoldsOnly}
	}
	type sum struct{ recall, precision, fp, added float64 }
	sums := map[string]*sum{}
	worstFP, worstPrec := map[string]float64{}, map[string]float64{}
	for _, n := range append([]string{"rules"}, names...) {
		sums[n] = &sum{}
		worstPrec[n] = 100
	}
	for _, name := range scored {
		i, ok := idx[name]
		if !ok || (name == "test3" && !*mdlFoldsTest3) {
			t.Fatalf("-mdl-folds-only %q: not dev, test or test2", name)
		}
		var train []trainCase
		for _, other := range []string{"dev", "test", "test2"} {
			if other != name {
				train = append(train, parts[idx[other]]...)
			}
		}
		design, thresholds := splitTrain(train)
		rules := scoreFold(t, &Purpose{}, parts[i])
		lines := []string{rules.line("rules")}
		add := func(n string, ff *foldFigures) {
			s := sums[n]
			s.recall += pct(ff.found, ff.spans)
			s.precision += pct(ff.correct, ff.findings)
			fp := 5 * pct(ff.fpClean, ff.clean)
			s.fp += fp
			s.added += float64(ff.found - rules.found)
			worstFP[n] = max(worstFP[n], fp)
			worstPrec[n] = min(worstPrec[n], pct(ff.correct, ff.findings))
		}
		add("rules", rules)
		for _, n := range names {
			c := mdlCandidates[n]
			raw := trainPurposeModelWith(c.cfg, trainSentencesWith(design, c.fs), trainSentencesWith(thresholds, c.fs), "fold-"+name)
			m, err := parsePurposeModel(gzipModel(t, raw))
			if err != nil {
				t.Fatal(err)
			}
			m.fs = c.fs
			ff := scoreFold(t, &Purpose{model: m}, parts[i])
			lines = append(lines, ff.line(fmt.Sprintf("%s thr %.3f", n, m.hdr.Threshold)))
			add(n, ff)
		}
		t.Logf("mdl fold %s (scored on %d cases, trained on the other parts of dev/test/test2)\n%s", name, len(parts[i]), strings.Join(lines, "\n"))
	}
	nf := float64(len(scored))
	keys := append([]string{"rules"}, names...)
	for _, n := range keys {
		s := sums[n]
		t.Logf("mdl average over %v, %-10s recall %.2f%%, precision %.2f%% (lowest %.1f%%), FP %.2f per 500 (highest %.2f), spans added to the rules %.0f",
			scored, n+":", s.recall/nf, s.precision/nf, worstPrec[n], s.fp/nf, worstFP[n], s.added)
	}
}
