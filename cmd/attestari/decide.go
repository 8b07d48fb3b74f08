package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/attestari/attestari/internal/cycle"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
)

func decideCommand() *command {
	var asJSON *bool
	return &command{
		name:    "decide",
		args:    "RUN_ID|RUN_DIR",
		summary: "Decide a run: guards G1-G7, decisions D1-D6, grades; writes decisions.json/.jsonl/.md and gate_map.json.",
		detail: `
Reads only the run directory and the evidence store ($ATTESTARI_HOME/evidence): no network,
no model. Refuses a run whose methodology and extractor versions the version table does not
allow. A rerun over unchanged inputs writes identical rows apart from decided_at.`,
		example: "attestari decide 20261130T071500Z-3f2a9c\nattestari decide ./var/runs/20261130T071500Z-3f2a9c",
		flags: func(fs *flag.FlagSet) {
			asJSON = fs.Bool("json", false, "print the decision counts as JSON instead of a table")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"expected one run id or run directory"}
			}
			dir, err := pipeline.RunDir(absHome(e), fs.Arg(0))
			if err != nil {
				return err
			}
			d, err := decideRun(ctx, e, dir)
			if err != nil {
				return err
			}
			return printCounts(e, dir, d, *asJSON)
		},
	}
}

// decideRun decides dir and writes its decision files and day-0 notices
// (internal/cycle). A run written before methodology 2.3.5 records no shared
// hosts; it is decided with this machine's, as it was then, and stamped so.
func decideRun(ctx context.Context, e *env, dir string) (*policy.Decisions, error) {
	commit, dirty := pipeline.CodeVersion(".")
	return cycle.Decide(ctx, dir, cycle.DecideOptions{
		Home:               absHome(e),
		Evidence:           evstore.FromEnv(e.getenv, absHome(e)),
		Now:                func() time.Time { return time.Now().UTC() },
		CodeCommit:         commit,
		CodeDirty:          dirty,
		RegistryContacts:   publish.RegistryContactsFromEnv(e.getenv),
		MachineSharedHosts: cycle.SharedHostsFromConfig,
	})
}

func printCounts(e *env, dir string, d *policy.Decisions, asJSON bool) error {
	c := d.Header.Counts
	if asJSON {
		return writeJSONTo(e.stdout, c)
	}
	fmt.Fprintf(e.stdout, "decided %s under methodology %s\n", dir, d.Header.MethodologyVersion)
	fmt.Fprintf(e.stdout, "  packages %d: graded %d, not gradeable %d, out of scope %d\n", c.Packages, c.Graded, c.NotGradeable, c.OutOfScope)
	for _, g := range []string{"A", "B", "C", "F"} {
		if n := c.Grades[g]; n > 0 {
			fmt.Fprintf(e.stdout, "  grade %s: %d\n", g, n)
		}
	}
	for _, code := range slices.Sorted(maps.Keys(c.Reasons)) {
		fmt.Fprintf(e.stdout, "  refused %-28s %d\n", code, c.Reasons[code])
	}
	fmt.Fprintf(e.stdout, "  findings: %d confirmed, %d noted, %d withheld\n", c.Findings.Confirmed, c.Findings.Noted, c.Findings.Withheld)
	if len(d.NotExamined) > 0 {
		// Not packages of the decision: the operator's to correct (§4).
		fmt.Fprintf(e.stdout, "  not examined %d (not in the counts above, never published; correct the candidates file or the configuration):\n", len(d.NotExamined))
		for _, n := range d.NotExamined {
			fmt.Fprintf(e.stdout, "    %s: %s: %s\n", n.Package.Key(), n.Kind, n.Reason)
		}
	}
	fmt.Fprintf(e.stdout, "wrote decisions.json, decisions.jsonl, decisions.md, gate_map.json\n")
	return nil
}
