package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Delegation (methodology §4). A package whose surface row says it hands
// its server to another package (Surface.DelegatesTo, found by the
// extractor) has the target's specifier resolved at the target's registry
// while the delegating package is examined: the highest release the
// specifier admits, pre-releases only when named (registry.ResolveVersion
// for npm, registry.ResolvePyPI for PyPI). The target then joins the same
// run at exactly that version and is examined and decided like a selected
// package, whatever its download figures.
//
// The run proceeds in waves: the candidates first, then the targets their
// delegations resolved to that are not already packages of the run, then
// those targets' targets, up to MaxDelegationHops waves after the first.
// Each wave is computed from the per-package files alone, so a resumed run
// recomputes the same waves and carries over every target that finished
// before an interruption. A target already in the run (selected, or joined
// through another chain) is examined once; both records are on its rows.
// A cycle ends because a package of the run never joins twice.
//
// Delegation changes nothing about the delegating package's own rows: the
// resolution runs after its gate, its registry document is indexed under a
// kind of its own (RecordDelegationNPM, RecordDelegationPyPI) that no check
// reads, and a resolution that fails is recorded on delegates_to
// (not_followed) and as a "delegation" stage failure, which no guard reads.

// MaxDelegationHops is how far a chain of delegations is followed from a
// selected package: its target is one hop away, that target's target two.
const MaxDelegationHops = 3

// StageDelegation is the stage that resolves a delegation's specifier.
const StageDelegation = "delegation"

// Record kinds of the registry documents a delegation was resolved against.
// They are not npm_packument / pypi_json because they describe another
// package than the row's, and a check reading its package's documents by
// kind must never pick them up.
const (
	RecordDelegationNPM  = "delegation_npm_packument"
	RecordDelegationPyPI = "delegation_pypi_json"
)

// NotFollowed codes besides a resolution failure's kind.
const (
	// NotFollowedHopLimit: the target is more than MaxDelegationHops from
	// every selected package that leads to it.
	NotFollowedHopLimit = "hop_limit"
	// NotFollowedUnknownRegistry: the extractor named a registry this
	// version does not examine.
	NotFollowedUnknownRegistry = "unknown_registry"
)

// Summary counts of delegation.
const (
	CountDelegating              = "delegating"
	CountJoinedByDelegation      = "joined_by_delegation"
	countDelegationNotFollowedPf = "delegation_not_followed:"
)

// job is one package to examine: a candidate of the file (hop 0), or a
// delegation target at the version its specifier resolved to.
type job struct {
	c   Candidate
	hop int
}

func (j job) joined() bool { return j.hop > 0 }

// delegationStage resolves w's delegation, if its surface names one. It
// writes the outcome on a copy of the surface's DelegatesTo, so the
// extractor's row is never shared.
func (r *runner) delegationStage(ctx context.Context, w *pkgWork) {
	s := w.pf.Surface
	if s == nil || s.DelegatesTo == nil {
		return
	}
	d := *s.DelegatesTo
	d.ResolvedVersion, d.ResolvedHow, d.NotFollowed, d.NotFollowedDetail = "", "", "", ""
	nf := len(w.pf.Summary.Failures)
	r.stage(w, StageDelegation, func() error {
		res, err := r.resolveDelegation(ctx, w, d)
		if err != nil {
			return err
		}
		d.ResolvedVersion, d.ResolvedHow = res.Version, res.How
		return nil
	})
	if len(w.pf.Summary.Failures) > nf {
		// The stage's failure row (a panic included) is why.
		fl := w.pf.Summary.Failures[len(w.pf.Summary.Failures)-1]
		d.ResolvedVersion, d.ResolvedHow = "", ""
		d.NotFollowed, d.NotFollowedDetail = fl.Kind, fl.Message
	}
	s.DelegatesTo = &d
}

