package checks

// model_directed_text (docs/methodology.md §5.4): does the text a server
// hands to the model instruct the model against the user?
//
// Reads: every entry of the parsed surface (tool, prompt, prompt_text,
// resource, resource_template, instructions, parameter_description) with
// its description state, the member files its spans cite, and the
// description_reassigned_at_runtime sites the extractor recorded.
// Concludes: verified findings of three categories (severity high), the
// reassignment finding (severity medium), the entries it could not analyse
// and why, and a count of routing guidance per entry. It never concludes
// "clean" for an entry it did not analyse: unreadable text, no analyzer with
// no cached answer, and a refused, truncated or malformed answer all leave
// the entry not_analyzed.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// The check's id (vocab.CheckModel), its reassignment tag
// (vocab.TagReassigned), its severities and its result outcomes (vocab.Result*)
// are the project's vocabulary, declared in internal/vocab.

// Not-analysed reasons this file records besides analyzer.Reason's.
const (
	ReasonUnreadable       = "descriptions_not_statically_readable"
	ReasonNoAnalyzer       = "no_analyzer"
	ReasonOmitted          = "analyzer_omitted_entry"
	ReasonReassignUnread   = "reassignment_site_unreadable"
	RejectEntryNotEvidence = "entry_not_in_evidence"
)

// contextTagsNotComputed is what an exfiltrate_data row says about its
// context tags when the run writes it: the check reads member bytes, not the
// artifact the tags need, and docs/methodology.md §5.5 computes them at
// decision time. A decision without a tagger shows the row as recorded.
const contextTagsNotComputed = "not computed by the run: context tags are computed at decision time from the stored artifact by the exfil_context analyser (internal/checks/exfil_context.go); until then the tag is neither applied nor refused"

// ProposalCache is the proposal store of internal/evidence (*evidence.Store
// satisfies it): answers filed by (analyzer id, prompt SHA-256, evidence
// SHA-256).
type ProposalCache interface {
	GetProposal(ctx context.Context, key evidence.ProposalKey) ([]byte, error)
	PutProposal(ctx context.Context, key evidence.ProposalKey, proposal []byte) (string, error)
}

// Options tune a run of the check.
type Options struct {
	// NoCache forces a call for every batch, ignoring cached answers (the
	// fresh answer is still stored).
	NoCache bool
	// ReplayAnalyzerID names the analyzer whose cached answers to read when
	// no analyzer is given, so a run can be replayed from the cache alone.
	ReplayAnalyzerID string
	// Concurrency bounds the batches of one package in flight; default 2.
	Concurrency int
	// MaxBatchEntries and MaxBatchBytes bound one evidence block; defaults
	// 40 entries and 32 KiB of text. An entry larger than the byte bound
	// goes alone.
	MaxBatchEntries int
	MaxBatchBytes   int
}

// RejectedProposal is a proposal the verifier discarded: never a finding,
// counted on the result and kept for audit.
type RejectedProposal struct {
	Package   rundir.PackageRef `json:"package"`
	Analyzer  string            `json:"analyzer"`
	Kind      string            `json:"kind"`
	Name      string            `json:"name"`
	File      string            `json:"file"`
	EntryID   string            `json:"entry_id"`
	Quote     string            `json:"quote"`
	Category  string            `json:"category"`
	Rationale string            `json:"rationale"`
	Reason    string            `json:"reason"`
	Detail    string            `json:"detail,omitempty"`
}

// RoutingCount is the number of routing-guidance spans the analyzer counted
// in one entry: recorded, never a finding.
type RoutingCount struct {
	Package rundir.PackageRef `json:"package"`
	Kind    string            `json:"kind"`
	Name    string            `json:"name"`
	Parent  string            `json:"parent,omitempty"`
	File    string            `json:"file"`
	Count   int               `json:"count"`
}

