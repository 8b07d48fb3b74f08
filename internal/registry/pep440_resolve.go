package registry

import (
	"fmt"

	"github.com/attestari/attestari/internal/pep440"
)

// PEP 440 parsing and ordering live in the leaf package internal/pep440;
// these names keep them reachable here, and resolving a specifier against a
// registry's versions stays with the registry.

type (
	// PEP440Version is pep440.PEP440Version.
	PEP440Version = pep440.PEP440Version
	// PEP440Clause is pep440.PEP440Clause.
	PEP440Clause = pep440.PEP440Clause
	// PEP440Specifier is pep440.PEP440Specifier.
	PEP440Specifier = pep440.PEP440Specifier
)

// ParsePEP440 is pep440.ParsePEP440.
func ParsePEP440(s string) (PEP440Version, error) { return pep440.ParsePEP440(s) }

// ParsePEP440Specifier is pep440.ParsePEP440Specifier.
func ParsePEP440Specifier(spec string) (PEP440Specifier, error) {
	return pep440.ParsePEP440Specifier(spec)
}

// ResolvePEP440 returns the highest of versions that spec admits, under the
// subset described at the top of this file. Versions that are not PEP 440
// are ignored.
func ResolvePEP440(versions []string, spec string) (Resolution, error) {
	res := Resolution{Specifier: spec}
	s, err := ParsePEP440Specifier(spec)
	if err != nil {
		return res, fmt.Errorf("registry.ResolvePEP440(%q): %w", spec, err)
	}
	var best *PEP440Version
	for _, raw := range versions {
		v, err := ParsePEP440(raw)
		if err != nil || !s.Admits(v) {
			continue
		}
		if best == nil || v.Compare(*best) > 0 {
			vv := v
			best = &vv
		}
	}
	if best == nil {
		return res, fmt.Errorf("registry.ResolvePEP440(%q): %w", spec, ErrNoMatch)
	}
	res.Version = best.Source()
	res.How = HowHighestMatch
	if s.IsPin() {
		res.How = HowExact
	}
	return res, nil
}