// resolveDelegation asks the target's registry for its versions, records
// the document on the delegating package, and resolves the specifier.
func (r *runner) resolveDelegation(ctx context.Context, w *pkgWork, d rundir.Delegation) (registry.Resolution, error) {
	switch d.Registry {
	case RegistryNPM:
		if r.o.NPM == nil {
			return registry.Resolution{}, r.notConfigured(RegistryNPM)
		}
		p, err := r.o.NPM.Packument(ctx, d.Name)
		if p != nil {
			resp := p.Response
			resp.Record.Kind = RecordDelegationNPM
			if _, serr := r.record(ctx, w, resp); serr != nil {
				return registry.Resolution{}, serr
			}
		}
		if err != nil {
			var resp registry.Response
			if p != nil {
				resp = p.Response
			}
			return registry.Resolution{}, kinded(outcomeOf(resp, err), err)
		}
		res, err := registry.ResolveVersion(p, d.Specifier)
		if err != nil {
			return res, kinded(resolveKind(err), err)
		}
		if p.Versions[res.Version] == nil {
			return res, kinded(vocab.RecordMalformed, fmt.Errorf("packument of %s lists %s but has no manifest for it", d.Name, res.Version))
		}
		return res, nil
	case RegistryPyPI:
		if r.o.PyPI == nil {
			return registry.Resolution{}, r.notConfigured(RegistryPyPI)
		}
		proj, err := r.o.PyPI.Project(ctx, d.Name)
		if proj != nil {
			resp := proj.Response
			resp.Record.Kind = RecordDelegationPyPI
			if _, serr := r.record(ctx, w, resp); serr != nil {
				return registry.Resolution{}, serr
			}
		}
		if err != nil {
			var resp registry.Response
			if proj != nil {
				resp = proj.Response
			}
			return registry.Resolution{}, kinded(outcomeOf(resp, err), err)
		}
		res, err := registry.ResolvePyPI(proj, d.Specifier)
		if err != nil {
			return res, kinded(resolveKind(err), err)
		}
		return res, nil
	}
	return registry.Resolution{}, kinded(NotFollowedUnknownRegistry, fmt.Errorf("delegation to %q on registry %q, which this version does not examine", d.Name, d.Registry))
}

// targetOf is the package a resolved delegation names, or false when the
// delegation did not resolve.
func targetOf(s *rundir.Surface) (rundir.PackageRef, bool) {
	if s == nil || s.DelegatesTo == nil || s.DelegatesTo.ResolvedVersion == "" {
		return rundir.PackageRef{}, false
	}
	d := s.DelegatesTo
	return rundir.PackageRef{Registry: d.Registry, Name: d.Name, Version: d.ResolvedVersion}, true
}

// nextWave is the targets of wave's packages that are not packages of the
// run yet, as jobs at hop, in key order so that the wave (and the files it
// writes) does not depend on the order packages finished in. present holds
// the keys of every package of the run so far and gains the new ones.
func nextWave(wave []*packageFile, present map[string]bool, hop int) []job {
	var out []job
	for _, pf := range wave {
		t, ok := targetOf(pf.Surface)
		if !ok || present[t.Key()] {
			continue
		}
		present[t.Key()] = true
		out = append(out, job{c: Candidate{Registry: t.Registry, Name: t.Name, Version: t.Version}, hop: hop})
	}
	slices.SortFunc(out, func(a, b job) int {
		return strings.Compare(a.c.Registry+":"+a.c.Name+"@"+a.c.Version, b.c.Registry+":"+b.c.Name+"@"+b.c.Version)
	})
	return out
}

// annotateDelegations fills, on the assembled rows, what is known only once
// every package of the run is: each package's delegated_from (every
// delegating package of the run, in key order) and hop_limit on a resolved
// delegation whose target is not a package of the run. It copies what it
// changes, so the per-package files' rows are never altered.
func annotateDelegations(f *rundir.Files) {
	present := map[string]bool{}
	for _, p := range f.Summary.Packages {
		present[p.Package.Key()] = true
	}
	from := map[string][]rundir.PackageRef{}
	for i := range f.Surfaces {
		s := &f.Surfaces[i]
		if s.DelegatesTo == nil {
			continue
		}
		f.Summary.Counts[CountDelegating]++
		t, ok := targetOf(s)
		switch {
		case ok && present[t.Key()]:
			if !slices.Contains(from[t.Key()], s.Package) {
				from[t.Key()] = append(from[t.Key()], s.Package)
			}
		case ok:
			d := *s.DelegatesTo
			d.NotFollowed = NotFollowedHopLimit
			d.NotFollowedDetail = fmt.Sprintf("the target is more than %d delegations from every selected package that leads to it", MaxDelegationHops)
			s.DelegatesTo = &d
		}
		if nf := s.DelegatesTo.NotFollowed; nf != "" {
			f.Summary.Counts[countDelegationNotFollowedPf+nf]++
		}
	}
	for i := range f.Summary.Packages {
		p := &f.Summary.Packages[i]
		if p.JoinedBy == rundir.JoinedByDelegation {
			f.Summary.Counts[CountJoinedByDelegation]++
		}
		if refs := from[p.Package.Key()]; len(refs) > 0 {
			refs = slices.Clone(refs)
			slices.SortFunc(refs, func(a, b rundir.PackageRef) int { return strings.Compare(a.Key(), b.Key()) })
			p.DelegatedFrom = refs
		}
	}
}
