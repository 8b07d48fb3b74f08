package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
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

// decideRun decides dir and writes its decision files.
func decideRun(ctx context.Context, e *env, dir string) (*policy.Decisions, error) {
	store, err := evidence.Open(evidenceRoot(e, dir))
	if err != nil {
		return nil, err
	}
	commit, dirty := pipeline.CodeVersion(".")
	opts := policy.Options{
		Now:          func() time.Time { return time.Now().UTC() },
		CodeCommit:   commit,
		CodeDirty:    dirty,
		OpenArtifact: openArtifact,
	}
	if files, err := rundir.Read(dir); err == nil {
		opts.ContextTags = contextTagger(files, store, sharedHostsFromConfig(ctx)...)
	}
	d, err := policy.Decide(ctx, dir, store, opts)
	if err != nil {
		return nil, err
	}
	if err := policy.WriteDecisions(dir, d); err != nil {
		return nil, err
	}
	// Day 0: a notice for every high or medium finding, to the registry's
	// security contact and the publisher. Files for an operator; nothing is sent.
	if _, err := publish.Notices(ctx, dir, d, time.Now().UTC(), publish.NoticeOptions{
		Blobs: store, RegistryContacts: publish.RegistryContactsFromEnv(e.getenv),
	}); err != nil {
		return nil, fmt.Errorf("write day-0 notices: %w", err)
	}
	return d, nil
}

// sharedHostsFromConfig are the hosts of the registries this machine is
// configured with: never a publisher's own domain (methodology §5).
func sharedHostsFromConfig(ctx context.Context) []string {
	var out []string
	for _, f := range []func(context.Context) (string, error){registry.DefaultNPMRegistry, registry.DefaultPyPIURL} {
		if u, err := f(ctx); err == nil {
			if p, err := url.Parse(u); err == nil && p.Hostname() != "" {
				out = append(out, p.Hostname())
			}
		}
	}
	return out
}

// evidenceRoot is the store a run cites: its own evidence/ when it carries
// one (fixtures and copied runs do), else $ATTESTARI_HOME/evidence.
func evidenceRoot(e *env, runDir string) string {
	own := filepath.Join(runDir, "evidence")
	if fi, err := os.Stat(filepath.Join(own, "blobs")); err == nil && fi.IsDir() {
		return own
	}
	return filepath.Join(absHome(e), "evidence")
}

// openArtifact reads a stored artifact so capabilities can be verified against its members.
func openArtifact(ctx context.Context, data []byte) (func(string) ([]byte, bool), error) {
	a, err := artifact.Read(ctx, data, artifact.DetectFormat("", data), artifact.Limits{})
	if err != nil {
		return nil, err
	}
	if a.Outcome != "ok" {
		return nil, fmt.Errorf("artifact unreadable: %s", a.Reason)
	}
	return a.Bytes, nil
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
