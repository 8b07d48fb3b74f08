package corpus

import (
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// PyParam is one parameter text of a Python truth tool (scripts/py_truth.py
// "parameters"): the text a client is sent inside the tool's inputSchema at
// Path, or, when the reader could not tell, Description nil and Unknown the
// reason.
type PyParam struct {
	Path        string  `json:"path"`
	Description *string `json:"description"`
	Unknown     string  `json:"unknown,omitempty"`
}

// Miss kinds of the parameter-text comparison.
const (
	MissParamDiffers       = "param_text_differs"        // both sides have a text at the path, not byte-equal
	MissParamExtractorOnly = "param_text_extractor_only" // the extractor reads a text the truth does not list
	MissParamTruthOnly     = "param_text_truth_only"     // the truth lists a text the extractor does not read
)

// ParamCounts are the parameter-text figures: texts compared byte for byte
// per matched tool, keyed by (tool, path).
type ParamCounts struct {
	Tools         int `json:"tools"` // matched tools whose truth lists its parameter texts
	Equal         int `json:"equal"`
	Differing     int `json:"differing"`
	ExtractorOnly int `json:"extractor_only"`
	TruthOnly     int `json:"truth_only"`
	// texts at a path one side marks not read (the truth's unknown marker,
	// the extractor's unreadable/partial entry): not compared
	UnknownTruth     int `json:"unknown_truth"`
	UnknownExtractor int `json:"unknown_extractor"`
}

// paramPath is a path with the item marks dropped: the extractor writes
// "[]" for a JSON schema's items and not for a pydantic list's model, the
// truth the same; the texts are compared, not the spelling of the path.
func paramPath(p string) string { return strings.ReplaceAll(p, "[]", "") }

// covers reports whether an unread path p hides the text at q: the same
// path, one under it, or the whole schema.
func covers(p, q string) bool {
	return p == "(schema)" || p == q || strings.HasPrefix(q, p+".")
}

// compareParams compares one tool's parameter texts.
func compareParams(pkg, tool string, truth []PyParam, found []rundir.Entry, c *ParamCounts) []Miss {
	var misses []Miss
	c.Tools++
	var truthUnknown, foundUnknown []string
	want := map[string][]string{}
	got := map[string][]string{}
	for _, p := range truth {
		if p.Description == nil {
			truthUnknown = append(truthUnknown, paramPath(p.Path))
			c.UnknownTruth++
			continue
		}
		want[paramPath(p.Path)] = append(want[paramPath(p.Path)], *p.Description)
	}
	for _, e := range found {
		if e.DescriptionState != vocab.StateReadable {
			foundUnknown = append(foundUnknown, paramPath(e.Name))
			c.UnknownExtractor++
			continue
		}
		got[paramPath(e.Name)] = append(got[paramPath(e.Name)], e.DescriptionRaw)
	}
	hidden := func(unread []string, q string) bool {
		for _, p := range unread {
			if covers(p, q) {
				return true
			}
		}
		return false
	}
	paths := map[string]bool{}
	for p := range want {
		paths[p] = true
	}
	for p := range got {
		paths[p] = true
	}
	keys := make([]string, 0, len(paths))
	for p := range paths {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		if hidden(truthUnknown, p) || hidden(foundUnknown, p) {
			continue // one side says it did not read it: not compared
		}
		w, g := append([]string(nil), want[p]...), append([]string(nil), got[p]...)
		var restG []string
		for _, s := range g {
			if i := indexOf(w, s); i >= 0 {
				c.Equal++
				w = append(w[:i], w[i+1:]...)
				continue
			}
			restG = append(restG, s)
		}
		for len(w) > 0 && len(restG) > 0 {
			c.Differing++
			misses = append(misses, Miss{Package: pkg, Kind: MissParamDiffers, Surface: "tool", Name: tool + " " + p, Detail: firstDifference(restG[0], w[0])})
			w, restG = w[1:], restG[1:]
		}
		for _, s := range restG {
			c.ExtractorOnly++
			misses = append(misses, Miss{Package: pkg, Kind: MissParamExtractorOnly, Surface: "tool", Name: tool + " " + p, Detail: s})
		}
		for _, s := range w {
			c.TruthOnly++
			misses = append(misses, Miss{Package: pkg, Kind: MissParamTruthOnly, Surface: "tool", Name: tool + " " + p, Detail: s})
		}
	}
	return misses
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
