package selection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"strings"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/vocab"
)

// EnvConflicts names the conflicts list: the packages, accounts, people,
// addresses and repositories that are Attestari's or that it controls
// (methodology §4). `--conflicts` overrides it.
const EnvConflicts = "ATTESTARI_CONFLICTS"

// ConflictsSchema is the value of a conflicts list's "schema" member.
const ConflictsSchema = "attestari.conflicts/v1"

// Conflicts is the conflicts list (docs/candidates.md, "The conflicts
// list"). Every member is optional; each entry is compared as the field's
// rule below says, never by resemblance.
type Conflicts struct {
	Schema string `json:"schema"`
	// Names are package names: npm as written, PyPI under PEP 503.
	Names []string `json:"names"`
	// Scopes are npm scopes, with or without the leading @.
	Scopes []string `json:"scopes"`
	// Accounts are registry account names: npm maintainers and the
	// publisher of a version (_npmUser), PyPI ownership roles.
	Accounts []string `json:"accounts"`
	// People are person or organisation names as package metadata writes
	// them (npm author, PyPI author and maintainer), compared without
	// regard to case or surrounding space.
	People []string `json:"people"`
	// Addresses are contact e-mail addresses, compared without regard to
	// case; Domains match every address at that domain or under it.
	Addresses []string `json:"addresses"`
	Domains   []string `json:"domains"`
	// Repositories are repository URLs or URL prefixes: a package's
	// repository matches when, normalised (scheme, git+ and .git dropped,
	// host lower-cased), it equals one or lies under one at a path boundary.
	Repositories []string `json:"repositories"`
}

// ParseConflicts reads a conflicts list strictly: unknown members, a wrong
// schema and empty entries are refused.
func ParseConflicts(b []byte) (*Conflicts, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Conflicts
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("not a conflicts list: %v (see docs/candidates.md, \"The conflicts list\")", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the conflicts list's object")
	}
	if c.Schema != ConflictsSchema {
		return nil, fmt.Errorf("schema is %q; write %q", c.Schema, ConflictsSchema)
	}
	for field, list := range map[string][]string{"names": c.Names, "scopes": c.Scopes, "accounts": c.Accounts,
		"people": c.People, "addresses": c.Addresses, "domains": c.Domains, "repositories": c.Repositories} {
		for i, v := range list {
			if strings.TrimSpace(v) == "" {
				return nil, fmt.Errorf("%s[%d] is empty", field, i)
			}
		}
	}
	return &c, nil
}

// Size is how many entries the list holds.
func (c *Conflicts) Size() int {
	if c == nil {
		return 0
	}
	return len(c.Names) + len(c.Scopes) + len(c.Accounts) + len(c.People) + len(c.Addresses) + len(c.Domains) + len(c.Repositories)
}

// packageFacts is what the conflicts rule reads about one package, field by
// field of the rule.
type packageFacts struct {
	registry    string
	name        string
	maintainers []string // account names
	publishers  []string // account names
	authors     []string // person names as written
	contacts    []string // e-mail addresses
	repos       []string // repository URLs as written
}

// conflictMatch is one field of the rule that matched, and why.
type conflictMatch struct {
	code   string
	detail string
}

// nameConflict applies the name and scope fields, which need no registry
// document.
func (c *Conflicts) nameConflict(reg, name string) []conflictMatch {
	if c == nil {
		return nil
	}
	var out []conflictMatch
	for _, n := range c.Names {
		if sameName(reg, n, name) {
			out = append(out, conflictMatch{vocab.ExcludedConflictName, "name " + n})
			break
		}
	}
	if reg == vocab.RegistryNPM && strings.HasPrefix(name, "@") {
		scope, _, _ := strings.Cut(name[1:], "/")
		for _, s := range c.Scopes {
			if strings.EqualFold(strings.TrimPrefix(strings.TrimSpace(s), "@"), scope) {
				out = append(out, conflictMatch{vocab.ExcludedConflictScope, "scope @" + scope})
				break
			}
		}
	}
	return out
}

func sameName(reg, a, b string) bool {
	if reg == vocab.RegistryPyPI {
		return registry.NormalizePyPIName(a) == registry.NormalizePyPIName(b)
	}
	return strings.TrimSpace(a) == b
}