// Usage is what one run of the check spent and set aside. Rejected and
// Routing are for the pipeline to write into the run for audit; the counters
// go to summary.json.
type Usage struct {
	Analyzer     string             `json:"analyzer"`
	Calls        int                `json:"calls"`
	CacheHits    int                `json:"cache_hits"`
	InputTokens  int64              `json:"input_tokens"`
	OutputTokens int64              `json:"output_tokens"`
	Rejected     []RejectedProposal `json:"rejected"`
	Routing      []RoutingCount     `json:"routing"`
}

// Add accumulates o into u (the pipeline sums packages).
func (u *Usage) Add(o Usage) {
	if u.Analyzer == "" {
		u.Analyzer = o.Analyzer
	}
	u.Calls += o.Calls
	u.CacheHits += o.CacheHits
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.Rejected = append(u.Rejected, o.Rejected...)
	u.Routing = append(u.Routing, o.Routing...)
}

// Summary is the summary.json form of u.
func (u Usage) Summary() rundir.AnalyzerUsage {
	return rundir.AnalyzerUsage{Analyzer: u.Analyzer, Calls: u.Calls, CacheHits: u.CacheHits,
		InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, Rejected: len(u.Rejected)}
}

// VerifiedProposal is a proposal that became a finding, with where its
// quote sits in the entry's decoded text (the eval harness scores on it).
type VerifiedProposal struct {
	Finding  rundir.Finding
	Proposal analyzer.Proposal
	Entry    rundir.Entry
	RawStart int
	RawEnd   int
}

// Outcome is everything one run of the check produced.
type Outcome struct {
	Result      rundir.Result
	Findings    []rundir.Finding
	NotAnalyzed []rundir.NotAnalyzed
	Usage       Usage
	Verified    []VerifiedProposal
}

// RunModelDirectedText runs the check on one package's surface. files
// returns the stored bytes of a member by path. an may be nil (no
// analyzer): entries are then analysed only from cache (opts.ReplayAnalyzerID),
// and the rest are not analysed. cache may be nil.
func RunModelDirectedText(ctx context.Context, surface *rundir.Surface, files func(path string) ([]byte, error), an analyzer.Analyzer, cache ProposalCache, opts Options) (rundir.Result, []rundir.Finding, []rundir.NotAnalyzed, Usage) {
	o := AnalyzeModelDirectedText(ctx, surface, files, an, cache, opts)
	return o.Result, o.Findings, o.NotAnalyzed, o.Usage
}

// cachedAnswer is what the proposal cache holds for one batch: the answer in
// its wire form (re-parsed strictly on every read) and how it was produced.
type cachedAnswer struct {
	Format     string          `json:"format"`
	Analyzer   string          `json:"analyzer"`
	Model      string          `json:"model,omitempty"`
	StopReason string          `json:"stop_reason"`
	Answer     json.RawMessage `json:"answer"`
}

const cachedAnswerFormat = "attestari-cached-answer-1"

// item is one entry of the surface headed for the analyzer.
type item struct {
	entry rundir.Entry
	ae    analyzer.Entry
	size  int
}

type batchResult struct {
	items  []item
	resp   analyzer.Response
	err    error
	cached bool
	called bool
}

