package corpus

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// TestEvaluateStaleAndReach: the checks that make the two 2.3.4 rules safe
// are counted from the runtime list, not from the rows' own claims: a stale
// name the server lists, a package let through whose server lists an unread
// tool, and an unreachable tool the server lists are each reported; a name
// with a reachable twin entry is not unreachable.
func TestEvaluateStaleAndReach(t *testing.T) {
	ok := map[string]ListStatus{"tools/list": {Status: ListOK}}
	truth := func(name string, tools ...string) Truth {
		tr := Truth{Name: name, Version: "1", Started: true, Lists: ok}
		for _, n := range tools {
			tr.Tools = append(tr.Tools, ToolTruth{Name: n})
		}
		return tr
	}
	tool := func(name string, unreachable bool) rundir.Entry {
		return rundir.Entry{Kind: "tool", Name: name, DescriptionState: "readable", Unreachable: unreachable}
	}
	truths := []Truth{
		truth("clean", "a"),             // stale name not listed: let through, nothing missing
		truth("stale-listed", "a", "b"), // b is stale yet listed: a violation, and b is missing
		truth("still-refused", "a"),     // one stale name, one that occurs: still refused
		truth("reach", "a", "twin"),     // dead not listed; twin has a reachable entry
		truth("reach-listed", "a", "c"), // c unreachable yet listed: a violation
	}
	surfaces := map[string]rundir.Surface{
		"clean@1": {Outcome: "parsed", Tools: []rundir.Entry{tool("a", false)},
			AdvertisedTools: []rundir.Advertised{{Name: "old", Stale: true}}},
		"stale-listed@1": {Outcome: "parsed", Tools: []rundir.Entry{tool("a", false)},
			AdvertisedTools: []rundir.Advertised{{Name: "b", Stale: true}}},
		"still-refused@1": {Outcome: "parsed", Tools: []rundir.Entry{tool("a", false)},
			AdvertisedTools: []rundir.Advertised{{Name: "old", Stale: true}, {Name: "query"}}},
		"reach@1":        {Outcome: "parsed", Tools: []rundir.Entry{tool("a", false), tool("dead", true), tool("twin", true), tool("twin", false)}},
		"reach-listed@1": {Outcome: "parsed", Tools: []rundir.Entry{tool("a", false), tool("c", true)}},
	}
	f := EvaluateStaleAndReach(truths, surfaces)
	if f.StaleNames != 3 || len(f.StaleListed) != 1 || f.StaleListed[0].Package != "stale-listed@1" || f.StaleListed[0].Name != "b" {
		t.Errorf("stale: %d names, listed %+v", f.StaleNames, f.StaleListed)
	}
	if len(f.LetThrough) != 2 || f.LetThrough[0] != "clean@1" || f.LetThrough[1] != "stale-listed@1" {
		t.Errorf("let through %v", f.LetThrough)
	}
	if len(f.LetThroughMissing) != 1 || f.LetThroughMissing[0].Name != "b" {
		t.Errorf("let through with a missing tool %+v", f.LetThroughMissing)
	}
	if f.UnreachableTools != 2 || f.UnreachableExtras != 1 || len(f.UnreachableListed) != 1 || f.UnreachableListed[0].Name != "c" {
		t.Errorf("unreachable %d, extras %d, listed %+v", f.UnreachableTools, f.UnreachableExtras, f.UnreachableListed)
	}
	if f.Extras != 1 {
		t.Errorf("extras %d, want 1 (dead)", f.Extras)
	}
}
