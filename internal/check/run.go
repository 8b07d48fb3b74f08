package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/attestari/attestari/internal/cycle"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
)

// Options configure Run.
type Options struct {
	// Target is TARGET as given: a file, a directory or a registry spec.
	Target string
	// Against is "" (the newest published version, when the registry has
	// the package), AgainstNone (no comparison), or npm:NAME@VERSION /
	// pypi:NAME==VERSION.
	Against string
	// TempParent is where the private home is made; "" is os.TempDir().
	TempParent string
	// Pipeline returns the options of a run in home with the given registry
	// clients: the same extractor, checks and analyzer configuration as the
	// scheduled pass (cmd/attestari wires them). Run sets CandidatesPath.
	Pipeline func(ctx context.Context, home string, npm pipeline.NPMClient, pypi pipeline.PyPIClient) (pipeline.Options, error)
	// NPM and PyPI are the configured registries (nil: not configured,
	// NotConfigured says why), used for a registry target and --against.
	NPM           pipeline.NPMClient
	PyPI          pipeline.PyPIClient
	NotConfigured map[string]string
	// RegistryOptions are those of the stand-in registry's clients.
	RegistryOptions registry.Options
	// Now is the decision clock; default time.Now.
	Now func() time.Time
	// Progress, when set, hears what is being done (one short line each).
	Progress func(msg string)
	// madeHome, when set, is told the private home's path (tests).
	madeHome func(string)
}

// AgainstNone is Options.Against for no comparison (and no registry call
// beyond what a registry target itself needs).
const AgainstNone = "none"

// Run checks o.Target as the scheduled pass would: the pipeline's stages
// and the policy, in a private home under TempParent that is removed before
// Run returns, whatever happens (an error, a cancelled context). Nothing is
// read from or written to $ATTESTARI_HOME. A local target is served to the
// fetch stage by an in-process stand-in registry on loopback, so it goes
// through the same fetch, integrity check, surface, checks and gate as a
// published artifact; its registry documents are the stand-in's.
func Run(ctx context.Context, o Options) (rep *Report, err error) {
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	t, err := resolveTarget(ctx, o.Target)
	if err != nil {
		return nil, err
	}
	var base *Target
	if o.Against != "" && o.Against != AgainstNone {
		reg, name, version, ok, err := ParseRegistrySpec(o.Against)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, inputErr("--against %q: expected npm:NAME@VERSION, pypi:NAME==VERSION or none", o.Against)
		}
		base = &Target{Spec: o.Against, Kind: TargetRegistry, Registry: reg, Name: name, Version: version}
	}
	home, err := os.MkdirTemp(o.TempParent, "attestari-check-")
	if err != nil {
		return nil, fmt.Errorf("make a private home: %w", err)
	}
	defer os.RemoveAll(home)
	if o.madeHome != nil {
		o.madeHome(home)
	}

	npm, pypi := o.NPM, o.PyPI
	if t.local() {
		fake := fakeregistry.New()
		if t.Registry == pipeline.RegistryNPM {
			fake.AddNPM(t.Name, t.Version, t.Data, fakeregistry.NPMOptions{Extra: manifestExtra(t.Manifest)})
		} else {
			fake.AddPyPI(t.Name, t.Version, []fakeregistry.PyPIFile{{Filename: t.Filename, Content: t.Data}}, fakeregistry.PyPIOptions{})
		}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		if npm, err = registry.NewNPM(srv.URL, o.RegistryOptions); err != nil {
			return nil, err
		}
		if pypi, err = registry.NewPyPI(srv.URL, o.RegistryOptions); err != nil {
			return nil, err
		}
	} else if why, ok := o.NotConfigured[t.Registry]; ok && why != "" {
		return nil, inputErr("%s: the %s registry is not configured: %s", t.Target.Spec, t.Registry, why)
	}

	progress(fmt.Sprintf("examining %s:%s@%s (fetch, surface, checks, gate)", t.Registry, t.Name, t.Version))
	head, err := examine(ctx, o, home, "head", t.Registry, t.Name, t.Version, npm, pypi)
	if err != nil {
		return nil, err
	}
	r := Build(BuildInput{Target: t.Target, Package: head.ref, Files: head.files, Decisions: head.side.Decisions})

	if o.Against == AgainstNone {
		r.AgainstNote = "no comparison (--against none)"
		return &r, nil
	}
	if base == nil {
		base, r.AgainstNote = newestPublished(ctx, o, t)
		if base == nil {
			return &r, nil
		}
	}
	if base.Registry != t.Registry || base.Name != t.Name {
		return nil, inputErr("--against %s names another package than the target (%s:%s)", base.Spec, t.Registry, t.Name)
	}
	if why, ok := o.NotConfigured[base.Registry]; ok && why != "" {
		return nil, inputErr("--against %s: the %s registry is not configured: %s", base.Spec, base.Registry, why)
	}
	progress(fmt.Sprintf("examining the published %s:%s@%s to compare", base.Registry, base.Name, base.Version))
	old, err := examine(ctx, o, home, "base", base.Registry, base.Name, base.Version, o.NPM, o.PyPI)
	if err != nil {
		return nil, err
	}
	if rowOf(old.side.Decisions, old.ref) == nil {
		r.AgainstNote = fmt.Sprintf("%s could not be examined: %s", base.Spec, failureLine(old.files, old.ref))
		return &r, nil
	}
	r.Against = Compare(base.Spec, old.side, head.side)
	r.AgainstNote = ""
	return &r, nil
}

