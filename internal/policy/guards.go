// Guards G1–G7 (methodology §9): each reason a package is refused, with its
// place and the findings it rests on.

package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// block records a reason once per code, in order: the first detail, file and
// line win; later additions of the same code add the names not yet listed.
type blocker struct{ list []Blocking }

func (b *blocker) add(code, detail string) {
	b.addAt(Blocking{Code: code, Detail: detail})
}

func (b *blocker) addAt(r Blocking) {
	for i := range b.list {
		if x := &b.list[i]; x.Code == r.Code {
			for _, n := range r.Names {
				if !slices.Contains(x.Names, n) {
					x.Names = append(x.Names, n)
				}
			}
			for _, n := range r.Findings {
				if !slices.Contains(x.Findings, n) {
					x.Findings = append(x.Findings, n)
				}
			}
			x.Partial = append(x.Partial, r.Partial...)
			return
		}
	}
	g, _ := vocab.GateEntryFor(r.Code)
	r.Guard = g.Guard
	b.list = append(b.list, r)
}

func (b *blocker) codes() []string {
	out := make([]string, len(b.list))
	for i, x := range b.list {
		out[i] = x.Code
	}
	return out
}

// guards evaluates G1–G7 in order, recording every failure.
func (d *decider) guards(p *perPackage, surface *rundir.Surface, b *blocker, row *PackageRow, verifs []Verification, art *artifactMembers) error {
	missing := d.files.Missing

	// G1 and G2.
	switch {
	case has(missing, rundir.GradeableFile):
		b.add(vocab.CodeGateNotRecorded, "gradeable.json is missing")
	case len(p.gradeable) == 0:
		b.add(vocab.CodeGateNotRecorded, "gradeable.json has no row for the package")
	case !row.GateRecorded.OK:
		b.addAt(Blocking{Code: vocab.CodeGateFailedAsRecorded, Detail: "recorded reasons: " + strings.Join(row.GateRecorded.Reasons, ", "), Names: slices.Clone(row.GateRecorded.Reasons)})
	}

	// G3.
	switch {
	case has(missing, rundir.SurfacesFile):
		b.add(vocab.CodeGateNotRecomputable, "surfaces.json is missing")
	case len(p.surfaces) == 0:
		b.add(vocab.CodeGateNotRecomputable, "surfaces.json has no row for the package")
	case len(p.surfaces) > 1:
		b.add(vocab.CodeGateNotRecomputable, fmt.Sprintf("surfaces.json has %d rows for the package", len(p.surfaces)))
	case has(missing, rundir.ResultsFile):
		b.add(vocab.CodeGateNotRecomputable, "results.json is missing")
	case has(missing, rundir.FindingsFile):
		b.add(vocab.CodeGateNotRecomputable, "findings.json is missing")
	default:
		ok, reasons := Gradeability(p.results, surface, p.findings)
		row.GateRecomputed = &GateRecord{OK: ok, Reasons: reasons}
		if reasons == nil {
			row.GateRecomputed.Reasons = []string{}
		}
		for _, c := range reasons {
			b.addAt(gateBlocking(c, surface, p.results, p.findings))
		}
	}

	// G4.
	switch {
	case has(missing, rundir.NotAnalyzedFile):
		b.add(vocab.CodeNotAnalyzedRecorded, "not_analyzed.json is missing, so nothing can show every entry was analysed")
	default:
		r := Blocking{Code: vocab.CodeNotAnalyzedRecorded}
		n := 0
		for _, list := range append([][]rundir.NotAnalyzed{p.notAnalyzed}, resultsNotAnalyzed(p.results)...) {
			for _, x := range list {
				n++
				firstPlace(&r, x.File, x.Line)
				addName(&r, entryLabel(x.Kind, x.Name))
			}
		}
		if n > 0 {
			r.Detail = fmt.Sprintf("%d not-analysed entries recorded", n)
			b.addAt(r)
		}
	}

	// G5: check_missing before check_failed, as §9 lists them.
	if has(missing, rundir.ResultsFile) {
		b.add(vocab.CodeCheckMissing, "results.json is missing")
	} else {
		for _, c := range RunningChecks {
			if !slices.ContainsFunc(p.results, func(r rundir.Result) bool { return r.Check == c }) {
				b.addAt(Blocking{Code: vocab.CodeCheckMissing, Detail: "no result row for " + c, Names: []string{c}})
			}
		}
	}
	for _, r := range p.results {
		if r.Outcome == vocab.ResultError || r.Outcome == vocab.ResultFailed {
			b.addAt(Blocking{Code: vocab.CodeCheckFailed, Detail: fmt.Sprintf("%s result says %s: %s", r.Check, r.Outcome, r.Detail), Names: []string{r.Check}})
		}
	}
	if has(missing, rundir.SummaryFile) {
		b.add(vocab.CodeCheckFailed, "summary.json is missing, so no crash can be ruled out")
	}
	for _, f := range p.failures {
		if f.Stage == vocab.StageFetch || slices.Contains(RunningChecks, f.Stage) || f.Stack != "" {
			b.addAt(Blocking{Code: vocab.CodeCheckFailed, Detail: fmt.Sprintf("stage %s failed: %s", f.Stage, f.Kind), Names: []string{f.Stage}})
		}
	}

	// G6.
	if has(missing, rundir.FindingsFile) {
		b.add(vocab.CodeExcerptUnverified, "findings.json is missing, so no finding can be verified")
	}
	for i, f := range p.findings {
		outcome, detail, err := d.verifyExcerpt(f)
		if err != nil {
			return err
		}
		verifs[i].Excerpt, verifs[i].Detail = outcome, detail
		if outcome != Verified {
			b.addAt(Blocking{Code: vocab.CodeExcerptUnverified, Detail: fmt.Sprintf("finding %s: %s %s", f.ID, outcome, detail), File: f.Evidence.Path, Line: f.Evidence.LineStart, Findings: []string{f.ID}})
		}
	}

	// G7.
	for i, f := range p.findings {
		switch {
		case f.Check != vocab.CheckModel:
			verifs[i].Verifier = VerifierNotApplicable
		case f.Tag == vocab.TagReassigned:
			verifs[i].Verifier = VerifierExempt
		default:
			reason, detail, err := d.verifyModelFinding(f, surface, art)
			if err != nil {
				return err
			}
			verifs[i].Verifier = reason
			if reason != Verified {
				if verifs[i].Detail == "" {
					verifs[i].Detail = detail
				}
				b.addAt(Blocking{Code: vocab.CodeVerifierRejected, Detail: fmt.Sprintf("finding %s: %s", f.ID, detail), File: f.Evidence.Path, Line: f.Evidence.LineStart, Findings: []string{f.ID}})
			}
		}
	}
	for i := range verifs {
		verifs[i].Outcome = Verified
		if verifs[i].Excerpt != Verified || (verifs[i].Verifier != Verified && verifs[i].Verifier != VerifierNotApplicable && verifs[i].Verifier != VerifierExempt) {
			verifs[i].Outcome = VerifyFailed
		}
	}
	return nil
}

