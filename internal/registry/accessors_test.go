package registry

import "sort"

// PredicateTypes lists the predicate types present, sorted.
func (a *Attestations) PredicateTypes() []string {
	var out []string
	for _, x := range a.Attestations {
		out = append(out, x.PredicateType)
	}
	sort.Strings(out)
	return out
}
