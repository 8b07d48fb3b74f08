package policy

import (
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// holesFilledByRuntimeData reports whether e is a resource entry a
// resources/list handler lists from the operator's own data at run time
// (listed_at_run_time) whose every hole the extractor recorded as filled by
// that data (methodology §5.3, §5.4 and §9, 2.3.8). Such an entry is partial,
// its literal segments are examined like any other, and it does not refuse
// the grade under partial_description: the bytes of its holes are the
// operator's tables and files, returned by an I/O call while the request is
// answered, not the publisher's. A hole without that mark, the mark on an
// entry of another kind, or on an entry not listed at run time, refuses as
// before.
func holesFilledByRuntimeData(e rundir.Entry) bool {
	if e.Kind != vocab.EntryResource || !e.ListedAtRunTime || e.DescriptionState != vocab.StatePartial || len(e.Holes) == 0 {
		return false
	}
	for _, h := range e.Holes {
		if h.FilledBy != vocab.HoleFilledByRuntimeData {
			return false
		}
	}
	return true
}
