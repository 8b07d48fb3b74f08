package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/term"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/cycle"
	"github.com/attestari/attestari/internal/demo"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store"
)

// runFlags are the flags `run` and `cycle` share.
type runFlags struct {
	concurrency *int
	jsonLogs    *bool
	demo        *bool
}

func addRunFlags(fs *flag.FlagSet) runFlags {
	return runFlags{
		concurrency: fs.Int("concurrency", 0, "packages examined at once, and so extraction processes alive at once (default: the number of cores)"),
		jsonLogs:    fs.Bool("json-logs", false, "structured JSON logs instead of a progress bar"),
		demo:        fs.Bool("demo", false, "examine the built-in demo set (testdata/demo) served by an in-process fake registry on loopback; needs no network"),
	}
}

// registries builds the registry clients from configuration. A registry
// that is not configured gets no client: its packages become recorded fetch
// failures, never a crash. With demo, both point at the fake registry.
func registries(ctx context.Context, fakeURL string) (npm pipeline.NPMClient, pypi pipeline.PyPIClient, notConfigured map[string]string, err error) {
	opts := registry.Options{Version: buildVersion()}
	npmBase, pypiBase := fakeURL, fakeURL
	notConfigured = map[string]string{}
	if fakeURL == "" {
		// Nothing is said here: the run warns once, on the first package of
		// a registry that is not configured, so a run over npm packages
		// alone never mentions PyPI.
		var err error
		if npmBase, err = registry.DefaultNPMRegistry(ctx); err != nil {
			notConfigured[pipeline.RegistryNPM] = err.Error()
			npmBase = ""
		}
		if pypiBase, err = registry.DefaultPyPIURL(ctx); err != nil {
			notConfigured[pipeline.RegistryPyPI] = err.Error()
			pypiBase = ""
		}
	}
	if npmBase != "" {
		c, err := registry.NewNPM(npmBase, opts)
		if err != nil {
			return nil, nil, nil, err
		}
		npm = c
	}
	if pypiBase != "" {
		c, err := registry.NewPyPI(pypiBase, opts)
		if err != nil {
			return nil, nil, nil, err
		}
		pypi = c
	}
	return npm, pypi, notConfigured, nil
}

// demoSetup starts the fake registry with the demo set and writes its
// candidates file under home; the returned stop closes the server.
func demoSetup(e *env) (url, candidates string, stop func(), err error) {
	root := e.getenv("ATTESTARI_DEMO_DIR")
	if root == "" {
		root = filepath.Join("testdata", "demo")
	}
	fake, pkgs, err := demo.Registry(root)
	if err != nil {
		return "", "", nil, fmt.Errorf("%w (run from the repository root, or set ATTESTARI_DEMO_DIR)", err)
	}
	b, err := demo.Candidates(pkgs)
	if err != nil {
		return "", "", nil, err
	}
	candidates = filepath.Join(absHome(e), "demo-candidates.json")
	if err := os.MkdirAll(filepath.Dir(candidates), 0o755); err != nil {
		return "", "", nil, err
	}
	if err := rundir.WriteFileAtomic(candidates, b); err != nil {
		return "", "", nil, err
	}
	srv := httptest.NewServer(fake)
	return srv.URL, candidates, srv.Close, nil
}

// useDemo starts the demo's fake registry when demo is set and points
// *candidates at the demo's candidates file; otherwise it does nothing. stop
// always closes what was started.
func useDemo(e *env, demo bool, candidates *string) (fakeURL string, stop func(), err error) {
	if !demo {
		return "", func() {}, nil
	}
	url, cands, stop, err := demoSetup(e)
	if err != nil {
		return "", nil, err
	}
	*candidates = cands
	return url, stop, nil
}