// AnalyzeModelDirectedText is RunModelDirectedText returning the verified
// proposals as well.
func AnalyzeModelDirectedText(ctx context.Context, surface *rundir.Surface, files func(path string) ([]byte, error), an analyzer.Analyzer, cache ProposalCache, opts Options) Outcome {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 2
	}
	if opts.MaxBatchEntries <= 0 {
		opts.MaxBatchEntries = 40
	}
	if opts.MaxBatchBytes <= 0 {
		opts.MaxBatchBytes = 32 << 10
	}
	analyzerID := opts.ReplayAnalyzerID
	if an != nil {
		analyzerID = an.ID()
	}
	var out Outcome
	out.Usage.Analyzer = analyzerID
	if surface == nil {
		out.Result = rundir.Result{Check: vocab.CheckModel, Outcome: vocab.ResultError, Detail: "no surface row for the package"}
		return out
	}
	pkg := surface.Package
	out.Result = rundir.Result{Package: pkg, Check: vocab.CheckModel}
	counts := map[string]int{}
	src := &memoFiles{read: files}

	// 1. Sort the entries by state.
	var items []item
	for _, e := range surface.AllEntries() {
		switch e.DescriptionState {
		case vocab.StateReadable, vocab.StatePartial:
			counts["entries_"+e.DescriptionState]++
			segs := segmentsOf(e)
			size := 0
			for _, s := range segs {
				size += len(s)
			}
			if size == 0 {
				counts["entries_analyzed"]++ // nothing in it to read
				continue
			}
			items = append(items, item{entry: e, size: size, ae: analyzer.Entry{
				ID: fmt.Sprintf("e%d", len(items)+1), Kind: e.Kind, Name: e.Name, Parent: e.Parent,
				File: entryFile(e), State: e.DescriptionState, Segments: segs,
			}})
		case vocab.StateAbsent:
			counts["entries_absent"]++
		default:
			// unreadable, a state not recorded, or one the methodology
			// does not name: fail closed.
			counts["entries_unreadable"]++
			out.NotAnalyzed = append(out.NotAnalyzed, notAnalyzed(pkg, e, ReasonUnreadable))
		}
	}

	// 2. Batch and analyse, from the cache or the analyzer.
	batches := makeBatches(items, opts.MaxBatchEntries, opts.MaxBatchBytes)
	results := make([]batchResult, len(batches))
	var wg sync.WaitGroup
	sem := make(chan struct{}, opts.Concurrency)
	for i, b := range batches {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, b []item) {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = runBatch(ctx, b, an, analyzerID, cache, opts.NoCache)
		}(i, b)
	}
	wg.Wait()

	// 3. Verify proposals, record routing counts and what was not analysed.
	anyAnswered := false
	type fkey struct {
		kind, name, file string
		start, end       int
		cat              string
	}
	seen := map[fkey]bool{}
	for _, r := range results {
		if r.cached {
			out.Usage.CacheHits++
		}
		out.Usage.Calls += r.resp.Usage.Calls
		out.Usage.InputTokens += r.resp.Usage.InputTokens
		out.Usage.OutputTokens += r.resp.Usage.OutputTokens
		if r.err != nil {
			reason := analyzer.Reason(r.err)
			if errors.Is(r.err, errNoAnalyzer) {
				reason = ReasonNoAnalyzer
			}
			for _, it := range r.items {
				out.NotAnalyzed = append(out.NotAnalyzed, notAnalyzed(pkg, it.entry, reason))
			}
			continue
		}
		anyAnswered = true
		byID := map[string]item{}
		for _, it := range r.items {
			byID[it.ae.ID] = it
		}
		reported := map[string]bool{}
		for _, rep := range r.resp.Entries {
			it := byID[rep.EntryID]
			reported[rep.EntryID] = true
			counts["routing_guidance"] += rep.RoutingGuidance
			if rep.RoutingGuidance > 0 {
				counts[routingKey(it.entry)] += rep.RoutingGuidance
				out.Usage.Routing = append(out.Usage.Routing, RoutingCount{Package: pkg, Kind: it.entry.Kind, Name: it.entry.Name,
					Parent: it.entry.Parent, File: it.ae.File, Count: rep.RoutingGuidance})
			}
		}
		for _, it := range r.items {
			if reported[it.ae.ID] {
				counts["entries_analyzed"]++
			} else {
				out.NotAnalyzed = append(out.NotAnalyzed, notAnalyzed(pkg, it.entry, ReasonOmitted))
			}
		}
		for _, p := range r.resp.Proposals {
			counts["proposals"]++
			rej := RejectedProposal{Package: pkg, Analyzer: analyzerID, Kind: p.Kind, Name: p.Name, File: p.File,
				EntryID: p.EntryID, Quote: p.Quote, Category: p.Category, Rationale: p.Rationale}
			it, ok := byID[p.EntryID]
			if !ok {
				rej.Reason = RejectEntryNotEvidence
				out.Usage.Rejected = append(out.Usage.Rejected, rej)
				continue
			}
			v, err := verifyProposal(surface, src, it.entry, p.Quote)
			if err != nil {
				var re *RejectError
				if errors.As(err, &re) {
					rej.Reason, rej.Detail = re.Reason, re.Detail
				} else {
					rej.Reason, rej.Detail = RejectSourceMissing, err.Error()
				}
				out.Usage.Rejected = append(out.Usage.Rejected, rej)
				continue
			}
			// A quote across places of the source (a constant substituted
			// into a template) is one finding per verified piece, each with
			// its own excerpt, so G6/G7 check every quoted byte where it is
			// written.
			pieces := []Verified{v}
			if len(v.Parts) > 0 {
				pieces = v.Parts
			}
			var fs []VerifiedProposal
			var keys []fkey
			failed := false
			for _, pv := range pieces {
				k := fkey{it.entry.Kind, it.entry.Name, pv.File, pv.Start, pv.End, p.Category}
				if seen[k] {
					continue
				}
				f, err := quoteFinding(pkg, analyzerID, it.entry, p.Category, pv, src)
				if err != nil {
					rej.Reason, rej.Detail = RejectSourceMissing, err.Error()
					out.Usage.Rejected = append(out.Usage.Rejected, rej)
					failed = true
					break
				}
				keys = append(keys, k)
				fs = append(fs, VerifiedProposal{Finding: f, Proposal: p, Entry: it.entry, RawStart: pv.RawStart, RawEnd: pv.RawEnd})
			}
			if !failed {
				for _, k := range keys {
					seen[k] = true
				}
				out.Verified = append(out.Verified, fs...)
			}
		}
	}

	// 4. Reassignment sites: structure, not meaning; no analyzer involved.
	var reassigned []rundir.Finding
	for _, site := range surface.ReassignedAtRuntime {
		f, err := reassignedFinding(pkg, site, src)
		if err != nil {
			out.NotAnalyzed = append(out.NotAnalyzed, rundir.NotAnalyzed{Package: pkg, Check: vocab.CheckModel, Kind: "reassignment",
				Name: site.Detail, File: site.File, Line: site.Line, Reason: ReasonReassignUnread})
			continue
		}
		reassigned = append(reassigned, f)
	}

	// 5. Rows in a fixed order, so a rerun writes the same bytes.
	sort.SliceStable(out.Verified, func(i, j int) bool { return findingLess(out.Verified[i].Finding, out.Verified[j].Finding) })
	for _, v := range out.Verified {
		out.Findings = append(out.Findings, v.Finding)
		counts["findings_"+v.Finding.Tag]++
	}
	sort.SliceStable(reassigned, func(i, j int) bool { return findingLess(reassigned[i], reassigned[j]) })
	for _, f := range reassigned {
		out.Findings = append(out.Findings, f)
		counts["findings_"+vocab.TagReassigned]++
	}
	counts["findings"] = len(out.Findings)
	sort.SliceStable(out.NotAnalyzed, func(i, j int) bool { return notAnalyzedLess(out.NotAnalyzed[i], out.NotAnalyzed[j]) })
	sort.SliceStable(out.Usage.Rejected, func(i, j int) bool { return rejectedLess(out.Usage.Rejected[i], out.Usage.Rejected[j]) })
	counts["proposals_rejected"] = len(out.Usage.Rejected)
	counts["entries_not_analyzed"] = len(out.NotAnalyzed)
	counts["batches"] = len(batches)

	switch {
	case len(items) == 0 && counts["entries_unreadable"] == 0:
		out.Result.Outcome = vocab.ResultNoDescriptions
	case len(items) == 0:
		out.Result.Outcome = vocab.ResultDescriptionsUnreadable
	case !anyAnswered && an == nil:
		out.Result.Outcome = vocab.ResultSkipped
	default:
		out.Result.Outcome = vocab.ResultRan
	}
	for k, v := range counts {
		if v == 0 {
			delete(counts, k)
		}
	}
	out.Result.Counts = counts
	out.Result.NotAnalyzed = out.NotAnalyzed
	id := analyzerID
	if id == "" {
		id = "none"
	}
	out.Result.Detail = fmt.Sprintf("analyzer %s; prompt %s sha256 %s; verifier %s; %d of %d texts analysed; %d proposals rejected",
		id, analyzer.PromptVersion, analyzer.PromptSHA256, VerifierVersion, counts["entries_analyzed"],
		counts["entries_readable"]+counts["entries_partial"]+counts["entries_unreadable"], len(out.Usage.Rejected))
	return out
}

