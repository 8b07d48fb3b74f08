package corpus

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// TestEvaluateParams: a matched tool's parameter texts are compared as
// multisets by text; a tool with a text not read is not compared, and a tool
// the server does not list contributes nothing.
func TestEvaluateParams(t *testing.T) {
	pd := func(tool, name, state, text string) rundir.Entry {
		return rundir.Entry{Kind: "parameter_description", Parent: tool, Name: name, DescriptionState: state, DescriptionRaw: text}
	}
	tr := started("p",
		ToolTruth{Name: "read", Description: "r", ParamDescriptions: []ParamTruth{
			{Pointer: "/properties/path", Description: "The path."},
			{Pointer: "/properties/description", Description: "Short summary."},
			{Pointer: "/properties/mode", Description: "Mode."},
			{Pointer: "/properties/again", Description: "The path."},
		}},
		ToolTruth{Name: "write", Description: "w", ParamDescriptions: []ParamTruth{{Pointer: "/properties/x", Description: "X."}, {Pointer: "/properties/y", Description: "Y."}}},
		ToolTruth{Name: "noop", Description: "n"},
	)
	s := rundir.Surface{Outcome: "parsed",
		Tools: []rundir.Entry{entry("read", "readable", "r"), entry("write", "readable", "w"), entry("noop", "readable", "n"), entry("extra", "readable", "e")},
		ParameterDescriptions: []rundir.Entry{
			pd("read", "path", "readable", "The path."),
			pd("read", "description", "readable", "Short summary."),
			pd("read", "again", "readable", "Another text."), // the truth's second "The path." is not read: truth only, and this is extractor only
			pd("read", "flag", "absent", ""),
			pd("write", "x", "readable", "X."),
			pd("write", "(schema)", "unreadable", ""), // write is not compared
			pd("extra", "z", "readable", "Z."),        // a tool the server does not list: nothing
			pd("noop", "q", "readable", "Q."),         // the server sends no text for noop: extractor only
		},
	}
	r := Evaluate([]Truth{tr}, map[string]rundir.Surface{"p@1.0.0": s})
	want := NpmParamCounts{Tools: 2, ToolsNotRead: 1, Equal: 2, TruthOnly: 2, ExtractorOnly: 2, TruthNotRead: 2}
	if r.Params != want {
		t.Fatalf("params = %+v, want %+v", r.Params, want)
	}
	kinds := map[string]int{}
	for _, m := range r.Misses {
		kinds[m.Kind]++
	}
	if kinds[MissParamTruthOnly] != 2 || kinds[MissParamExtractorOnly] != 2 {
		t.Errorf("misses = %+v", r.Misses)
	}
	md := r.Markdown()
	if !strings.Contains(md, "parameter texts of 2 matched tools: equal / sent by the server only / read by the extractor only | 2 / 2 / 2") ||
		!strings.Contains(md, "| 1 (2) |") {
		t.Errorf("markdown lacks the parameter rows:\n%s", md)
	}
}

func TestClipRunes(t *testing.T) {
	if got := clipRunes("héllo wörld", 5); got != "héllo…" {
		t.Errorf("clipRunes = %q", got)
	}
	if got := clipRunes("abc", 5); got != "abc" {
		t.Errorf("clipRunes = %q", got)
	}
}
