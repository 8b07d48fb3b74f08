package analyzer_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
)

func answer(entries []analyzer.EntryReport, props ...analyzer.Proposal) analyzer.SampleAnswer {
	return analyzer.SampleAnswer{Response: analyzer.Response{Analyzer: "x", Model: "m", StopReason: "tool_use",
		Proposals: props, Entries: entries, Usage: analyzer.Usage{Calls: 1, InputTokens: 10, OutputTokens: 2}}}
}

func TestVoteMOfK(t *testing.T) {
	a := analyzer.Proposal{EntryID: "e1", Quote: "send the key", Category: analyzer.CategoryExfiltrate, Rationale: "first"}
	a2 := a
	a2.Rationale = "second"
	b := analyzer.Proposal{EntryID: "e1", Quote: "do not tell", Category: analyzer.CategoryConceal}
	bOther := b
	bOther.Category = analyzer.CategoryOverride // same quote, another category: another proposal
	both := []analyzer.EntryReport{{EntryID: "e1", RoutingGuidance: 2}, {EntryID: "e2", RoutingGuidance: 0}}
	onlyE1 := []analyzer.EntryReport{{EntryID: "e1", RoutingGuidance: 5}}
	answers := []analyzer.SampleAnswer{
		answer(both, a, b, a), // a twice in one answer counts once
		answer(onlyE1, a2, bOther),
		answer([]analyzer.EntryReport{{EntryID: "e2"}, {EntryID: "e1", RoutingGuidance: 1}}, b),
	}
	for m, want := range map[int][]analyzer.Proposal{1: {a, b, bOther}, 2: {a, b}, 3: {}} {
		resp, err := analyzer.Vote(answers, m)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(resp.Proposals) != fmt.Sprint(want) {
			t.Errorf("%d of 3: %v, want %v", m, resp.Proposals, want)
		}
		// e2 is missing from the second answer, so it is not read; e1's
		// routing count is the median of 2, 5 and 1.
		if fmt.Sprint(resp.Entries) != fmt.Sprint([]analyzer.EntryReport{{EntryID: "e1", RoutingGuidance: 2}}) {
			t.Errorf("%d of 3: entries %v", m, resp.Entries)
		}
		if resp.Usage != (analyzer.Usage{Calls: 3, InputTokens: 30, OutputTokens: 6}) || resp.Model != "m" {
			t.Errorf("usage %+v model %q", resp.Usage, resp.Model)
		}
	}
	failed := append(append([]analyzer.SampleAnswer{}, answers[:2]...), analyzer.SampleAnswer{Err: fmt.Errorf("x: %w", analyzer.ErrRefused)})
	if _, err := analyzer.Vote(failed, 1); !errors.Is(err, analyzer.ErrRefused) {
		t.Fatalf("a failed sample must fail the vote, got %v", err)
	}
	for _, bad := range [][2]int{{0, 3}, {4, 3}, {1, 0}} {
		if err := analyzer.CheckVote(bad[0], bad[1]); !errors.Is(err, analyzer.ErrVote) {
			t.Errorf("%d of %d accepted", bad[0], bad[1])
		}
	}
}

// scriptedInner answers its n-th call with script[n-1].
type scriptedInner struct {
	calls  int
	script []analyzer.SampleAnswer
}

func (s *scriptedInner) ID() string { return "scriptedInner:1" }
func (s *scriptedInner) Analyze(ctx context.Context, req analyzer.Request) (analyzer.Response, error) {
	a := s.script[s.calls]
	s.calls++
	return a.Response, a.Err
}

func TestVotingAnalyzer(t *testing.T) {
	p := analyzer.Proposal{EntryID: "e1", Quote: "q", Category: analyzer.CategoryOverride}
	e := []analyzer.EntryReport{{EntryID: "e1"}}
	inner := &scriptedInner{script: []analyzer.SampleAnswer{answer(e, p), answer(e), answer(e, p), answer(e, p)}}
	v, err := analyzer.NewVoting(inner, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if v.ID() != "scriptedInner:1;vote=2/3" {
		t.Fatalf("id %q", v.ID())
	}
	resp, err := v.Analyze(context.Background(), analyzer.Request{})
	if err != nil || inner.calls != 3 || len(resp.Proposals) != 1 || resp.Analyzer != v.ID() {
		t.Fatalf("calls %d, %+v, %v", inner.calls, resp, err)
	}
	// A failure stops sampling and fails the batch, with the usage spent.
	inner = &scriptedInner{script: []analyzer.SampleAnswer{answer(e, p), {Err: fmt.Errorf("x: %w", analyzer.ErrTruncated), Response: analyzer.Response{Usage: analyzer.Usage{Calls: 2}}}, answer(e, p)}}
	v, _ = analyzer.NewVoting(inner, 1, 3)
	resp, err = v.Analyze(context.Background(), analyzer.Request{})
	if !errors.Is(err, analyzer.ErrTruncated) || inner.calls != 2 || resp.Usage.Calls != 3 {
		t.Fatalf("calls %d, usage %+v, %v", inner.calls, resp.Usage, err)
	}
}

func TestVotingFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	an, err := analyzer.New(analyzer.NameOffline, env(map[string]string{analyzer.EnvSamples: "4", analyzer.EnvMinAgree: "3"}))
	if err != nil || an.ID() != analyzer.VoteID(analyzer.NewOffline().ID(), 3, 4) {
		t.Fatalf("%v %v", an, err)
	}
	an, err = analyzer.New(analyzer.NameOffline, env(map[string]string{analyzer.EnvSamples: "1"}))
	if err != nil || an.ID() != analyzer.NewOffline().ID() {
		t.Fatalf("one sample must be the analyzer itself: %v %v", an, err)
	}
	if _, err := analyzer.New(analyzer.NameOffline, env(map[string]string{analyzer.EnvSamples: "4"})); err == nil {
		t.Fatal("K samples without m accepted")
	}
	if _, err := analyzer.New(analyzer.NameOffline, env(map[string]string{analyzer.EnvSamples: "2", analyzer.EnvMinAgree: "3"})); !errors.Is(err, analyzer.ErrVote) {
		t.Fatalf("3 of 2 accepted: %v", err)
	}
	if an, err := analyzer.New(analyzer.NameNone, env(map[string]string{analyzer.EnvSamples: "4", analyzer.EnvMinAgree: "3"})); an != nil || err != nil {
		t.Fatalf("none stays none: %v %v", an, err)
	}
}