var errNoAnalyzer = errors.New("no analyzer configured and no cached answer")

// runBatch answers one batch from the cache or the analyzer.
func runBatch(ctx context.Context, items []item, an analyzer.Analyzer, analyzerID string, cache ProposalCache, noCache bool) batchResult {
	r := batchResult{items: items}
	entries := make([]analyzer.Entry, len(items))
	for i, it := range items {
		entries[i] = it.ae
	}
	req, err := analyzer.BuildRequest(entries)
	if err != nil {
		r.err = err
		return r
	}
	key := evidence.ProposalKey{Analyzer: analyzerID, PromptSHA256: req.PromptSHA256, EvidenceSHA256: req.EvidenceSHA256}
	if cache != nil && !noCache && analyzerID != "" {
		if raw, err := cache.GetProposal(ctx, key); err == nil {
			if resp, err := decodeCached(raw, req, analyzerID); err == nil {
				r.resp, r.cached = resp, true
				return r
			}
			// A cached answer that does not decode is not an answer: ask again.
		}
	}
	if an == nil {
		r.err = errNoAnalyzer
		return r
	}
	resp, err := an.Analyze(ctx, req)
	r.resp, r.called = resp, true
	if err != nil {
		r.err = err
		return r
	}
	if cache != nil {
		b, merr := json.Marshal(cachedAnswer{Format: cachedAnswerFormat, Analyzer: analyzerID, Model: resp.Model,
			StopReason: resp.StopReason, Answer: analyzer.EncodeAnswer(resp.Proposals, resp.Entries)})
		if merr == nil {
			// A cache that cannot be written costs a call next time; it does
			// not change this answer.
			_, _ = cache.PutProposal(ctx, key, b)
		}
	}
	return r
}

