// Package pep440 is a small PEP 440 subset: parsing, normalising and
// ordering Python versions, and the specifiers that admit them. It is a leaf
// (standard library only), so the store can compare versions without linking
// the registry clients; internal/registry resolves a specifier against a
// registry's versions with it (registry.ResolvePEP440).
package pep440

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrInvalidSpecifier: the version or specifier does not parse. It is
// registry.ErrInvalidSpecifier, the same value, so errors.Is holds for either.
var ErrInvalidSpecifier = errors.New("registry: invalid version specifier")

// ErrUnsupportedSpecifier: a valid specifier this subset does not resolve
// (markers, extras, URL references). It is registry.ErrUnsupportedSpecifier.
var ErrUnsupportedSpecifier = errors.New("registry: unsupported version specifier")

// This file is a small PEP 440 subset: enough to resolve a Python
// dependency specifier to the highest release it admits (methodology §4).
//
// Covered: parsing and normalising public versions (epoch, release,
// a/b/rc pre-releases and their spellings alpha/beta/c/pre/preview, post and
// implicit post "-1", dev, local labels) and their total order; the
// operators ==, != (with trailing .* prefix matching on the release
// segment), ~=, >=, <=, >, < with PEP 440's exclusions (">V" admits no
// post-release or local version of V, "<V" no pre-release of V), and ===
// as a case-insensitive string comparison; pre-releases (including dev
// releases) excluded unless a clause names one.
//
// Not covered: environment markers (";" and after), extras, direct and URL
// references ("@ https://..."), legacy non-PEP 440 versions (ignored when
// resolving), prefix matching that names pre/post/dev segments
// ("==1.0.post1.*" is ErrInvalidSpecifier), and pip's fallback of
// accepting pre-releases when nothing else matches (the methodology
// excludes them unless named).

// PEP440Version is a parsed public or local version.
type PEP440Version struct {
	Epoch   uint64
	Release []uint64
	// Pre is "a", "b" or "rc" when the version is a pre-release.
	Pre    string
	PreN   uint64
	Post   *uint64
	Dev    *uint64
	Local  []string
	source string
}

var pep440Re = regexp.MustCompile(`(?i)^\s*v?` +
	`(?:([0-9]+)!)?` + // epoch
	`([0-9]+(?:\.[0-9]+)*)` + // release
	`(?:[-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?([0-9]+)?)?` + // pre
	`(?:(?:-([0-9]+))|(?:[-_.]?(post|rev|r)[-_.]?([0-9]+)?))?` + // post
	`(?:[-_.]?(dev)[-_.]?([0-9]+)?)?` + // dev
	`(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?` + // local
	`\s*$`)

// ParsePEP440 parses a version. Numbers beyond uint64 are rejected rather
// than wrapped.
func ParsePEP440(s string) (PEP440Version, error) {
	if len(s) > 256 {
		return PEP440Version{}, fmt.Errorf("%w: PEP 440 version too long", ErrInvalidSpecifier)
	}
	m := pep440Re.FindStringSubmatch(s)
	if m == nil {
		return PEP440Version{}, fmt.Errorf("%w: %q is not a PEP 440 version", ErrInvalidSpecifier, s)
	}
	v := PEP440Version{source: s}
	num := func(t string) (uint64, error) {
		if t == "" {
			return 0, nil
		}
		n, err := strconv.ParseUint(t, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w: %q: number out of range", ErrInvalidSpecifier, s)
		}
		return n, nil
	}
	var err error
	if v.Epoch, err = num(m[1]); err != nil {
		return PEP440Version{}, err
	}
	for _, part := range strings.Split(m[2], ".") {
		n, err := num(part)
		if err != nil {
			return PEP440Version{}, err
		}
		v.Release = append(v.Release, n)
	}
	if m[3] != "" {
		switch strings.ToLower(m[3]) {
		case "a", "alpha":
			v.Pre = "a"
		case "b", "beta":
			v.Pre = "b"
		default:
			v.Pre = "rc"
		}
		if v.PreN, err = num(m[4]); err != nil {
			return PEP440Version{}, err
		}
	}
	if m[5] != "" || m[6] != "" {
		t := m[5]
		if t == "" {
			t = m[7]
		}
		n, err := num(t)
		if err != nil {
			return PEP440Version{}, err
		}
		v.Post = &n
	}
	if m[8] != "" {
		n, err := num(m[9])
		if err != nil {
			return PEP440Version{}, err
		}
		v.Dev = &n
	}
	if m[10] != "" {
		v.Local = strings.FieldsFunc(strings.ToLower(m[10]), func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	}
	return v, nil
}

// IsPrerelease reports a pre-release or a dev release (PEP 440 counts both).
func (v PEP440Version) IsPrerelease() bool { return v.Pre != "" || v.Dev != nil }

// IsPostrelease reports a post-release.
func (v PEP440Version) IsPostrelease() bool { return v.Post != nil }

// String is the normalised form.
func (v PEP440Version) String() string {
	var b strings.Builder
	if v.Epoch != 0 {
		fmt.Fprintf(&b, "%d!", v.Epoch)
	}
	for i, r := range v.Release {
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "%d", r)
	}
	if v.Pre != "" {
		fmt.Fprintf(&b, "%s%d", v.Pre, v.PreN)
	}
	if v.Post != nil {
		fmt.Fprintf(&b, ".post%d", *v.Post)
	}
	if v.Dev != nil {
		fmt.Fprintf(&b, ".dev%d", *v.Dev)
	}
	if len(v.Local) > 0 {
		b.WriteString("+" + strings.Join(v.Local, "."))
	}
	return b.String()
}

