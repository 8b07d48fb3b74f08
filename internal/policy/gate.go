// The gate (methodology §9): Gradeability recomputes it from a run's rows.

package policy

import (
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

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
		return false, []string{vocab.CodeGateNotRecomputable}
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
	case vocab.OutcomeParsed:
	case vocab.OutcomeNotAServer:
		return false, []string{vocab.CodeNotAServer}
	default:
		known := false
		for _, o := range refusingOutcomes {
			if surface.Outcome == o {
				add(o)
				known = true
			}
		}
		if !known {
			add(vocab.CodeGateNotRecomputable)
		}
	}

	// 2. advertised tool names, compared byte for byte with parsed names.
	parsed := make(map[string]bool, len(surface.Tools))
	for _, t := range surface.Tools {
		parsed[t.Name] = true
	}
	for _, a := range surface.AdvertisedTools {
		// A stale advertisement (a name that occurs nowhere in the package's
		// source, methodology §5.2) is recorded on the row and refuses nothing.
		if !parsed[a.Name] && !a.Stale {
			add(vocab.CodeAdvertisedToolsNotParsed)
			break
		}
	}

	// 3. nothing examined: instructions and parameter descriptions alone do
	// not make a surface.
	if surface.Outcome == vocab.OutcomeParsed && len(surface.Tools)+len(surface.Prompts)+len(surface.Resources)+len(surface.ResourceTemplates) == 0 {
		add(vocab.CodeNoSurfaceExamined)
	}

	var model *rundir.Result
	for i := range results {
		if results[i].Package.Key() == pkg && results[i].Check == vocab.CheckModel {
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
		case vocab.StateReadable, vocab.StatePartial, vocab.StateAbsent:
		default:
			add(vocab.CodeNotAnalyzed)
		}
	}
	if model != nil && (len(model.NotAnalyzed) > 0 || model.Outcome == vocab.ResultDescriptionsUnreadable) {
		add(vocab.CodeNotAnalyzed)
	}

	// 5. a partial entry no finding quotes, unless a model finding of
	// severity high already places the package at F.
	high := false
	for _, f := range findings {
		if f.Package.Key() == pkg && f.Check == vocab.CheckModel && f.Severity == vocab.SeverityHigh {
			high = true
		}
	}
	if !high {
		for _, e := range entries {
			if e.DescriptionState == vocab.StatePartial && !quoted(findings, pkg, e) && !holesFilledByClient(e) && !holesFilledByRuntimeData(e) {
				add(vocab.CodePartialDescription)
				break
			}
		}
	}

	// 6. the model check was skipped.
	if model != nil && model.Outcome == vocab.ResultSkipped {
		add(vocab.CodeModelCheckSkipped)
	}
	return len(reasons) == 0, reasons
}

// quoted reports whether a model finding of pkg quotes entry e. A prompt's
// message text is reported as surface_kind prompt under the prompt's name.
func quoted(findings []rundir.Finding, pkg string, e rundir.Entry) bool {
	for _, f := range findings {
		if f.Package.Key() != pkg || f.Check != vocab.CheckModel || f.Tag == vocab.TagReassigned {
			continue
		}
		kind := f.SurfaceKind
		if kind == "" {
			kind = vocab.EntryTool
		}
		switch {
		case kind == e.Kind && f.EntryName == e.Name:
			return true
		case e.Kind == vocab.EntryPromptText && kind == vocab.EntryPrompt && f.EntryName == e.Parent:
			return true
		}
	}
	return false
}
