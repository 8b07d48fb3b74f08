package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/vocab"
)

// PyPI is a client for a PyPI-compatible index at a configured base URL (see
// DefaultPyPIURL): the JSON API under {base}/pypi/, the PEP 691 simple index
// under {base}/simple/, and the PEP 740 integrity API under
// {base}/integrity/. Distribution files are fetched from whatever URL the
// index lists for them (often another host), and verified by sha256.
type PyPI struct{ endpoint }

// NewPyPI returns a client for the index whose JSON API lives at
// {baseURL}/pypi/.
func NewPyPI(baseURL string, opts Options) (*PyPI, error) {
	e, err := newEndpoint("NewPyPI", baseURL, opts)
	if err != nil {
		return nil, err
	}
	return &PyPI{e}, nil
}

var pypiNameRe = regexp.MustCompile(`(?i)^([a-z0-9]|[a-z0-9][a-z0-9._-]*[a-z0-9])$`)

// NormalizePyPIName is PEP 503 normalisation: lower case, runs of -, _ and .
// become one -. It does not validate; see ValidPyPIName.
func NormalizePyPIName(name string) string {
	return api.LookupName(api.RegistryPyPI, name)
}

// ValidPyPIName reports whether name is a valid project name (PEP 508).
func ValidPyPIName(name string) bool {
	return len(name) <= 200 && pypiNameRe.MatchString(name)
}

// PyPIInfo is the info object of the JSON API: who the project names as its
// people and where it points.
type PyPIInfo struct {
	Name            string            `json:"name"`
	Version         string            `json:"version"`
	Summary         string            `json:"summary"`
	Author          string            `json:"author"`
	AuthorEmail     string            `json:"author_email"`
	Maintainer      string            `json:"maintainer"`
	MaintainerEmail string            `json:"maintainer_email"`
	HomePage        string            `json:"home_page"`
	ProjectURL      string            `json:"project_url"`
	ProjectURLs     map[string]string `json:"project_urls"`
	License         string            `json:"license"`
	RequiresPython  string            `json:"requires_python"`
	Yanked          bool              `json:"yanked"`
	YankedReason    string            `json:"yanked_reason"`
}

// PyPIFile is one distribution file of a release.
type PyPIFile struct {
	Filename string `json:"filename"`
	URL      string `json:"url"`
	// PackageType is sdist or bdist_wheel (or an older bdist_*).
	PackageType    string            `json:"packagetype"`
	Digests        map[string]string `json:"digests"`
	Size           int64             `json:"size"`
	UploadTime     time.Time         `json:"upload_time"`
	RequiresPython string            `json:"requires_python"`
	Yanked         bool              `json:"yanked"`
	YankedReason   string            `json:"yanked_reason"`
}

// SHA256 is the published hex sha256 digest.
func (f PyPIFile) SHA256() string { return f.Digests["sha256"] }

