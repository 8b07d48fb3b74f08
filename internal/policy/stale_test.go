package policy

import (
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestStaleAdvertisementRefusesNothing: methodology 2.3.4 §5.2. An
// advertised name the extractor recorded as stale (it occurs nowhere in the
// package's source) is not a reason; the same name not marked stale is.
func TestStaleAdvertisementRefusesNothing(t *testing.T) {
	surface := func(stale bool) *rundir.Surface {
		return &rundir.Surface{
			Outcome: "parsed",
			Tools:   []rundir.Entry{{Kind: "tool", Name: "read_note", DescriptionState: "readable", DescriptionRaw: "Read."}},
			AdvertisedTools: []rundir.Advertised{
				{Name: "read_note", Source: "README.md", Line: 3},
				{Name: "retired_tool", Source: "README.md", Line: 4, Stale: stale},
			},
		}
	}
	_, reasons := Gradeability(nil, surface(false), nil)
	if !slices.Contains(reasons, vocab.CodeAdvertisedToolsNotParsed) {
		t.Fatalf("an unparsed advertised name refuses: reasons %v", reasons)
	}
	if b := gateBlocking(vocab.CodeAdvertisedToolsNotParsed, surface(false), nil, nil); b.Detail != "advertised, not parsed: retired_tool" || !slices.Equal(b.Names, []string{"retired_tool"}) {
		t.Errorf("detail %q, names %v", b.Detail, b.Names)
	}
	stale := surface(false)
	stale.AdvertisedTools = append(stale.AdvertisedTools, rundir.Advertised{Name: "old_one", Source: "README.md", Line: 5, Stale: true})
	if b := gateBlocking(vocab.CodeAdvertisedToolsNotParsed, stale, nil, nil); slices.Contains(b.Names, "old_one") {
		t.Errorf("a stale name is named in the refusal: %v", b.Names)
	}
	_, reasons = Gradeability(nil, surface(true), nil)
	if slices.Contains(reasons, vocab.CodeAdvertisedToolsNotParsed) {
		t.Fatalf("a stale advertisement refuses nothing: reasons %v", reasons)
	}
}
