package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// NPM is a client for an npm registry at a configured base URL (see
// DefaultNPMRegistry). It fetches full packuments (not the abbreviated
// install form, which lacks time, maintainers and _npmUser).
type NPM struct{ endpoint }

// NewNPM returns a client for the registry at baseURL (which may carry a
// path, as proxies' registries do).
func NewNPM(baseURL string, opts Options) (*NPM, error) {
	e, err := newEndpoint("NewNPM", baseURL, opts)
	if err != nil {
		return nil, err
	}
	return &NPM{e}, nil
}

// Person is a maintainer, publisher (_npmUser) or author as the registry
// records it. The registry accepts both {"name","email"} objects and
// "Name <email> (url)" strings; both decode here.
type Person struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
	URL   string `json:"url,omitempty"`
}

// UnmarshalJSON accepts an object or a "Name <email> (url)" string.
func (p *Person) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*p = parsePersonString(s)
		return nil
	}
	var o struct {
		Name  any `json:"name"`
		Email any `json:"email"`
		URL   any `json:"url"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*p = Person{Name: str(o.Name), Email: str(o.Email), URL: str(o.URL)}
	return nil
}

var personRe = regexp.MustCompile(`^([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$`)

func parsePersonString(s string) Person {
	m := personRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Person{Name: strings.TrimSpace(s)}
	}
	return Person{Name: m[1], Email: m[2], URL: m[3]}
}

// str keeps strings and drops any other JSON type: a hostile document with
// a number where a name should be loses the field, not the whole parse.
func str(v any) string {
	s, _ := v.(string)
	return s
}

// Repository is a package's declared source repository. The registry accepts
// a bare string ("owner/repo", "gitlab:owner/repo", a URL) or an object; a
// string decodes into URL.
type Repository struct {
	Type      string `json:"type,omitempty"`
	URL       string `json:"url,omitempty"`
	Directory string `json:"directory,omitempty"`
}

// UnmarshalJSON accepts an object or a string.
func (r *Repository) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*r = Repository{URL: s}
		return nil
	}
	var o struct {
		Type      any `json:"type"`
		URL       any `json:"url"`
		Directory any `json:"directory"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*r = Repository{Type: str(o.Type), URL: str(o.URL), Directory: str(o.Directory)}
	return nil
}

// Dist is a version's dist object.
type Dist struct {
	Tarball      string            `json:"tarball,omitempty"`
	Integrity    string            `json:"integrity,omitempty"`
	Shasum       string            `json:"shasum,omitempty"`
	Attestations *DistAttestations `json:"attestations,omitempty"`
	FileCount    int64             `json:"fileCount,omitempty"`
	UnpackedSize int64             `json:"unpackedSize,omitempty"`
}

// DistAttestations is dist.attestations: where the version's attestations are
// and which provenance predicate they carry, if any.
type DistAttestations struct {
	URL        string `json:"url,omitempty"`
	Provenance *struct {
		PredicateType string `json:"predicateType,omitempty"`
	} `json:"provenance,omitempty"`
}

// VersionManifest is one version's document, as found under versions in the
// packument or fetched alone. Raw is the document's exact bytes as they
// appeared in the response it came from.
type VersionManifest struct {
	Name        string
	Version     string
	NPMUser     *Person // _npmUser: the account that published this version
	Maintainers []Person
	Author      *Person
	Repository  *Repository
	Homepage    string
	Deprecated  string
	Dist        Dist
	Raw         json.RawMessage
}

type versionJSON struct {
	Name        any             `json:"name"`
	Version     any             `json:"version"`
	NPMUser     json.RawMessage `json:"_npmUser"`
	Maintainers json.RawMessage `json:"maintainers"`
	Author      json.RawMessage `json:"author"`
	Repository  json.RawMessage `json:"repository"`
	Homepage    any             `json:"homepage"`
	Deprecated  any             `json:"deprecated"`
	Dist        json.RawMessage `json:"dist"`
}

// decodeVersion decodes field by field, so one ill-typed field is a problem
// noted, not a version lost.
func decodeVersion(raw json.RawMessage, problems *[]string, where string) (*VersionManifest, error) {
	var v versionJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	m := &VersionManifest{
		Name: str(v.Name), Version: str(v.Version), Homepage: str(v.Homepage), Raw: raw,
	}
	switch d := v.Deprecated.(type) {
	case string:
		m.Deprecated = d
	case bool:
		if d {
			m.Deprecated = "true"
		}
	}
	if len(v.NPMUser) > 0 && !isNull(v.NPMUser) {
		var p Person
		if err := json.Unmarshal(v.NPMUser, &p); err != nil {
			*problems = append(*problems, where+"._npmUser: "+err.Error())
		} else {
			m.NPMUser = &p
		}
	}
	m.Maintainers = decodePeople(v.Maintainers, problems, where+".maintainers")
	if len(v.Author) > 0 && !isNull(v.Author) {
		var p Person
		if err := json.Unmarshal(v.Author, &p); err != nil {
			*problems = append(*problems, where+".author: "+err.Error())
		} else {
			m.Author = &p
		}
	}
	m.Repository = decodeRepository(v.Repository, problems, where+".repository")
	if len(v.Dist) > 0 && !isNull(v.Dist) {
		if err := json.Unmarshal(v.Dist, &m.Dist); err != nil {
			*problems = append(*problems, where+".dist: "+err.Error())
			m.Dist = decodeDistLoose(v.Dist)
		}
	}
	return m, nil
}

// decodeDistLoose salvages the string fields of a dist object whose other
// fields are ill-typed, so integrity is still checked.
func decodeDistLoose(raw json.RawMessage) Dist {
	var o map[string]any
	if json.Unmarshal(raw, &o) != nil {
		return Dist{}
	}
	return Dist{Tarball: str(o["tarball"]), Integrity: str(o["integrity"]), Shasum: str(o["shasum"])}
}

func decodePeople(raw json.RawMessage, problems *[]string, where string) []Person {
	if len(raw) == 0 || isNull(raw) {
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		// A single person where a list belongs.
		var p Person
		if err2 := json.Unmarshal(raw, &p); err2 != nil {
			*problems = append(*problems, where+": "+err.Error())
			return nil
		}
		return []Person{p}
	}
	out := make([]Person, 0, len(list))
	for i, r := range list {
		var p Person
		if err := json.Unmarshal(r, &p); err != nil {
			*problems = append(*problems, fmt.Sprintf("%s[%d]: %v", where, i, err))
			continue
		}
		out = append(out, p)
	}
	return out
}

func decodeRepository(raw json.RawMessage, problems *[]string, where string) *Repository {
	if len(raw) == 0 || isNull(raw) {
		return nil
	}
	var r Repository
	if err := json.Unmarshal(raw, &r); err != nil {
		*problems = append(*problems, where+": "+err.Error())
		return nil
	}
	return &r
}

func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// Packument is a package's full registry document. Response carries the
// exact bytes; the fields are what the checks read.
type Packument struct {
	Response Response
	Name     string
	DistTags map[string]string
	Versions map[string]*VersionManifest
	// Time maps "created", "modified" and each version to its timestamp.
	Time        map[string]time.Time
	Maintainers []Person
	Repository  *Repository
	// Unpublished is set when the registry records the package as
	// unpublished (time.unpublished); Versions is then usually empty.
	Unpublished bool
	// Problems lists fields that were present but ill-typed and so were
	// ignored; the raw bytes still hold them.
	Problems []string
}

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

// parsePackument decodes a packument leniently: it fails only when the body
// is not a JSON object; ill-typed members land in Problems.
func parsePackument(p *Packument, body []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return fmt.Errorf("%w: packument: %v", ErrMalformed, err)
	}
	if raw, ok := top["name"]; ok {
		if err := json.Unmarshal(raw, &p.Name); err != nil {
			p.Problems = append(p.Problems, "name: "+err.Error())
		}
	}
	p.DistTags = map[string]string{}
	if raw, ok := top["dist-tags"]; ok && !isNull(raw) {
		var tags map[string]any
		if err := json.Unmarshal(raw, &tags); err != nil {
			p.Problems = append(p.Problems, "dist-tags: "+err.Error())
		}
		for k, v := range tags {
			if s, ok := v.(string); ok {
				p.DistTags[k] = s
			} else {
				p.Problems = append(p.Problems, "dist-tags."+k+": not a string")
			}
		}
	}
	p.Versions = map[string]*VersionManifest{}
	if raw, ok := top["versions"]; ok && !isNull(raw) {
		var vs map[string]json.RawMessage
		if err := json.Unmarshal(raw, &vs); err != nil {
			p.Problems = append(p.Problems, "versions: "+err.Error())
		}
		for k, r := range vs {
			m, err := decodeVersion(r, &p.Problems, "versions."+k)
			if err != nil {
				p.Problems = append(p.Problems, "versions."+k+": "+err.Error())
				continue
			}
			p.Versions[k] = m
		}
	}
	p.Time = map[string]time.Time{}
	if raw, ok := top["time"]; ok && !isNull(raw) {
		var ts map[string]json.RawMessage
		if err := json.Unmarshal(raw, &ts); err != nil {
			p.Problems = append(p.Problems, "time: "+err.Error())
		}
		for k, r := range ts {
			if k == "unpublished" {
				p.Unpublished = true
				continue
			}
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				p.Problems = append(p.Problems, "time."+k+": not a string")
				continue
			}
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				p.Problems = append(p.Problems, "time."+k+": "+err.Error())
				continue
			}
			p.Time[k] = t.UTC()
		}
	}
	p.Maintainers = decodePeople(top["maintainers"], &p.Problems, "maintainers")
	p.Repository = decodeRepository(top["repository"], &p.Problems, "repository")
	sort.Strings(p.Problems)
	return nil
}

