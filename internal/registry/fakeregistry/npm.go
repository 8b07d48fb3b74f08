package fakeregistry

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
)

// SLSAProvenanceV1 is the predicate type of SLSA build provenance v1, which
// the npm registry lists under dist.attestations.provenance.
const SLSAProvenanceV1 = "https://slsa.dev/provenance/v1"

// NPMOptions describes one synthetic npm version. Zero values give a plain
// package with correct digests, no attestations, and a publisher "fake".
type NPMOptions struct {
	// Publisher is the version's _npmUser; nil gives {"name":"fake"}.
	Publisher *Person
	// Maintainers is the package's maintainers list (the last AddNPM call
	// that sets it wins, as on the registry); nil keeps the previous one,
	// or [Publisher] for a new package.
	Maintainers []Person
	// Repository is the repository URL (type git); empty omits it.
	Repository string
	// Published is time[version]; zero gives Epoch plus one minute per
	// addition.
	Published time.Time
	// Tags are dist-tags to point at this version. "latest" otherwise
	// follows the highest non-pre-release version.
	Tags []string
	// Deprecated sets the version's deprecation message.
	Deprecated string
	// Dependencies is the manifest's dependencies map.
	Dependencies map[string]string
	// Extra members merged into the version manifest (main, bin, ...).
	Extra map[string]any

	// Provenance lists an SLSA provenance predicate under
	// dist.attestations and serves a synthetic attestations document.
	Provenance bool
	// Attestations, when set, is served verbatim by the attestations
	// endpoint (and dist.attestations is published).
	Attestations json.RawMessage

	// WrongIntegrity publishes an integrity (and shasum) computed over
	// other bytes, so the tarball fails verification.
	WrongIntegrity bool
	// OmitIntegrity publishes no dist.integrity (a legacy package: the
	// client falls back to dist.shasum).
	OmitIntegrity bool
	// OmitShasum publishes no dist.shasum.
	OmitShasum bool
	// Integrity, when set, is published verbatim as dist.integrity.
	Integrity string
}

type npmVersion struct {
	version   string
	tarball   []byte
	opts      NPMOptions
	published time.Time
}

type npmPackage struct {
	name        string
	versions    map[string]*npmVersion
	tags        map[string]string
	maintainers []Person
	created     time.Time
	modified    time.Time
}

