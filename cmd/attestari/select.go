package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/selection"
	"github.com/attestari/attestari/internal/vocab"
)

// selectFlags are `attestari select`'s flags.
type selectFlags struct {
	out, names, registries, pypiDownloads, window, conflicts, record, replay, now *string
	top, maxPages                                                                 *int
	resume                                                                        *bool
}

func selectCommand() *command {
	var f selectFlags
	return &command{
		name:    "select",
		args:    "--out FILE",
		summary: "Draw the candidate list mechanically (methodology §4) and write it as a candidates file.",
		detail: `
Sources, one per selection:
  search (default)  the npm registry's search API over the query set ` + selection.Queries1.Name + `, every page
                    read; with --registries npm,pypi also the PyPI simple index's names that match
                    the set's PyPI queries (PyPI needs --pypi-downloads and --window).
  --names FILE      a plain list of names (one a line; pypi:NAME for PyPI; # comments), for a
                    machine that reaches no search API. Ranked in the list's order, or by the
                    downloads API when one is configured.
Ranking: npm by the downloads API's figure for --window when $` + registry.EnvNPMDownloadsURL + ` is set,
else by the search answer's downloads.monthly; PyPI by the dataset (its SHA-256 is its snapshot id).
A package with no figure is excluded as no_download_figure, never given one. The first --top per
registry that are not excluded (conflicts list, not found, malformed document, no release version,
unscoped duplicate of a scoped package) are selected at their newest version that is not a
pre-release; every other package that surfaced is listed under "excluded" with its reason.

Every answer read is recorded in --record DIR (default FILE.record) as it arrives. A selection
stopped by a failed request (429/5xx after the retries, a network failure, a malformed answer)
writes nothing and is continued with --resume; --replay DIR reproduces a recorded selection
offline, byte for byte. The conflicts list is $` + selection.EnvConflicts + ` (or --conflicts): see
docs/candidates.md for it and for the selection record.`,
		example: "attestari select --out candidates.json\n" +
			"attestari select --names testdata/pass/npm-names.txt --top 200 --out candidates.json\n" +
			"attestari select --out candidates.json --resume\n" +
			"attestari select --replay candidates.json.record --out again.json",
		flags: func(fs *flag.FlagSet) {
			f.out = fs.String("out", "", "candidates file to write (written whole, or not at all)")
			f.names = fs.String("names", "", "select from this list of names instead of searching")
			f.registries = fs.String("registries", "npm", "registries to search, comma-separated: npm, pypi")
			f.pypiDownloads = fs.String("pypi-downloads", "", "PyPI download dataset (CSV or JSON) PyPI projects are ranked by")
			f.window = fs.String("window", "", "download window FROM:TO (YYYY-MM-DD, inclusive) of the downloads API and the PyPI dataset (default for the downloads API: the last whole month before --now)")
			f.top = fs.Int("top", selection.DefaultTop, "packages selected per registry")
			f.maxPages = fs.Int("max-pages", selection.DefaultMaxPages, "search pages read per npm query at most")
			f.conflicts = fs.String("conflicts", "", "conflicts list (default $"+selection.EnvConflicts+")")
			f.record = fs.String("record", "", "recording directory (default FILE.record)")
			f.resume = fs.Bool("resume", false, "continue the selection recorded in the recording directory: recorded answers are reused, the rest fetched")
			f.replay = fs.String("replay", "", "answer every request from this recording; nothing is fetched")
			f.now = fs.String("now", "", "selection time, RFC 3339 (default the wall clock; a resume or replay uses the recorded one)")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error { return runSelect(ctx, e, fs, f) },
	}
}

func runSelect(ctx context.Context, e *env, fs *flag.FlagSet, f selectFlags) error {
	if fs.NArg() != 0 || *f.out == "" {
		return usageError{"give --out FILE"}
	}
	if *f.top <= 0 {
		return usageError{"--top must be at least 1"}
	}
	if *f.replay != "" && (*f.resume || *f.record != "") {
		return usageError{"--replay reads a recording; give it without --record or --resume"}
	}
	o := selection.Options{Top: *f.top, MaxPages: *f.maxPages, Progress: func(line string) {
		e.log.Info("select", "fetch", line)
	}}
	if *f.names != "" {
		if *f.registries != "npm" {
			return usageError{"--names selects from the list alone; give it without --registries"}
		}
		in, err := selection.ReadInput(*f.names)
		if err != nil {
			return err
		}
		o.Names = in
	} else {
		for _, r := range strings.Split(*f.registries, ",") {
			switch strings.TrimSpace(r) {
			case pipeline.RegistryNPM:
				o.SearchNPM = true
			case pipeline.RegistryPyPI:
				o.SearchPyPI = true
			default:
				return usageError{fmt.Sprintf("--registries: unknown registry %q (npm, pypi)", r)}
			}
		}
	}
	if *f.pypiDownloads != "" {
		in, err := selection.ReadInput(*f.pypiDownloads)
		if err != nil {
			return err
		}
		o.PyPIDownloads = in
	}
	if *f.window != "" {
		from, to, ok := strings.Cut(*f.window, ":")
		_, errF := time.Parse(time.DateOnly, from)
		_, errT := time.Parse(time.DateOnly, to)
		if !ok || errF != nil || errT != nil || to < from {
			return usageError{"--window is FROM:TO, two days YYYY-MM-DD, FROM not after TO"}
		}
		o.Window = &pipeline.Window{From: from, To: to}
	}
	conflicts := *f.conflicts
	if conflicts == "" {
		conflicts = e.getenv(selection.EnvConflicts)
	}
	if conflicts != "" {
		in, err := selection.ReadInput(conflicts)
		if err != nil {
			return err
		}
		o.Conflicts = in
	} else {
		fmt.Fprintf(e.stderr, "select: no conflicts list ($%s unset, no --conflicts): no package is excluded as Attestari's own\n", selection.EnvConflicts)
	}

	opts := registry.Options{Version: buildVersion()}
	// Clients are built whenever their configuration is there; a replay
	// never calls them. A registry that is not configured gets none, and
	// a selection that needs it says so.
	if base, err := registry.DefaultNPMRegistry(ctx); err == nil {
		if o.NPM, err = registry.NewNPM(base, opts); err != nil {
			return err
		}
	}
	if o.SearchPyPI {
		if base, err := registry.DefaultPyPIURL(ctx); err == nil {
			if o.PyPI, err = registry.NewPyPI(base, opts); err != nil {
				return err
			}
		}
	}
	if base, err := registry.DefaultNPMDownloadsURL(); err == nil {
		if o.Downloads, err = registry.NewNPMDownloads(base, opts); err != nil {
			return err
		}
	} else if !errors.Is(err, registry.ErrNotConfigured) {
		return err
	}

	rec, err := openRecording(f, o.Downloads != nil)
	if err != nil {
		return err
	}
	defer rec.Close()
	o.Recording = rec

	res, err := selection.Select(ctx, o)
	if err != nil {
		return err
	}
	if err := rundir.WriteFileAtomic(*f.out, res.Bytes); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "selected %d npm and %d PyPI package(s); excluded %d", res.Selected[pipeline.RegistryNPM], res.Selected[pipeline.RegistryPyPI], len(res.Candidates.Excluded))
	if len(res.Excluded) > 0 {
		fmt.Fprintf(e.stdout, " (%s)", selection.CountsLine(res.Excluded))
	}
	fmt.Fprintf(e.stdout, "\nwrote %s (sha256 %s); the answers it was drawn from are in %s\n", *f.out, vocab.SHA256Hex(res.Bytes), rec.Dir())
	return nil
}

// openRecording opens the recording a selection reads or writes.
func openRecording(f selectFlags, downloadsAPI bool) (*selection.Recording, error) {
	if *f.replay != "" {
		if *f.now != "" {
			return nil, usageError{"--replay uses the recorded selection time; give it without --now"}
		}
		return selection.Replay(*f.replay)
	}
	dir := *f.record
	if dir == "" {
		dir = *f.out + ".record"
	}
	if *f.resume {
		if *f.now != "" {
			return nil, usageError{"--resume uses the recorded selection time; give it without --now"}
		}
		return selection.Resume(dir)
	}
	now := time.Now().UTC()
	if *f.now != "" {
		t, err := time.Parse(time.RFC3339, *f.now)
		if err != nil {
			return nil, usageError{"--now is an RFC 3339 time such as 2026-12-01T00:00:00Z"}
		}
		now = t.UTC()
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	return selection.Create(dir, now, downloadsAPI)
}
