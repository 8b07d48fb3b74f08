package policy

import (
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// holesFilledByClient reports whether e is a prompt's message text whose
// every hole the extractor recorded as filled by the client's own prompt
// argument (methodology §5.4 and §9, 2.3.7) or as the mark where one of the
// package's own alternatives begins (2.3.8: a fallback or a choice the
// package writes around the argument, each alternative read and examined in
// place). Such an entry is partial, its literal segments are examined like
// any other, and it does not refuse the grade under partial_description: the
// bytes of its holes are the user's, or none, so nothing the publisher wrote
// was left unread. Any other partial entry, or a hole without one of these
// marks, refuses as before.
func holesFilledByClient(e rundir.Entry) bool {
	if e.Kind != vocab.EntryPromptText || e.DescriptionState != vocab.StatePartial || len(e.Holes) == 0 {
		return false
	}
	for _, h := range e.Holes {
		switch h.FilledBy {
		case vocab.HoleFilledByClientArgument, vocab.HoleFilledByPackageAlternative:
		default:
			return false
		}
	}
	return true
}