// npmNameRe is the registry's own rule: each part is URL-safe
// (encodeURIComponent leaves it unchanged). Upper case is allowed because old
// packages have it.
var npmNamePartRe = regexp.MustCompile(`^[A-Za-z0-9._~!*'()-]+$`)

// EscapeNPMName returns name as it goes into a registry URL path: a scoped
// name's slash is encoded ("@scope%2fname"), as the npm client does.
func EscapeNPMName(name string) (string, error) {
	if len(name) == 0 || len(name) > 214 {
		return "", fmt.Errorf("%w: npm name %q: length %d", ErrInvalidName, name, len(name))
	}
	scope, pkg := "", name
	if strings.HasPrefix(name, "@") {
		var ok bool
		scope, pkg, ok = strings.Cut(name[1:], "/")
		if !ok || !validNPMPart(scope) {
			return "", fmt.Errorf("%w: npm name %q: bad scope", ErrInvalidName, name)
		}
	}
	if !validNPMPart(pkg) || strings.HasPrefix(pkg, "_") {
		return "", fmt.Errorf("%w: npm name %q", ErrInvalidName, name)
	}
	if scope != "" {
		return "@" + url.PathEscape(scope) + "%2f" + url.PathEscape(pkg), nil
	}
	return url.PathEscape(pkg), nil
}

