package pipeline

import (
	"context"
	"fmt"

	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/vocab"
)

// DefaultChecks are the checks that need no configuration, in the order they
// run: undetermined_tool_surface. The CLI adds publisher_provenance
// (ProvenanceCheck) and model_directed_text (ModelCheck), which need a
// repository host, a trusted root and an analyzer. A check that did not run
// writes no result row, so the gate refuses the package for it (G5,
// check_missing) rather than passing a package nobody examined.
func DefaultChecks() []Check {
	return []Check{SurfaceCheck{}}
}

// SurfaceCheck is undetermined_tool_surface: can the tool surface be
// determined at all? Its result row records the surface outcome (parsed,
// not_a_server, runtime_generated, ...), which is the whole of the check's
// conclusion for every outcome but minified_only, where it also makes the
// medium finding of methodology §5 (internal/checks MinifiedOnlyFindings).
// With no surface row at all (the artifact was not fetched, or no extractor
// ran) it is skipped.
type SurfaceCheck struct{}

// ID is the check id.
func (SurfaceCheck) ID() string { return vocab.CheckSurface }

// Run records the surface outcome.
func (SurfaceCheck) Run(_ context.Context, in CheckInput) (CheckOutput, error) {
	if in.Surface == nil || in.Surface.Outcome == "" {
		return CheckOutput{}, ErrSkipped
	}
	out := CheckOutput{}
	out.Result.Outcome = in.Surface.Outcome
	out.Result.Detail = in.Surface.OutcomeDetail
	if in.Surface.Outcome == vocab.CodeMinifiedOnly {
		fs, err := checks.MinifiedOnlyFindings(in.Surface, func(path string) ([]byte, error) {
			if in.Artifact != nil {
				if b, ok := in.Artifact.Bytes(path); ok {
					return b, nil
				}
			}
			return nil, fmt.Errorf("member %s was not read", path)
		})
		if err != nil {
			return CheckOutput{}, err
		}
		out.Findings = fs
	}
	return out, nil
}