// match applies every field of the rule, in the rule's order.
func (c *Conflicts) match(f packageFacts) []conflictMatch {
	if c == nil {
		return nil
	}
	out := c.nameConflict(f.registry, f.name)
	if a := firstIn(f.maintainers, c.Accounts, strings.EqualFold); a != "" {
		out = append(out, conflictMatch{vocab.ExcludedConflictMaintainer, "maintainer account " + a})
	}
	if a := firstIn(f.publishers, c.Accounts, strings.EqualFold); a != "" {
		out = append(out, conflictMatch{vocab.ExcludedConflictPublisher, "publisher account " + a})
	}
	samePerson := func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }
	if p := firstIn(f.authors, c.People, samePerson); p != "" {
		out = append(out, conflictMatch{vocab.ExcludedConflictAuthor, "author " + p})
	}
	for _, addr := range f.contacts {
		if m := c.contactMatch(addr); m != "" {
			out = append(out, conflictMatch{vocab.ExcludedConflictContact, m})
			break
		}
	}
	for _, r := range f.repos {
		if m := c.repositoryMatch(r); m != "" {
			out = append(out, conflictMatch{vocab.ExcludedConflictRepository, m})
			break
		}
	}
	return out
}

// firstIn returns the first of have that equals one of want.
func firstIn(have, want []string, eq func(a, b string) bool) string {
	for _, h := range have {
		if strings.TrimSpace(h) == "" {
			continue
		}
		for _, w := range want {
			if eq(h, w) {
				return h
			}
		}
	}
	return ""
}

func (c *Conflicts) contactMatch(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if addr == "" {
		return ""
	}
	for _, a := range c.Addresses {
		if strings.EqualFold(strings.TrimSpace(a), addr) {
			return "contact address " + addr
		}
	}
	_, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return ""
	}
	for _, d := range c.Domains {
		d = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(d), "@"))
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return "contact address " + addr + " (domain " + d + ")"
		}
	}
	return ""
}

func (c *Conflicts) repositoryMatch(raw string) string {
	have := normalizeRepository(raw)
	if have == "" {
		return ""
	}
	for _, r := range c.Repositories {
		want := normalizeRepository(r)
		if want != "" && (have == want || strings.HasPrefix(have, want+"/")) {
			return "repository " + raw
		}
	}
	return ""
}

// normalizeRepository is the form two spellings of one repository share:
// "git+https://Host/Owner/Repo.git#main" and "git@Host:Owner/Repo" are both
// "host/Owner/Repo". npm's shorthand forms ("owner/repo",
// "provider:owner/repo") name no host, so they stay as written.
func normalizeRepository(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return ""
	}
	s = strings.TrimPrefix(s, "git+")
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return strings.TrimSuffix(strings.TrimRight(s, "/"), ".git")
		}
		s = strings.ToLower(u.Hostname()) + u.EscapedPath()
	} else if at := strings.IndexByte(s, '@'); at >= 0 && strings.Contains(s[at:], ":") {
		// scp form: user@host:owner/repo
		host, path, _ := strings.Cut(s[at+1:], ":")
		s = strings.ToLower(host) + "/" + strings.TrimPrefix(path, "/")
	}
	s = strings.TrimRight(s, "/")
	s = strings.TrimSuffix(s, ".git")
	return s
}

// emailsIn returns the addresses in a metadata field that may hold one or
// a list ("A <a@x>, b@y"); text that holds none gives none.
func emailsIn(field string) []string {
	field = strings.TrimSpace(field)
	if field == "" {
		return nil
	}
	if list, err := mail.ParseAddressList(field); err == nil {
		out := make([]string, 0, len(list))
		for _, a := range list {
			out = append(out, a.Address)
		}
		return out
	}
	var out []string
	for _, part := range strings.Split(field, ",") {
		if a, err := mail.ParseAddress(strings.TrimSpace(part)); err == nil {
			out = append(out, a.Address)
		} else if p := strings.TrimSpace(part); strings.Count(p, "@") == 1 && !strings.ContainsAny(p, " <>") {
			out = append(out, p)
		}
	}
	return out
}
