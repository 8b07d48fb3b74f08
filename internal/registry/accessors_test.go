package registry

import "sort"

// VersionList returns the version keys, sorted as strings (for stable
// output; use ResolveVersion for semver order).
func (p *Packument) VersionList() []string {
	out := make([]string, 0, len(p.Versions))
	for v := range p.Versions {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// PredicateTypes lists the predicate types present, sorted.
func (a *Attestations) PredicateTypes() []string {
	var out []string
	for _, x := range a.Attestations {
		out = append(out, x.PredicateType)
	}
	sort.Strings(out)
	return out
}
