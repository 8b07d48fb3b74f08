package pipeline

import (
	"cmp"
	"slices"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// Summary counts keys.
const (
	CountPackages             = "packages"
	CountPackagesWithFailures = "packages_with_failures"
	CountGradeable            = "gradeable"
	CountNotGradeable         = "not_gradeable"
	CountNoSurface            = "no_surface"
	countOutcomePrefix        = "surface_outcome:"
	countFailurePrefix        = "failure:"
)

// assembleFiles builds the seven files from finished packages: rows
// concatenated and sorted by package key (then by what orders rows within a
// package), so the files do not depend on the order packages finished in.
func assembleFiles(pfs []*packageFile) (*rundir.Files, int) {
	f := &rundir.Files{
		Findings: []rundir.Finding{}, Results: []rundir.Result{}, Gradeable: []rundir.Gradeable{},
		Surfaces: []rundir.Surface{}, Records: []rundir.Record{}, NotAnalyzed: []rundir.NotAnalyzed{},
		Summary: rundir.Summary{Packages: []rundir.PackageSummary{}, Counts: map[string]int{}},
	}
	withFailures := 0
	counts := f.Summary.Counts
	for _, pf := range pfs {
		f.Findings = append(f.Findings, pf.Findings...)
		f.Results = append(f.Results, pf.Results...)
		for _, r := range pf.Results {
			if u := r.Usage; u != nil {
				a := &f.Summary.Analyzer
				if a.Analyzer == "" {
					a.Analyzer = u.Analyzer
				}
				a.Calls += u.Calls
				a.CacheHits += u.CacheHits
				a.InputTokens += u.InputTokens
				a.OutputTokens += u.OutputTokens
				a.Rejected += u.Rejected
			}
		}
		f.Gradeable = append(f.Gradeable, pf.Gradeable)
		if pf.Surface != nil {
			f.Surfaces = append(f.Surfaces, *pf.Surface)
			counts[countOutcomePrefix+pf.Surface.Outcome]++
		} else {
			counts[CountNoSurface]++
		}
		f.Records = append(f.Records, pf.Records...)
		f.NotAnalyzed = append(f.NotAnalyzed, pf.NotAnalyzed...)
		f.Summary.Packages = append(f.Summary.Packages, pf.Summary)
		counts[CountPackages]++
		if len(pf.Summary.Failures) > 0 {
			withFailures++
		}
		for _, fl := range pf.Summary.Failures {
			counts[countFailurePrefix+fl.Stage+":"+fl.Kind]++
		}
		if pf.Gradeable.OK {
			counts[CountGradeable]++
		} else {
			counts[CountNotGradeable]++
		}
	}
	counts[CountPackagesWithFailures] = withFailures

	key := func(p rundir.PackageRef) string { return p.Key() }
	slices.SortStableFunc(f.Findings, func(a, b rundir.Finding) int {
		return cmp.Or(strings.Compare(key(a.Package), key(b.Package)), strings.Compare(a.Check, b.Check), strings.Compare(a.ID, b.ID))
	})
	slices.SortStableFunc(f.Results, func(a, b rundir.Result) int {
		return cmp.Or(strings.Compare(key(a.Package), key(b.Package)), strings.Compare(a.Check, b.Check))
	})
	slices.SortStableFunc(f.Gradeable, func(a, b rundir.Gradeable) int { return strings.Compare(key(a.Package), key(b.Package)) })
	slices.SortStableFunc(f.Surfaces, func(a, b rundir.Surface) int { return strings.Compare(key(a.Package), key(b.Package)) })
	slices.SortStableFunc(f.Records, func(a, b rundir.Record) int {
		return cmp.Or(strings.Compare(key(a.Package), key(b.Package)), strings.Compare(a.Kind, b.Kind), strings.Compare(a.URL, b.URL))
	})
	slices.SortStableFunc(f.NotAnalyzed, func(a, b rundir.NotAnalyzed) int {
		return cmp.Or(strings.Compare(key(a.Package), key(b.Package)), strings.Compare(a.Check, b.Check),
			strings.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	slices.SortStableFunc(f.Summary.Packages, func(a, b rundir.PackageSummary) int { return strings.Compare(key(a.Package), key(b.Package)) })
	annotateDelegations(f)
	return f, withFailures
}
