package store

import (
	"context"
	"fmt"

	"github.com/attestari/attestari/api"
)

// LatestPass counts the package versions and findings of the newest
// publication (GET /pass, the website's "The latest pass"); ErrNotFound
// when nothing is published.
func (s *Store) LatestPass(ctx context.Context) (*api.Pass, error) {
	p, err := s.q.PublicationLatest(ctx)
	if err != nil {
		return nil, fmt.Errorf("latest pass: %w", notFound(err))
	}
	run, err := s.q.RunGet(ctx, p.RunID)
	if err != nil {
		return nil, fmt.Errorf("latest pass: run %s: %w", p.RunID, notFound(err))
	}
	out := &api.Pass{RunID: p.RunID, PublicationID: p.ID, PublishedAt: t(p.PublishedAt), RunStartedAt: t(run.StartedAt),
		MethodologyVersion: p.MethodologyVersion, ExtractorVersion: run.ExtractorVersion,
		ByVerdict: map[string]int{}, ByGrade: map[string]int{}, ByReason: []api.PassReason{}, FindingsByStatus: map[string]int{},
		Labels: api.Labels{Demo: p.Demo, DisclosurePeriodOverridden: p.DisclosurePeriodOverridden}}
	verdicts, err := s.q.PassVerdictCounts(ctx, p.ID)
	if err != nil {
		return nil, fmt.Errorf("latest pass: verdicts: %w", err)
	}
	for _, v := range verdicts {
		out.ByVerdict[v.Verdict] = int(v.N)
		out.Packages += int(v.N)
	}
	grades, err := s.q.PassGradeCounts(ctx, p.ID)
	if err != nil {
		return nil, fmt.Errorf("latest pass: grades: %w", err)
	}
	for _, g := range grades {
		out.ByGrade[g.Grade] = int(g.N)
	}
	reasons, err := s.q.PassReasonCounts(ctx, p.ID)
	if err != nil {
		return nil, fmt.Errorf("latest pass: reasons: %w", err)
	}
	for _, r := range reasons {
		out.ByReason = append(out.ByReason, api.PassReason{Code: r.Code, Packages: int(r.N)})
	}
	findings, err := s.q.PassFindingCounts(ctx, p.ID)
	if err != nil {
		return nil, fmt.Errorf("latest pass: findings: %w", err)
	}
	for _, f := range findings {
		out.FindingsByStatus[f.Status] = int(f.N)
	}
	return out, nil
}
