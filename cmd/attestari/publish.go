package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"time"

	"github.com/attestari/attestari/internal/cycle"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
)

// dbFlags are the flags of every command that may load into PostgreSQL.
type dbFlags struct {
	startPG *bool
	noLoad  *bool
}

func addDBFlags(fs *flag.FlagSet) dbFlags {
	return dbFlags{
		startPG: fs.Bool("start-postgres", false, "when DATABASE_URL is unset, load into the private cluster under $ATTESTARI_HOME/pg (started for the command)"),
		noLoad:  fs.Bool("no-load", false, "do not load into PostgreSQL"),
	}
}

// withStore opens the database when one is configured (DATABASE_URL, or
// --start-postgres) and calls f with it; with none, f gets nil.
func withStore(ctx context.Context, e *env, d dbFlags, f func(*store.Store) error) error {
	if *d.noLoad || (e.getenv("DATABASE_URL") == "" && !*d.startPG) {
		return f(nil)
	}
	cl, err := startDatabase(ctx, e)
	if err != nil {
		return err
	}
	defer cl.Stop(context.WithoutCancel(ctx))
	st, err := store.Open(ctx, cl.URL, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		return err
	}
	return f(st)
}

func publishCommand() *command {
	var now *string
	var override *bool
	var previous *string
	var db dbFlags
	return &command{
		name:    "publish",
		args:    "RUN_ID|RUN_DIR",
		summary: "Publish a decided run after its 30-day disclosure period, applying appeals; load it into PostgreSQL.",
		detail: `
Refuses a run decided under another methodology version or document hash, a run before day 30
after its day 0, and a run whose high or medium findings have no day-0 notice (written by
'attestari decide'). Never overwrites a publication: a newer one supersedes the older, which
stays readable at $ATTESTARI_HOME/publications/<id>/. Evidence carrying personal data is
withheld and its package published as not_gradeable (evidence_unpublishable).

Loads the publication into PostgreSQL in one transaction when DATABASE_URL is set (or with
--start-postgres); a failed load leaves the previous publication served. When an earlier
publish of the run wrote its publication and never loaded it (killed in between, or a failed
load), publish loads that one and writes nothing new; publishing again then supersedes it.

--now replaces the wall clock with an instant, which skips the 30-day disclosure period
(methodology §19). It is refused unless --override-disclosure-period is also given; the
publication then records that its disclosure period was overridden, and the API and the
website label it so on every page that shows it. The demo ('attestari cycle --demo')
publishes with an injected clock of its own and is labelled demo.`,
		example: "attestari publish 20261130T071500Z-3f2a9c\nattestari publish --now 2027-01-01T00:00:00Z --override-disclosure-period --start-postgres ./var/runs/demo",
		flags: func(fs *flag.FlagSet) {
			now = fs.String("now", "", "pretend the clock reads this RFC 3339 instant; needs --override-disclosure-period")
			override = fs.Bool("override-disclosure-period", false, "with --now: publish before the 30-day disclosure period has passed in real time; the publication records the override and is labelled on every page")
			previous = fs.String("supersedes", "", "publication id this one supersedes (default: the latest of the same run or candidates file; '-' for none)")
			db = addDBFlags(fs)
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"expected one run id or run directory"}
			}
			dir, err := pipeline.RunDir(absHome(e), fs.Arg(0))
			if err != nil {
				return err
			}
			clock := func() time.Time { return time.Now().UTC() }
			if *override && *now == "" {
				return usageError{"--override-disclosure-period goes with --now INSTANT, the clock that overrides the disclosure period"}
			}
			if *now != "" {
				if !*override {
					return usageError{errNowNeedsOverride}
				}
				t, err := time.Parse(time.RFC3339, *now)
				if err != nil {
					return usageError{fmt.Sprintf("--now %q is not an RFC 3339 instant such as 2027-01-01T00:00:00Z", *now)}
				}
				clock = func() time.Time { return t.UTC() }
			}
			return withStore(ctx, e, db, func(st *store.Store) error {
				res, err := publishRun(ctx, e, dir, clock, publishLabel{overridden: *now != ""}, *previous, st)
				if err != nil {
					return err
				}
				printPublished(e, res)
				return nil
			})
		},
	}
}

