package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/corpus"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
	"github.com/attestari/attestari/internal/vocab"
)

// corpusEval is `attestari-probe corpus-eval`, behind `make corpus-eval`: it
// reads every fetched tarball of the corpus list with the extractor (no
// network: scripts/corpus-fetch.sh fetches them first), compares the rows with
// the runtime truth and writes the Markdown report docs/extractor.md links.
// Package corpus judges the extractor, so it does not import it: the wiring
// lives here.
func corpusEval(ctx context.Context, args []string) error {
	home := dataHome()
	fs := flag.NewFlagSet("corpus-eval", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus/packages.json", "corpus list")
	truth := fs.String("truth", "testdata/corpus/truth", "truth directory")
	dir := fs.String("dir", filepath.Join(home, "corpus"), "directory of fetched tarballs (scripts/corpus-fetch.sh)")
	out := fs.String("out", "", "Markdown report to write (stdout when empty)")
	rows := fs.String("rows", "", "directory to write each surface row into as JSON, for reading misses")
	only := fs.String("only", "", "comma-separated name@version to evaluate (all when empty)")
	parallel := fs.Int("parallel", 1, "packages extracted at a time (more than 1: each in a child process of its own, held to its own CPU clock)")
	command := fs.String("command", "make corpus-eval", "the command named in the report")
	_ = fs.Parse(args)
	return corpusEvalRun(ctx, *list, *truth, *dir, *out, *rows, *only, *command, *parallel)
}

func corpusEvalRun(ctx context.Context, listPath, truthDir, dir, out, rows, only, command string, parallel int) error {
	l, err := corpus.LoadList(listPath)
	if err != nil {
		return err
	}
	if only != "" {
		want := map[string]bool{}
		for _, k := range strings.Split(only, ",") {
			want[strings.TrimSpace(k)] = true
		}
		kept := l.Packages[:0:0]
		for _, p := range l.Packages {
			if want[p.Key()] || want[p.Name] {
				kept = append(kept, p)
			}
		}
		l.Packages = kept
	}
	truths, err := corpus.LoadTruths(truthDir)
	if err != nil {
		return err
	}
	inList := map[string]bool{}
	for _, p := range l.Packages {
		inList[p.Key()] = true
	}
	kept := truths[:0]
	for _, t := range truths {
		if inList[t.Key()] {
			kept = append(kept, t)
		}
	}
	truths = kept
	extractFn, err := extractUnder(parallel)
	if err != nil {
		return err
	}
	surfaces, costs, missing, err := corpus.ExtractAll(ctx, l, dir, extractFn, parallel)
	if err != nil {
		return err
	}
	if rows != "" {
		for k, s := range surfaces {
			name := strings.TrimSuffix(corpus.TruthFileName(s.Package.Name, s.Package.Version), ".json") + ".json"
			if s.Package.Name == "" {
				name = strings.ReplaceAll(k, "/", "__") + ".json"
			}
			if err := corpus.WriteJSON(filepath.Join(rows, name), s); err != nil {
				return err
			}
		}
	}
	r := corpus.Evaluate(truths, surfaces)
	corpus.AnnotateDelegation(&r, surfaces)
	adv := corpus.EvaluateAdvertised(truths, surfaces)
	sr := corpus.EvaluateStaleAndReach(truths, surfaces)
	md := corpus.EvalMarkdown(corpus.EvalHeader{
		Command: command, Date: time.Now(), ExtractorVersion: surface.ExtractorVersion,
		Listed: len(l.Packages), Extracted: len(surfaces), Missing: missing, Truths: len(truths), StaleReach: &sr,
	}, r, adv, surfaces, costs)
	if out == "" {
		fmt.Print(md)
	} else if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		return err
	}
	t := r.Names["tool"]
	summary, _ := json.Marshal(map[string]any{
		"started": r.Started, "parsed": r.Parsed, "parsed_share": r.ParsedShare(),
		"tool_recall": t.Recall(), "tool_precision": t.Precision(), "description_equal": r.DescriptionEqualShare(),
		"advertised_refused": adv.Refused, "advertised_refused_only_by_false": adv.RefusedOnlyByFalse,
		"parsed_advertised_refused": adv.ParsedRefused, "parsed_advertised_refused_only_by_false": adv.ParsedRefusedOnlyByFalse,
		"stale_names": sr.StaleNames, "stale_listed_at_runtime": len(sr.StaleListed), "stale_let_through": len(sr.LetThrough),
		"stale_let_through_missing_tool": len(sr.LetThroughMissing), "unreachable_tools": sr.UnreachableTools,
		"unreachable_listed_at_runtime": len(sr.UnreachableListed), "unreachable_extras": sr.UnreachableExtras,
		"reach_undetermined_packages": sr.Undetermined,
	})
	log.Printf("corpus-eval: %s", summary)
	return nil
}

