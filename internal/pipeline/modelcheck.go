package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/vocab"
)

// ModelCheck runs model_directed_text (internal/checks) in the pipeline:
// every description of the package's surface goes to the analyzer as
// delimited evidence, proposals are verified byte for byte, answers are
// cached in the evidence store.
type ModelCheck struct {
	// Analyzer is the model (or the offline rules); nil means none is
	// configured, and entries without a cached answer are not analysed.
	Analyzer analyzer.Analyzer
	// Cache is the proposal cache (the evidence store).
	Cache   checks.ProposalCache
	Options checks.Options
}

// ID is the check id.
func (ModelCheck) ID() string { return vocab.CheckModel }

// audit is what the check set aside, kept in its result row.
type audit struct {
	Rejected []checks.RejectedProposal `json:"rejected"`
	Routing  []checks.RoutingCount     `json:"routing"`
}

// Run examines one package. Without a surface row there is nothing to read:
// the surface stage's absence already blocks the package.
func (m ModelCheck) Run(ctx context.Context, in CheckInput) (CheckOutput, error) {
	if in.Surface == nil {
		return CheckOutput{}, ErrSkipped
	}
	files := func(path string) ([]byte, error) {
		if in.Artifact == nil {
			return nil, fmt.Errorf("no artifact read for %s", path)
		}
		if b, ok := in.Artifact.Bytes(path); ok {
			return b, nil
		}
		return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	res, findings, na, usage := checks.RunModelDirectedText(ctx, in.Surface, files, m.Analyzer, m.Cache, m.Options)
	s := usage.Summary()
	res.Usage = &s
	if len(usage.Rejected) > 0 || len(usage.Routing) > 0 {
		b, err := json.Marshal(audit{Rejected: usage.Rejected, Routing: usage.Routing})
		if err != nil {
			return CheckOutput{}, err
		}
		res.Audit = b
	}
	return CheckOutput{Result: res, Findings: findings, NotAnalyzed: na}, nil
}
