package policy

import (
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// holesFilledByClient reports whether e is a prompt's message text whose
// every hole the extractor recorded as filled by the client's own prompt
// argument (methodology §5.4 and §9, 2.3.7). Such an entry is partial, its
// literal segments are examined like any other, and it does not refuse the
// grade under partial_description: the bytes of its holes are the user's,
// not the publisher's, so nothing the publisher wrote was left unread. Any
// other partial entry, or a hole without that mark, refuses as before.
func holesFilledByClient(e rundir.Entry) bool {
	if e.Kind != vocab.EntryPromptText || e.DescriptionState != vocab.StatePartial || len(e.Holes) == 0 {
		return false
	}
	for _, h := range e.Holes {
		if h.FilledBy != vocab.HoleFilledByClientArgument {
			return false
		}
	}
	return true
}