// errNowNeedsOverride is the refusal of --now alone.
const errNowNeedsOverride = "--now replaces the real clock and so skips the 30-day disclosure period that lets publishers answer their notices before anything is public (methodology §19); " +
	"pass --override-disclosure-period as well to publish anyway: the publication then records the override and every page showing it is labelled. Nothing was written."

// publishLabel says how a publication's clock was set: by the demo cycle
// (demo), or by an operator's --now --override-disclosure-period.
type publishLabel struct{ demo, overridden bool }

func publishRun(ctx context.Context, e *env, dir string, clock func() time.Time, label publishLabel, previous string, st *store.Store) (*publish.Result, error) {
	blobs, err := cycle.OpenEvidence(ctx, evstore.FromEnv(e.getenv, absHome(e)), absHome(e), dir)
	if err != nil {
		return nil, err
	}
	key, err := signingKeyFor(e, label.demo)
	if err != nil {
		return nil, err
	}
	opts := publish.Options{
		SigningKey: key,
		RunDir:     dir,
		Home:       filepath.Join(absHome(e), "publications"),
		Blobs:      blobs,
		Now:        clock,
		Demo:       label.demo,
		Previous:   previous,

		DisclosurePeriodOverridden: label.overridden,
	}
	if st != nil {
		opts.Load, opts.IsLoaded = st.LoadPublication, st.PublicationLoaded
	}
	res, err := publish.Publish(ctx, opts)
	switch {
	case errors.Is(err, publish.ErrTooEarly):
		return nil, fmt.Errorf("%w (publication waits 30 days after day 0; nothing was written)", err)
	case errors.Is(err, publish.ErrNoticeMissing):
		return nil, fmt.Errorf("%w (run 'attestari decide' on the run to write its day-0 notices first)", err)
	}
	return res, err
}

func printPublished(e *env, res *publish.Result) {
	if res.Recovered {
		fmt.Fprintf(e.stdout, "loaded %s from %s: an earlier publish wrote it and did not load it; nothing new was published (publish again to supersede it)\n", res.ID, res.Dir)
		return
	}
	fmt.Fprintf(e.stdout, "published %s at %s\n", res.ID, res.Dir)
	if res.Supersedes != "" {
		fmt.Fprintf(e.stdout, "  supersedes %s (still readable at its own address)\n", res.Supersedes)
	}
	if res.Publication != nil && res.Publication.Header.Demo {
		fmt.Fprintf(e.stdout, "  DEMO: published with an injected clock (%s); not a real disclosure\n", res.Publication.Header.PublishedAt.Format(time.RFC3339))
	} else if res.Publication != nil && res.Publication.Header.DisclosurePeriodOverridden {
		fmt.Fprintf(e.stdout, "  DISCLOSURE PERIOD OVERRIDDEN: published with an injected clock (%s); the publication and every page showing it say so\n", res.Publication.Header.PublishedAt.Format(time.RFC3339))
	}
	for _, w := range res.Withheld {
		fmt.Fprintf(e.stdout, "  withheld %s (%s): %s\n", w.FindingID, w.Package, w.Reason)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stdout, "  warning: %s\n", w)
	}
	if res.Loaded {
		fmt.Fprintln(e.stdout, "  loaded into PostgreSQL")
	} else {
		fmt.Fprintln(e.stdout, "  not loaded (no database configured: set DATABASE_URL or pass --start-postgres, or run 'attestari load')")
	}
}