// extract reads one npm tarball the way the pipeline does, under opts.
func extract(ctx context.Context, p corpus.Package, data []byte, opts surface.Options) rundir.Surface {
	pkg := rundir.PackageRef{Registry: corpus.Registry, Name: p.Name, Version: p.Version}
	return extractor.FromArchive(ctx, pkg, data, artifact.FormatNpmTarball, opts)
}

// extractUnder is extract under the budget a run applies. One package at a
// time is extracted in this process, held to its CPU clock (methodology
// §5.2). Several at once would share that clock, so with parallel > 1 each
// package is extracted in a child process of its own, as a run does
// (pipeline.ChildExtractor): the time part is then that child's CPU time
// too, the wall time only the backstop, and the row carries the child's
// measured CPU time, wall time and peak memory.
func extractUnder(parallel int) (corpus.ExtractFunc, error) {
	if parallel <= 1 {
		opts := extractor.InProcessOptions()
		return func(ctx context.Context, p corpus.Package, data []byte) rundir.Surface {
			return extract(ctx, p, data, opts)
		}, nil
	}
	child, err := probeChild()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, p corpus.Package, data []byte) rundir.Surface {
		return extractInChild(ctx, child, p, data)
	}, nil
}

// extractChildCommand is the probe's hidden subcommand that serves one
// extraction for a parent (extractor.ServeChild), as attestari's does.
const extractChildCommand = "__extract-child"

// probeChild is the child extractor: this binary started as
// extractChildCommand (a test replaces it with its own binary).
var probeChild = func() (*pipeline.ChildExtractor, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this binary to run extractions in child processes: %w", err)
	}
	return extractor.Child(self, extractChildCommand), nil
}

// extractInChild extracts one npm tarball in a child process. A child that
// fails has no run to fail: one the wall backstop ended under the CPU
// budget (extractor_stalled in a run) is recorded as the single-process
// evaluation records its backstop, extraction_budget_exceeded with the
// cause; any other failure (a crash) is a row whose outcome is the failure's
// kind, which no report counts as parsed.
func extractInChild(ctx context.Context, child *pipeline.ChildExtractor, p corpus.Package, data []byte) rundir.Surface {
	pkg := rundir.PackageRef{Registry: corpus.Registry, Name: p.Name, Version: p.Version}
	sha := vocab.SHA256Hex(data)
	s, err := child.Extract(ctx, pipeline.ExtractInput{Package: pkg, ArtifactSHA256: sha, Data: data, Format: artifact.FormatNpmTarball})
	if err == nil {
		return s
	}
	row := rundir.Surface{Package: pkg, ArtifactSHA256: sha, ExtractorVersion: surface.ExtractorVersion, OutcomeDetail: err.Error()}
	switch kind := pipeline.FailureKindOf(err); kind {
	case vocab.FailureExtractorStalled:
		row.Outcome = vocab.CodeExtractionBudgetExceeded
	case "":
		row.Outcome = vocab.FailureExtractorError
	default:
		row.Outcome = kind
	}
	return row
}

// dataHome is $ATTESTARI_HOME, or ./var as everywhere else (the design's
// data home), where the corpora's fetched and packed archives live.
func dataHome() string {
	if h := os.Getenv("ATTESTARI_HOME"); h != "" {
		return h
	}
	return "./var"
}
