package main

import (
	"context"
	"errors"
	"flag"

	"github.com/attestari/attestari/internal/eval"
)

// errAdmission makes the exit status 1 when the admission test does not hold.
var errAdmission = errors.New("the admission test does not hold (see the report above)")

func evalCommand() *command {
	var cases, name *string
	var samples *int
	var asJSON *bool
	return &command{
		name:    "eval",
		args:    "--cases FILE.jsonl --analyzer NAME",
		summary: "Score an analyzer on a labelled corpus and apply the admission test of methodology §18.",
		detail: `
Each line of the corpus is {"id", "kind": "poisoned"|"clean", "surface_kind", "tool_name",
"description", "expected_spans": [{"text", "category"}], "source"}. A span is found when a
verified finding's quote overlaps it with the same category; a finding overlapping no expected
span is a false positive. The report gives cases detected, spans found per category, false
positives on clean descriptions (and per 500), rejected proposals, precision, and whether the
admission test holds (at least 200 labelled spans, precision at least 95%, at most 1 false
positive per 500 clean descriptions); --samples K repeats the pass and reports ranges.
Exit status 1 when the admission test does not hold.

Analyzers: offline (no network), anthropic, openai (configured by ATTESTARI_* variables: see
docs/model-check.md).`,
		example: "attestari eval --cases testdata/eval/cases.jsonl --analyzer offline\nattestari eval --cases testdata/eval/cases.jsonl --analyzer anthropic --samples 4 --json",
		flags: func(fs *flag.FlagSet) {
			cases = fs.String("cases", "", "labelled corpus (JSON Lines)")
			name = fs.String("analyzer", "", "offline, anthropic or openai")
			samples = fs.Int("samples", 1, "passes over the corpus; figures are reported as ranges")
			asJSON = fs.Bool("json", false, "print the report as JSON")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 0 || *cases == "" || *name == "" {
				return usageError{"give --cases FILE and --analyzer NAME"}
			}
			rep, err := eval.Command{Cases: *cases, Analyzer: *name, Samples: *samples, JSON: *asJSON, Getenv: e.getenv}.Run(ctx, e.stdout)
			if err != nil {
				return err
			}
			if !rep.AdmissionHolds {
				return errAdmission
			}
			return nil
		},
	}
}