func loadCommand() *command {
	var db dbFlags
	return &command{
		name:    "load",
		args:    "PUBLICATION_ID|PUBLICATION_DIR",
		summary: "Load a publication into PostgreSQL: one transaction, idempotent.",
		detail: `
Reads $ATTESTARI_HOME/publications/<id>/ (or the directory given), checks every file against
the hashes its header lists, and loads it in one transaction. Loading the same publication
twice changes nothing; a failure leaves what was served before.`,
		example: "attestari load 20261130T071500Z-3f2a9c\nDATABASE_URL=postgres://attestari@127.0.0.1:5432/attestari attestari load ./var/publications/demo",
		flags: func(fs *flag.FlagSet) {
			db = addDBFlags(fs)
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"expected one publication id or directory"}
			}
			dir := fs.Arg(0)
			if publish.ValidID(dir) {
				dir = filepath.Join(absHome(e), "publications", dir)
			}
			p, err := publish.Read(dir)
			if err != nil {
				return err
			}
			if e.getenv("DATABASE_URL") == "" && !*db.startPG {
				return usageError{"no database: set DATABASE_URL or pass --start-postgres"}
			}
			return withStore(ctx, e, db, func(st *store.Store) error {
				if err := st.LoadPublication(ctx, p); err != nil {
					return err
				}
				// Fresh planner statistics: lookups right after a large load
				// otherwise plan against an empty table.
				if err := st.Analyze(ctx); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "loaded publication %s (%d packages, %d findings)\n", p.Header.ID, len(p.Packages), len(p.Findings))
				return nil
			})
		},
	}
}

func appealCommand() *command {
	var finding, by, grounds, outcome, note, run *string
	return &command{
		name:    "appeal",
		args:    "file | resolve APPEAL_ID",
		summary: "Record an appeal against a finding, or its resolution, in the run's append-only appeals.json.",
		detail: `
file     --finding ID --by WHO --grounds TEXT   records a new appeal and prints its id
resolve  APPEAL_ID --outcome upheld|dismissed|withdrawn --note TEXT

The log is append-only: each event carries the hash of the one before, so an edited or deleted
event is detected and refused. Publication applies it: an upheld appeal publishes the finding
as withdrawn_on_appeal and recomputes the grade; an open one shows under_appeal. Grounds and
notes are never published.`,
		example: "attestari appeal file --finding f-3c1e0b --by 'publisher of @scope/server' --grounds 'the quoted line is in a test fixture'\nattestari appeal resolve ap-91d2c4e0a1b2c3d4 --outcome upheld --note 'quote is from vendored test data'",
		flags: func(fs *flag.FlagSet) {
			finding = fs.String("finding", "", "finding id (file)")
			by = fs.String("by", "", "who files the appeal (file)")
			grounds = fs.String("grounds", "", "the grounds, never published (file)")
			outcome = fs.String("outcome", "", "upheld, dismissed or withdrawn (resolve)")
			note = fs.String("note", "", "resolution note, never published (resolve)")
			run = fs.String("run", "", "run id or directory (default: found from the finding or appeal id)")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			runsRoot := filepath.Join(absHome(e), "runs")
			now := time.Now().UTC()
			runDir := func(find func(string, string) (string, error), id string) (string, error) {
				if *run != "" {
					return pipeline.RunDir(absHome(e), *run)
				}
				return find(runsRoot, id)
			}
			switch fs.Arg(0) {
			case "file":
				if fs.NArg() != 1 || *finding == "" || *by == "" || *grounds == "" {
					return usageError{"appeal file needs --finding, --by and --grounds"}
				}
				dir, err := runDir(publish.FindRunForFinding, *finding)
				if err != nil {
					return err
				}
				id, err := publish.FileAppeal(dir, *finding, *by, *grounds, now)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "filed appeal %s against %s in %s\n", id, *finding, dir)
				return nil
			case "resolve":
				if fs.NArg() != 2 || *outcome == "" || *note == "" {
					return usageError{"appeal resolve needs APPEAL_ID, --outcome and --note"}
				}
				dir, err := runDir(publish.FindRunForAppeal, fs.Arg(1))
				if err != nil {
					return err
				}
				if err := publish.ResolveAppeal(dir, fs.Arg(1), *outcome, *note, now); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "resolved appeal %s as %s\n", fs.Arg(1), *outcome)
				return nil
			}
			return usageError{"expected file or resolve"}
		},
	}
}