// public drops the local label.
func (v PEP440Version) public() PEP440Version {
	v.Local = nil
	return v
}

// base keeps epoch and release only.
func (v PEP440Version) base() PEP440Version {
	return PEP440Version{Epoch: v.Epoch, Release: v.Release}
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Compare orders versions as PEP 440 does: epoch, release (trailing zeros
// insignificant), then dev-only < pre < final < post, dev before its
// non-dev counterpart, local labels last.
func (v PEP440Version) Compare(w PEP440Version) int {
	if c := cmpU(v.Epoch, w.Epoch); c != 0 {
		return c
	}
	n := max(len(v.Release), len(w.Release))
	for i := range n {
		var a, b uint64
		if i < len(v.Release) {
			a = v.Release[i]
		}
		if i < len(w.Release) {
			b = w.Release[i]
		}
		if c := cmpU(a, b); c != 0 {
			return c
		}
	}
	if c := comparePreKey(v, w); c != 0 {
		return c
	}
	// Post: none sorts first.
	if c := compareOpt(v.Post, w.Post, -1); c != 0 {
		return c
	}
	// Dev: none sorts last.
	if c := compareOpt(v.Dev, w.Dev, 1); c != 0 {
		return c
	}
	return compareLocal(v.Local, w.Local)
}

// preRank places a version's pre-release part: a dev release of the final
// with no pre and no post sorts before every pre-release; no pre sorts after.
func preRank(v PEP440Version) (rank int, n uint64) {
	switch {
	case v.Pre == "" && v.Post == nil && v.Dev != nil:
		return 0, 0
	case v.Pre == "a":
		return 1, v.PreN
	case v.Pre == "b":
		return 2, v.PreN
	case v.Pre == "rc":
		return 3, v.PreN
	}
	return 4, 0
}

func comparePreKey(v, w PEP440Version) int {
	ra, na := preRank(v)
	rb, nb := preRank(w)
	if ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	return cmpU(na, nb)
}

// compareOpt compares optional numbers; a missing one sorts at side
// (-1 first, +1 last).
func compareOpt(a, b *uint64, side int) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return side
	case b == nil:
		return -side
	}
	return cmpU(*a, *b)
}

// compareLocal: no label sorts first; numeric segments beat alphanumeric
// ones; a shorter label that is a prefix sorts first.
func compareLocal(a, b []string) int {
	if len(a) == 0 || len(b) == 0 {
		switch {
		case len(a) == len(b):
			return 0
		case len(a) == 0:
			return -1
		}
		return 1
	}
	for i := range min(len(a), len(b)) {
		na, ea := strconv.ParseUint(a[i], 10, 64)
		nb, eb := strconv.ParseUint(b[i], 10, 64)
		switch {
		case ea == nil && eb == nil:
			if c := cmpU(na, nb); c != 0 {
				return c
			}
		case ea == nil:
			return 1
		case eb == nil:
			return -1
		default:
			if c := strings.Compare(a[i], b[i]); c != 0 {
				return c
			}
		}
	}
	return cmpU(uint64(len(a)), uint64(len(b)))
}

// PEP440Clause is one comma-separated clause of a specifier.
type PEP440Clause struct {
	Op       string // ==, !=, ~=, >=, <=, >, <, ===
	Version  PEP440Version
	Wildcard bool   // ==V.* or !=V.*
	Raw      string // the operand as written (=== compares it)
}

// PEP440Specifier is a parsed specifier set: every clause must hold.
type PEP440Specifier []PEP440Clause

var clauseRe = regexp.MustCompile(`^(~=|===|==|!=|<=|>=|<|>)\s*(\S+)$`)