func pipelineOptions(ctx context.Context, e *env, rf runFlags, fakeURL string) (pipeline.Options, error) {
	npm, pypi, notConfigured, err := registries(ctx, fakeURL)
	if err != nil {
		return pipeline.Options{}, err
	}
	store, err := evstore.Open(ctx, evstore.FromEnv(e.getenv, absHome(e)))
	if err != nil {
		return pipeline.Options{}, err
	}
	commit, dirty := pipeline.CodeVersion(".")
	an, err := analyzerFor(e, fakeURL != "")
	if err != nil {
		return pipeline.Options{}, err
	}
	ex, err := childExtractor()
	if err != nil {
		return pipeline.Options{}, err
	}
	o := pipeline.Options{
		Home: absHome(e), Concurrency: *rf.concurrency, NPM: npm, PyPI: pypi, NotConfigured: notConfigured, Evidence: store,
		Extractor: ex, Checks: runningChecks(e, an, store), Logger: e.log, CodeCommit: commit, CodeDirty: dirty,
		PromptVersion: analyzer.PromptVersion, PromptLayout: analyzer.PromptLayout, PromptSHA256: analyzer.PromptSHA256,
		DecideInputs: cycle.RecordDecideInputs(ctx, e.getenv, cycle.SharedHostsFromConfig),
	}
	if an != nil {
		o.AnalyzerModel = an.ID()
	}
	o.Progress, o.Logger = progressFor(e, *rf.jsonLogs)
	return o, nil
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func runCommand() *command {
	var candidates, resume, inventory *string
	var rf runFlags
	var qf queueFlags
	return &command{
		name:    "run",
		args:    "--candidates FILE | --resume RUN | --inventory RUN",
		summary: "Examine every package of a candidates file and write the run directory (fetch, surface, checks, gate).",
		detail: `
Writes $ATTESTARI_HOME/runs/<run-id>/: run.json (the header: input hashes, versions, code commit)
and findings.json, results.json, gradeable.json, surfaces.json, records.json, not_analyzed.json,
summary.json. A package that fails is a row in summary.json and never stops the run. A run that
is interrupted (Ctrl-C, or killed) continues with --resume: finished packages are not redone.
The candidates file's format is docs/candidates.md.

--inventory RUN is a separate opt-in pass over a finished run: it transcribes the routing
guidance of every readable entry ("call X first", ordering, rate, retry) into
runs/<id>/inventory.json (docs/inventory.md). Nothing that decides reads that file.
` + queueHelp,
		example: "attestari run --candidates testdata/candidates/corpus-npm.json\nattestari run --resume 20261130T071500Z-3f2a9c\nattestari run --demo\nattestari run --inventory 20261130T071500Z-3f2a9c\nattestari run --queue --candidates candidates/weekly.json --run-id weekly-49",
		flags: func(fs *flag.FlagSet) {
			candidates = fs.String("candidates", "", "candidates file (docs/candidates.md)")
			resume = fs.String("resume", "", "continue this run (id or directory)")
			inventory = fs.String("inventory", "", "transcribe the routing guidance of this finished run (id or directory) into its inventory.json; decides nothing")
			rf = addRunFlags(fs)
			qf = addQueueFlags(fs)
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if *inventory != "" {
				if fs.NArg() != 0 || *candidates != "" || *resume != "" || *rf.demo {
					return usageError{"--inventory RUN is a pass of its own: give it without --candidates, --resume or --demo"}
				}
				return runInventory(ctx, e, *inventory)
			}
			if fs.NArg() != 0 || (*candidates == "" && *resume == "" && !*rf.demo) {
				return usageError{"give --candidates FILE, --resume RUN or --demo"}
			}
			if err := qf.check(*resume, *rf.demo); err != nil {
				return err
			}
			fakeURL, stop, err := useDemo(e, *rf.demo, candidates)
			if err != nil {
				return err
			}
			defer stop()
			o, err := pipelineOptions(ctx, e, rf, fakeURL)
			if err != nil {
				return err
			}
			o.CandidatesPath, o.Resume, o.RunID = *candidates, *resume, *qf.runID
			if *qf.queue {
				return runQueued(ctx, e, o, *qf.runID, *qf.maxAttempts)
			}
			res, err := pipeline.Run(ctx, o)
			return reportRun(e, res, err)
		},
	}
}

// runInventory is `run --inventory`. The spans are transcribed by the
// offline analyzer's routing rules whatever ATTESTARI_ANALYZER names: the
// model analyzers answer with a count per entry, not spans (docs/inventory.md).
// The counts the run's own analyzer recorded are set beside them.
func runInventory(ctx context.Context, e *env, run string) error {
	tr := pipeline.OfflineTranscriber{}
	if name := e.getenv(analyzer.EnvAnalyzer); name != "" && name != analyzer.NameOffline && name != analyzer.NameNone {
		fmt.Fprintf(e.stderr, "inventory: %s=%s answers with routing counts only; spans are transcribed by %s and the run's counts set beside them\n", analyzer.EnvAnalyzer, name, tr.ID())
	}
	inv, dir, err := pipeline.RunInventory(ctx, pipeline.InventoryOptions{Home: absHome(e), Run: run, Transcriber: tr})
	if err != nil {
		return err
	}
	c := inv.Counts
	fmt.Fprintf(e.stdout, "inventory of run %s: %d entries read, %d with routing guidance, %d spans (transcriber %s; run analyzer %s; %d entries where the counts differ)\n  %s\n",
		inv.RunID, c.EntriesRead, c.EntriesWithGuidance, c.Spans, inv.Transcriber, cmp.Or(inv.RunAnalyzer, "none"), c.CountDiffers, filepath.Join(dir, pipeline.InventoryFile))
	return nil
}

func reportRun(e *env, res *pipeline.RunResult, err error) error {
	if errors.Is(err, pipeline.ErrCancelled) && res != nil {
		return fmt.Errorf("run %s interrupted; continue it with: attestari run --resume %s", res.RunID, res.RunID)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "run %s %s: %d packages (%d joined by delegation; %d examined now, %d carried over, %d with failures)\n  %s\n",
		res.RunID, res.Status, res.Packages, res.Joined, res.Examined, res.Carried, res.WithFailures, res.Dir)
	if res.WithFailures > 0 {
		printFailures(e.stdout, res.Dir)
	}
	return nil
}

// maxFailuresListed bounds the failures reportRun prints; summary.json has
// every one.
const maxFailuresListed = 20

// printFailures lists which packages failed and why, one line each, so an
// operator sees a misspelt name or a missing version without opening the
// run directory. The candidates the run could not examine as asked come
// first, under their own heading: decide sets them apart and nothing of
// them is published (methodology §4); every other failure follows.
func printFailures(w io.Writer, dir string) {
	f, err := rundir.Read(dir)
	if err != nil {
		fmt.Fprintf(w, "  (the failures are in %s: %v)\n", filepath.Join(dir, "summary.json"), err)
		return
	}
	notExamined := map[string]bool{}
	for _, n := range policy.NotExamined(f) {
		notExamined[n.Package.Key()] = true
	}
	var mine, rest []string
	for _, p := range f.Summary.Packages {
		for _, fl := range p.Failures {
			l := fmt.Sprintf("  %s: %s %s: %s", p.Package.Key(), fl.Stage, fl.Kind, fl.Message)
			if notExamined[p.Package.Key()] {
				mine = append(mine, l)
			} else {
				rest = append(rest, l)
			}
		}
	}
	n := 0
	list := func(heading string, lines []string) {
		if len(lines) == 0 || n >= maxFailuresListed {
			return
		}
		fmt.Fprintln(w, heading)
		for _, l := range lines {
			if n == maxFailuresListed {
				break
			}
			fmt.Fprintln(w, l)
			n++
		}
	}
	list(fmt.Sprintf("not examined (%d): the run could not examine what was asked; these are not decided or published; correct the candidates file or the configuration and run again:", len(notExamined)), mine)
	list("failures:", rest)
	if total := len(mine) + len(rest); total > n {
		fmt.Fprintf(w, "  ... and %d more (summary.json)\n", total-n)
	}
}

func cycleCommand() *command {
	var candidates *string
	var every *int
	var rf runFlags
	var db dbFlags
	var publishAt *string
	return &command{
		name:    "cycle",
		args:    "--candidates FILE [--every SECONDS]",
		summary: "One scheduled cycle: resume or start a run, decide it, diff it against the previous one, load.",
		detail: `
Resumes the latest failed or cancelled run over the candidates file, else starts a new one;
decides it (writing decisions.json/.jsonl/.md, gate_map.json and day-0 notices); diffs it
against the previous decided run over the same candidates file (diff.json: packages added and
removed, grade and verdict changes, findings added and removed, and per package name the tools
added, removed or changed: the rug-pull signal). With --every it repeats in-process and stops
cleanly on SIGTERM or Ctrl-C.

Publication waits 30 days ('attestari publish'). The demo (--demo) publishes at once with an
injected clock, marked demo, and loads it when a database is configured, so 'make run' serves it.`,
		example: "attestari cycle --candidates candidates/weekly.json\nattestari cycle --candidates candidates/weekly.json --every 604800\nattestari cycle --demo --start-postgres",
		flags: func(fs *flag.FlagSet) {
			candidates = fs.String("candidates", "", "candidates file (docs/candidates.md)")
			every = fs.Int("every", 0, "repeat every SECONDS (0: once)")
			publishAt = fs.String("demo-publish-at", "", "with --demo: the injected publication clock (default: 31 days after the decision)")
			rf = addRunFlags(fs)
			db = addDBFlags(fs)
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 0 || (*candidates == "" && !*rf.demo) {
				return usageError{"give --candidates FILE or --demo"}
			}
			fakeURL, stop, err := useDemo(e, *rf.demo, candidates)
			if err != nil {
				return err
			}
			defer stop()
			return withStore(ctx, e, db, func(st *store.Store) error {
				for {
					if err := oneCycle(ctx, e, rf, fakeURL, *candidates, st, *publishAt); err != nil {
						return err
					}
					if *every <= 0 {
						return nil
					}
					select {
					case <-ctx.Done():
						fmt.Fprintln(e.stdout, "cycle: stopped between cycles")
						return nil
					case <-time.After(time.Duration(*every) * time.Second):
					}
				}
			})
		},
	}
}

func oneCycle(ctx context.Context, e *env, rf runFlags, fakeURL, candidates string, st *store.Store, publishAt string) error {
	o, err := pipelineOptions(ctx, e, rf, fakeURL)
	if err != nil {
		return err
	}
	o.CandidatesPath = candidates
	commit, dirty := pipeline.CodeVersion(".")
	co := cycle.Options{
		Run: o,
		Decide: cycle.DecideOptions{
			Home: o.Home, Evidence: evstore.FromEnv(e.getenv, o.Home), Now: func() time.Time { return time.Now().UTC() }, CodeCommit: commit, CodeDirty: dirty,
			RegistryContacts: publish.RegistryContactsFromEnv(e.getenv), MachineSharedHosts: cycle.SharedHostsFromConfig,
		},
		Report: cycle.Report{
			Resuming: func(id string) { fmt.Fprintf(e.stdout, "cycle: resuming %s\n", id) },
			Ran:      func(res *pipeline.RunResult, err error) error { return reportRun(e, res, err) },
			Decided:  func(dir string, d *policy.Decisions) error { return printCounts(e, dir, d, false) },
			Diffed: func(diff policy.RunDiff) {
				fmt.Fprintf(e.stdout, "diff against %s: %d added, %d removed, %d changed, %d manifest changes\n",
					orNone(diff.PreviousRunID), len(diff.PackagesAdded), len(diff.PackagesRemoved), len(diff.Changes), len(diff.Manifests))
				if n := len(diff.PackagesNotExamined); n > 0 {
					fmt.Fprintf(e.stdout, "  %d packages of the previous run not examined this time (not removals): diff.json packages_not_examined\n", n)
				}
			},
		},
	}
	if fakeURL != "" {
		// The demo publishes at once, with an injected clock that says so.
		co.Publish = func(ctx context.Context, dir string, d *policy.Decisions) error {
			at := d.Header.DecidedAt.Add(31 * 24 * time.Hour)
			if publishAt != "" {
				var err error
				if at, err = time.Parse(time.RFC3339, publishAt); err != nil {
					return usageError{"--demo-publish-at must be RFC 3339"}
				}
			}
			pres, err := publishRun(ctx, e, dir, func() time.Time { return at }, publishLabel{demo: true, overridden: true}, "", st)
			if err != nil {
				return err
			}
			printPublished(e, pres)
			return nil
		}
	}
	return cycle.Once(ctx, co)
}

func orNone(s string) string {
	if s == "" {
		return "(none: first decided run over these candidates)"
	}
	return s
}