func validNPMPart(s string) bool {
	return npmNamePartRe.MatchString(s) && !strings.HasPrefix(s, ".")
}

func escapeVersion(v string) (string, error) {
	if v == "" || len(v) > 256 || strings.ContainsAny(v, "/\\ \t\r\n") {
		return "", fmt.Errorf("%w: version %q", ErrInvalidRequest, v)
	}
	return url.PathEscape(v), nil
}

// invalid is the Response of a request never sent; the error names what
// was asked for.
func invalid(kind string, err error, now func() time.Time) Response {
	return Response{Record: Record{Kind: kind, FetchedAt: now().UTC(),
		Outcome: vocab.RecordInvalidRequest, Error: err.Error()}}
}

// Packument fetches GET {base}/{name}. The result is never nil; its
// Response.Record says what happened. A missing package is ErrNotFound.
func (c *NPM) Packument(ctx context.Context, name string) (*Packument, error) {
	p := &Packument{}
	esc, err := EscapeNPMName(name)
	if err != nil {
		p.Response = invalid(vocab.KindNPMPackument, err, c.f.o.Now)
		return p, fmt.Errorf("registry.NPM.Packument: %w", err)
	}
	resp, err := c.f.get(ctx, vocab.KindNPMPackument, c.base+"/"+esc, "application/json", c.f.o.MaxDocumentBytes)
	p.Response = *resp
	if err != nil {
		return p, fmt.Errorf("registry.NPM.Packument(%s): %w", name, err)
	}
	if err := parsePackument(p, resp.Body); err != nil {
		c.f.fail(&p.Response, vocab.RecordMalformed, err)
		return p, fmt.Errorf("registry.NPM.Packument(%s): %w", name, err)
	}
	return p, nil
}

// VersionDoc is a version manifest fetched on its own.
type VersionDoc struct {
	Response Response
	Manifest *VersionManifest
	Problems []string
}

// Version fetches GET {base}/{name}/{version}: one version's manifest.
func (c *NPM) Version(ctx context.Context, name, version string) (*VersionDoc, error) {
	d := &VersionDoc{}
	esc, err := EscapeNPMName(name)
	if err == nil {
		var ev string
		ev, err = escapeVersion(version)
		esc += "/" + ev
	}
	if err != nil {
		d.Response = invalid(vocab.KindNPMVersion, err, c.f.o.Now)
		return d, fmt.Errorf("registry.NPM.Version: %w", err)
	}
	resp, err := c.f.get(ctx, vocab.KindNPMVersion, c.base+"/"+esc, "application/json", c.f.o.MaxDocumentBytes)
	d.Response = *resp
	if err != nil {
		return d, fmt.Errorf("registry.NPM.Version(%s@%s): %w", name, version, err)
	}
	m, err := decodeVersion(resp.Body, &d.Problems, "")
	if err != nil {
		err = fmt.Errorf("%w: version manifest: %v", ErrMalformed, err)
		c.f.fail(&d.Response, vocab.RecordMalformed, err)
		return d, fmt.Errorf("registry.NPM.Version(%s@%s): %w", name, version, err)
	}
	d.Manifest = m
	return d, nil
}

