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
	var cases, name, record, replay, split *string
	var samples, agree *int
	var asJSON, showTest *bool
	return &command{
		name:    "eval",
		args:    "--cases FILE.jsonl[,FILE.jsonl] --analyzer NAME [--split dev|hand6|hand7|test|test2|test3|test4|test5|all] [--samples K] [--record DIR] | --replay DIR",
		summary: "Score an analyzer on a labelled corpus and apply the admission test of methodology §18.",
		detail: `
Each line of the corpus is {"id", "kind": "poisoned"|"clean", "surface_kind", "tool_name",
"description", "expected_spans": [{"text", "category"}], "source"}. A span is found when a
verified finding's quote overlaps it with the same category; a finding overlapping no expected
span is a false positive. The report gives cases detected, span recall overall, per category
and per surface kind, false positives on clean descriptions (and per 500, per surface kind),
rejected proposals, precision, and whether the admission test holds (at least 200 labelled
spans, precision at least 95%, at most 1 false positive per 500 clean descriptions, at least
1,000 clean descriptions). --samples K repeats the pass (K independent answers to every
batch) and reports each figure's min, median and max; the test must hold in every sample.
Exit status 1 when the admission test does not hold.

Splits. Every case of testdata/eval says its part, dev or test, decided once by the rule of
docs/model-check.md over its source, or test2, test3, test4 or test5, the blind test parts, each written by
a hand that had read neither the analyzers nor the other test parts, or hand6 or hand7, development
material each written by another such hand (docs/model-check.md). --split scores only that part (all: every part,
and the report gives each part's figures beside the whole). A live evaluation defaults to dev: analyzers are
tuned on the development part, and the test part is scored only when it is asked for by name,
so nobody reads test figures by accident; a replay defaults to the split it recorded. The
figures of test-part cases (test, test2, test3, test4 and test5) are reported, but their missed spans and incorrect
findings are only counted, not listed, unless --show-test-cases is given: reading a report does
not show anyone the cases an analyzer is measured on.
testdata/eval/cases.jsonl is the development part, testdata/eval/test_cases.jsonl the test
part, testdata/eval/blind_cases.jsonl the blind test part, testdata/eval/blind3_cases.jsonl
the third, testdata/eval/blind4_cases.jsonl the fourth and testdata/eval/blind5_cases.jsonl the
fifth blind test part; --cases takes several files joined by commas, scored as one corpus.

Recording and replaying. --record DIR writes every answer into DIR (recording.json: the
analyzer id, prompt version and SHA-256, verifier version, corpus SHA-256 and split, samples;
cases.jsonl: the corpus as scored; answers.jsonl: per call its sample, case, proposal key and
the answer's bytes as they arrived). --replay DIR scores a recording offline, with no analyzer
and no network, to the same figures; a recording whose files do not match their SHA-256s, that
was made with another prompt or verifier, or that lacks or has extra answers for the corpus's
calls is refused. With --replay, --cases FILE (optional) must be the recorded corpus.

Sampling in production. --agree M (1 <= M <= K) reports the M-of-K configuration instead: a
proposal counts only when at least M of the K answers to its batch propose it (same entry,
quote and category), an entry is read only when all K answers report it, and any failed answer
fails the batch. It is a different analyzer (id "<analyzer>;vote=M/K"), admitted on its own;
a run uses it with ATTESTARI_ANALYZER_SAMPLES=K and ATTESTARI_ANALYZER_MIN_AGREE=M.

Analyzers: offline (no network), anthropic, openai (configured by ATTESTARI_* variables: see
docs/model-check.md).`,
		example: "attestari eval --cases testdata/eval/cases.jsonl --analyzer offline\n" +
			"attestari eval --cases testdata/eval/test_cases.jsonl --split test --analyzer offline\n" +
			"attestari eval --cases testdata/eval/blind_cases.jsonl --split test2 --analyzer none\n" +
			"attestari eval --cases testdata/eval/blind3_cases.jsonl --split test3 --analyzer none\n" +
			"attestari eval --cases testdata/eval/blind4_cases.jsonl --split test4 --analyzer none\n" +
			"attestari eval --cases testdata/eval/blind5_cases.jsonl --split test5 --analyzer none\n" +
			"attestari eval --cases testdata/eval/cases.jsonl --analyzer anthropic --samples 4 --record var/eval/anthropic-4\n" +
			"attestari eval --replay var/eval/anthropic-4\n" +
			"attestari eval --replay var/eval/anthropic-4 --agree 3",
		flags: func(fs *flag.FlagSet) {
			cases = fs.String("cases", "", "labelled corpus (JSON Lines); with --replay, checked against the recorded one")
			name = fs.String("analyzer", "", "offline, purpose, anthropic or openai (ATTESTARI_ANALYZER names; purpose is offline-purpose-14)")
			samples = fs.Int("samples", 1, "independent answers to every batch; figures are reported as min, median and max")
			record = fs.String("record", "", "write every answer into this new or empty directory")
			replay = fs.String("replay", "", "score this recording offline instead of calling an analyzer")
			agree = fs.Int("agree", 0, "report the M-of-K configuration: a proposal counts when at least M of the K samples propose it")
			split = fs.String("split", "", "the part of the corpus to score: dev, hand6, hand7, test, test2, test3, test4, test5 or all (default: dev live, the recorded split on replay)")
			asJSON = fs.Bool("json", false, "print the report as JSON")
			showTest = fs.Bool("show-test-cases", false, "list the missed spans and incorrect findings of test-part (test, test2, test3, test4, test5) cases too (their texts are withheld by default)")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 0 {
				return usageError{"eval takes no arguments"}
			}
			if *replay == "" && (*cases == "" || *name == "") {
				return usageError{"give --cases FILE and --analyzer NAME, or --replay DIR"}
			}
			if *replay != "" && (*name != "" || *record != "") {
				return usageError{"--replay calls no analyzer and records nothing: drop --analyzer and --record"}
			}
			if *split != "" && eval.CheckSplitName(*split) != nil {
				return usageError{"--split is dev, hand6, hand7, test, test2, test3, test4, test5 or all"}
			}
			if *replay == "" && *split == "" {
				*split = eval.SplitDev
			}
			rep, err := eval.Command{Cases: *cases, Analyzer: *name, Samples: *samples, Record: *record, Replay: *replay,
				Agree: *agree, Split: *split, JSON: *asJSON, ShowTestCases: *showTest, Getenv: e.getenv}.Run(ctx, e.stdout)
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
