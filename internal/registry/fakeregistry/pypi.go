package fakeregistry

import (
	"encoding/json"
	"html"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// PyPIFile is one synthetic distribution file.
type PyPIFile struct {
	Filename string
	Content  []byte
	// PackageType defaults from the filename: .whl is bdist_wheel,
	// anything else sdist.
	PackageType    string
	RequiresPython string
	// Provenance, when set, is served verbatim by the integrity endpoint
	// and its URL is listed in the simple index.
	Provenance json.RawMessage
	// WrongDigest publishes a sha256 of other bytes, so download
	// verification fails.
	WrongDigest bool
}

// PyPIPublisher is a Trusted Publisher identity for synthetic provenance.
type PyPIPublisher struct {
	Kind        string `json:"kind"`
	Repository  string `json:"repository,omitempty"`
	Workflow    string `json:"workflow,omitempty"`
	Environment string `json:"environment,omitempty"`
}

// PyPIOptions describes one synthetic release. The project's info object
// is the latest release's (see AddPyPI).
type PyPIOptions struct {
	Summary         string
	Author          string
	AuthorEmail     string
	Maintainer      string
	MaintainerEmail string
	HomePage        string
	ProjectURLs     map[string]string
	// Owners become the ownership roles ("Owner") of the project.
	Owners []string
	// Uploaded is every file's upload time; zero gives Epoch plus one
	// minute per addition.
	Uploaded time.Time
	// Yanked marks every file of the release yanked (PEP 592).
	Yanked       bool
	YankedReason string
	// Publisher, when set, gives every file of the release a synthetic
	// PEP 740 provenance object naming it (unless the file has its own).
	Publisher *PyPIPublisher
}

type pypiRelease struct {
	version  string
	files    []PyPIFile
	opts     PyPIOptions
	uploaded time.Time
	order    int
}

type pypiProject struct {
	name     string // as first registered
	releases map[string]*pypiRelease
	owners   []string
	serial   int
}

var pypiSep = regexp.MustCompile(`[-_.]+`)

func normalize(name string) string { return pypiSep.ReplaceAllString(strings.ToLower(name), "-") }

// AddPyPI registers (or replaces) one release of a PyPI project.
func (f *Fake) AddPyPI(name, version string, files []PyPIFile, opts PyPIOptions) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := normalize(name)
	p := f.pypi[n]
	if p == nil {
		p = &pypiProject{name: name, releases: map[string]*pypiRelease{}}
		f.pypi[n] = p
	}
	if opts.Owners != nil {
		p.owners = append([]string(nil), opts.Owners...)
	}
	p.serial++
	cp := make([]PyPIFile, len(files))
	for i, fl := range files {
		fl.Content = append([]byte(nil), fl.Content...)
		if fl.PackageType == "" {
			fl.PackageType = "sdist"
			if strings.HasSuffix(fl.Filename, ".whl") {
				fl.PackageType = "bdist_wheel"
			}
		}
		cp[i] = fl
	}
	p.releases[version] = &pypiRelease{version: version, files: cp, opts: opts, uploaded: f.nextTime(opts.Uploaded), order: p.serial}
}

// PyPIJSONPath is the decoded path of the JSON API; version "" gives the
// project document.
func PyPIJSONPath(name, version string) string {
	if version == "" {
		return "/pypi/" + normalize(name) + "/json"
	}
	return "/pypi/" + normalize(name) + "/" + version + "/json"
}

// PyPISimplePath is the decoded path of a project's simple page.
func PyPISimplePath(name string) string { return "/simple/" + normalize(name) + "/" }

// PyPIProvenancePath is the decoded path of a file's provenance.
func PyPIProvenancePath(name, version, filename string) string {
	return "/integrity/" + normalize(name) + "/" + version + "/" + filename + "/provenance"
}

// PyPIFilePath is the decoded path of a distribution file.
func PyPIFilePath(name, version, filename string) string {
	return "/files/" + normalize(name) + "/" + version + "/" + filename
}

var finalRelease = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

