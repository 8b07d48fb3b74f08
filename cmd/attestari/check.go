package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/check"
	"github.com/attestari/attestari/internal/cycle"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
)

// exitStatus ends a command with a chosen exit code; runMain prints its
// message (when there is one) and returns the code.
type exitStatus struct {
	code int
	msg  string
}

func (e exitStatus) Error() string { return e.msg }
func (e exitStatus) ExitCode() int { return e.code }

func checkCommand() *command {
	var format, against, failBelow, failOn, output *string
	var noColor *bool
	return &command{
		name:      "check",
		args:      "TARGET",
		usageExit: check.ExitUsage,
		summary:   "Check an artifact before publishing it, as the scheduled pass would (not a grade; never published).",
		detail: `
TARGET is what you are about to publish: the tarball 'npm pack' writes, a wheel or sdist
('python -m build'), a directory laid out like an unpacked package (package.json, or PKG-INFO /
pyproject.toml with a literal [project] name and version), or a published version:
npm:NAME@VERSION, pypi:NAME==VERSION.

It runs the scheduled pass's stages (fetch, surface, checks, gate) and its policy on TARGET with
the same extractor, checks, analyzer configuration (ATTESTARI_ANALYZER) and gate, in a private
temporary home that is removed afterwards: nothing is written under $ATTESTARI_HOME and nothing
it produces can be read by the pass. A local TARGET is served to the fetch stage by a stand-in
registry on loopback. The result is not a grade and is not published (methodology §17); the
first line of every format says so.

It prints the verdict the pass would reach; for a refusal every reason code with its gate-map
line and what to change, at which file:line; every finding with its quoted span; the surface;
the capability inventory; and the attested manifest and tool hashes a gateway will pin.

--against compares tool by tool with a published version (default: the newest published
version, when the registry has the package; "none" for no comparison and no registry call):
added, removed, description or schema changed, new finding, one line per tool saying what a
gateway pinning that version's manifest will see.

Exit codes: 0 would be graded with no confirmed finding; 1 a confirmed finding (or, with
--fail-below, a grade below it); 2 would be refused or out of scope; 3 a usage or input error.
With --fail-on CODES (advisory mode) a refusal exits 2 only for the codes listed; the others are
reported as tolerated. See docs/check.md for the JSON schema and CI recipes.`,
		example: `npm pack && attestari check ./my-server-1.2.0.tgz
attestari check --format sarif --against none ./my-server-1.2.0.tgz > attestari.sarif
attestari check --format markdown --against npm:my-server@1.1.0 . > comment.md
attestari check --fail-on minified_only,partial_description --fail-below B dist/my_server-1.2.0-py3-none-any.whl
ATTESTARI_ANALYZER=offline attestari check --format json pypi:mcp-server-x==0.4.1 | jq .verdict`,
		flags: func(fs *flag.FlagSet) {
			format = fs.String("format", check.FormatText, "output format: "+strings.Join(check.Formats, ", "))
			against = fs.String("against", "", "compare with this published version (npm:NAME@VERSION, pypi:NAME==VERSION), or none (default: the newest published version)")
			failBelow = fs.String("fail-below", "", "exit 1 when the grade is worse than this grade (A, B, C, F); default: exit 1 on any confirmed finding")
			failOn = fs.String("fail-on", "", "advisory mode: comma-separated refusal codes that exit 2; every other refusal code is tolerated")
			output = fs.String("output", "", "write the report to FILE instead of standard output")
			noColor = fs.Bool("no-color", false, "no colour in the text format (colour is used only on a terminal, and never with NO_COLOR set)")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"expected one TARGET: a .tgz, .whl, .tar.gz or .zip, a package directory, npm:NAME@VERSION or pypi:NAME==VERSION"}
			}
			if !slices.Contains(check.Formats, *format) {
				return usageError{fmt.Sprintf("--format %q: one of %s", *format, strings.Join(check.Formats, ", "))}
			}
			eo := check.ExitOptions{FailBelow: *failBelow}
			if eo.FailBelow != "" && !check.ValidGrade(eo.FailBelow) {
				return usageError{fmt.Sprintf("--fail-below %q: one of A, B, C, F", eo.FailBelow)}
			}
			if *failOn != "" {
				eo.FailOn = []string{}
				for _, c := range strings.Split(*failOn, ",") {
					c = strings.TrimSpace(c)
					if !check.ValidCode(c) {
						return usageError{fmt.Sprintf("--fail-on: %q is not a reason code of the gate map (attestari check --help; docs/methodology.md §9)", c)}
					}
					eo.FailOn = append(eo.FailOn, c)
				}
			}
			return runCheck(ctx, e, fs.Arg(0), *format, *against, *output, !*noColor, eo)
		},
	}
}