// examined is one run of the pipeline and its decision.
type examined struct {
	ref   rundir.PackageRef
	files *rundir.Files
	side  Side
}

func examine(ctx context.Context, o Options, home, label, reg, name, version string, npm pipeline.NPMClient, pypi pipeline.PyPIClient) (*examined, error) {
	po, err := o.Pipeline(ctx, home, npm, pypi)
	if err != nil {
		return nil, err
	}
	cands := filepath.Join(home, label+"-candidates.json")
	b, err := candidatesFile(reg, name, version)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(cands, b, 0o600); err != nil {
		return nil, err
	}
	po.Home, po.CandidatesPath, po.Resume = home, cands, ""
	res, err := pipeline.Run(ctx, po)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, pipeline.ErrCancelled) {
			return nil, fmt.Errorf("check interrupted: %w", context.Cause(ctx))
		}
		return nil, err
	}
	d, err := cycle.Decide(ctx, res.Dir, cycle.DecideOptions{Home: home, Now: func() time.Time { return o.Now().UTC() }})
	if err != nil {
		return nil, fmt.Errorf("decide: %w", err)
	}
	files, err := rundir.Read(res.Dir)
	if err != nil {
		return nil, err
	}
	ref := rundir.PackageRef{Registry: reg, Name: name, Version: version}
	for _, p := range files.Summary.Packages {
		if p.Package.Registry == reg && p.Package.Name == name {
			ref = p.Package
		}
	}
	return &examined{ref: ref, files: files, side: Side{Package: ref, Decisions: d, Surfaces: files.Surfaces}}, nil
}

func failureLine(f *rundir.Files, ref rundir.PackageRef) string {
	for _, p := range f.Summary.Packages {
		if p.Package == ref && len(p.Failures) > 0 {
			x := p.Failures[0]
			return fmt.Sprintf("%s %s: %s", x.Stage, x.Kind, x.Message)
		}
	}
	return "no decision row"
}

// newestPublished is the default --against: the registry's newest version
// of the target's package, unless it is the target's own version. A nil
// target comes with the note that says why there is no comparison.
func newestPublished(ctx context.Context, o Options, t *resolved) (*Target, string) {
	if why, ok := o.NotConfigured[t.Registry]; ok && why != "" {
		return nil, "no comparison: the " + t.Registry + " registry is not configured (" + why + ")"
	}
	var newest string
	switch t.Registry {
	case pipeline.RegistryNPM:
		if o.NPM == nil {
			return nil, "no comparison: no npm registry is configured"
		}
		p, err := o.NPM.Packument(ctx, t.Name)
		if errors.Is(err, registry.ErrNotFound) {
			return nil, "no comparison: " + t.Name + " is not published yet"
		}
		if err != nil {
			return nil, "no comparison: the registry could not be asked for " + t.Name + ": " + err.Error()
		}
		newest = p.DistTags["latest"]
	default:
		if o.PyPI == nil {
			return nil, "no comparison: no PyPI index is configured"
		}
		p, err := o.PyPI.Project(ctx, t.Name)
		if errors.Is(err, registry.ErrNotFound) {
			return nil, "no comparison: " + t.Name + " is not published yet"
		}
		if err != nil {
			return nil, "no comparison: the index could not be asked for " + t.Name + ": " + err.Error()
		}
		newest = p.Info.Version
	}
	if newest == "" {
		return nil, "no comparison: the registry names no newest version of " + t.Name
	}
	if newest == t.Version {
		return nil, "no comparison: the target is the newest published version (" + newest + "); give --against for another"
	}
	spec := "npm:" + t.Name + "@" + newest
	if t.Registry == pipeline.RegistryPyPI {
		spec = "pypi:" + t.Name + "==" + newest
	}
	return &Target{Spec: spec, Kind: TargetRegistry, Registry: t.Registry, Name: t.Name, Version: newest}, ""
}

// manifestExtra is package.json as the stand-in registry's version
// manifest carries it (the registry publishes package.json's members), less
// what the registry itself sets.
func manifestExtra(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch k {
		case "name", "version", "dist", "_id", "_npmUser", "maintainers", "_resolved", "_integrity":
			continue
		}
		out[k] = v
	}
	return out
}

// candidatesFile is the one-candidate selection record of a check
// (docs/candidates.md): hand-picked, no queries.
func candidatesFile(reg, name, version string) ([]byte, error) {
	doc := map[string]any{
		"schema": "attestari.candidates/v1",
		"selection": map[string]any{
			"queries": []any{}, "ranking_rule": "attestari check: the one target a publisher asked to check", "page_size": 0,
			"window": nil, "fetched_at": []any{}, "datasets": []any{},
		},
		"candidates": []any{map[string]any{"registry": reg, "name": name, "version": version, "rank": 1}},
		"excluded":   []any{},
	}
	return json.MarshalIndent(doc, "", "  ")
}