// gateBlocking says what a recomputed gate code rests on, for the row: the
// summary, the first place, and the names involved. It reads the same rows
// Gradeability read and decides nothing.
func gateBlocking(code string, s *rundir.Surface, results []rundir.Result, findings []rundir.Finding) Blocking {
	r := Blocking{Code: code}
	switch code {
	case vocab.CodeAdvertisedToolsNotParsed:
		parsed := map[string]bool{}
		for _, t := range s.Tools {
			parsed[t.Name] = true
		}
		for _, a := range s.AdvertisedTools {
			if !parsed[a.Name] && !a.Stale && !slices.Contains(r.Names, a.Name) {
				if len(r.Names) == 0 {
					r.File, r.Line = a.Source, a.Line
				}
				r.Names = append(r.Names, a.Name)
			}
		}
		r.Detail = "advertised, not parsed: " + strings.Join(r.Names, ", ")
	case vocab.CodeGateNotRecomputable:
		r.Detail = fmt.Sprintf("surface outcome %q is not one the methodology names", s.Outcome)
	case vocab.CodeMinifiedOnly, vocab.CodeRuntimeGenerated, vocab.CodeDeclarationNotParsed, vocab.CodeNoRegistrationSite, vocab.CodeArchiveUnreadable, vocab.CodeExtractionBudgetExceeded:
		r.Detail = s.OutcomeDetail
		for i, e := range s.OutcomeEvidence {
			if i == 0 {
				r.File, r.Line = e.File, e.Line
				if e.Detail != "" {
					r.Detail = joinDetail(r.Detail, e.File+": "+e.Detail)
				}
			}
			if e.File != "" {
				addName(&r, place(e.File, e.Line))
			}
		}
	case vocab.CodeNoSurfaceExamined:
		r.Detail = "the parsed surface has no tool, prompt, resource or resource template"
	case vocab.CodeNotAnalyzed:
		for _, e := range s.AllEntries() {
			switch e.DescriptionState {
			case vocab.StateReadable, vocab.StatePartial, vocab.StateAbsent:
				continue
			}
			firstPlace(&r, e.File, e.Line)
			addName(&r, entryLabel(e.Kind, e.Name))
			if r.Detail == "" {
				r.Detail = fmt.Sprintf("%s could not be read", entryLabel(e.Kind, e.Name))
				if e.UnreadableReason != "" {
					r.Detail += ": " + e.UnreadableReason
				}
			}
		}
		if m := modelResult(results, s.Package.Key()); m != nil {
			for _, n := range m.NotAnalyzed {
				firstPlace(&r, n.File, n.Line)
				addName(&r, entryLabel(n.Kind, n.Name))
				if r.Detail == "" {
					r.Detail = fmt.Sprintf("%s was not analysed: %s", entryLabel(n.Kind, n.Name), n.Reason)
				}
			}
			if r.Detail == "" && m.Outcome == vocab.ResultDescriptionsUnreadable {
				r.Detail = "the model check could not read the surface: " + m.Detail
			}
		}
	case vocab.CodePartialDescription:
		pkg := s.Package.Key()
		for _, e := range s.AllEntries() {
			if e.DescriptionState != vocab.StatePartial || quoted(findings, pkg, e) || holesFilledByClient(e) || holesFilledByRuntimeData(e) {
				continue
			}
			firstPlace(&r, e.File, e.Line)
			addName(&r, entryLabel(e.Kind, e.Name))
			pe := PartialEntry{Kind: e.Kind, Name: e.Name, File: e.File, Line: e.Line, Text: e.DescriptionRaw, Holes: []PartialHole{}}
			for _, h := range e.Holes {
				pe.Holes = append(pe.Holes, PartialHole{Offset: h.RawOffset, Line: h.Line, Source: h.Source})
			}
			r.Partial = append(r.Partial, pe)
		}
		holes := 0
		for _, pe := range r.Partial {
			holes += len(pe.Holes)
		}
		r.Detail = fmt.Sprintf("%d partial description(s) with %d substitution(s) no finding quotes: %s", len(r.Partial), holes, strings.Join(r.Names, ", "))
	case vocab.CodeModelCheckSkipped:
		r.Detail = "the model check was skipped"
		if m := modelResult(results, s.Package.Key()); m != nil && m.Detail != "" {
			r.Detail += ": " + m.Detail
		}
	}
	return r
}

func resultsNotAnalyzed(results []rundir.Result) [][]rundir.NotAnalyzed {
	out := make([][]rundir.NotAnalyzed, 0, len(results))
	for _, r := range results {
		out = append(out, r.NotAnalyzed)
	}
	return out
}

// firstPlace sets the reason's place unless it has one.
func firstPlace(r *Blocking, file string, line int) {
	if r.File == "" && file != "" {
		r.File, r.Line = file, line
	}
}

func addName(r *Blocking, n string) {
	if !slices.Contains(r.Names, n) {
		r.Names = append(r.Names, n)
	}
}

// entryLabel names a surface entry for a reader: "tool get-docs".
func entryLabel(kind, name string) string {
	if kind == "" {
		kind = vocab.EntryTool
	}
	return strings.ReplaceAll(kind, "_", " ") + " " + name
}

func joinDetail(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// modelResult is the model check's result row of pkg, if any.
func modelResult(results []rundir.Result, pkg string) *rundir.Result {
	for i := range results {
		if results[i].Package.Key() == pkg && results[i].Check == vocab.CheckModel {
			return &results[i]
		}
	}
	return nil
}