// Tarball downloads m.Dist.Tarball and verifies it: the strongest SHA-2 entry
// of dist.integrity must match; only when no integrity is published is the
// sha1 dist.shasum used, and the Record's outcome is then ok_sha1_only. A
// mismatch, or nothing to verify against, refuses the artifact: the error is
// an *IntegrityError, Response.Body is nil, and the Record keeps the SHA-256
// of what was received.
func (c *NPM) Tarball(ctx context.Context, m *VersionManifest) (*Artifact, error) {
	a := &Artifact{}
	if m == nil || strings.TrimSpace(m.Dist.Tarball) == "" {
		err := fmt.Errorf("%w: version manifest has no dist.tarball", ErrMalformed)
		a.Response = invalid(vocab.KindNPMTarball, err, c.f.o.Now)
		a.Response.Record.Outcome = vocab.RecordMalformed
		return a, fmt.Errorf("registry.NPM.Tarball: %w", err)
	}
	u, err := resolveRef(c.base+"/", m.Dist.Tarball)
	if err != nil {
		a.Response = invalid(vocab.KindNPMTarball, err, c.f.o.Now)
		return a, fmt.Errorf("registry.NPM.Tarball(%s@%s): %w", m.Name, m.Version, err)
	}
	resp, err := c.f.get(ctx, vocab.KindNPMTarball, u, "application/octet-stream", c.f.o.MaxArtifactBytes)
	a.Response = *resp
	if err != nil {
		return a, fmt.Errorf("registry.NPM.Tarball(%s@%s): %w", m.Name, m.Version, err)
	}
	alg, ierr := verifyNPM(resp.Record.URL, resp.Body, m.Dist.Integrity, m.Dist.Shasum)
	if ierr != nil {
		refuse(c.f, &a.Response, ierr)
		return a, fmt.Errorf("registry.NPM.Tarball(%s@%s): %w", m.Name, m.Version, ierr)
	}
	a.Algorithm = alg
	if alg == "sha1" {
		a.Response.Record.Outcome = vocab.RecordOKSHA1Only
	}
	return a, nil
}

// refuse turns a received artifact into a refused one.
func refuse(f *fetcher, r *Response, ierr *IntegrityError) {
	outcome := vocab.RecordIntegrityMismatch
	if ierr.Actual == "" {
		outcome = vocab.RecordNoIntegrity
	}
	f.fail(r, outcome, ierr)
	r.Body = nil
}

// Attestation is one entry of the attestations endpoint's answer.
type Attestation struct {
	PredicateType string          `json:"predicateType"`
	Bundle        json.RawMessage `json:"bundle"`
}

// Attestations is a version's attestations document (Sigstore bundles for
// the npm publish attestation and, when present, SLSA build provenance).
type Attestations struct {
	Response     Response
	Attestations []Attestation
}

// Attestations fetches GET {base}/-/npm/v1/attestations/{name}@{version}.
// The URL is always built from the configured base (never taken from the
// packument), so a registry document cannot send the client elsewhere. A
// version without attestations is ErrNotFound, an ordinary outcome.
func (c *NPM) Attestations(ctx context.Context, name, version string) (*Attestations, error) {
	a := &Attestations{}
	esc, err := EscapeNPMName(name)
	if err == nil {
		var ev string
		ev, err = escapeVersion(version)
		esc += "@" + ev
	}
	if err != nil {
		a.Response = invalid(vocab.KindNPMAttestations, err, c.f.o.Now)
		return a, fmt.Errorf("registry.NPM.Attestations: %w", err)
	}
	resp, err := c.f.get(ctx, vocab.KindNPMAttestations, c.base+"/-/npm/v1/attestations/"+esc, "application/json", c.f.o.MaxDocumentBytes)
	a.Response = *resp
	if err != nil {
		return a, fmt.Errorf("registry.NPM.Attestations(%s@%s): %w", name, version, err)
	}
	var doc struct {
		Attestations []Attestation `json:"attestations"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		err = fmt.Errorf("%w: attestations: %v", ErrMalformed, err)
		c.f.fail(&a.Response, vocab.RecordMalformed, err)
		return a, fmt.Errorf("registry.NPM.Attestations(%s@%s): %w", name, version, err)
	}
	a.Attestations = doc.Attestations
	return a, nil
}