// latest is the most recently added release whose version is a plain final
// release (digits and dots), else the most recently added one. The fake does
// not order PEP 440 versions; tests that need "latest" add releases in order.
func (p *pypiProject) latest() *pypiRelease {
	var best, last *pypiRelease
	for _, r := range p.releases {
		if last == nil || r.order > last.order {
			last = r
		}
		if finalRelease.MatchString(r.version) && !r.opts.Yanked && (best == nil || r.order > best.order) {
			best = r
		}
	}
	if best == nil {
		return last
	}
	return best
}

func (f *Fake) fileProvenance(p *pypiProject, r *pypiRelease, fl PyPIFile) json.RawMessage {
	if fl.Provenance != nil {
		return fl.Provenance
	}
	if r.opts.Publisher == nil {
		return nil
	}
	b, _ := json.Marshal(map[string]any{
		"version": 1,
		"attestation_bundles": []any{map[string]any{
			"publisher": r.opts.Publisher,
			"attestations": []any{map[string]any{
				"version": 1,
				"verification_material": map[string]any{
					"certificate":          "ZmFrZQ==",
					"transparency_entries": []any{},
				},
				"envelope": map[string]any{"statement": "e30=", "signature": "ZmFrZQ=="},
			}},
		}},
	})
	return b
}

func (f *Fake) digest(fl PyPIFile) string {
	if fl.WrongDigest {
		return vocab.SHA256Hex(append(append([]byte(nil), fl.Content...), "tampered"...))
	}
	return vocab.SHA256Hex(fl.Content)
}