// ParsePEP440Specifier parses "" (anything), or clauses joined by commas.
func ParsePEP440Specifier(spec string) (PEP440Specifier, error) {
	spec = strings.TrimSpace(spec)
	if strings.ContainsAny(spec, ";@[") {
		return nil, fmt.Errorf("%w: %q: markers, extras and URL references are not resolved", ErrUnsupportedSpecifier, spec)
	}
	if spec == "" {
		return PEP440Specifier{}, nil
	}
	if len(spec) > 1024 {
		return nil, fmt.Errorf("%w: specifier too long", ErrInvalidSpecifier)
	}
	var out PEP440Specifier
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		m := clauseRe.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("%w: clause %q", ErrInvalidSpecifier, part)
		}
		c := PEP440Clause{Op: m[1], Raw: m[2]}
		if c.Op == "===" {
			out = append(out, c)
			continue
		}
		operand := m[2]
		if strings.HasSuffix(operand, ".*") {
			if c.Op != "==" && c.Op != "!=" {
				return nil, fmt.Errorf("%w: clause %q: .* only with == and !=", ErrInvalidSpecifier, part)
			}
			c.Wildcard = true
			operand = strings.TrimSuffix(operand, ".*")
		}
		v, err := ParsePEP440(operand)
		if err != nil {
			return nil, fmt.Errorf("%w: clause %q", ErrInvalidSpecifier, part)
		}
		if c.Wildcard && (v.Pre != "" || v.Post != nil || v.Dev != nil || len(v.Local) > 0) {
			return nil, fmt.Errorf("%w: clause %q: prefix matching on pre/post/dev/local segments is not covered", ErrInvalidSpecifier, part)
		}
		if len(v.Local) > 0 && c.Op != "==" && c.Op != "!=" {
			return nil, fmt.Errorf("%w: clause %q: local version only with == and !=", ErrInvalidSpecifier, part)
		}
		if c.Op == "~=" && len(v.Release) < 2 {
			return nil, fmt.Errorf("%w: clause %q: ~= needs at least two release segments", ErrInvalidSpecifier, part)
		}
		c.Version = v
		out = append(out, c)
	}
	return out, nil
}

// NamesPrerelease reports whether a clause names a pre-release, which is
// what admits pre-releases at all.
func (s PEP440Specifier) NamesPrerelease() bool {
	for _, c := range s {
		if c.Op != "!=" && c.Op != "===" && c.Version.IsPrerelease() {
			return true
		}
	}
	return false
}

// IsPin reports a single exact == clause (no wildcard), which PEP 592 lets
// select a yanked release.
func (s PEP440Specifier) IsPin() bool {
	return len(s) == 1 && ((s[0].Op == "==" && !s[0].Wildcard) || s[0].Op == "===")
}

// Admits reports whether v satisfies every clause, with the pre-release
// rule applied: a pre-release is admitted only if a clause names one.
func (s PEP440Specifier) Admits(v PEP440Version) bool {
	if v.IsPrerelease() && !s.NamesPrerelease() {
		return false
	}
	for _, c := range s {
		if !c.admits(v) {
			return false
		}
	}
	return true
}

func prefixMatch(v, prefix PEP440Version) bool {
	if v.Epoch != prefix.Epoch {
		return false
	}
	for i, p := range prefix.Release {
		var r uint64
		if i < len(v.Release) {
			r = v.Release[i]
		}
		if r != p {
			return false
		}
	}
	return true
}

func (c PEP440Clause) admits(v PEP440Version) bool {
	spec := c.Version
	switch c.Op {
	case "===":
		return strings.EqualFold(strings.TrimSpace(v.source), c.Raw)
	case "==", "!=":
		var eq bool
		switch {
		case c.Wildcard:
			eq = prefixMatch(v, spec)
		case len(spec.Local) == 0:
			eq = v.public().Compare(spec) == 0
		default:
			eq = v.Compare(spec) == 0
		}
		return eq == (c.Op == "==")
	case "~=":
		prefix := PEP440Version{Epoch: spec.Epoch, Release: spec.Release[:len(spec.Release)-1]}
		return v.public().Compare(spec) >= 0 && prefixMatch(v, prefix)
	case ">=":
		return v.public().Compare(spec) >= 0
	case "<=":
		return v.public().Compare(spec) <= 0
	case "<":
		if v.public().Compare(spec) >= 0 {
			return false
		}
		if !spec.IsPrerelease() && v.IsPrerelease() && v.base().Compare(spec.base()) == 0 {
			return false
		}
		return true
	case ">":
		if v.public().Compare(spec) <= 0 {
			return false
		}
		if !spec.IsPostrelease() && v.IsPostrelease() && v.base().Compare(spec.base()) == 0 {
			return false
		}
		if len(v.Local) > 0 && v.base().Compare(spec.base()) == 0 {
			return false
		}
		return true
	}
	return false
}

// Source is the version as it was written, before normalising.
func (v PEP440Version) Source() string { return v.source }
