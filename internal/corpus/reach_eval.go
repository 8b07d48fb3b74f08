package corpus

import (
	"fmt"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// StaleReachFigures checks two readings of methodology §5.2 against the
// runtime lists, over servers that started and listed their tools:
//
//   - a stale advertisement (an advertised name that occurs nowhere in the
//     package's source) refuses nothing, so it must never be a name the
//     running server lists, and it must never let a package through whose
//     running server lists a tool the extractor did not find;
//   - an entry registered in a module no entry point loads is recorded as
//     unreachable, so no unreachable tool may be one the running server
//     lists, before such a tool could be left out of anything.
type StaleReachFigures struct {
	StaleNames int `json:"stale_names"`
	// StaleListed are stale names the running server lists: each is a
	// tool the rule would have let through unread. Must be empty.
	StaleListed []Miss `json:"stale_listed"`
	// LetThrough are packages the advertised-tools rule refused before and
	// does not refuse now, because every name it refused on is stale.
	LetThrough []string `json:"let_through"`
	// LetThroughMissing are those among LetThrough whose running server
	// lists a tool that is not a parsed tool. Must be empty.
	LetThroughMissing []Miss `json:"let_through_missing"`

	// UnreachableTools counts tool names on parsed packages whose every
	// entry is marked unreachable; UnreachableListed lists those the running server lists
	// (must be empty for the rule to leave them out of a manifest), and
	// UnreachableExtras those it does not (the precision misses they
	// explain).
	UnreachableTools  int    `json:"unreachable_tools"`
	UnreachableListed []Miss `json:"unreachable_listed"`
	UnreachableExtras int    `json:"unreachable_extras"`
	// Extras counts every parsed tool the running server does not list.
	Extras int `json:"extras"`
	// Undetermined counts packages with an entry outside the import closure
	// whose closure is open (a module named at run time), so nothing was
	// marked.
	Undetermined int      `json:"undetermined"`
	Detail       []string `json:"detail"`
}

// EvaluateStaleAndReach computes StaleReachFigures.
func EvaluateStaleAndReach(truths []Truth, surfaces map[string]rundir.Surface) StaleReachFigures {
	f := StaleReachFigures{StaleListed: []Miss{}, LetThrough: []string{}, LetThroughMissing: []Miss{}, UnreachableListed: []Miss{}, Detail: []string{}}
	sorted := append([]Truth(nil), truths...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key() < sorted[j].Key() })
	for _, t := range sorted {
		if !t.Started || t.Lists["tools/list"].Status != ListOK {
			continue
		}
		s, ok := surfaces[SurfaceKey(t.Name, t.Version)]
		if !ok {
			continue
		}
		runtime := map[string]bool{}
		for _, tt := range t.Tools {
			runtime[tt.Name] = true
		}
		parsed := map[string]bool{}
		for _, e := range s.Tools {
			if e.NameState == "" || e.NameState == vocab.StateReadable {
				parsed[e.Name] = true
			}
		}
		refusedBefore, refusedNow := false, false
		for _, ad := range s.AdvertisedTools {
			if parsed[ad.Name] {
				continue
			}
			refusedBefore = true
			if !ad.Stale {
				refusedNow = true
				continue
			}
			f.StaleNames++
			if runtime[ad.Name] {
				f.StaleListed = append(f.StaleListed, Miss{Package: t.Key(), Kind: "stale_listed", Surface: "tool", Name: ad.Name, Detail: ad.Source})
			}
		}
		if refusedBefore && !refusedNow {
			f.LetThrough = append(f.LetThrough, t.Key())
			for _, tt := range t.Tools {
				if !parsed[tt.Name] {
					f.LetThroughMissing = append(f.LetThroughMissing, Miss{Package: t.Key(), Kind: "let_through_missing", Surface: "tool", Name: tt.Name})
				}
			}
		}
		if s.Reach != nil && len(s.Reach.Undetermined) > 0 {
			f.Undetermined++
		}
		if s.Outcome != vocab.OutcomeParsed {
			continue
		}
		// A name is unreachable when every entry of that name is: a tool
		// registered in two modules (an ESM and a CommonJS build of one
		// server) is reachable when either is.
		reachable := map[string]bool{}
		for _, e := range s.Tools {
			if !e.Unreachable {
				reachable[e.Name] = true
			}
		}
		counted := map[string]bool{}
		for _, e := range s.Tools {
			if counted[e.Name] || (e.NameState != "" && e.NameState != vocab.StateReadable) {
				continue
			}
			counted[e.Name] = true
			extra := !runtime[e.Name]
			if extra {
				f.Extras++
			}
			if reachable[e.Name] {
				continue
			}
			f.UnreachableTools++
			if !extra {
				f.UnreachableListed = append(f.UnreachableListed, Miss{Package: t.Key(), Kind: "unreachable_listed", Surface: "tool", Name: e.Name, Detail: fmt.Sprintf("%s:%d", e.File, e.Line)})
				continue
			}
			f.UnreachableExtras++
			f.Detail = append(f.Detail, fmt.Sprintf("%s: %s (%s:%d)", t.Key(), e.Name, e.File, e.Line))
		}
	}
	return f
}

// Markdown renders the figures as a section of the corpus report.
func (f StaleReachFigures) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Stale advertisements (names that occur nowhere in the package's source; they refuse nothing): %d names; "+
		"listed by the running server: %d; packages the rule no longer refuses: %d (%s), of which with a runtime tool the extractor did not find: %d.\n\n",
		f.StaleNames, len(f.StaleListed), len(f.LetThrough), strings.Join(f.LetThrough, ", "), len(f.LetThroughMissing))
	for _, m := range append(append([]Miss{}, f.StaleListed...), f.LetThroughMissing...) {
		fmt.Fprintf(&b, "- **%s** %s: %s %s\n", m.Kind, m.Package, m.Name, m.Detail)
	}
	fmt.Fprintf(&b, "Reachability from the entry points, parsed packages: %d tools registered in modules no entry point loads, "+
		"of which listed by the running server: %d; they account for %d of the %d tools the running servers do not list. "+
		"Packages whose closure is open (a module named at run time), so nothing is marked: %d.\n\n",
		f.UnreachableTools, len(f.UnreachableListed), f.UnreachableExtras, f.Extras, f.Undetermined)
	for _, m := range f.UnreachableListed {
		fmt.Fprintf(&b, "- **listed but unreachable** %s: %s (%s)\n", m.Package, m.Name, m.Detail)
	}
	for _, d := range f.Detail {
		fmt.Fprintf(&b, "- unreachable, not listed: %s\n", d)
	}
	if len(f.UnreachableListed)+len(f.Detail) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}
