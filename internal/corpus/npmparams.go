package corpus

import (
	"maps"
	"slices"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// NpmParamCounts are the npm corpus's parameter-text figures: for each tool
// the extractor and the running server both name, the texts of its input
// schema (the truth's parameter_descriptions, the extractor's
// parameter_description entries of that tool) compared byte for byte as
// multisets. The truth addresses a text by its JSON pointer and the extractor
// by a parameter path, so the two are matched by text, not by place: a text
// both list once is equal wherever each puts it. A tool with a parameter text
// the extractor did not read (an entry unreadable or partial, such as the
// `(schema)` entry of a schema not read) is not compared: nothing says which
// of the truth's texts that place holds.
type NpmParamCounts struct {
	Tools         int `json:"tools"`          // matched tools compared
	ToolsNotRead  int `json:"tools_not_read"` // matched tools with a text not read: not compared
	Equal         int `json:"equal"`          // texts both sides list
	TruthOnly     int `json:"truth_only"`     // texts the server sends that the extractor did not read
	ExtractorOnly int `json:"extractor_only"` // texts the extractor reads that the server does not send
	TruthNotRead  int `json:"truth_not_read"` // the truth's texts of tools not compared
}

// compareParams compares one matched tool's parameter texts and records the
// texts on one side only as misses.
func (r *Report) compareParams(pkg, tool string, truth []ParamTruth, found []rundir.Entry) {
	c := &r.Params
	counts := map[string]int{}
	for _, e := range found {
		if e.Parent != tool {
			continue
		}
		if e.DescriptionState != vocab.StateReadable {
			if e.DescriptionState == vocab.StateAbsent {
				continue
			}
			c.ToolsNotRead++
			c.TruthNotRead += len(truth)
			return
		}
		counts[e.DescriptionRaw]++
	}
	c.Tools++
	var truthOnly []string
	for _, p := range truth {
		if counts[p.Description] > 0 {
			counts[p.Description]--
			c.Equal++
			continue
		}
		c.TruthOnly++
		truthOnly = append(truthOnly, p.Pointer)
	}
	for _, p := range truthOnly {
		r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissParamTruthOnly, Surface: "tool", Name: tool, Detail: p})
	}
	for _, text := range slices.Sorted(maps.Keys(counts)) {
		for range counts[text] {
			c.ExtractorOnly++
			r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissParamExtractorOnly, Surface: "tool", Name: tool, Detail: clipRunes(text, 60)})
		}
	}
}

// clipRunes is s cut to at most n runes, marked when cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