func decodeCached(raw []byte, req analyzer.Request, analyzerID string) (analyzer.Response, error) {
	var c cachedAnswer
	if err := json.Unmarshal(raw, &c); err != nil {
		return analyzer.Response{}, err
	}
	if c.Format != cachedAnswerFormat || c.Analyzer != analyzerID {
		return analyzer.Response{}, fmt.Errorf("cached answer of format %q by %q", c.Format, c.Analyzer)
	}
	props, reps, err := analyzer.ParseAnswer(c.Answer, req)
	if err != nil {
		return analyzer.Response{}, err
	}
	return analyzer.Response{Analyzer: c.Analyzer, Model: c.Model, StopReason: c.StopReason, Proposals: props, Entries: reps}, nil
}

// makeBatches groups items in order under both bounds.
func makeBatches(items []item, maxEntries, maxBytes int) [][]item {
	var out [][]item
	var cur []item
	size := 0
	for _, it := range items {
		if len(cur) > 0 && (len(cur) >= maxEntries || size+it.size > maxBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, it)
		size += it.size
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// segmentsOf splits an entry's decoded text at its holes: the literal
// segments the analyzer may quote from, never across.
func segmentsOf(e rundir.Entry) []string {
	cuts := []int{}
	for _, h := range e.Holes {
		if h.RawOffset > 0 && h.RawOffset < len(e.DescriptionRaw) {
			cuts = append(cuts, h.RawOffset)
		}
	}
	sort.Ints(cuts)
	segs := []string{}
	prev := 0
	for _, c := range cuts {
		if c > prev {
			segs = append(segs, e.DescriptionRaw[prev:c])
		}
		prev = c
	}
	if prev < len(e.DescriptionRaw) {
		segs = append(segs, e.DescriptionRaw[prev:])
	}
	return segs
}

// entryFile is the member an entry's text is declared in: its first span's
// file, else the entry's own.
func entryFile(e rundir.Entry) string {
	if len(e.Spans) > 0 && e.Spans[0].File != "" {
		return e.Spans[0].File
	}
	return e.File
}

// reportedAs is the (surface_kind, entry name) a finding on e carries: a
// prompt's message text is reported as the prompt (docs/methodology.md §5.3).
func reportedAs(e rundir.Entry) (string, string) {
	if e.Kind == vocab.EntryPromptText {
		return vocab.EntryPrompt, e.Parent
	}
	return e.Kind, e.Name
}

// verifyProposal applies VerifyQuote to exactly the entry the proposal
// named: a surface holding only that entry, so a quote never verifies in a
// same-named entry the analyzer did not read. Each file the entry's spans
// sit in is tried, its own file first.
func verifyProposal(surface *rundir.Surface, src *memoFiles, e rundir.Entry, quote string) (Verified, error) {
	one := &rundir.Surface{Package: surface.Package}
	kind, name := e.Kind, e.Name
	if kind == "" {
		kind = vocab.EntryTool
	}
	if kind == vocab.EntryPromptText && e.Parent != "" {
		name = e.Parent
	}
	if !one.Add(kind, e) {
		return Verified{}, reject(RejectNoEntry, "entry kind %q", e.Kind)
	}
	var files []string
	seen := map[string]bool{}
	for _, f := range append([]string{entryFile(e)}, spanFiles(e)...) {
		if f != "" && !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	var firstErr error
	for _, f := range files {
		v, err := VerifyQuote(one, src.get, kind, name, f, quote)
		if err == nil {
			return v, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = reject(RejectNoEntry, "entry %q has no spans", e.Name)
	}
	return Verified{}, firstErr
}

func spanFiles(e rundir.Entry) []string {
	var out []string
	for _, s := range e.Spans {
		out = append(out, s.File)
	}
	return out
}

var findingTitles = map[string]string{
	analyzer.CategoryExfiltrate: "Text directs the model to send data the tool does not need",
	analyzer.CategoryOverride:   "Text directs the model to act against or regardless of the user",
	analyzer.CategoryConceal:    "Text directs the model to hide what it does from the user",
	vocab.TagReassigned:         "Description is reassigned at run time, so the text the model receives is unknown",
}

// quoteFinding builds the finding for a verified quote: the excerpt is the
// verified source bytes, the evidence hash that of the member they sit in.
func quoteFinding(pkg rundir.PackageRef, analyzerID string, e rundir.Entry, category string, v Verified, src *memoFiles) (rundir.Finding, error) {
	b, err := src.get(v.File)
	if err != nil {
		return rundir.Finding{}, err
	}
	kind, name := reportedAs(e)
	f := rundir.Finding{
		Package: pkg, Check: vocab.CheckModel, Tag: category, Severity: vocab.SeverityHigh, Title: findingTitles[category],
		SurfaceKind: kind, EntryName: name, Analyzer: analyzerID,
		Evidence: rundir.Evidence{SHA256: vocab.SHA256Hex(b), Path: v.File, LineStart: v.LineStart, LineEnd: v.LineEnd, Excerpt: string(v.Excerpt)},
	}
	if category == analyzer.CategoryExfiltrate {
		for _, t := range ExfilContextTags {
			f.ContextTags = append(f.ContextTags, rundir.ContextTag{Tag: t, Applied: false, Why: contextTagsNotComputed})
		}
	}
	f.ID = findingID(f, v.Start, v.End)
	return f, nil
}

// reassignedFinding quotes the assigning statement: the site's recorded
// source text when it occurs at that line, else the line itself, trimmed.
func reassignedFinding(pkg rundir.PackageRef, site rundir.Site, src *memoFiles) (rundir.Finding, error) {
	b, err := src.get(site.File)
	if err != nil {
		return rundir.Finding{}, err
	}
	lo, hi := LineRange(b, site.Line, site.Line)
	if hi <= lo {
		return rundir.Finding{}, fmt.Errorf("%s has no line %d", site.File, site.Line)
	}
	start, end := lo, hi
	if d := site.Detail; d != "" {
		if k := strings.Index(string(b[lo:]), d); k >= 0 && lo+k < hi {
			start, end = lo+k, lo+k+len(d)
		}
	}
	if start == lo && end == hi {
		for start < end && (b[start] == ' ' || b[start] == '\t') {
			start++
		}
		for end > start && (b[end-1] == ' ' || b[end-1] == '\t' || b[end-1] == '\r') {
			end--
		}
	}
	if end <= start {
		return rundir.Finding{}, fmt.Errorf("%s line %d is empty", site.File, site.Line)
	}
	f := rundir.Finding{
		Package: pkg, Check: vocab.CheckModel, Tag: vocab.TagReassigned, Severity: vocab.SeverityMedium, Title: findingTitles[vocab.TagReassigned],
		Evidence: rundir.Evidence{SHA256: vocab.SHA256Hex(b), Path: site.File, LineStart: lineOf(b, start), LineEnd: lineOf(b, end-1), Excerpt: string(b[start:end])},
	}
	f.ID = findingID(f, start, end)
	return f, nil
}

// findingID is stable across reruns: the package, the tag, the entry and
// the exact source range quoted.
func findingID(f rundir.Finding, start, end int) string {
	h := vocab.SHA256Hex([]byte(strings.Join([]string{f.Package.Key(), vocab.CheckModel, f.Tag, f.SurfaceKind, f.EntryName,
		f.Evidence.Path, fmt.Sprint(start), fmt.Sprint(end)}, "\x00")))
	return "mdt-" + h[:16]
}

func findingLess(a, b rundir.Finding) bool {
	ka := []string{a.Evidence.Path, fmt.Sprintf("%09d", a.Evidence.LineStart), a.SurfaceKind, a.EntryName, a.Tag, a.Evidence.Excerpt, a.ID}
	kb := []string{b.Evidence.Path, fmt.Sprintf("%09d", b.Evidence.LineStart), b.SurfaceKind, b.EntryName, b.Tag, b.Evidence.Excerpt, b.ID}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}

func notAnalyzed(pkg rundir.PackageRef, e rundir.Entry, reason string) rundir.NotAnalyzed {
	return rundir.NotAnalyzed{Package: pkg, Check: vocab.CheckModel, Kind: e.Kind, Name: e.Name, File: entryFile(e), Line: e.Line, Reason: reason}
}

func notAnalyzedLess(a, b rundir.NotAnalyzed) bool {
	ka := []string{a.File, fmt.Sprintf("%09d", a.Line), a.Kind, a.Name, a.Reason}
	kb := []string{b.File, fmt.Sprintf("%09d", b.Line), b.Kind, b.Name, b.Reason}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}

func rejectedLess(a, b RejectedProposal) bool {
	ka := []string{a.File, a.Kind, a.Name, a.Quote, a.Category, a.Reason}
	kb := []string{b.File, b.Kind, b.Name, b.Quote, b.Category, b.Reason}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}

// routingKey names an entry in the result's counts.
func routingKey(e rundir.Entry) string {
	name := e.Name
	if e.Parent != "" {
		name = e.Parent + "/" + e.Name
	}
	return "routing_guidance:" + e.Kind + ":" + name
}

// memoFiles reads each member once per run of the check, safely from the
// batch goroutines.
type memoFiles struct {
	read  func(string) ([]byte, error)
	mu    sync.Mutex
	files map[string][]byte
	errs  map[string]error
}

func (m *memoFiles) get(path string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.files[path]; ok {
		return b, nil
	}
	if err, ok := m.errs[path]; ok {
		return nil, err
	}
	if m.read == nil {
		return nil, fmt.Errorf("no file reader for %s", path)
	}
	b, err := m.read(path)
	if m.files == nil {
		m.files, m.errs = map[string][]byte{}, map[string]error{}
	}
	if err != nil {
		m.errs[path] = err
		return nil, err
	}
	m.files[path] = b
	return b, nil
}
