// Command attestari-probe builds and probes the real-server corpus:
//
//	attestari-probe pin     -candidates testdata/corpus/candidates.tsv -out testdata/corpus/packages.json
//	attestari-probe run     -list testdata/corpus/packages.json -truth testdata/corpus/truth
//	attestari-probe eval    -truth testdata/corpus/truth -surfaces rows.jsonl [-out report.md]
//	attestari-probe corpus-eval [-out docs/extractor-corpus.md]   (extracts var/corpus itself: make corpus-eval)
//	attestari-probe redact  -truth testdata/corpus/truth   (hosts out of stored diagnostics)
//	attestari-probe py-pack -mirrors DIR [-update]   (testdata/corpus-python: scripts/corpus-python-pack.sh)
//	attestari-probe py-eval [-out docs/extractor-corpus-python.md]   (the Python half of make corpus-eval)
//	attestari-probe minified-scan [-out report.md] [-members figures.jsonl]   (the measurement of §5.2's minified rule)
//	attestari-probe summary -list testdata/corpus/packages.json -truth testdata/corpus/truth -out testdata/corpus/SUMMARY.md
//
// It only wires flags to package corpus (and, for corpus-eval, the extractor). The npm client's own configuration
// says which registry it talks to.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/attestari/attestari/internal/corpus"
	"github.com/attestari/attestari/internal/pipeline/extractor"
)

func main() {
	log.SetFlags(log.Ltime)
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: attestari-probe pin|run|eval|corpus-eval|minified-scan|py-pack|py-eval|redact|summary [flags]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case extractChildCommand:
		// A child of corpus-eval -parallel N: one extraction, stdin to stdout.
		err = extractor.ServeChild(ctx, os.Stdin, os.Stdout)
	case "pin":
		err = pin(ctx, os.Args[2:])
	case "run":
		err = run(ctx, os.Args[2:])
	case "summary":
		err = summary(os.Args[2:])
	case "eval":
		err = evaluate(os.Args[2:])
	case "corpus-eval":
		err = corpusEval(ctx, os.Args[2:])
	case "redact":
		err = redact(os.Args[2:])
	case "py-pack":
		err = pyPack(ctx, os.Args[2:])
	case "py-eval":
		err = pyEval(ctx, os.Args[2:])
	case "minified-scan":
		err = minifiedScan(ctx, os.Args[2:])
	case "py-extract-one":
		err = pyExtractOne(ctx, os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		log.Fatal(err)
	}
}

func logLine(s string) { log.Print(s) }

func pin(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("pin", flag.ExitOnError)
	cands := fs.String("candidates", "testdata/corpus/candidates.tsv", "candidates file")
	out := fs.String("out", "testdata/corpus/packages.json", "list to write")
	parallel := fs.Int("parallel", 2, "candidates resolved at a time")
	cache := fs.String("npm-cache", "", "npm cache directory (npm's default when empty)")
	_ = fs.Parse(args)
	f, err := os.Open(*cands)
	if err != nil {
		return err
	}
	defer f.Close()
	cs, err := corpus.ParseCandidates(f)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "attestari-pin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	l := corpus.Pin(ctx, corpus.NPM{Cache: *cache}, cs, scratch, *parallel, logLine)
	l.Generated = time.Now().UTC().Format("2006-01-02")
	l.Rule = "candidates.tsv (drawn from the package listing as README.md says), each exact version resolved with npm view and its tarball digested after npm pack"
	if err := l.Validate(); err != nil {
		return err
	}
	log.Printf("%d packages, %d excluded", len(l.Packages), len(l.Excluded))
	return corpus.WriteJSON(*out, l)
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus/packages.json", "corpus list")
	truth := fs.String("truth", "testdata/corpus/truth", "truth directory")
	work := fs.String("work", "", "throwaway directory root (a temporary directory when empty)")
	cache := fs.String("npm-cache", "", "npm cache directory, reused across installs")
	parallel := fs.Int("parallel", 2, "servers probed at a time")
	timeout := fs.Duration("timeout", 20*time.Second, "hard limit on a server's life")
	only := fs.String("only", "", "comma-separated name@version to probe (all when empty)")
	skipDone := fs.Bool("skip-done", false, "leave packages that already have a truth file")
	retryFailed := fs.Bool("retry-failed", false, "with -skip-done, probe again those whose truth records a failure")
	_ = fs.Parse(args)
	l, err := corpus.LoadList(*list)
	if err != nil {
		return err
	}
	pkgs := l.Packages
	if *only != "" {
		want := map[string]bool{}
		for _, k := range strings.Split(*only, ",") {
			want[strings.TrimSpace(k)] = true
		}
		pkgs = pkgs[:0:0]
		for _, p := range l.Packages {
			if want[p.Key()] || want[p.Name] {
				pkgs = append(pkgs, p)
			}
		}
	}
	if *work == "" {
		d, err := os.MkdirTemp("", "attestari-probe-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*work = d
	}
	opt := corpus.ProbeOptions{NPM: corpus.NPM{Cache: *cache}, WorkDir: *work, Timeout: *timeout}
	return corpus.ProbeAll(ctx, opt, pkgs, *truth, *parallel, *skipDone, *retryFailed, logLine)
}

func summary(args []string) error {
	fs := flag.NewFlagSet("summary", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus/packages.json", "corpus list")
	truth := fs.String("truth", "testdata/corpus/truth", "truth directory")
	out := fs.String("out", "testdata/corpus/SUMMARY.md", "summary to write")
	_ = fs.Parse(args)
	l, err := corpus.LoadList(*list)
	if err != nil {
		return err
	}
	ts, err := corpus.LoadTruths(*truth)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, []byte(corpus.SummaryMarkdown(l, ts)), 0o644)
}

func redact(args []string) error {
	fs := flag.NewFlagSet("redact", flag.ExitOnError)
	truth := fs.String("truth", "testdata/corpus/truth", "truth directory")
	_ = fs.Parse(args)
	ts, err := corpus.LoadTruths(*truth)
	if err != nil {
		return err
	}
	for i := range ts {
		ts[i].RedactDiagnostics()
		if err := corpus.WriteJSON(filepath.Join(*truth, corpus.TruthFileName(ts[i].Name, ts[i].Version)), ts[i]); err != nil {
			return err
		}
	}
	return nil
}

func evaluate(args []string) error {
	fs := flag.NewFlagSet("eval", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus/packages.json", "corpus list (rows are matched to packages by tarball digest)")
	truth := fs.String("truth", "testdata/corpus/truth", "truth directory")
	rows := fs.String("surfaces", "", "extractor rows: JSON lines of `attestari surface --json`, or a JSON array")
	out := fs.String("out", "", "write the Markdown report here (stdout when empty)")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of Markdown")
	_ = fs.Parse(args)
	ts, err := corpus.LoadTruths(*truth)
	if err != nil {
		return err
	}
	l, err := corpus.LoadList(*list)
	if err != nil {
		return err
	}
	ss, err := corpus.LoadSurfaces(*rows, l)
	if err != nil {
		return err
	}
	r := corpus.Evaluate(ts, ss)
	text := r.Markdown()
	if *asJSON {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		text = string(b) + "\n"
	}
	if *out == "" {
		_, err = os.Stdout.WriteString(text)
		return err
	}
	return os.WriteFile(*out, []byte(text), 0o644)
}
