package surface

import (
	"math/rand"
	"testing"
)

// naiveLookup is the plain walk over parent links that lookup must agree with.
func naiveLookup(e *env, s scopeRef) *env {
	for x := e; x != nil; x = x.parent {
		if x.scope == s {
			return x
		}
	}
	return nil
}

// TestEnvLookupSkip builds random persistent chains (frames pushed on any
// earlier frame, scopes drawn from a few, in runs of one scope and in
// alternation) and checks that lookup finds, for every frame and every
// scope, the same frame as the walk over parent links, including misses.
func TestEnvLookupSkip(t *testing.T) {
	f1, f2 := &file{path: "a.py"}, &file{path: "b.py"}
	scopes := []scopeRef{{f1, 1}, {f1, 2}, {f2, 1}, {f2, 7}, {f1, 9}}
	missing := scopeRef{f2, 2}
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 50; round++ {
		frames := []*env{nil}
		for i := 0; i < 400; i++ {
			parent := frames[len(frames)-1]
			if rng.Intn(4) == 0 {
				parent = frames[rng.Intn(len(frames))] // a branch of the persistent chain
			}
			s := scopes[rng.Intn(len(scopes))]
			if parent != nil && rng.Intn(3) > 0 {
				s = parent.scope // a run of one scope
			}
			frames = append(frames, parent.push(env{scope: s}))
		}
		for _, e := range frames {
			for _, s := range append(scopes, missing) {
				if got, want := e.lookup(s), naiveLookup(e, s); got != want {
					t.Fatalf("round %d: lookup(%v) from depth %d = %p, the walk finds %p", round, s, depthOf(e), got, want)
				}
			}
		}
	}
}

// TestEnvLookupDeepRun is the chain that made lookup quadratic: thousands of
// frames of one scope over frames of others. A lookup of a bottom scope or
// of a scope not in the chain crosses the run in one skip.
func TestEnvLookupDeepRun(t *testing.T) {
	f := &file{path: "a.py"}
	bottom, run, missing := scopeRef{f, 1}, scopeRef{f, 2}, scopeRef{f, 3}
	e := (*env)(nil).push(env{scope: bottom})
	base := e
	for i := 0; i < 5000; i++ {
		e = e.push(env{scope: run})
	}
	if e.lookup(bottom) != base {
		t.Fatal("lookup of the bottom scope did not find the bottom frame")
	}
	if e.lookup(run) != e {
		t.Fatal("lookup of the top scope did not find the top frame")
	}
	if e.lookup(missing) != nil {
		t.Fatal("lookup of a scope not in the chain found a frame")
	}
	if e.skip != base {
		t.Fatalf("the top frame's skip is not the frame under the run")
	}
}

func depthOf(e *env) int {
	if e == nil {
		return -1
	}
	return e.depth
}
