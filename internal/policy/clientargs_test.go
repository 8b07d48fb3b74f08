package policy

import (
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// clientSurface is a parsed surface with one prompt whose message text has
// the given holes.
func clientSurface(kind string, holes ...rundir.Hole) *rundir.Surface {
	ref := rundir.PackageRef{Registry: "npm", Name: "client-args", Version: "1.0.0"}
	text := rundir.Entry{Kind: kind, Name: "messages[0]", Parent: "research", DescriptionState: vocab.StatePartial,
		DescriptionRaw: "Research  now.", Holes: holes, File: "index.js", Line: 3}
	s := &rundir.Surface{Package: ref, Outcome: vocab.OutcomeParsed,
		Prompts: []rundir.Entry{{Kind: "prompt", Name: "research", DescriptionState: vocab.StateReadable, DescriptionRaw: "Research."}}}
	if kind == "prompt_text" {
		s.PromptTexts = []rundir.Entry{text}
	} else {
		text.Name = "research_tool"
		s.Tools = []rundir.Entry{text}
	}
	return s
}

func clientHole(filledBy string) rundir.Hole {
	return rundir.Hole{RawOffset: len("Research "), File: "index.js", Start: 40, End: 48, Line: 3, Source: "${topic}", FilledBy: filledBy}
}

// A prompt's message text whose every hole is filled by the client's own
// argument does not refuse under partial_description; one hole the
// extractor did not mark, or the mark on an entry that is not a prompt's
// message text, refuses as before (methodology §5.4, §9, 2.3.7).
func TestPartialFilledByClient(t *testing.T) {
	cases := []struct {
		name    string
		surface *rundir.Surface
		refuses bool
	}{
		{"every hole the client's", clientSurface("prompt_text", clientHole(vocab.HoleFilledByClientArgument), clientHole(vocab.HoleFilledByClientArgument)), false},
		{"one hole unmarked", clientSurface("prompt_text", clientHole(vocab.HoleFilledByClientArgument), clientHole("")), true},
		{"an unknown mark", clientSurface("prompt_text", clientHole("publisher")), true},
		{"a tool description", clientSurface("tool", clientHole(vocab.HoleFilledByClientArgument)), true},
		// 2.3.8: the client's hole with the package's fallback, and the
		// mark where one of the package's alternatives begins.
		{"the client's and the package's alternatives", clientSurface("prompt_text", clientHole(vocab.HoleFilledByClientArgument), clientHole(vocab.HoleFilledByPackageAlternative)), false},
		{"alternatives beside an unmarked hole", clientSurface("prompt_text", clientHole(vocab.HoleFilledByPackageAlternative), clientHole("")), true},
		{"alternatives in a tool description", clientSurface("tool", clientHole(vocab.HoleFilledByPackageAlternative)), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, reasons := Gradeability(nil, c.surface, nil)
			if got := slices.Contains(reasons, vocab.CodePartialDescription); got != c.refuses {
				t.Errorf("partial_description in %v: %v, want %v", reasons, got, c.refuses)
			}
		})
	}
	if holesFilledByClient(rundir.Entry{Kind: "prompt_text", DescriptionState: vocab.StatePartial}) {
		t.Error("a partial entry without holes is not filled by the client")
	}
}