// checkTempParent is where the private home is made: $TMPDIR, or the
// test's directory.
var checkTempParent = ""

func runCheck(ctx context.Context, e *env, target, format, against, output string, color bool, eo check.ExitOptions) error {
	var out io.Writer = e.stdout
	var f *os.File
	if output != "" {
		var err error
		if f, err = os.Create(output); err != nil {
			return exitStatus{check.ExitUsage, fmt.Sprintf("--output %s: %v", output, err)}
		}
		defer f.Close()
		out = f
	}
	// The notice first, every time. Every format's report starts with it;
	// on standard error it is said first too, before any work, unless the
	// text report on the same terminal is about to say it (then it is said
	// on standard error only when no report follows).
	reportSaysIt := format == check.FormatText && output == ""
	if !reportSaysIt {
		fmt.Fprintln(e.stderr, check.Notice)
	}
	useColor := color && format == check.FormatText && output == "" && isTerminal(e.stdout) && e.getenv("NO_COLOR") == ""
	progress := func(string) {}
	if isTerminal(e.stderr) {
		progress = func(msg string) { fmt.Fprintf(e.stderr, "check: %s\n", msg) }
	}
	npm, pypi, notConfigured, err := registries(ctx, "")
	if err != nil {
		return exitStatus{check.ExitUsage, err.Error()}
	}
	o := check.Options{
		Target: target, Against: against, TempParent: checkTempParent,
		NPM: npm, PyPI: pypi, NotConfigured: notConfigured,
		RegistryOptions: registry.Options{Version: buildVersion()},
		Progress:        progress,
		Pipeline: func(ctx context.Context, home string, npm pipeline.NPMClient, pypi pipeline.PyPIClient) (pipeline.Options, error) {
			return checkPipelineOptions(ctx, e, home, npm, pypi)
		},
	}
	rep, err := check.Run(ctx, o)
	if err != nil {
		if reportSaysIt {
			fmt.Fprintln(e.stderr, check.Notice)
		}
		var ie *check.InputError
		if errors.As(err, &ie) {
			return exitStatus{check.ExitUsage, ie.Msg}
		}
		if ctx.Err() != nil {
			return exitStatus{check.ExitUsage, "interrupted; nothing was kept (the private home is removed)"}
		}
		return exitStatus{check.ExitUsage, err.Error()}
	}
	check.SetExit(rep, eo)
	if err := check.Render(out, rep, format, check.RenderOptions{Color: useColor}); err != nil {
		return exitStatus{check.ExitUsage, "write the report: " + err.Error()}
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return exitStatus{check.ExitUsage, fmt.Sprintf("--output %s: %v", output, err)}
		}
		fmt.Fprintf(e.stderr, "check: report written to %s; exit %d: %s\n", output, rep.Exit.Code, rep.Exit.Why)
	}
	if rep.Exit.Code != check.ExitClean {
		return exitStatus{code: rep.Exit.Code}
	}
	return nil
}

// checkPipelineOptions are the scheduled pass's pipeline options
// (pipelineOptions) for a run in the private home: the same extractor in a
// child process, the same checks and analyzer configuration; one package.
func checkPipelineOptions(ctx context.Context, e *env, home string, npm pipeline.NPMClient, pypi pipeline.PyPIClient) (pipeline.Options, error) {
	// The private home keeps its own store: ATTESTARI_EVIDENCE_URL is not
	// read, so nothing a check produces reaches the pass's evidence.
	store, err := evstore.Open(ctx, evstore.Config{Home: home})
	if err != nil {
		return pipeline.Options{}, err
	}
	an, err := analyzerFor(e, false)
	if err != nil {
		return pipeline.Options{}, err
	}
	ex, err := childExtractor()
	if err != nil {
		return pipeline.Options{}, err
	}
	o := pipeline.Options{
		Home: home, Concurrency: 1, NPM: npm, PyPI: pypi, Evidence: store,
		Extractor: ex, Checks: runningChecks(e, an, store), Logger: e.log, CodeCommit: "attestari-check " + buildVersion(),
		PromptVersion: analyzer.PromptVersion, PromptLayout: analyzer.PromptLayout, PromptSHA256: analyzer.PromptSHA256,
		DecideInputs: cycle.RecordDecideInputs(ctx, e.getenv, cycle.SharedHostsFromConfig),
		Now:          func() time.Time { return time.Now().UTC() },
	}
	if an != nil {
		o.AnalyzerModel = an.ID()
	}
	return o, nil
}
