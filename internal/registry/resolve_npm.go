package registry

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// Resolution is how a dependency specifier became one version: what
// delegates_to records (methodology §4: "the version resolved and how it was
// resolved").
type Resolution struct {
	Specifier string `json:"specifier"`
	Version   string `json:"version"`
	How       string `json:"how"`
}

// Resolution.How values.
const (
	// HowExact: the specifier named one version and it is published.
	HowExact = "exact"
	// HowDistTag: the specifier is an npm dist-tag (latest, next, ...).
	HowDistTag = "dist_tag"
	// HowHighestMatch: the highest published release the range admits.
	HowHighestMatch = "highest_match"
)

// nonRegistrySpec matches specifiers that name something other than a
// registry version: aliases, git, URLs, files, links, workspaces, and the
// owner/repo shorthand. Resolving them is not a registry question.
var nonRegistrySpec = regexp.MustCompile(`^(npm:|git[+:]|git$|https?:|file:|link:|workspace:|portal:|patch:|github:|gitlab:|bitbucket:|gist:)|/`)

// preTupleRe finds versions carrying a pre-release tag inside a range.
var preTupleRe = regexp.MustCompile(`v?(\d+)\.(\d+)\.(\d+)-[0-9A-Za-z.-]+`)

// ResolveVersion resolves an npm dependency specifier against a packument,
// the way methodology §4 states delegation: the highest published release
// the specifier admits, pre-releases excluded unless the specifier names one.
//
// Supported: exact versions ("1.2.3", "=1.2.3", "v1.2.3"), dist-tags
// ("latest", "next"), and ranges through Masterminds/semver: comparators,
// ^, ~, x/X/* wildcards and partial versions, hyphen ranges, space- or
// comma-separated conjunctions and || alternatives. A pre-release version is
// admitted only by an alternative that names a pre-release of the same
// major.minor.patch (npm's rule: ">1.2.3-beta.1" admits 1.2.3-beta.2 but not
// 1.2.4-beta.1).
//
// Differences from the npm client, on purpose: a range resolves to the
// highest match even when dist-tags.latest also matches (the npm client
// prefers latest), and deprecated versions are not skipped. Aliases (npm:),
// git, URL, file, link and workspace specifiers are ErrUnsupportedSpecifier.
// Versions that are not strict SemVer are ignored.
func ResolveVersion(p *Packument, specifier string) (Resolution, error) {
	res := Resolution{Specifier: specifier}
	spec := strings.TrimSpace(specifier)
	if p == nil {
		return res, fmt.Errorf("registry.ResolveVersion(%q): %w: no packument", specifier, ErrNoMatch)
	}
	if nonRegistrySpec.MatchString(spec) {
		return res, fmt.Errorf("registry.ResolveVersion(%q): %w", specifier, ErrUnsupportedSpecifier)
	}
	if spec == "" {
		spec = "*"
	}

	// An exact version.
	if want, err := semver.StrictNewVersion(strings.TrimPrefix(strings.TrimPrefix(spec, "="), "v")); err == nil {
		if _, ok := p.Versions[want.Original()]; ok {
			res.Version, res.How = want.Original(), HowExact
			return res, nil
		}
		for k := range p.Versions {
			if v, err := semver.StrictNewVersion(k); err == nil && v.Equal(want) && v.Metadata() == want.Metadata() {
				res.Version, res.How = k, HowExact
				return res, nil
			}
		}
		return res, fmt.Errorf("registry.ResolveVersion(%s, %q): %w: version not published", p.Name, specifier, ErrNoMatch)
	}

	alts, rangeErr := parseNPMRange(spec)
	if rangeErr != nil {
		// npm reads anything that is not a version or a range as a tag.
		if v, ok := p.DistTags[spec]; ok {
			if _, ok := p.Versions[v]; !ok {
				return res, fmt.Errorf("registry.ResolveVersion(%s, %q): %w: dist-tag points at unpublished version %q", p.Name, specifier, ErrNoMatch, v)
			}
			res.Version, res.How = v, HowDistTag
			return res, nil
		}
		if npmTagRe.MatchString(spec) {
			return res, fmt.Errorf("registry.ResolveVersion(%s, %q): %w: no such dist-tag", p.Name, specifier, ErrNoMatch)
		}
		return res, fmt.Errorf("registry.ResolveVersion(%q): %w: %v", specifier, ErrInvalidSpecifier, rangeErr)
	}

	var best *semver.Version
	bestKey := ""
	for k := range p.Versions {
		v, err := semver.StrictNewVersion(k)
		if err != nil {
			continue
		}
		if !alts.admits(v) {
			continue
		}
		if best == nil || v.GreaterThan(best) || (v.Equal(best) && k > bestKey) {
			best, bestKey = v, k
		}
	}
	if best == nil {
		return res, fmt.Errorf("registry.ResolveVersion(%s, %q): %w", p.Name, specifier, ErrNoMatch)
	}
	res.Version, res.How = bestKey, HowHighestMatch
	return res, nil
}

// npmTagRe is what a dist-tag can look like (it must not parse as a range).
var npmTagRe = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._-]*$`)

type npmAlt struct {
	c         *semver.Constraints
	preTuples [][3]string
}

type npmRange []npmAlt

// parseNPMRange parses each || alternative on its own, so the pre-release
// rule can be applied per alternative.
func parseNPMRange(spec string) (npmRange, error) {
	parts := strings.Split(spec, "||")
	if len(parts) > 32 {
		return nil, fmt.Errorf("too many alternatives")
	}
	out := make(npmRange, 0, len(parts))
	for _, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			part = "*" // npm: an empty alternative admits everything
		}
		c, err := semver.NewConstraint(part)
		if err != nil {
			return nil, err
		}
		alt := npmAlt{c: c}
		for _, m := range preTupleRe.FindAllStringSubmatch(part, -1) {
			alt.preTuples = append(alt.preTuples, [3]string{trimZeros(m[1]), trimZeros(m[2]), trimZeros(m[3])})
		}
		out = append(out, alt)
	}
	return out, nil
}

func trimZeros(s string) string {
	s = strings.TrimLeft(s, "0")
	if s == "" {
		return "0"
	}
	return s
}

func (r npmRange) admits(v *semver.Version) bool {
	for _, a := range r {
		if !a.c.Check(v) {
			continue
		}
		if v.Prerelease() == "" {
			return true
		}
		t := [3]string{fmt.Sprint(v.Major()), fmt.Sprint(v.Minor()), fmt.Sprint(v.Patch())}
		for _, pt := range a.preTuples {
			if pt == t {
				return true
			}
		}
	}
	return false
}
