package repohost

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Ref names one repository on a host: Host is a web host name (lower case,
// no port unless one was given), Owner and Name are as written. Shorthand is
// set when the metadata used a host shorthand ("github:", "gitlab:",
// "bitbucket:", "gist:") or the bare "owner/repo" form, which package
// managers read as the public code host's; Host is then empty until
// Resolve fills it from configuration.
type Ref struct {
	Host      string `json:"host"`
	Owner     string `json:"owner"`
	Name      string `json:"name"`
	Shorthand string `json:"shorthand,omitempty"`
}

// FullName is "owner/name".
func (r Ref) FullName() string { return r.Owner + "/" + r.Name }

// String is "host/owner/name" (or "shorthand:owner/name" while unresolved).
func (r Ref) String() string {
	if r.Host == "" && r.Shorthand != "" {
		return r.Shorthand + ":" + r.FullName()
	}
	return r.Host + "/" + r.FullName()
}

// Same reports whether a and b name the same repository: hosts, owners and
// names compare case-insensitively, as the hosts themselves treat them.
func Same(a, b Ref) bool {
	return strings.EqualFold(a.Host, b.Host) && strings.EqualFold(a.Owner, b.Owner) && strings.EqualFold(a.Name, b.Name)
}

// ErrNotARepository classifies a repository string that names no repository
// (empty, a bare host, a path with no owner/name, an unknown scheme).
var ErrNotARepository = errors.New("repohost: not a repository reference")

// ShorthandDefault is the shorthand a bare "owner/repo" gets: package
// managers read it as the public code host's, the same one "github:" names.
const ShorthandDefault = "github"

var (
	ownerRe = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$`)
	nameRe  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
	scpRe   = regexp.MustCompile(`^(?:[A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):([^/].*)$`)
	shortRe = regexp.MustCompile(`^(github|gitlab|bitbucket|gist):(.+)$`)
)

// ParseRepositoryURL reads the repository forms package metadata carries:
//
//	git+https://host/owner/name.git     https://host/owner/name/tree/main/pkg
//	git://host/owner/name               ssh://git@host/owner/name.git
//	git@host:owner/name.git             github:owner/name  gitlab:owner/name
//	owner/name                          (read as "github:owner/name")
//
// A fragment (#ref) and path segments after owner/name are ignored; a
// trailing ".git" is dropped. Anything else is ErrNotARepository.
func ParseRepositoryURL(raw string) (Ref, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return Ref{}, fmt.Errorf("%w: empty", ErrNotARepository)
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimPrefix(s, "git+")
	if m := shortRe.FindStringSubmatch(s); m != nil {
		return refFromPath("", m[1], m[2], raw)
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			// "ssh://git@host:owner/name" mixes URL and scp syntax; npm
			// accepts it, so read the part after the scheme as scp.
			if scheme, rest, _ := strings.Cut(s, "://"); strings.EqualFold(scheme, "ssh") {
				if m := scpRe.FindStringSubmatch(rest); m != nil && strings.Contains(m[1], ".") {
					return refFromPath(strings.ToLower(m[1]), "", m[2], raw)
				}
			}
			return Ref{}, fmt.Errorf("%w: %q: %v", ErrNotARepository, raw, err)
		}
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "git", "ssh":
		default:
			return Ref{}, fmt.Errorf("%w: %q: scheme %q", ErrNotARepository, raw, u.Scheme)
		}
		if u.Hostname() == "" {
			return Ref{}, fmt.Errorf("%w: %q: no host", ErrNotARepository, raw)
		}
		host := strings.ToLower(u.Hostname())
		if p := u.Port(); p != "" && u.Scheme != "ssh" && u.Scheme != "git" {
			host += ":" + p
		}
		return refFromPath(host, "", u.Path, raw)
	}
	if m := scpRe.FindStringSubmatch(s); m != nil && strings.Contains(m[1], ".") {
		return refFromPath(strings.ToLower(m[1]), "", m[2], raw)
	}
	if !strings.Contains(s, ":") && strings.Count(strings.Trim(s, "/"), "/") == 1 {
		return refFromPath("", ShorthandDefault, s, raw)
	}
	return Ref{}, fmt.Errorf("%w: %q", ErrNotARepository, raw)
}

func refFromPath(host, shorthand, p, raw string) (Ref, error) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) < 2 {
		return Ref{}, fmt.Errorf("%w: %q: no owner/name", ErrNotARepository, raw)
	}
	owner, name := parts[0], strings.TrimSuffix(parts[1], ".git")
	if shorthand != "" && len(parts) > 2 && shorthand != "gist" {
		return Ref{}, fmt.Errorf("%w: %q: shorthand with extra path", ErrNotARepository, raw)
	}
	if !ownerRe.MatchString(owner) || !nameRe.MatchString(name) || name == "." || name == ".." {
		return Ref{}, fmt.Errorf("%w: %q: owner %q or name %q is not valid", ErrNotARepository, raw, owner, name)
	}
	return Ref{Host: host, Owner: owner, Name: name, Shorthand: shorthand}, nil
}