// parseLooseTime reads the first of the candidates that parses: RFC 3339, or
// the JSON API's zone-less "2006-01-02T15:04:05" (UTC).
func parseLooseTime(candidates ...string) time.Time {
	for _, s := range candidates {
		if s == "" {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC()
		}
		if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// PyPIOwnership is the JSON API's ownership object, when the index serves
// one: the accounts with roles on the project.
type PyPIOwnership struct {
	Organization string `json:"organization"`
	Roles        []struct {
		Role string `json:"role"`
		User string `json:"user"`
	} `json:"roles"`
}

// PyPIRelease is GET {base}/pypi/{name}/{version}/json.
type PyPIRelease struct {
	Response  Response
	Info      PyPIInfo
	Files     []PyPIFile // "urls": this release's files
	Ownership *PyPIOwnership
}

// PyPIProject is GET {base}/pypi/{name}/json: the latest release's info and
// every release's files, which is what resolution reads.
type PyPIProject struct {
	Response  Response
	Info      PyPIInfo
	Files     []PyPIFile // the latest release's files
	Releases  map[string][]PyPIFile
	Ownership *PyPIOwnership
}

// pypiJSON holds the JSON API's members undecoded, so that one ill-typed
// member costs that member, not the document.
type pypiJSON struct {
	Info      json.RawMessage `json:"info"`
	URLs      json.RawMessage `json:"urls"`
	Releases  json.RawMessage `json:"releases"`
	Ownership json.RawMessage `json:"ownership"`
}

func (d *pypiJSON) files() []PyPIFile {
	var raws []json.RawMessage
	_ = json.Unmarshal(d.URLs, &raws)
	return decodeFiles(raws)
}

func (d *pypiJSON) releases() map[string][]PyPIFile {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(d.Releases, &m)
	out := make(map[string][]PyPIFile, len(m))
	for v, r := range m {
		var raws []json.RawMessage
		if json.Unmarshal(r, &raws) != nil {
			continue
		}
		out[v] = decodeFiles(raws)
	}
	return out
}

func (d *pypiJSON) ownership() *PyPIOwnership {
	if len(d.Ownership) == 0 || isNull(d.Ownership) {
		return nil
	}
	var o PyPIOwnership
	if json.Unmarshal(d.Ownership, &o) != nil {
		return nil
	}
	return &o
}

// decodeInfo tolerates nulls where strings belong (the JSON API is full of
// them) and ill-typed members.
func decodeInfo(raw json.RawMessage) (PyPIInfo, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return PyPIInfo{}, err
	}
	info := PyPIInfo{
		Name: str(m["name"]), Version: str(m["version"]), Summary: str(m["summary"]),
		Author: str(m["author"]), AuthorEmail: str(m["author_email"]),
		Maintainer: str(m["maintainer"]), MaintainerEmail: str(m["maintainer_email"]),
		HomePage: str(m["home_page"]), ProjectURL: str(m["project_url"]), License: str(m["license"]),
		RequiresPython: str(m["requires_python"]), YankedReason: str(m["yanked_reason"]),
	}
	info.Yanked, _ = m["yanked"].(bool)
	if pu, ok := m["project_urls"].(map[string]any); ok {
		info.ProjectURLs = map[string]string{}
		for k, v := range pu {
			if s, ok := v.(string); ok {
				info.ProjectURLs[k] = s
			}
		}
	}
	return info, nil
}

func decodeFiles(raws []json.RawMessage) []PyPIFile {
	out := make([]PyPIFile, 0, len(raws))
	for _, r := range raws {
		var m map[string]any
		if json.Unmarshal(r, &m) != nil {
			continue
		}
		f := PyPIFile{
			Filename: str(m["filename"]), URL: str(m["url"]), PackageType: str(m["packagetype"]),
			RequiresPython: str(m["requires_python"]), YankedReason: str(m["yanked_reason"]),
			UploadTime: parseLooseTime(str(m["upload_time_iso_8601"]), str(m["upload_time"])),
		}
		f.Yanked, _ = m["yanked"].(bool)
		if n, ok := m["size"].(float64); ok && n >= 0 {
			f.Size = int64(n)
		}
		if d, ok := m["digests"].(map[string]any); ok {
			f.Digests = map[string]string{}
			for k, v := range d {
				if s, ok := v.(string); ok {
					f.Digests[k] = s
				}
			}
		}
		out = append(out, f)
	}
	return out
}

func (c *PyPI) jsonDoc(ctx context.Context, path string) (*Response, *pypiJSON, error) {
	resp, err := c.f.get(ctx, vocab.KindPyPIJSON, c.base+path, "application/json", c.f.o.MaxDocumentBytes)
	if err != nil {
		return resp, nil, err
	}
	var doc pypiJSON
	if err := json.Unmarshal(resp.Body, &doc); err != nil || len(doc.Info) == 0 || isNull(doc.Info) {
		if err == nil {
			err = fmt.Errorf("no info object")
		}
		err = fmt.Errorf("%w: JSON API: %v", ErrMalformed, err)
		c.f.fail(resp, vocab.RecordMalformed, err)
		return resp, nil, err
	}
	return resp, &doc, nil
}

func (c *PyPI) escName(name string) (string, error) {
	if !ValidPyPIName(name) {
		return "", fmt.Errorf("%w: PyPI name %q", ErrInvalidName, name)
	}
	return NormalizePyPIName(name), nil
}

// Project fetches GET {base}/pypi/{name}/json (name PEP 503-normalised).
func (c *PyPI) Project(ctx context.Context, name string) (*PyPIProject, error) {
	p := &PyPIProject{}
	n, err := c.escName(name)
	if err != nil {
		p.Response = invalid(vocab.KindPyPIJSON, err, c.f.o.Now)
		return p, fmt.Errorf("registry.PyPI.Project: %w", err)
	}
	resp, doc, err := c.jsonDoc(ctx, "/pypi/"+n+"/json")
	p.Response = *resp
	if err != nil {
		return p, fmt.Errorf("registry.PyPI.Project(%s): %w", name, err)
	}
	if p.Info, err = decodeInfo(doc.Info); err != nil {
		err = fmt.Errorf("%w: info: %v", ErrMalformed, err)
		c.f.fail(&p.Response, vocab.RecordMalformed, err)
		return p, fmt.Errorf("registry.PyPI.Project(%s): %w", name, err)
	}
	p.Files = doc.files()
	p.Releases = doc.releases()
	p.Ownership = doc.ownership()
	return p, nil
}

// Release fetches GET {base}/pypi/{name}/{version}/json.
func (c *PyPI) Release(ctx context.Context, name, version string) (*PyPIRelease, error) {
	r := &PyPIRelease{}
	n, err := c.escName(name)
	var ev string
	if err == nil {
		ev, err = escapeVersion(version)
	}
	if err != nil {
		r.Response = invalid(vocab.KindPyPIJSON, err, c.f.o.Now)
		return r, fmt.Errorf("registry.PyPI.Release: %w", err)
	}
	resp, doc, err := c.jsonDoc(ctx, "/pypi/"+n+"/"+ev+"/json")
	r.Response = *resp
	if err != nil {
		return r, fmt.Errorf("registry.PyPI.Release(%s, %s): %w", name, version, err)
	}
	if r.Info, err = decodeInfo(doc.Info); err != nil {
		err = fmt.Errorf("%w: info: %v", ErrMalformed, err)
		c.f.fail(&r.Response, vocab.RecordMalformed, err)
		return r, fmt.Errorf("registry.PyPI.Release(%s, %s): %w", name, version, err)
	}
	r.Files = doc.files()
	r.Ownership = doc.ownership()
	return r, nil
}

// SimpleFile is one file of a PEP 691 project page.
type SimpleFile struct {
	Filename       string
	URL            string // absolute, resolved against the page URL
	Hashes         map[string]string
	RequiresPython string
	Yanked         bool
	YankedReason   string
	Size           int64
	UploadTime     time.Time
	// ProvenanceURL is the PEP 740 provenance URL, empty when the index
	// lists none for this file.
	ProvenanceURL string
}

// SimpleIndex is GET {base}/simple/{normalized}/ in the PEP 691 JSON form.
type SimpleIndex struct {
	Response   Response
	Name       string
	APIVersion string
	Versions   []string
	Files      []SimpleFile
}

// SimpleContentType is the PEP 691 JSON media type.
const SimpleContentType = "application/vnd.pypi.simple.v1+json"

// Simple fetches the project's simple page as PEP 691 JSON. An index that
// answers with HTML (no PEP 691 support) is ErrMalformed: parsing HTML is
// out of this subset.
func (c *PyPI) Simple(ctx context.Context, name string) (*SimpleIndex, error) {
	s := &SimpleIndex{}
	n, err := c.escName(name)
	if err != nil {
		s.Response = invalid(vocab.KindPyPISimple, err, c.f.o.Now)
		return s, fmt.Errorf("registry.PyPI.Simple: %w", err)
	}
	pageURL := c.base + "/simple/" + n + "/"
	resp, err := c.f.get(ctx, vocab.KindPyPISimple, pageURL, SimpleContentType, c.f.o.MaxDocumentBytes)
	s.Response = *resp
	if err != nil {
		return s, fmt.Errorf("registry.PyPI.Simple(%s): %w", name, err)
	}
	if !strings.HasPrefix(strings.ToLower(resp.ContentType), SimpleContentType) &&
		!strings.HasPrefix(strings.ToLower(resp.ContentType), "application/json") {
		err := fmt.Errorf("%w: simple index answered %q, not PEP 691 JSON", ErrMalformed, resp.ContentType)
		c.f.fail(&s.Response, vocab.RecordMalformed, err)
		return s, fmt.Errorf("registry.PyPI.Simple(%s): %w", name, err)
	}
	var doc struct {
		Meta struct {
			APIVersion string `json:"api-version"`
		} `json:"meta"`
		Name     string                       `json:"name"`
		Versions []string                     `json:"versions"`
		Files    []map[string]json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		err = fmt.Errorf("%w: simple index: %v", ErrMalformed, err)
		c.f.fail(&s.Response, vocab.RecordMalformed, err)
		return s, fmt.Errorf("registry.PyPI.Simple(%s): %w", name, err)
	}
	s.Name, s.APIVersion, s.Versions = doc.Name, doc.Meta.APIVersion, doc.Versions
	for _, fm := range doc.Files {
		var f SimpleFile
		getStr := func(k string) string {
			var v string
			_ = json.Unmarshal(fm[k], &v)
			return v
		}
		f.Filename = getStr("filename")
		if u, err := resolveRef(pageURL, getStr("url")); err == nil {
			f.URL = u
		}
		_ = json.Unmarshal(fm["hashes"], &f.Hashes)
		f.RequiresPython = getStr("requires-python")
		// yanked is false, true, or a reason string.
		var y any
		_ = json.Unmarshal(fm["yanked"], &y)
		switch yv := y.(type) {
		case bool:
			f.Yanked = yv
		case string:
			f.Yanked, f.YankedReason = true, yv
		}
		_ = json.Unmarshal(fm["size"], &f.Size)
		f.UploadTime = parseLooseTime(getStr("upload-time"))
		if p := getStr("provenance"); p != "" {
			if u, err := resolveRef(pageURL, p); err == nil {
				f.ProvenanceURL = u
			}
		}
		s.Files = append(s.Files, f)
	}
	return s, nil
}

// PyPIPublisher is a Trusted Publisher identity from a PEP 740 bundle. Kind
// is the publisher kind the index reports (a CI service name); the other
// members depend on it and are kept whole in Raw.
type PyPIPublisher struct {
	Kind        string          `json:"kind"`
	Repository  string          `json:"repository,omitempty"`
	Workflow    string          `json:"workflow,omitempty"`
	Environment string          `json:"environment,omitempty"`
	Raw         json.RawMessage `json:"-"`
}

// AttestationBundle is one publisher and the attestations it signed.
type AttestationBundle struct {
	Publisher    PyPIPublisher
	Attestations []json.RawMessage
}

// Provenance is a file's PEP 740 provenance object.
type Provenance struct {
	Response Response
	Version  int
	Bundles  []AttestationBundle
}

// IntegrityContentType is the PEP 740 integrity API media type.
const IntegrityContentType = "application/vnd.pypi.integrity.v1+json"

// Provenance fetches GET {base}/integrity/{name}/{version}/{filename}/provenance.
// A file with no provenance is ErrNotFound, an ordinary outcome.
func (c *PyPI) Provenance(ctx context.Context, name, version, filename string) (*Provenance, error) {
	p := &Provenance{}
	n, err := c.escName(name)
	var ev string
	if err == nil {
		ev, err = escapeVersion(version)
	}
	if err == nil && (filename == "" || strings.ContainsAny(filename, "/\\") || filename == "." || filename == "..") {
		err = fmt.Errorf("%w: filename %q", ErrInvalidRequest, filename)
	}
	if err != nil {
		p.Response = invalid(vocab.KindPyPIProvenance, err, c.f.o.Now)
		return p, fmt.Errorf("registry.PyPI.Provenance: %w", err)
	}
	u := c.base + "/integrity/" + n + "/" + ev + "/" + url.PathEscape(filename) + "/provenance"
	resp, err := c.f.get(ctx, vocab.KindPyPIProvenance, u, IntegrityContentType+", application/json;q=0.9", c.f.o.MaxDocumentBytes)
	p.Response = *resp
	if err != nil {
		return p, fmt.Errorf("registry.PyPI.Provenance(%s, %s, %s): %w", name, version, filename, err)
	}
	var doc struct {
		Version            int `json:"version"`
		AttestationBundles []struct {
			Publisher    json.RawMessage   `json:"publisher"`
			Attestations []json.RawMessage `json:"attestations"`
		} `json:"attestation_bundles"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		err = fmt.Errorf("%w: provenance: %v", ErrMalformed, err)
		c.f.fail(&p.Response, vocab.RecordMalformed, err)
		return p, fmt.Errorf("registry.PyPI.Provenance(%s, %s, %s): %w", name, version, filename, err)
	}
	p.Version = doc.Version
	for _, b := range doc.AttestationBundles {
		var pub PyPIPublisher
		var m map[string]any
		if json.Unmarshal(b.Publisher, &m) == nil {
			pub = PyPIPublisher{Kind: str(m["kind"]), Repository: str(m["repository"]),
				Workflow: str(m["workflow"]), Environment: str(m["environment"])}
		}
		pub.Raw = b.Publisher
		p.Bundles = append(p.Bundles, AttestationBundle{Publisher: pub, Attestations: b.Attestations})
	}
	return p, nil
}

// Download fetches a distribution file and verifies it against wantSHA256
// (hex). A mismatch, or an empty wantSHA256, refuses the file: the error is
// an *IntegrityError and Response.Body is nil. fileURL is resolved against
// the base, so a relative URL from an index works.
func (c *PyPI) Download(ctx context.Context, fileURL, wantSHA256 string) (*Artifact, error) {
	a := &Artifact{}
	u, err := resolveRef(c.base+"/", fileURL)
	if err != nil {
		a.Response = invalid(vocab.KindPyPIFile, err, c.f.o.Now)
		return a, fmt.Errorf("registry.PyPI.Download: %w", err)
	}
	resp, err := c.f.get(ctx, vocab.KindPyPIFile, u, "application/octet-stream", c.f.o.MaxArtifactBytes)
	a.Response = *resp
	if err != nil {
		return a, fmt.Errorf("registry.PyPI.Download: %w", err)
	}
	alg, ierr := verifySHA256(resp.Record.URL, resp.Body, wantSHA256)
	if ierr != nil {
		refuse(c.f, &a.Response, ierr)
		return a, fmt.Errorf("registry.PyPI.Download: %w", ierr)
	}
	a.Algorithm = alg
	return a, nil
}

// ResolvePyPI resolves a PEP 440 specifier against a project's releases: the
// highest release the specifier admits (pre-releases only when named), among
// releases that have at least one file, skipping releases whose every file
// is yanked unless the specifier pins one version (PEP 592).
func ResolvePyPI(p *PyPIProject, spec string) (Resolution, error) {
	res := Resolution{Specifier: spec}
	if p == nil {
		return res, fmt.Errorf("registry.ResolvePyPI(%q): %w: no project", spec, ErrNoMatch)
	}
	s, err := ParsePEP440Specifier(spec)
	if err != nil {
		return res, fmt.Errorf("registry.ResolvePyPI(%q): %w", spec, err)
	}
	pin := s.IsPin()
	var candidates []string
	for v, files := range p.Releases {
		if len(files) == 0 {
			continue
		}
		yanked := true
		for _, f := range files {
			yanked = yanked && f.Yanked
		}
		if yanked && !pin {
			continue
		}
		candidates = append(candidates, v)
	}
	sort.Strings(candidates) // ties between spellings of one version resolve stably
	r, err := ResolvePEP440(candidates, spec)
	if err != nil {
		return res, fmt.Errorf("registry.ResolvePyPI(%s): %w", p.Info.Name, err)
	}
	return r, nil
}
