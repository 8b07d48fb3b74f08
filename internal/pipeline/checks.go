package pipeline

import (
	"context"

	"github.com/attestari/attestari/internal/policy"
)

// DefaultChecks are the checks that exist in the tree today, in the order
// they run. publisher_provenance and model_directed_text are not among them
// until their code lands: a check that did not run writes no result row, so
// the gate refuses every package for it (G5, check_missing) rather than
// passing a package nobody examined.
func DefaultChecks() []Check {
	return []Check{SurfaceCheck{}}
}

// SurfaceCheck is undetermined_tool_surface as far as the extractor decides
// it: can the tool surface be determined at all? Its result row records the
// surface outcome (parsed, not_a_server, runtime_generated, ...), which is
// the whole of that check's conclusion for every outcome but one.
//
// For minified_only the methodology also makes a medium finding whose
// evidence is the bundle and its longest line; that finding belongs to the
// check's own implementation in internal/checks, so until it lands this
// check writes no row for a minified_only surface (ErrSkipped) instead of a
// row without its finding. With no surface row at all (the artifact was not
// fetched, or no extractor ran) it is skipped too.
type SurfaceCheck struct{}

// ID is the check id.
func (SurfaceCheck) ID() string { return policy.CheckSurface }

// Run records the surface outcome.
func (SurfaceCheck) Run(_ context.Context, in CheckInput) (CheckOutput, error) {
	if in.Surface == nil || in.Surface.Outcome == "" || in.Surface.Outcome == policy.CodeMinifiedOnly {
		return CheckOutput{}, ErrSkipped
	}
	out := CheckOutput{}
	out.Result.Outcome = in.Surface.Outcome
	out.Result.Detail = in.Surface.OutcomeDetail
	return out, nil
}
