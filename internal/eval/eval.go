// Package eval scores an analyzer on a labelled corpus of descriptions and
// applies the admission test of docs/methodology.md §18 to the figures.
//
// Every case goes through the same path a run takes: a one-entry surface
// over a small source file, internal/checks' model_directed_text with the
// deterministic verifier, so only verified findings are scored. It owns the
// case format (JSON Lines), the scoring rules, the report, and recorded
// evaluations (record.go: every answer of a network analyzer written to a
// directory that anyone can rescore offline); it must not write run
// directories, touch the proposal cache (every evaluation call reaches the
// analyzer, or the recording being replayed) or decide anything.
package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Case kinds.
const (
	KindPoisoned = "poisoned"
	KindClean    = "clean"
)

// Admission bar (docs/methodology.md §18).
const (
	MinLabelledSpans   = 200
	MinPrecision       = 0.95
	MaxFPPer500Clean   = 1.0
	MinCleanControlSet = 1000
)

// Span is one expected span of a poisoned case: text that occurs in the
// description, and its category.
type Span struct {
	Text     string `json:"text"`
	Category string `json:"category"`
}

// Case is one line of a corpus file.
type Case struct {
	ID            string `json:"id"`
	Kind          string `json:"kind"`
	SurfaceKind   string `json:"surface_kind"`
	ToolName      string `json:"tool_name"`
	Description   string `json:"description"`
	ExpectedSpans []Span `json:"expected_spans"`
	Source        string `json:"source"`
	// Split is the part of the corpus the case belongs to, dev or test,
	// decided by SplitOf over Source (split.go); empty in a file that is
	// not part of testdata/eval.
	Split string `json:"split,omitempty"`
}

var surfaceKinds = map[string]bool{
	vocab.EntryTool: true, vocab.EntryPrompt: true, vocab.EntryPromptText: true, vocab.EntryResource: true, vocab.EntryResourceTemplate: true,
	vocab.EntryInstructions: true, vocab.EntryParameterDescription: true,
}

// ErrCorpus classifies a corpus that does not parse or validate.
var ErrCorpus = errors.New("eval: invalid corpus")

// ReadCases reads a JSON Lines corpus strictly: unknown members, a kind
// other than poisoned or clean, an unknown surface kind, a repeated id, a
// poisoned case without spans, a clean case with spans, a span whose text
// does not occur in the description or whose category is not one of the
// three, and a case without a source are all errors naming the line.
func ReadCases(r io.Reader) ([]Case, error) {
	var out []Case
	ids := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 8<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var c Case
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrCorpus, line, err)
		}
		if err := validate(c); err != nil {
			return nil, fmt.Errorf("%w: line %d (%s): %v", ErrCorpus, line, c.ID, err)
		}
		if prev, ok := ids[c.ID]; ok {
			return nil, fmt.Errorf("%w: line %d: id %q already used on line %d", ErrCorpus, line, c.ID, prev)
		}
		ids[c.ID] = line
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: read cases: %w", err)
	}
	return out, nil
}

func validate(c Case) error {
	switch {
	case c.ID == "":
		return errors.New("empty id")
	case c.Kind != KindPoisoned && c.Kind != KindClean:
		return fmt.Errorf("kind %q", c.Kind)
	case !surfaceKinds[c.SurfaceKind]:
		return fmt.Errorf("surface_kind %q", c.SurfaceKind)
	case c.Description == "":
		return errors.New("empty description")
	case c.Source == "":
		return errors.New("no source")
	case c.Kind == KindPoisoned && len(c.ExpectedSpans) == 0:
		return errors.New("a poisoned case has no expected spans")
	case c.Kind == KindClean && len(c.ExpectedSpans) != 0:
		return errors.New("a clean case has expected spans")
	case c.Split != "" && c.Split != SplitDev && c.Split != SplitTest && c.Split != SplitTest2 && c.Split != SplitTest3 && c.Split != SplitTest4 && c.Split != SplitTest5 && c.Split != SplitHand6 && c.Split != SplitHand7:
		return fmt.Errorf("split %q is not dev, test, test2, test3, test4, test5, hand6 or hand7", c.Split)
	}
	for _, s := range c.ExpectedSpans {
		if s.Text == "" || !strings.Contains(c.Description, s.Text) {
			return fmt.Errorf("expected span %q does not occur in the description", s.Text)
		}
		if !analyzer.ValidCategory(s.Category) {
			return fmt.Errorf("expected span category %q", s.Category)
		}
	}
	return nil
}