// AddNPM registers (or replaces) one version of an npm package whose tarball
// is the given bytes.
func (f *Fake) AddNPM(name, version string, tarball []byte, opts NPMOptions) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.npm[name]
	published := f.nextTime(opts.Published)
	if p == nil {
		p = &npmPackage{name: name, versions: map[string]*npmVersion{}, tags: map[string]string{}, created: published}
		f.npm[name] = p
	}
	if opts.Publisher == nil {
		opts.Publisher = &Person{Name: "fake"}
	}
	switch {
	case opts.Maintainers != nil:
		p.maintainers = append([]Person(nil), opts.Maintainers...)
	case p.maintainers == nil:
		p.maintainers = []Person{*opts.Publisher}
	}
	p.versions[version] = &npmVersion{version: version, tarball: append([]byte(nil), tarball...), opts: opts, published: published}
	if published.After(p.modified) {
		p.modified = published
	}
	for _, t := range opts.Tags {
		p.tags[t] = version
	}
	if !contains(opts.Tags, "latest") {
		if l := highestRelease(p.versions); l != "" {
			p.tags["latest"] = l
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// highestRelease is the highest non-pre-release version, "" if none.
func highestRelease(vs map[string]*npmVersion) string {
	var best *semver.Version
	bestKey := ""
	for k := range vs {
		v, err := semver.StrictNewVersion(k)
		if err != nil || v.Prerelease() != "" {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best, bestKey = v, k
		}
	}
	return bestKey
}

// NPMPackumentPath is the decoded request path of a packument.
func NPMPackumentPath(name string) string { return "/" + name }

// NPMVersionPath is the decoded request path of a version manifest.
func NPMVersionPath(name, version string) string { return "/" + name + "/" + version }

// NPMTarballPath is the decoded request path of a tarball.
func NPMTarballPath(name, version string) string {
	return "/" + name + "/-/" + npmBasename(name) + "-" + version + ".tgz"
}

// NPMAttestationsPath is the decoded request path of an attestations document.
func NPMAttestationsPath(name, version string) string {
	return "/-/npm/v1/attestations/" + name + "@" + version
}

func npmBasename(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func npmTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func (f *Fake) npmManifest(base string, p *npmPackage, v *npmVersion) map[string]any {
	o := v.opts
	dist := map[string]any{
		"tarball":      base + NPMTarballPath(p.name, v.version),
		"fileCount":    1,
		"unpackedSize": len(v.tarball),
	}
	digestOf := v.tarball
	if o.WrongIntegrity {
		digestOf = append(append([]byte(nil), v.tarball...), "tampered"...)
	}
	if !o.OmitIntegrity {
		dist["integrity"] = SRI(digestOf)
		if o.Integrity != "" {
			dist["integrity"] = o.Integrity
		}
	}
	if !o.OmitShasum {
		dist["shasum"] = SHA1Hex(digestOf)
	}
	if o.Provenance || o.Attestations != nil {
		att := map[string]any{"url": base + "/-/npm/v1/attestations/" + escapeNPM(p.name) + "@" + v.version}
		if o.Provenance {
			att["provenance"] = map[string]any{"predicateType": SLSAProvenanceV1}
		}
		dist["attestations"] = att
	}
	m := map[string]any{
		"name":        p.name,
		"version":     v.version,
		"_id":         p.name + "@" + v.version,
		"_npmUser":    *o.Publisher,
		"maintainers": p.maintainers,
		"dist":        dist,
	}
	if o.Repository != "" {
		m["repository"] = map[string]any{"type": "git", "url": o.Repository}
	}
	if o.Deprecated != "" {
		m["deprecated"] = o.Deprecated
	}
	if o.Dependencies != nil {
		m["dependencies"] = o.Dependencies
	}
	for k, x := range o.Extra {
		m[k] = x
	}
	return m
}

func escapeNPM(name string) string { return strings.Replace(name, "/", "%2f", 1) }

func (f *Fake) packument(base string, p *npmPackage) map[string]any {
	versions := map[string]any{}
	times := map[string]any{"created": npmTime(p.created), "modified": npmTime(p.modified)}
	var repo any
	for _, k := range slices.Sorted(maps.Keys(p.versions)) {
		v := p.versions[k]
		versions[k] = f.npmManifest(base, p, v)
		times[k] = npmTime(v.published)
		if v.opts.Repository != "" {
			repo = map[string]any{"type": "git", "url": v.opts.Repository}
		}
	}
	doc := map[string]any{
		"_id":         p.name,
		"name":        p.name,
		"dist-tags":   p.tags,
		"versions":    versions,
		"time":        times,
		"maintainers": p.maintainers,
	}
	if repo != nil {
		doc["repository"] = repo
	}
	return doc
}

func jsonBody(v any) (int, string, []byte) {
	b, err := json.Marshal(v)
	if err != nil {
		return http.StatusInternalServerError, "text/plain", []byte(err.Error())
	}
	return http.StatusOK, "application/json", b
}

// serveNPM answers the npm routes; f.mu is held.
func (f *Fake) serveNPM(r *http.Request) (int, string, []byte) {
	path := r.URL.Path
	base := baseURL(r)
	if path == "/-/v1/search" {
		return f.searchNPM(r.URL.Query().Get("text"))
	}
	if rest, ok := strings.CutPrefix(path, "/-/npm/v1/attestations/"); ok {
		i := strings.LastIndexByte(rest, '@')
		if i <= 0 {
			return notFound()
		}
		p := f.npm[rest[:i]]
		if p == nil {
			return notFound()
		}
		v := p.versions[rest[i+1:]]
		if v == nil {
			return notFound()
		}
		switch {
		case v.opts.Attestations != nil:
			return http.StatusOK, "application/json", v.opts.Attestations
		case v.opts.Provenance:
			return jsonBody(map[string]any{"attestations": []any{
				map[string]any{
					"predicateType": SLSAProvenanceV1,
					"bundle": map[string]any{
						"mediaType": "application/vnd.dev.sigstore.bundle.v0.3+json",
						"dsseEnvelope": map[string]any{
							"payloadType": "application/vnd.in-toto+json",
							"payload":     "e30=",
							"signatures":  []any{map[string]any{"sig": "ZmFrZQ==", "keyid": ""}},
						},
					},
				},
			}})
		}
		return notFound()
	}
	if name, file, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/-/"); ok {
		p := f.npm[name]
		if p == nil {
			return notFound()
		}
		for _, v := range p.versions {
			if file == npmBasename(name)+"-"+v.version+".tgz" {
				return http.StatusOK, "application/octet-stream", v.tarball
			}
		}
		return notFound()
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var name, version string
	switch {
	case strings.HasPrefix(path, "/@") && len(parts) == 2:
		name = parts[0] + "/" + parts[1]
	case strings.HasPrefix(path, "/@") && len(parts) == 3:
		name, version = parts[0]+"/"+parts[1], parts[2]
	case !strings.HasPrefix(path, "/@") && len(parts) == 1:
		name = parts[0]
	case !strings.HasPrefix(path, "/@") && len(parts) == 2:
		name, version = parts[0], parts[1]
	default:
		return notFound()
	}
	p := f.npm[name]
	if p == nil {
		return notFound()
	}
	if version == "" {
		return jsonBody(f.packument(base, p))
	}
	if t, ok := p.tags[version]; ok {
		version = t
	}
	v := p.versions[version]
	if v == nil {
		return notFound()
	}
	return jsonBody(f.npmManifest(base, p, v))
}

// searchNPM answers the search API in its wire format: every package whose
// name shares a word (split at '/', '-', '_', '@') with text, sorted by name.
// The real API ranks by relevance; callers must not depend on the order.
func (f *Fake) searchNPM(text string) (int, string, []byte) {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '@' || r == ' ' })
	}
	words := map[string]bool{}
	for _, w := range split(text) {
		words[w] = true
	}
	var names []string
	for name := range f.npm {
		for _, w := range split(name) {
			if words[w] {
				names = append(names, name)
				break
			}
		}
	}
	sort.Strings(names)
	objs := make([]any, 0, len(names))
	for _, n := range names {
		objs = append(objs, map[string]any{"package": map[string]any{"name": n}})
	}
	return jsonBody(map[string]any{"objects": objs, "total": len(objs)})
}
