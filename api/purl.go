package api

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// ErrBadPURL classifies every Package URL ParsePURL refuses.
var ErrBadPURL = errors.New("not a Package URL this service answers for")

// The names each registry allows, as the API contract states them (the
// PackageName parameter of openapi.yaml): an npm name with an optional
// @scope/, and a PyPI project name.
var (
	npmName   = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$`)
	pypiName  = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)
	versionRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+!_-]*$`)
)

// ParsePURL reads a Package URL naming one version on npm or PyPI, following
// the purl specification's parsing steps: the subpath (after '#') is dropped,
// the qualifiers (after '?') are read, the type is case-insensitive, the
// version is split off at the last '@', and each segment is percent-decoded.
//
//	pkg:npm/%40scope/name@1.2.3   → npm, "@scope/name", "1.2.3"
//	pkg:npm/name@1.2.3            → npm, "name", "1.2.3"
//	pkg:pypi/Some_Name@1.0        → pypi, "some-name", "1.0"
//
// npm names are lowercased and PyPI names are lowercased with '_' read as '-'
// (the purl specification's rules for those types). A version is required. A
// repository_url qualifier names a registry other than the public one, so a
// PURL carrying it is refused rather than answered for the wrong package.
func ParsePURL(s string) (PackageKey, error) {
	var k PackageKey
	fail := func(why string) (PackageKey, error) {
		return PackageKey{}, fmt.Errorf("%w: %s", ErrBadPURL, why)
	}
	if len(s) > 1024 {
		return fail("longer than 1024 bytes")
	}
	rest, _, _ := strings.Cut(s, "#")
	rest, rawQuery, hasQuery := strings.Cut(rest, "?")
	scheme, rest, ok := strings.Cut(rest, ":")
	if !ok || !strings.EqualFold(scheme, "pkg") {
		return fail(`the scheme is not "pkg:"`)
	}
	rest = strings.Trim(rest, "/")
	typ, rest, ok := strings.Cut(rest, "/")
	if !ok {
		return fail("no name after the type")
	}
	typ = strings.ToLower(typ)
	switch typ {
	case "npm":
		k.Registry = RegistryNPM
	case "pypi":
		k.Registry = RegistryPyPI
	default:
		return fail("the type is neither npm nor pypi")
	}
	if hasQuery {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return fail("the qualifiers are not key=value pairs")
		}
		for key := range q {
			if strings.EqualFold(key, "repository_url") {
				return fail("a repository_url qualifier names another registry")
			}
		}
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return fail("no version (name@version)")
	}
	rawVersion := rest[at+1:]
	rest = rest[:at]
	version, err := url.PathUnescape(rawVersion)
	if err != nil {
		return fail("the version is not valid percent-encoding")
	}
	var segs []string
	for _, seg := range strings.Split(rest, "/") {
		if seg == "" {
			continue
		}
		d, err := url.PathUnescape(seg)
		if err != nil {
			return fail("a segment is not valid percent-encoding")
		}
		if d == "" || strings.ContainsAny(d, "/\x00") {
			return fail("a segment decodes to an empty or slashed name")
		}
		segs = append(segs, d)
	}
	switch {
	case len(segs) == 0:
		return fail("no name")
	case k.Registry == RegistryNPM && len(segs) == 2:
		if !strings.HasPrefix(segs[0], "@") {
			return fail("an npm namespace is a scope starting with @")
		}
		k.Name = strings.ToLower(segs[0] + "/" + segs[1])
	case len(segs) == 1:
		k.Name = segs[0]
		if k.Registry == RegistryNPM {
			k.Name = strings.ToLower(k.Name)
		} else {
			k.Name = strings.ReplaceAll(strings.ToLower(k.Name), "_", "-")
		}
	default:
		return fail("too many namespace segments for " + k.Registry)
	}
	k.Version = version
	if err := k.Validate(); err != nil {
		return PackageKey{}, fmt.Errorf("%w: %v", ErrBadPURL, err)
	}
	return k, nil
}

// Validate checks the registry, and the name and version against the
// registry's rules as the contract states them.
func (k PackageKey) Validate() error {
	switch k.Registry {
	case RegistryNPM:
		if len(k.Name) > 214 || !npmName.MatchString(k.Name) {
			return errors.New("the name is not a valid npm package name")
		}
	case RegistryPyPI:
		if len(k.Name) > 214 || !pypiName.MatchString(k.Name) {
			return errors.New("the name is not a valid PyPI project name")
		}
	default:
		return errors.New("the registry is neither npm nor pypi")
	}
	if len(k.Version) > 128 || !versionRe.MatchString(k.Version) {
		return errors.New("the version is not a valid version")
	}
	return nil
}

// PURL returns the canonical Package URL of k: the name as the purl
// specification writes it for the type (lowercased; for PyPI with '_' as
// '-'), and the scope's @ and any character outside the unreserved set
// percent-encoded. ParsePURL reads it back to the same key, up to that
// spelling of the name.
func (k PackageKey) PURL() string {
	var b strings.Builder
	b.WriteString("pkg:")
	b.WriteString(k.Registry)
	b.WriteByte('/')
	name := strings.ToLower(k.Name)
	if k.Registry == RegistryPyPI {
		name = strings.ReplaceAll(name, "_", "-")
	}
	if scope, rest, ok := strings.Cut(name, "/"); ok {
		b.WriteString(escapeSegment(scope))
		b.WriteByte('/')
		name = rest
	}
	b.WriteString(escapeSegment(name))
	b.WriteByte('@')
	b.WriteString(escapeSegment(k.Version))
	return b.String()
}

func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

var pypiSeparators = regexp.MustCompile(`[-_.]+`)

// LookupName is the form under which a registry compares names: PEP 503
// normalisation for PyPI (lower case; each run of '-', '_' and '.' one '-'),
// so Mcp_Server.Fetch and mcp-server-fetch are one project; npm names as
// written. The API finds a published version under any spelling that has
// the same lookup name, and answers with the name as it was published.
func LookupName(registry, name string) string {
	if registry == RegistryPyPI {
		return pypiSeparators.ReplaceAllString(strings.ToLower(name), "-")
	}
	return name
}
