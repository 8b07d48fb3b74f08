package policy

import (
	"github.com/attestari/attestari/internal/rundir"
)

// Check ids (docs/methodology.md §5). Only the first three run; the gate
// requires a result row of each of those and of nothing else.
const (
	CheckProvenance       = "publisher_provenance"
	CheckSurface          = "undetermined_tool_surface"
	CheckModel            = "model_directed_text"
	TagReassigned         = "description_reassigned_at_runtime"
	outcomeParsed         = "parsed"
	outcomeNotAServer     = "not_a_server"
	modelOutcomeSkipped   = "skipped"
	modelOutcomeUnreadble = "descriptions_not_statically_readable"
)

// RunningChecks are the checks that run and must each have a result row (G5).
var RunningChecks = []string{CheckProvenance, CheckSurface, CheckModel}

// Description states (docs/methodology.md §5.2).
const (
	StateReadable   = "readable"
	StatePartial    = "partial"
	StateUnreadable = "unreadable"
	StateAbsent     = "absent"
)

// refusingOutcomes are the surface outcomes that refuse the grade under a
// code of the same name, in the gate's order.
var refusingOutcomes = []string{
	CodeMinifiedOnly, CodeRuntimeGenerated, CodeDeclarationNotParsed,
	CodeNoRegistrationSite, CodeArchiveUnreadable, CodeExtractionBudgetExceeded,
}

// Gradeability is the gate (docs/methodology.md §9, "the gate's own codes"):
// the function the pipeline runs to write gradeable.json and that G3 runs
// again at decision time. It reads the package's result rows, its surface row
// and its findings, and returns every reason it finds, in the section's order.
// Rows of other packages are ignored, so callers may pass a whole run's rows.
//
// not_a_server is not a gate code: it is decided as out of scope (D4) before
// the gate applies. Here it yields ok=false with the reason not_a_server, so
// that a gradeable.json row never says ok for a package that is not graded.
// A nil surface cannot be recomputed: ok=false, gate_not_recomputable.
func Gradeability(results []rundir.Result, surface *rundir.Surface, findings []rundir.Finding) (ok bool, reasons []string) {
	if surface == nil {
		return false, []string{CodeGateNotRecomputable}
	}
	pkg := surface.Package.Key()
	add := func(code string) {
		for _, r := range reasons {
			if r == code {
				return
			}
		}
		reasons = append(reasons, code)
	}

	// 1. the surface outcome. An outcome the methodology does not name is a
	// surface the gate cannot read: fail closed.
	switch surface.Outcome {
	case outcomeParsed:
	case outcomeNotAServer:
		return false, []string{CodeNotAServer}
	default:
		known := false
		for _, o := range refusingOutcomes {
			if surface.Outcome == o {
				add(o)
				known = true
			}
		}
		if !known {
			add(CodeGateNotRecomputable)
		}
	}

	// 2. advertised tool names, compared byte for byte with parsed names.
	parsed := make(map[string]bool, len(surface.Tools))
	for _, t := range surface.Tools {
		parsed[t.Name] = true
	}
	for _, a := range surface.AdvertisedTools {
		if !parsed[a.Name] {
			add(CodeAdvertisedToolsNotParsed)
			break
		}
	}

	// 3. nothing examined: instructions and parameter descriptions alone do
	// not make a surface.
	if surface.Outcome == outcomeParsed && len(surface.Tools)+len(surface.Prompts)+len(surface.Resources)+len(surface.ResourceTemplates) == 0 {
		add(CodeNoSurfaceExamined)
	}

	var model *rundir.Result
	for i := range results {
		if results[i].Package.Key() == pkg && results[i].Check == CheckModel {
			model = &results[i]
			break
		}
	}

	// 4. not analysed: an unreadable entry of any kind (a state not recorded,
	// or not one of the four, counts as unreadable), or the model check's
	// result says an entry was not analysed.
	entries := surface.AllEntries()
	for _, e := range entries {
		switch e.DescriptionState {
		case StateReadable, StatePartial, StateAbsent:
		default:
			add(CodeNotAnalyzed)
		}
	}
	if model != nil && (len(model.NotAnalyzed) > 0 || model.Outcome == modelOutcomeUnreadble) {
		add(CodeNotAnalyzed)
	}

	// 5. a partial entry no finding quotes, unless a model finding of
	// severity high already places the package at F.
	high := false
	for _, f := range findings {
		if f.Package.Key() == pkg && f.Check == CheckModel && f.Severity == SeverityHigh {
			high = true
		}
	}
	if !high {
		for _, e := range entries {
			if e.DescriptionState == StatePartial && !quoted(findings, pkg, e) {
				add(CodePartialDescription)
				break
			}
		}
	}

	// 6. the model check was skipped.
	if model != nil && model.Outcome == modelOutcomeSkipped {
		add(CodeModelCheckSkipped)
	}
	return len(reasons) == 0, reasons
}

// quoted reports whether a model finding of pkg quotes entry e. A prompt's
// message text is reported as surface_kind prompt under the prompt's name.
func quoted(findings []rundir.Finding, pkg string, e rundir.Entry) bool {
	for _, f := range findings {
		if f.Package.Key() != pkg || f.Check != CheckModel || f.Tag == TagReassigned {
			continue
		}
		kind := f.SurfaceKind
		if kind == "" {
			kind = "tool"
		}
		switch {
		case kind == e.Kind && f.EntryName == e.Name:
			return true
		case e.Kind == "prompt_text" && kind == "prompt" && f.EntryName == e.Parent:
			return true
		}
	}
	return false
}