func (f *Fake) jsonFiles(base string, p *pypiProject, r *pypiRelease) []any {
	out := []any{}
	for _, fl := range r.files {
		pyver := "source"
		if fl.PackageType == "bdist_wheel" {
			pyver = "py3"
		}
		var reason, reqPy any
		if r.opts.Yanked && r.opts.YankedReason != "" {
			reason = r.opts.YankedReason
		}
		if fl.RequiresPython != "" {
			reqPy = fl.RequiresPython
		}
		out = append(out, map[string]any{
			"filename":             fl.Filename,
			"url":                  base + PyPIFilePath(p.name, r.version, url.PathEscape(fl.Filename)),
			"packagetype":          fl.PackageType,
			"python_version":       pyver,
			"digests":              map[string]string{"sha256": f.digest(fl)},
			"size":                 len(fl.Content),
			"upload_time":          r.uploaded.UTC().Format("2006-01-02T15:04:05"),
			"upload_time_iso_8601": r.uploaded.UTC().Format("2006-01-02T15:04:05.000000Z"),
			"yanked":               r.opts.Yanked,
			"yanked_reason":        reason,
			"requires_python":      reqPy,
			"has_sig":              false,
		})
	}
	return out
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (f *Fake) info(p *pypiProject, r *pypiRelease) map[string]any {
	o := r.opts
	var urls any
	if o.ProjectURLs != nil {
		urls = o.ProjectURLs
	}
	return map[string]any{
		"name":             p.name,
		"version":          r.version,
		"summary":          nullable(o.Summary),
		"author":           nullable(o.Author),
		"author_email":     nullable(o.AuthorEmail),
		"maintainer":       nullable(o.Maintainer),
		"maintainer_email": nullable(o.MaintainerEmail),
		"home_page":        nullable(o.HomePage),
		"project_urls":     urls,
		"yanked":           o.Yanked,
		"yanked_reason":    nullable(o.YankedReason),
		"requires_python":  nil,
	}
}

func (f *Fake) ownership(p *pypiProject) map[string]any {
	roles := []any{}
	for _, u := range p.owners {
		roles = append(roles, map[string]any{"role": "Owner", "user": u})
	}
	return map[string]any{"organization": nil, "roles": roles}
}

// servePyPI answers the PyPI routes; ok is false when the path names no
// registered project. f.mu is held.
func (f *Fake) servePyPI(r *http.Request) (status int, ctype string, body []byte, ok bool) {
	base := baseURL(r)
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if len(parts) < 2 {
		return 0, "", nil, false
	}
	p := f.pypi[normalize(parts[1])]
	if p == nil {
		return 0, "", nil, false
	}
	switch {
	case parts[0] == "pypi" && len(parts) == 3 && parts[2] == "json":
		l := p.latest()
		releases := map[string]any{}
		for _, v := range slices.Sorted(maps.Keys(p.releases)) {
			releases[v] = f.jsonFiles(base, p, p.releases[v])
		}
		status, ctype, body = jsonBody(map[string]any{
			"info": f.info(p, l), "last_serial": p.serial, "urls": f.jsonFiles(base, p, l),
			"releases": releases, "vulnerabilities": []any{}, "ownership": f.ownership(p),
		})
		return status, ctype, body, true
	case parts[0] == "pypi" && len(parts) == 4 && parts[3] == "json":
		rel := p.releases[parts[2]]
		if rel == nil {
			status, ctype, body = notFound()
			return status, ctype, body, true
		}
		status, ctype, body = jsonBody(map[string]any{
			"info": f.info(p, rel), "last_serial": p.serial, "urls": f.jsonFiles(base, p, rel),
			"vulnerabilities": []any{}, "ownership": f.ownership(p),
		})
		return status, ctype, body, true
	case parts[0] == "simple" && len(parts) == 2:
		return f.simple(r, base, p)
	case parts[0] == "integrity" && len(parts) == 5 && parts[4] == "provenance":
		rel := p.releases[parts[2]]
		if rel != nil {
			for _, fl := range rel.files {
				if fl.Filename == parts[3] {
					if prov := f.fileProvenance(p, rel, fl); prov != nil {
						return http.StatusOK, "application/vnd.pypi.integrity.v1+json", prov, true
					}
				}
			}
		}
		status, ctype, body = notFound()
		return status, ctype, body, true
	case parts[0] == "files" && len(parts) == 4:
		rel := p.releases[parts[2]]
		if rel != nil {
			for _, fl := range rel.files {
				if fl.Filename == parts[3] {
					return http.StatusOK, "application/octet-stream", fl.Content, true
				}
			}
		}
		status, ctype, body = notFound()
		return status, ctype, body, true
	}
	return 0, "", nil, false
}

func (f *Fake) simple(r *http.Request, base string, p *pypiProject) (int, string, []byte, bool) {
	n := normalize(p.name)
	var files []any
	var links strings.Builder
	for _, v := range slices.Sorted(maps.Keys(p.releases)) {
		rel := p.releases[v]
		for _, fl := range rel.files {
			fileURL := base + PyPIFilePath(p.name, rel.version, url.PathEscape(fl.Filename))
			var prov, reqPy any
			if f.fileProvenance(p, rel, fl) != nil {
				prov = base + PyPIProvenancePath(p.name, rel.version, url.PathEscape(fl.Filename))
			}
			if fl.RequiresPython != "" {
				reqPy = fl.RequiresPython
			}
			var yanked any = rel.opts.Yanked
			if rel.opts.Yanked && rel.opts.YankedReason != "" {
				yanked = rel.opts.YankedReason
			}
			files = append(files, map[string]any{
				"filename":        fl.Filename,
				"url":             fileURL,
				"hashes":          map[string]string{"sha256": f.digest(fl)},
				"requires-python": reqPy,
				"yanked":          yanked,
				"size":            len(fl.Content),
				"upload-time":     rel.uploaded.UTC().Format("2006-01-02T15:04:05.000000Z"),
				"provenance":      prov,
				"core-metadata":   false,
			})
			links.WriteString(`<a href="` + html.EscapeString(fileURL+"#sha256="+f.digest(fl)) + `">` + html.EscapeString(fl.Filename) + "</a>\n")
		}
	}
	if !strings.Contains(r.Header.Get("Accept"), "application/vnd.pypi.simple.v1+json") {
		page := "<!DOCTYPE html>\n<html><body>\n" + links.String() + "</body></html>\n"
		return http.StatusOK, "text/html", []byte(page), true
	}
	if files == nil {
		files = []any{}
	}
	status, _, body := jsonBody(map[string]any{
		"meta":     map[string]any{"api-version": "1.3", "_last-serial": p.serial},
		"name":     n,
		"versions": slices.Sorted(maps.Keys(p.releases)),
		"files":    files,
	})
	return status, "application/vnd.pypi.simple.v1+json", body, true
}
