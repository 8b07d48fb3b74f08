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
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
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
	parallel := fs.Int("parallel", 1, "packages extracted at a time (1 keeps the per-package wall times comparable)")
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
	surfaces, costs, missing, err := corpus.ExtractAll(ctx, l, dir, extractUnder(parallel), parallel)
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

// extractUnder is extract under the budget a run applies when the probe
// extracts one package at a time: the time part is the process's CPU time,
// the same on a loaded machine (methodology §5.2). Several at once share
// the process's clock, so they are held to the wall budget instead, and
// the figures then move with the machine's load.
func extractUnder(parallel int) corpus.ExtractFunc {
	opts := extractor.InProcessOptions()
	if parallel > 1 {
		log.Printf("corpus-eval: -parallel %d shares one process's CPU clock, so the budget's time part is wall time: budget refusals depend on the machine's load", parallel)
		opts = surface.Options{}
	}
	return func(ctx context.Context, p corpus.Package, data []byte) rundir.Surface {
		return extract(ctx, p, data, opts)
	}
}

// dataHome is $ATTESTARI_HOME, or ./var as everywhere else (the design's
// data home), where the corpora's fetched and packed archives live.
func dataHome() string {
	if h := os.Getenv("ATTESTARI_HOME"); h != "" {
		return h
	}
	return "./var"
}
