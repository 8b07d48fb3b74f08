package corpus

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// TestEvaluateOffByDefault: an entry off by default is compared as not
// listed, unless its reading depends on a variable the probe's environment
// set or an option among the truth's args; then it is compared as listed. An
// off-by-default tool the running server lists anyway is a recall miss.
func TestEvaluateOffByDefault(t *testing.T) {
	ok := map[string]ListStatus{"tools/list": {Status: ListOK}}
	off := []rundir.Condition{{Test: "t", When: true, Holds: rundir.HoldsFalse}}
	tool := func(name string, conds []rundir.Condition, reads ...rundir.ConfigRead) rundir.Entry {
		return rundir.Entry{Kind: "tool", Name: name, DescriptionState: "readable", Conditions: conds, Configuration: reads}
	}
	env := func(n string) rundir.ConfigRead { return rundir.ConfigRead{Source: "env", Name: n} }
	cli := func(n string) rundir.ConfigRead { return rundir.ConfigRead{Source: "cli", Name: n} }
	truths := []Truth{
		{Name: "p", Version: "1", Started: true, Lists: ok, Args: []string{"--all=yes"}, ExtraEnv: []string{"MY_KEY"},
			Tools: []ToolTruth{{Name: "on"}, {Name: "by_key"}, {Name: "by_dummy"}, {Name: "by_flag"}, {Name: "wrongly_off"}}},
	}
	surfaces := map[string]rundir.Surface{"p@1": {Outcome: "parsed", Tools: []rundir.Entry{
		tool("on", nil),
		tool("by_key", off, env("MY_KEY")),
		tool("by_dummy", off, env("GITHUB_TOKEN")),
		tool("by_flag", off, cli("--all")),
		tool("wrongly_off", off, env("NOT_SET_BY_THE_PROBE")),
		tool("gated", off, env("ADMIN_ENABLED"), cli("--admin")),
	}}}
	r := Evaluate(truths, surfaces)
	c := r.Names["tool"]
	if c.Truth != 5 || c.Found != 4 || c.Matched != 4 {
		t.Fatalf("tool counts %+v, want truth 5, found 4, matched 4", c)
	}
	var missing []string
	for _, m := range r.Misses {
		missing = append(missing, m.Kind+" "+m.Name)
	}
	if len(missing) != 1 || missing[0] != MissMissingName+" wrongly_off" {
		t.Errorf("misses %v, want only the tool compared as off that the server lists", missing)
	}
}

// TestEvaluateUnreachable: an entry marked unreachable is compared as not
// listed, as the manifest leaves it out: an unreachable tool the running
// server does not list is no extra, and one it lists is a recall miss.
func TestEvaluateUnreachable(t *testing.T) {
	ok := map[string]ListStatus{"tools/list": {Status: ListOK}}
	truths := []Truth{{Name: "p", Version: "1", Started: true, Lists: ok, Tools: []ToolTruth{{Name: "on"}, {Name: "wrongly_marked"}}}}
	surfaces := map[string]rundir.Surface{"p@1": {Outcome: "parsed", Tools: []rundir.Entry{
		{Kind: "tool", Name: "on", DescriptionState: "readable"},
		{Kind: "tool", Name: "library_export", DescriptionState: "readable", Unreachable: true},
		{Kind: "tool", Name: "wrongly_marked", DescriptionState: "readable", Unreachable: true},
	}}}
	r := Evaluate(truths, surfaces)
	c := r.Names["tool"]
	if c.Truth != 2 || c.Found != 1 || c.Matched != 1 {
		t.Fatalf("tool counts %+v, want truth 2, found 1, matched 1", c)
	}
	var missing []string
	for _, m := range r.Misses {
		missing = append(missing, m.Kind+" "+m.Name)
	}
	if len(missing) != 1 || missing[0] != MissMissingName+" wrongly_marked" {
		t.Errorf("misses %v, want only the unreachable tool the server lists", missing)
	}
}
