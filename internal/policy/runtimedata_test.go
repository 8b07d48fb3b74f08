package policy

import (
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// runtimeSurface is a parsed surface with one resource entry whose text has
// the given holes.
func runtimeSurface(kind string, listed bool, holes ...rundir.Hole) *rundir.Surface {
	ref := rundir.PackageRef{Registry: "npm", Name: "runtime-data", Version: "1.0.0"}
	e := rundir.Entry{Kind: kind, NameState: vocab.StateUnreadable, DescriptionState: vocab.StatePartial,
		DescriptionRaw: "Columns of .", Holes: holes, File: "index.js", Line: 7, ListedAtRunTime: listed}
	s := &rundir.Surface{Package: ref, Outcome: vocab.OutcomeParsed}
	switch kind {
	case vocab.EntryResource:
		s.Resources = []rundir.Entry{e}
	case vocab.EntryResourceTemplate:
		s.ResourceTemplates = []rundir.Entry{e}
	default:
		e.Name = "query"
		s.Tools = []rundir.Entry{e}
	}
	return s
}

func runtimeHole(filledBy string) rundir.Hole {
	return rundir.Hole{RawOffset: len("Columns of "), File: "index.js", Start: 80, End: 98, Line: 7, Source: "${row.table_name}", FilledBy: filledBy}
}

// A resource listed at run time from the operator's data, whose every hole
// is filled by that data, does not refuse under partial_description; an
// unmarked hole, a mark on another kind of entry, or on a resource not
// listed at run time, refuses as before (methodology §5.4, §9, 2.3.8).
func TestPartialFilledByRuntimeData(t *testing.T) {
	cases := []struct {
		name    string
		surface *rundir.Surface
		refuses bool
	}{
		{"every hole the operator's data", runtimeSurface(vocab.EntryResource, true, runtimeHole(vocab.HoleFilledByRuntimeData), runtimeHole(vocab.HoleFilledByRuntimeData)), false},
		{"one hole unmarked", runtimeSurface(vocab.EntryResource, true, runtimeHole(vocab.HoleFilledByRuntimeData), runtimeHole("")), true},
		{"a client argument's mark on a resource", runtimeSurface(vocab.EntryResource, true, runtimeHole(vocab.HoleFilledByClientArgument)), true},
		{"not listed at run time", runtimeSurface(vocab.EntryResource, false, runtimeHole(vocab.HoleFilledByRuntimeData)), true},
		{"a resource template", runtimeSurface(vocab.EntryResourceTemplate, true, runtimeHole(vocab.HoleFilledByRuntimeData)), true},
		{"a tool description", runtimeSurface(vocab.EntryTool, true, runtimeHole(vocab.HoleFilledByRuntimeData)), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, reasons := Gradeability(nil, c.surface, nil)
			if got := slices.Contains(reasons, vocab.CodePartialDescription); got != c.refuses {
				t.Errorf("partial_description in %v: %v, want %v", reasons, got, c.refuses)
			}
		})
	}
	if holesFilledByRuntimeData(rundir.Entry{Kind: vocab.EntryResource, ListedAtRunTime: true, DescriptionState: vocab.StatePartial}) {
		t.Error("a partial entry without holes is not filled by the operator's data")
	}
}
