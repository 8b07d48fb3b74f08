package analyzer

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// Sampling (docs/methodology.md §18, docs/model-check.md "Samples"). A model
// asked the same question twice may answer differently. A production run
// uses one of two configurations, each a different analyzer with its own id,
// admitted on its own figures:
//
//   - one sample: the analyzer as configured (its id, e.g. "anthropic:<model>");
//   - m of K: every batch is asked K times, and a proposal is kept only when
//     at least m of the K answers propose it (id "<inner id>;vote=<m>/<K>").
//
// Vote is the rule; Voting applies it to a live analyzer, and the evaluation
// harness applies it to recorded answers, so both give the same proposals.

// SampleAnswer is one of the K answers to a batch: a response, or the error
// the call returned.
type SampleAnswer struct {
	Response Response
	Err      error
}

// ErrVote classifies an invalid m-of-K configuration.
var ErrVote = errors.New("analyzer: invalid vote")

// VoteID is the id of the m-of-K configuration of the analyzer inner.
func VoteID(inner string, m, k int) string {
	return fmt.Sprintf("%s;vote=%d/%d", inner, m, k)
}

// CheckVote validates an m-of-K configuration: 1 <= m <= K.
func CheckVote(m, k int) error {
	if k < 1 || m < 1 || m > k {
		return fmt.Errorf("%w: %d of %d (want 1 <= m <= K)", ErrVote, m, k)
	}
	return nil
}

// Vote combines the K answers to one batch under the m-of-K rule:
//
//   - a proposal (entry id, quote and category, byte for byte) is kept when
//     at least m answers propose it, in the order it first appears, with the
//     rationale of the first answer that gave it; an answer proposing it
//     twice counts once;
//   - an entry counts as read only when every answer reports it (otherwise
//     the check records it as not analysed), with the lower median of the K
//     routing-guidance counts;
//   - if any answer failed, the batch fails with the first failure (fail
//     closed: a vote over fewer than K answers is not the configuration that
//     was admitted);
//   - usage is the sum of the K calls; model and stop reason are the first
//     answer's.
func Vote(answers []SampleAnswer, m int) (Response, error) {
	var out Response
	for _, a := range answers {
		out.Usage.Calls += a.Response.Usage.Calls
		out.Usage.InputTokens += a.Response.Usage.InputTokens
		out.Usage.OutputTokens += a.Response.Usage.OutputTokens
	}
	if err := CheckVote(m, len(answers)); err != nil {
		return out, err
	}
	out.Analyzer = answers[0].Response.Analyzer
	out.Model = answers[0].Response.Model
	out.StopReason = answers[0].Response.StopReason
	for _, a := range answers {
		if a.Err != nil {
			return out, a.Err
		}
	}
	type pkey struct{ entry, quote, category string }
	votes := map[pkey]int{}
	var order []pkey
	first := map[pkey]Proposal{}
	routing := map[string][]int{}
	var entryOrder []string
	for _, a := range answers {
		seen := map[pkey]bool{}
		for _, p := range a.Response.Proposals {
			k := pkey{p.EntryID, p.Quote, p.Category}
			if seen[k] {
				continue
			}
			seen[k] = true
			if votes[k] == 0 {
				order = append(order, k)
				first[k] = p
			}
			votes[k]++
		}
		reported := map[string]bool{}
		for _, r := range a.Response.Entries {
			if reported[r.EntryID] {
				continue
			}
			reported[r.EntryID] = true
			if _, ok := routing[r.EntryID]; !ok {
				entryOrder = append(entryOrder, r.EntryID)
			}
			routing[r.EntryID] = append(routing[r.EntryID], r.RoutingGuidance)
		}
	}
	out.Proposals = []Proposal{}
	for _, k := range order {
		if votes[k] >= m {
			out.Proposals = append(out.Proposals, first[k])
		}
	}
	out.Entries = []EntryReport{}
	for _, id := range entryOrder {
		counts := routing[id]
		if len(counts) != len(answers) {
			continue
		}
		sort.Ints(counts)
		out.Entries = append(out.Entries, EntryReport{EntryID: id, RoutingGuidance: counts[(len(counts)-1)/2]})
	}
	return out, nil
}

// Voting is the m-of-K configuration of a live analyzer: each Analyze asks
// the inner analyzer K times, one after the other, and applies Vote.
type Voting struct {
	inner Analyzer
	m, k  int
}

// NewVoting builds the m-of-K configuration of inner.
func NewVoting(inner Analyzer, m, k int) (*Voting, error) {
	if inner == nil {
		return nil, fmt.Errorf("%w: no analyzer to sample", ErrVote)
	}
	if err := CheckVote(m, k); err != nil {
		return nil, err
	}
	return &Voting{inner: inner, m: m, k: k}, nil
}

// ID is VoteID of the inner analyzer's id.
func (v *Voting) ID() string { return VoteID(v.inner.ID(), v.m, v.k) }

// Analyze asks the inner analyzer K times and votes.
func (v *Voting) Analyze(ctx context.Context, req Request) (Response, error) {
	answers := make([]SampleAnswer, 0, v.k)
	for i := 0; i < v.k; i++ {
		resp, err := v.inner.Analyze(ctx, req)
		answers = append(answers, SampleAnswer{Response: resp, Err: err})
		if err != nil {
			break // the vote fails closed on the first failure; do not spend more calls
		}
	}
	m := v.m
	if len(answers) < v.k {
		m = 1 // fewer than K answers: Vote returns the failure with the usage spent
	}
	resp, err := Vote(answers, m)
	resp.Analyzer = v.ID()
	return resp, err
}