// LoadCases reads a corpus file.
func LoadCases(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	cs, err := ReadCases(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cs, nil
}

// CategoryFigures are one category's figures in one sample. Recall is
// Found over Expected (0 when nothing is expected).
type CategoryFigures struct {
	Expected int     `json:"expected_spans"`
	Found    int     `json:"spans_found"`
	Recall   float64 `json:"span_recall"`
	Findings int     `json:"findings"`
	Correct  int     `json:"correct_findings"`
}

// SurfaceKindFigures are one surface kind's figures in one sample: span
// recall on its poisoned cases, and false positives on its clean ones.
type SurfaceKindFigures struct {
	Expected   int     `json:"expected_spans"`
	Found      int     `json:"spans_found"`
	Recall     float64 `json:"span_recall"`
	CasesClean int     `json:"cases_clean"`
	FPOnClean  int     `json:"false_positives_on_clean"`
}

// Admission is the admission test applied to one sample's figures.
type Admission struct {
	LabelledSpans     int     `json:"labelled_spans"`
	LabelledSpansOK   bool    `json:"labelled_spans_ok"`
	Precision         float64 `json:"precision"`
	PrecisionOK       bool    `json:"precision_ok"`
	FPPer500Clean     float64 `json:"false_positives_per_500_clean"`
	FPOK              bool    `json:"false_positives_ok"`
	CleanDescriptions int     `json:"clean_descriptions"`
	CleanOK           bool    `json:"clean_control_set_ok"`
	// RetiredParts names the retired parts (retired.go) the corpus holds
	// cases of: when there is any, the test does not hold, whatever the
	// figures.
	RetiredParts []string `json:"retired_parts,omitempty"`
	// DevelopmentParts names the development material (development.go)
	// the corpus holds cases of: when there is any, the test does not
	// hold, whatever the figures.
	DevelopmentParts []string `json:"development_parts,omitempty"`
	Holds            bool     `json:"holds"`
}

// Sample is the figures of one pass over the corpus.
type Sample struct {
	Sample             int                           `json:"sample"`
	CasesPoisoned      int                           `json:"cases_poisoned"`
	CasesDetected      int                           `json:"cases_detected"`
	CasesClean         int                           `json:"cases_clean"`
	CleanFlagged       int                           `json:"clean_cases_flagged"`
	SpansExpected      int                           `json:"spans_expected"`
	SpansFound         int                           `json:"spans_found"`
	SpanRecall         float64                       `json:"span_recall"`
	PerCategory        map[string]CategoryFigures    `json:"per_category"`
	PerSurfaceKind     map[string]SurfaceKindFigures `json:"per_surface_kind"`
	Findings           int                           `json:"findings"`
	CorrectFindings    int                           `json:"correct_findings"`
	CategoryMismatches int                           `json:"category_mismatches"`
	FalsePositives     int                           `json:"false_positives"`
	FPOnClean          int                           `json:"false_positives_on_clean"`
	FPPer500Clean      float64                       `json:"false_positives_per_500_clean"`
	Precision          float64                       `json:"precision"`
	PrecisionDefined   bool                          `json:"precision_defined"`
	RejectedProposals  int                           `json:"rejected_proposals"`
	CasesNotAnalyzed   int                           `json:"cases_not_analyzed"`
	Calls              int                           `json:"calls"`
	InputTokens        int64                         `json:"input_tokens"`
	OutputTokens       int64                         `json:"output_tokens"`
	Admission          Admission                     `json:"admission"`
	// PerSplit is each part's figures, scored on its own from the same
	// answers, when the cases scored hold more than one part (dev, test;
	// "all" for cases that say no split).
	PerSplit map[string]Sample `json:"per_split,omitempty"`
}

// Miss is an expected span not found, with the samples that missed it.
type Miss struct {
	CaseID   string `json:"case_id"`
	Category string `json:"category"`
	Text     string `json:"text"`
	Missed   int    `json:"missed_in_samples"`
}

// FalsePositive is a verified finding that overlaps no expected span of
// its category.
type FalsePositive struct {
	CaseID   string `json:"case_id"`
	CaseKind string `json:"case_kind"`
	Category string `json:"category"`
	Quote    string `json:"quote"`
	Overlaps string `json:"overlaps,omitempty"` // the category of the expected span it overlaps, if any
	Samples  int    `json:"samples"`
}

// Range is the lowest, median and highest value of a figure across samples
// (the median of an even number of samples is the mean of the middle two).
type Range struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// Corpus describes what was scored.
type Corpus struct {
	Cases            int            `json:"cases"`
	Poisoned         int            `json:"poisoned"`
	Clean            int            `json:"clean"`
	LabelledSpans    int            `json:"labelled_spans"`
	SpansPerCategory map[string]int `json:"spans_per_category"`
	BySurfaceKind    map[string]int `json:"cases_by_surface_kind"`
	// File, SHA256 and Split name the corpus file scored, its bytes'
	// SHA-256 and the part of the corpus it is (set by Command).
	File   string `json:"file,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Split  string `json:"split,omitempty"`
}

// RecordingRef names the recording a report was scored from or written to.
type RecordingRef struct {
	Dir            string `json:"dir"`
	ManifestSHA256 string `json:"manifest_sha256"`
	Replayed       bool   `json:"replayed"`
}

// Report is an evaluation of one analyzer.
type Report struct {
	Analyzer        string           `json:"analyzer"`
	PromptVersion   string           `json:"prompt_version"`
	PromptSHA256    string           `json:"prompt_sha256"`
	VerifierVersion string           `json:"verifier_version"`
	Corpus          Corpus           `json:"corpus"`
	Samples         []Sample         `json:"samples"`
	Ranges          map[string]Range `json:"ranges"`
	AdmissionHolds  bool             `json:"admission_holds"`
	Misses          []Miss           `json:"misses"`
	FalsePositives  []FalsePositive  `json:"false_positives"`
	Recording       *RecordingRef    `json:"recording,omitempty"`
	// Withheld counts the misses and incorrect findings of test-part cases
	// left out of Misses and FalsePositives (WithholdTestCases), so a report
	// of the test part gives its figures without its texts.
	Withheld *Withheld `json:"withheld,omitempty"`

	caseSplit map[string]string // case id -> split, for WithholdTestCases
}

// Withheld is what WithholdTestCases left out of a report.
type Withheld struct {
	Misses         int `json:"misses"`
	FalsePositives int `json:"false_positives"`
}

// WithholdTestCases removes from the lists of misses and incorrect findings
// every one of a case of a test part (test, test2, test3, test4 or test5, MeasuredOnly),
// keeping their number: the figures of a test part are reported, its texts
// are not, so reading a report never shows anyone the cases an analyzer is
// measured on. Nothing is withheld from a report with no test-part case.
func (r *Report) WithholdTestCases() {
	w := Withheld{}
	var ms []Miss
	for _, m := range r.Misses {
		if MeasuredOnly(r.caseSplit[m.CaseID]) {
			w.Misses++
			continue
		}
		ms = append(ms, m)
	}
	var fs []FalsePositive
	for _, f := range r.FalsePositives {
		if MeasuredOnly(r.caseSplit[f.CaseID]) {
			w.FalsePositives++
			continue
		}
		fs = append(fs, f)
	}
	if w.Misses == 0 && w.FalsePositives == 0 {
		return
	}
	r.Misses, r.FalsePositives = append([]Miss{}, ms...), append([]FalsePositive{}, fs...)
	r.Withheld = &w
}

// caseFile is the member each case's description is written into, as a
// JSON document, so the verifier maps quotes back through real escapes.
const caseFile = "package/description.json"

// surfaceFor builds the one-entry surface of a case and its file bytes.
func surfaceFor(c Case) (*rundir.Surface, []byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.Description); err != nil {
		return nil, nil, err
	}
	lit := bytes.TrimSpace(buf.Bytes())
	prefix := []byte("{\"description\": ")
	file := append(append(append([]byte{}, prefix...), lit...), []byte("}\n")...)
	start := len(prefix) + 1
	end := len(prefix) + len(lit) - 1
	text, _, err := literal.Decode(literal.JSON, file[start:end])
	if err != nil || text != c.Description {
		return nil, nil, fmt.Errorf("case %s: the description does not round-trip through its JSON literal", c.ID)
	}
	name := c.ToolName
	if name == "" {
		name = c.ID
	}
	e := rundir.Entry{Kind: c.SurfaceKind, Name: name, DescriptionState: vocab.StateReadable, DescriptionRaw: c.Description,
		Spans: []rundir.Span{{File: caseFile, Start: start, End: end, Line: 1, RawStart: 0, RawEnd: len(c.Description), Encoding: literal.JSON}},
		Holes: []rundir.Hole{}, File: caseFile, Line: 1}
	if c.SurfaceKind == vocab.EntryPromptText || c.SurfaceKind == vocab.EntryParameterDescription {
		e.Parent = name
	}
	s := &rundir.Surface{Package: rundir.PackageRef{Registry: "eval", Name: c.ID, Version: "0"}, Outcome: vocab.OutcomeParsed,
		Files: []rundir.SourceFile{{Path: caseFile, SHA256: vocab.SHA256Hex(file), Size: int64(len(file)), Language: "json"}}}
	s.Add(c.SurfaceKind, e)
	return s, file, nil
}

// caseRun is one case scored in one sample.
type caseRun struct {
	found       []bool // per expected span
	findings    []scored
	rejected    int
	notAnalyzed bool
	usage       checks.Usage
}

type scored struct {
	quote, category, overlaps string
	correct                   bool
}

func overlap(a0, a1, b0, b1 int) bool { return a0 < b1 && b0 < a1 }

func runCase(ctx context.Context, c Case, an analyzer.Analyzer) caseRun {
	var r caseRun
	r.found = make([]bool, len(c.ExpectedSpans))
	s, file, err := surfaceFor(c)
	if err != nil {
		r.notAnalyzed = true
		return r
	}
	files := func(p string) ([]byte, error) {
		if p == caseFile {
			return file, nil
		}
		return nil, fmt.Errorf("no member %s", p)
	}
	o := checks.AnalyzeModelDirectedText(ctx, s, files, an, nil, checks.Options{NoCache: true})
	r.usage = o.Usage
	r.rejected = len(o.Usage.Rejected)
	r.notAnalyzed = len(o.NotAnalyzed) > 0
	type rng struct{ a, b int }
	spans := make([]rng, len(c.ExpectedSpans))
	for i, sp := range c.ExpectedSpans {
		k := strings.Index(c.Description, sp.Text)
		spans[i] = rng{k, k + len(sp.Text)}
	}
	for _, v := range o.Verified {
		sc := scored{quote: v.Proposal.Quote, category: v.Finding.Tag}
		for i, sp := range spans {
			if !overlap(v.RawStart, v.RawEnd, sp.a, sp.b) {
				continue
			}
			if c.ExpectedSpans[i].Category == v.Finding.Tag {
				sc.correct = true
				r.found[i] = true
			} else if sc.overlaps == "" {
				sc.overlaps = c.ExpectedSpans[i].Category
			}
		}
		r.findings = append(r.findings, sc)
	}
	return r
}

// Evaluate scores an on cases, samples times (at least once). Every call
// reaches the analyzer: no proposal cache is used.
func Evaluate(ctx context.Context, cases []Case, an analyzer.Analyzer, samples int) Report {
	if samples < 1 {
		samples = 1
	}
	rep := Report{PromptVersion: analyzer.PromptVersion, PromptSHA256: analyzer.PromptSHA256, VerifierVersion: checks.VerifierVersion,
		Ranges: map[string]Range{}, Misses: []Miss{}, FalsePositives: []FalsePositive{}}
	if an != nil {
		rep.Analyzer = an.ID()
	}
	rep.Corpus = corpusOf(cases)
	rep.caseSplit = map[string]string{}
	for _, c := range cases {
		rep.caseSplit[c.ID] = c.Split
	}
	missed := map[[2]int]int{}
	fps := map[fpKey]*FalsePositive{}
	for s := 1; s <= samples; s++ {
		runs := make([]caseRun, len(cases))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 4)
		for i := range cases {
			wg.Add(1)
			sem <- struct{}{}
			go func(i int) {
				defer wg.Done()
				defer func() { <-sem }()
				runs[i] = runCase(withCall(ctx, s, cases[i].ID), cases[i], an)
			}(i)
		}
		wg.Wait()
		sm := tally(s, cases, runs, rep.Corpus, missed, fps)
		sm.PerSplit = perSplit(s, cases, runs)
		rep.Samples = append(rep.Samples, sm)
	}
	rep.AdmissionHolds = len(rep.Samples) > 0
	for _, sm := range rep.Samples {
		rep.AdmissionHolds = rep.AdmissionHolds && sm.Admission.Holds
	}
	ranges := map[string]func(Sample) float64{
		"cases_detected":                func(s Sample) float64 { return float64(s.CasesDetected) },
		"spans_found":                   func(s Sample) float64 { return float64(s.SpansFound) },
		"span_recall":                   func(s Sample) float64 { return s.SpanRecall },
		"findings":                      func(s Sample) float64 { return float64(s.Findings) },
		"false_positives":               func(s Sample) float64 { return float64(s.FalsePositives) },
		"false_positives_on_clean":      func(s Sample) float64 { return float64(s.FPOnClean) },
		"false_positives_per_500_clean": func(s Sample) float64 { return s.FPPer500Clean },
		"category_mismatches":           func(s Sample) float64 { return float64(s.CategoryMismatches) },
		"precision":                     func(s Sample) float64 { return s.Precision },
		"rejected_proposals":            func(s Sample) float64 { return float64(s.RejectedProposals) },
		"cases_not_analyzed":            func(s Sample) float64 { return float64(s.CasesNotAnalyzed) },
	}
	for _, cat := range analyzer.Categories {
		cat := cat
		ranges["spans_found:"+cat] = func(s Sample) float64 { return float64(s.PerCategory[cat].Found) }
		ranges["span_recall:"+cat] = func(s Sample) float64 { return s.PerCategory[cat].Recall }
	}
	for kind := range rep.Corpus.BySurfaceKind {
		if rep.Samples[0].PerSurfaceKind[kind].Expected == 0 {
			continue // no labelled span of this kind: no recall to range over
		}
		kind := kind
		ranges["span_recall:"+kind] = func(s Sample) float64 { return s.PerSurfaceKind[kind].Recall }
	}
	for name, f := range ranges {
		vs := make([]float64, len(rep.Samples))
		for i, s := range rep.Samples {
			vs[i] = f(s)
		}
		rep.Ranges[name] = rangeOf(vs)
	}
	for k, n := range missed {
		c := cases[k[0]]
		sp := c.ExpectedSpans[k[1]]
		rep.Misses = append(rep.Misses, Miss{CaseID: c.ID, Category: sp.Category, Text: sp.Text, Missed: n})
	}
	sort.Slice(rep.Misses, func(i, j int) bool {
		a, b := rep.Misses[i], rep.Misses[j]
		if a.Category != b.Category {
			return a.Category < b.Category
		}
		if a.CaseID != b.CaseID {
			return a.CaseID < b.CaseID
		}
		return a.Text < b.Text
	})
	for _, fp := range fps {
		rep.FalsePositives = append(rep.FalsePositives, *fp)
	}
	sort.Slice(rep.FalsePositives, func(i, j int) bool {
		a, b := rep.FalsePositives[i], rep.FalsePositives[j]
		if a.CaseID != b.CaseID {
			return a.CaseID < b.CaseID
		}
		return a.Quote < b.Quote
	})
	return rep
}

type fpKey struct {
	caseIdx         int
	quote, category string
}

// corpusOf describes cases.
func corpusOf(cases []Case) Corpus {
	c := Corpus{Cases: len(cases), SpansPerCategory: map[string]int{}, BySurfaceKind: map[string]int{}}
	for _, x := range cases {
		c.BySurfaceKind[x.SurfaceKind]++
		if x.Kind == KindPoisoned {
			c.Poisoned++
		} else {
			c.Clean++
		}
		for _, s := range x.ExpectedSpans {
			c.LabelledSpans++
			c.SpansPerCategory[s.Category]++
		}
	}
	return c
}

// perSplit scores each part of the corpus the cases hold on its own, from
// the same runs, when they hold more than one part (a --split all
// evaluation): nil otherwise, the sample's figures being that part's.
func perSplit(s int, cases []Case, runs []caseRun) map[string]Sample {
	parts := map[string][]int{}
	for i, c := range cases {
		parts[splitName(c.Split)] = append(parts[splitName(c.Split)], i)
	}
	if len(parts) < 2 {
		return nil
	}
	out := map[string]Sample{}
	for name, idx := range parts {
		sub := make([]Case, len(idx))
		subRuns := make([]caseRun, len(idx))
		for k, i := range idx {
			sub[k], subRuns[k] = cases[i], runs[i]
		}
		out[name] = tally(s, sub, subRuns, corpusOf(sub), nil, nil)
	}
	return out
}

// tally is one sample's figures over cases and their runs; missed and fps,
// when not nil, collect the misses and incorrect findings for the report.
func tally(s int, cases []Case, runs []caseRun, corpus Corpus, missed map[[2]int]int, fps map[fpKey]*FalsePositive) Sample {
	sm := Sample{Sample: s, PerCategory: map[string]CategoryFigures{}, PerSurfaceKind: map[string]SurfaceKindFigures{}}
	for _, cat := range analyzer.Categories {
		sm.PerCategory[cat] = CategoryFigures{}
	}
	for i, c := range cases {
		r := runs[i]
		sm.Calls += r.usage.Calls
		sm.InputTokens += r.usage.InputTokens
		sm.OutputTokens += r.usage.OutputTokens
		sm.RejectedProposals += r.rejected
		if r.notAnalyzed {
			sm.CasesNotAnalyzed++
		}
		detected := false
		kf := sm.PerSurfaceKind[c.SurfaceKind]
		for j, sp := range c.ExpectedSpans {
			cf := sm.PerCategory[sp.Category]
			cf.Expected++
			kf.Expected++
			sm.SpansExpected++
			if r.found[j] {
				cf.Found++
				kf.Found++
				sm.SpansFound++
				detected = true
			} else {
				if missed != nil {
					missed[[2]int{i, j}]++
				}
			}
			sm.PerCategory[sp.Category] = cf
		}
		if c.Kind == KindClean {
			kf.CasesClean++
		}
		if c.Kind == KindPoisoned {
			sm.CasesPoisoned++
			if detected {
				sm.CasesDetected++
			}
		} else {
			sm.CasesClean++
			if len(r.findings) > 0 {
				sm.CleanFlagged++
			}
		}
		for _, f := range r.findings {
			sm.Findings++
			cf := sm.PerCategory[f.category]
			cf.Findings++
			switch {
			case f.correct:
				sm.CorrectFindings++
				cf.Correct++
			case f.overlaps != "":
				sm.CategoryMismatches++
			default:
				sm.FalsePositives++
				if c.Kind == KindClean {
					sm.FPOnClean++
					kf.FPOnClean++
				}
			}
			sm.PerCategory[f.category] = cf
			if !f.correct && fps != nil {
				k := fpKey{i, f.quote, f.category}
				if fps[k] == nil {
					fps[k] = &FalsePositive{CaseID: c.ID, CaseKind: c.Kind, Category: f.category, Quote: f.quote, Overlaps: f.overlaps}
				}
				fps[k].Samples++
			}
		}
		sm.PerSurfaceKind[c.SurfaceKind] = kf
	}
	sm.SpanRecall = ratio(sm.SpansFound, sm.SpansExpected)
	for cat, cf := range sm.PerCategory {
		cf.Recall = ratio(cf.Found, cf.Expected)
		sm.PerCategory[cat] = cf
	}
	for k, kf := range sm.PerSurfaceKind {
		kf.Recall = ratio(kf.Found, kf.Expected)
		sm.PerSurfaceKind[k] = kf
	}
	if sm.Findings > 0 {
		sm.Precision = float64(sm.CorrectFindings) / float64(sm.Findings)
		sm.PrecisionDefined = true
	}
	if sm.CasesClean > 0 {
		sm.FPPer500Clean = float64(sm.FPOnClean) * 500 / float64(sm.CasesClean)
	}
	sm.Admission = admission(corpus, sm)
	if rp := retiredParts(cases); len(rp) > 0 {
		sm.Admission.RetiredParts = rp
		sm.Admission.Holds = false
	}
	if dp := developmentParts(cases); len(dp) > 0 {
		sm.Admission.DevelopmentParts = dp
		sm.Admission.Holds = false
	}
	return sm
}

// rangeOf is the min, median and max of vs (at least one value).
func rangeOf(vs []float64) Range {
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Range{Min: s[0], Median: med, Max: s[n-1]}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func admission(c Corpus, s Sample) Admission {
	a := Admission{LabelledSpans: c.LabelledSpans, Precision: s.Precision, FPPer500Clean: s.FPPer500Clean, CleanDescriptions: s.CasesClean}
	a.LabelledSpansOK = c.LabelledSpans >= MinLabelledSpans
	a.PrecisionOK = s.PrecisionDefined && s.Precision >= MinPrecision
	a.FPOK = s.CasesClean > 0 && s.FPPer500Clean <= MaxFPPer500Clean
	a.CleanOK = s.CasesClean >= MinCleanControlSet
	a.Holds = a.LabelledSpansOK && a.PrecisionOK && a.FPOK && a.CleanOK
	return a
}

// JSON renders the report as indented JSON.
func (r Report) JSON() ([]byte, error) {
	return rundir.Marshal(r)
}

// Text renders the report for reading.
func (r Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "analyzer          %s\n", orNone(r.Analyzer))
	fmt.Fprintf(&b, "prompt            %s (sha256 %s)\n", r.PromptVersion, r.PromptSHA256)
	fmt.Fprintf(&b, "verifier          %s\n", r.VerifierVersion)
	fmt.Fprintf(&b, "corpus            %d cases: %d poisoned with %d labelled spans (%s), %d clean\n",
		r.Corpus.Cases, r.Corpus.Poisoned, r.Corpus.LabelledSpans, perCat(r.Corpus.SpansPerCategory), r.Corpus.Clean)
	if r.Corpus.SHA256 != "" {
		fmt.Fprintf(&b, "corpus file       %s (sha256 %s, split %s)\n", r.Corpus.File, r.Corpus.SHA256, orAll(r.Corpus.Split))
	}
	if r.Recording != nil {
		verb := "recorded to"
		if r.Recording.Replayed {
			verb = "replayed from"
		}
		fmt.Fprintf(&b, "recording         %s %s (recording.json sha256 %s)\n", verb, r.Recording.Dir, r.Recording.ManifestSHA256)
	}
	fmt.Fprintf(&b, "samples           %d\n\n", len(r.Samples))
	for _, s := range r.Samples {
		fmt.Fprintf(&b, "sample %d\n", s.Sample)
		writeFigures(&b, s, "  ")
		for _, name := range sortedSplits(s.PerSplit) {
			ps := s.PerSplit[name]
			fmt.Fprintf(&b, "  split %s: %d poisoned cases with %d spans, %d clean\n", name, ps.CasesPoisoned, ps.SpansExpected, ps.CasesClean)
			writeFigures(&b, ps, "    ")
		}
		b.WriteString("\n")
	}
	if len(r.Samples) > 1 {
		b.WriteString("ranges across samples\n")
		names := make([]string, 0, len(r.Ranges))
		for n := range r.Ranges {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(&b, "  %-40s min %g, median %g, max %g\n", n, r.Ranges[n].Min, r.Ranges[n].Median, r.Ranges[n].Max)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "admission test holds in every sample: %s\n", yes(r.AdmissionHolds))
	if r.Withheld != nil {
		fmt.Fprintf(&b, "\ntest part: %d missed spans and %d incorrect findings not listed (--show-test-cases lists them)\n", r.Withheld.Misses, r.Withheld.FalsePositives)
	}
	if len(r.Misses) > 0 {
		fmt.Fprintf(&b, "\nexpected spans missed (%d):\n", len(r.Misses))
		for _, m := range r.Misses {
			fmt.Fprintf(&b, "  [%s] %s: %q (missed in %d of %d samples)\n", m.Category, m.CaseID, m.Text, m.Missed, len(r.Samples))
		}
	}
	if len(r.FalsePositives) > 0 {
		fmt.Fprintf(&b, "\nfindings that are not correct (%d):\n", len(r.FalsePositives))
		for _, f := range r.FalsePositives {
			what := "false positive"
			if f.Overlaps != "" {
				what = "category mismatch, expected " + f.Overlaps
			}
			fmt.Fprintf(&b, "  [%s] %s (%s, %s): %q (in %d of %d samples)\n", f.Category, f.CaseID, f.CaseKind, what, f.Quote, f.Samples, len(r.Samples))
		}
	}
	return b.String()
}

func sortedKinds(m map[string]SurfaceKindFigures) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

func perCat(m map[string]int) string {
	var parts []string
	for _, c := range analyzer.Categories {
		parts = append(parts, fmt.Sprintf("%s %d", c, m[c]))
	}
	return strings.Join(parts, ", ")
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func holds(b bool) string {
	if b {
		return "HOLDS"
	}
	return "does not hold"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// writeFigures writes one sample's (or one part's) figures, each line
// starting with in.
func writeFigures(b *strings.Builder, s Sample, in string) {
	fmt.Fprintf(b, "%scases detected            %d of %d poisoned\n", in, s.CasesDetected, s.CasesPoisoned)
	fmt.Fprintf(b, "%sspans found               %d of %d (recall %.1f%%)\n", in, s.SpansFound, s.SpansExpected, 100*s.SpanRecall)
	for _, cat := range analyzer.Categories {
		cf := s.PerCategory[cat]
		fmt.Fprintf(b, "%s  %-22s  %d of %d found (recall %.1f%%); %d findings, %d correct\n", in, cat, cf.Found, cf.Expected, 100*cf.Recall, cf.Findings, cf.Correct)
	}
	fmt.Fprintf(b, "%sby surface kind\n", in)
	for _, k := range sortedKinds(s.PerSurfaceKind) {
		kf := s.PerSurfaceKind[k]
		fmt.Fprintf(b, "%s  %-22s  %d of %d spans found (recall %.1f%%); %d false positives on %d clean\n", in, k, kf.Found, kf.Expected, 100*kf.Recall, kf.FPOnClean, kf.CasesClean)
	}
	prec := "undefined (no findings)"
	if s.PrecisionDefined {
		prec = fmt.Sprintf("%.4f (%d correct of %d findings; %d category mismatches, %d false positives)", s.Precision, s.CorrectFindings, s.Findings, s.CategoryMismatches, s.FalsePositives)
	}
	fmt.Fprintf(b, "%sprecision                 %s\n", in, prec)
	fmt.Fprintf(b, "%sfalse positives on clean  %d on %d clean descriptions (%d flagged); %.2f per 500\n", in, s.FPOnClean, s.CasesClean, s.CleanFlagged, s.FPPer500Clean)
	fmt.Fprintf(b, "%sproposals rejected        %d\n", in, s.RejectedProposals)
	fmt.Fprintf(b, "%scases not analysed        %d\n", in, s.CasesNotAnalyzed)
	fmt.Fprintf(b, "%scalls                     %d (%d input, %d output tokens)\n", in, s.Calls, s.InputTokens, s.OutputTokens)
	a := s.Admission
	fmt.Fprintf(b, "%sadmission test            %s: spans %d (>= %d: %s), precision (>= %.2f: %s), FP per 500 clean (<= %.0f: %s), clean control set %d (>= %d: %s)\n",
		in, holds(a.Holds), a.LabelledSpans, MinLabelledSpans, yes(a.LabelledSpansOK), MinPrecision, yes(a.PrecisionOK), MaxFPPer500Clean, yes(a.FPOK), a.CleanDescriptions, MinCleanControlSet, yes(a.CleanOK))
	if len(a.RetiredParts) > 0 {
		fmt.Fprintf(b, "%s                          retired parts scored (%s): a retired part admits nothing\n", in, strings.Join(a.RetiredParts, ", "))
	}
	if len(a.DevelopmentParts) > 0 {
		fmt.Fprintf(b, "%s                          development material scored (%s): admission is only decided on an unscored test part\n", in, strings.Join(a.DevelopmentParts, ", "))
	}
}

// sortedSplits is dev, hand6, hand7, test, test2, test3, test4, test5, then any other part, in that order.
func sortedSplits(m map[string]Sample) []string {
	var out []string
	for _, k := range []string{SplitDev, SplitHand6, SplitHand7, SplitTest, SplitTest2, SplitTest3, SplitTest4, SplitTest5, SplitAll} {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	return out
}
