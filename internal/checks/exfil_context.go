package checks

// exfil_context (docs/methodology.md §5.5): three informational tags on an
// exfiltrate_data finding, read at decision time from the stored artifact's
// bytes (and, for the publisher's own domains, the registry record):
// destination_publisher_owned, disclosed_in_readme, opt_out_available.
// Each is applied only when established; an absent tag records why. The
// analyser reads text: it executes nothing and traces no data flow, and no
// tag changes a severity, a decision or a grade.
//
// The shared code hosts and registries that are never a publisher's own
// domain are configuration, not host names in code: see SharedHosts.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/attestari/attestari/internal/rundir"
)

// The context tags.
const (
	TagDestinationPublisherOwned = "destination_publisher_owned"
	TagDisclosedInReadme         = "disclosed_in_readme"
	TagOptOutAvailable           = "opt_out_available"
)

// ExfilContextTags lists the tags in the order every row carries them.
var ExfilContextTags = []string{TagDestinationPublisherOwned, TagDisclosedInReadme, TagOptOutAvailable}

// EnvSharedHosts adds entries to the shared-host list: comma-separated,
// each a host (matching itself and its subdomains) or "label:NAME"
// (matching any host with NAME as one of its labels before the last).
const EnvSharedHosts = "ATTESTARI_SHARED_HOSTS"

// DefaultSharedLabels are domain labels of code-hosting services, their
// content and pages domains, and the package registries' own sites: a host
// carrying one of them as a label (other than its top-level one) is shared,
// never a publisher's own. They are labels, not host names, so that the
// rule covers every top-level domain and subdomain a service uses.
var DefaultSharedLabels = []string{
	"github", "githubusercontent", "gitlab", "bitbucket", "codeberg", "sourceforge", "gitee", "sourcehut",
	"npmjs", "pypi", "pythonhosted",
}

// SharedHosts is the list of hosts that are never a publisher's own domain.
type SharedHosts struct {
	Hosts  []string // lower case; match the host and its subdomains
	Labels []string // lower case; match a label of the host
}

// DefaultSharedHosts is DefaultSharedLabels plus $ATTESTARI_SHARED_HOSTS
// plus extra hosts (the caller passes the hosts of the configured npm
// registry, PyPI index and repository host: cmd/attestari reads them from
// the same configuration the clients use, so a mirror is shared too).
func DefaultSharedHosts(extra ...string) SharedHosts {
	s := SharedHosts{Labels: append([]string(nil), DefaultSharedLabels...)}
	s.Add(strings.Split(os.Getenv(EnvSharedHosts), ",")...)
	s.Add(extra...)
	return s
}

// Add adds hosts, URLs (their host is taken) or "label:NAME" entries.
func (s *SharedHosts) Add(entries ...string) {
	for _, e := range entries {
		e = strings.ToLower(strings.TrimSpace(e))
		switch {
		case e == "":
		case strings.HasPrefix(e, "label:"):
			if l := strings.TrimPrefix(e, "label:"); l != "" {
				s.Labels = append(s.Labels, l)
			}
		default:
			if h := hostOf(e); h != "" {
				s.Hosts = append(s.Hosts, h)
			}
		}
	}
}

// Shared reports whether host is a shared host.
func (s SharedHosts) Shared(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, h := range s.Hosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	labels := strings.Split(host, ".")
	// The last label is the top-level domain; a name with no dot has no
	// label to compare.
	labels = labels[:len(labels)-1]
	for _, l := range labels {
		for _, want := range s.Labels {
			if l == want {
				return true
			}
		}
	}
	return false
}

// hostOf returns the lower-case host of a URL, a repository reference or a
// bare host name ("" when there is none).
func hostOf(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "git+")
	if !strings.Contains(s, "://") {
		if m := scpHostRe.FindStringSubmatch(s); m != nil {
			return strings.ToLower(m[1])
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	h := strings.ToLower(u.Hostname())
	if !strings.Contains(h, ".") {
		return ""
	}
	return h
}

var scpHostRe = regexp.MustCompile(`^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):`)

// ExfilContextInput is what the analyser reads.
type ExfilContextInput struct {
	// Files is the stored artifact, its root the package root.
	Files fs.FS
	// Surface, when given, says which files make network calls (its
	// capability inventory) and which are vendored; without it, a file
	// makes a network call when its text names a network API.
	Surface *rundir.Surface
	// Registry is the version's registry record (npm version document or
	// PyPI JSON), read for homepage and repository URLs; may be nil.
	Registry []byte
	Shared   SharedHosts
}

// Limits on what the analyser reads, so a hostile artifact costs bounded
// time: larger members are skipped, and the skip is said in the why.
const (
	exfilMaxFileBytes = 4 << 20
	exfilMaxFiles     = 5000
)

var sourceExts = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".mts": true, ".cts": true, ".tsx": true, ".py": true}

type srcFile struct {
	path string
	data []byte
}

// ExfilContext computes the three tags, always in ExfilContextTags order.
func ExfilContext(ctx context.Context, in ExfilContextInput) ([]rundir.ContextTag, error) {
	files, skipped, err := readSources(ctx, in)
	if err != nil {
		return nil, err
	}
	dests, destWhy := destinations(files, in.Surface)
	own, ownWhy := ownDomains(in.Files, in.Registry, in.Shared)
	out := []rundir.ContextTag{
		destinationOwned(dests, destWhy, own, ownWhy, in.Shared),
		disclosedInReadme(in.Files, dests),
		optOut(files),
	}
	if skipped > 0 {
		for i := range out {
			if !out[i].Applied {
				out[i].Why += fmt.Sprintf(" (%d member(s) above the analyser's size or count limit were not read)", skipped)
			}
		}
	}
	return out, nil
}

func readSources(ctx context.Context, in ExfilContextInput) ([]srcFile, int, error) {
	vendored := map[string]bool{}
	if in.Surface != nil {
		for _, f := range in.Surface.Files {
			if f.Vendored {
				vendored[f.Path] = true
			}
		}
	}
	var files []srcFile
	skipped := 0
	if in.Files == nil {
		return nil, 0, nil
	}
	err := fs.WalkDir(in.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable directory is skipped, as the artifact reader already recorded
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == "__pycache__" {
				return fs.SkipDir
			}
			return nil
		}
		if !sourceExts[strings.ToLower(path.Ext(p))] || vendored[p] || strings.HasSuffix(p, ".d.ts") {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > exfilMaxFileBytes || len(files) >= exfilMaxFiles {
			skipped++
			return nil
		}
		b, err := fs.ReadFile(in.Files, p)
		if err != nil {
			skipped++
			return nil
		}
		files = append(files, srcFile{p, b})
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("checks.ExfilContext: %w", err)
	}
	return files, skipped, nil
}

// networkCallRe names network APIs (JavaScript/TypeScript and Python), for
// a surface without a capability inventory.
var networkCallRe = regexp.MustCompile(`\bfetch\s*\(|\baxios\b|\bgot\s*\(|\bky\s*[.(]|\bundici\b|\bnew\s+WebSocket\b|\bhttps?\.(request|get)\s*\(|\bnet\.connect\b|\btls\.connect\b|\brequests\.(get|post|put|patch|delete|request|Session)\b|\bhttpx\.|\burllib\.request\b|\burlopen\s*\(|\baiohttp\.|\bwebsockets\.connect\b|\bsocket\.(socket|create_connection)\b`)

var urlLiteralRe = regexp.MustCompile("[\"'`](?:https?|wss?)://([A-Za-z0-9.-]+)(?::[0-9]+)?[/\"'`?#]")

type destination struct {
	host string
	file string
	line int
}

// destinations: the hosts of absolute URL literals in source members that
// also make a network call (loopback hosts, which are not destinations
// off the machine, are left out).
func destinations(files []srcFile, s *rundir.Surface) ([]destination, string) {
	netFiles := map[string]bool{}
	inventory := s != nil && len(s.Capabilities) > 0
	if inventory {
		for _, c := range s.Capabilities {
			if c.Kind == "network" {
				netFiles[c.File] = true
			}
		}
	}
	var out []destination
	seen := map[string]bool{}
	nNet := 0
	for _, f := range files {
		if inventory && !netFiles[f.path] || !inventory && !networkCallRe.Match(f.data) {
			continue
		}
		nNet++
		for _, m := range urlLiteralRe.FindAllSubmatchIndex(f.data, -1) {
			h := strings.ToLower(string(f.data[m[2]:m[3]]))
			if loopback(h) || seen[h+"\x00"+f.path] {
				continue
			}
			seen[h+"\x00"+f.path] = true
			out = append(out, destination{host: h, file: f.path, line: 1 + bytes.Count(f.data[:m[0]], []byte("\n"))})
		}
	}
	how := "text naming a network API"
	if inventory {
		how = "the capability inventory"
	}
	return out, fmt.Sprintf("%d source member(s) make a network call (by %s)", nNet, how)
}

func loopback(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") || h == "0.0.0.0"
}

type ownDomain struct {
	host  string
	where string
}

// ownDomains: the hosts of the homepage and repository URLs the package
// declares, in its manifest (package.json, pyproject.toml, PKG-INFO) or
// its registry record, less the shared hosts.
func ownDomains(fsys fs.FS, registry []byte, shared SharedHosts) ([]ownDomain, string) {
	var cands []ownDomain
	add := func(raw, where string) {
		if h := hostOf(raw); h != "" {
			cands = append(cands, ownDomain{h, where})
		}
	}
	readJSONURLs := func(b []byte, where string) {
		var m struct {
			Homepage   any `json:"homepage"`
			Repository any `json:"repository"`
			Info       *struct {
				HomePage    any            `json:"home_page"`
				ProjectURLs map[string]any `json:"project_urls"`
			} `json:"info"`
		}
		if json.Unmarshal(b, &m) != nil {
			return
		}
		if s, ok := m.Homepage.(string); ok {
			add(s, where+" homepage")
		}
		switch r := m.Repository.(type) {
		case string:
			add(r, where+" repository")
		case map[string]any:
			if s, ok := r["url"].(string); ok {
				add(s, where+" repository")
			}
		}
		if m.Info != nil {
			if s, ok := m.Info.HomePage.(string); ok {
				add(s, where+" home_page")
			}
			for k, v := range m.Info.ProjectURLs {
				if s, ok := v.(string); ok {
					add(s, where+" project_urls "+k)
				}
			}
		}
	}
	if fsys != nil {
		if b, err := fs.ReadFile(fsys, "package.json"); err == nil {
			readJSONURLs(b, "package.json")
		}
		if b, err := fs.ReadFile(fsys, "pyproject.toml"); err == nil {
			for _, l := range tomlURLs(b) {
				add(l[1], "pyproject.toml "+l[0])
			}
		}
		for _, name := range []string{"PKG-INFO"} {
			if b, err := fs.ReadFile(fsys, name); err == nil {
				for _, l := range pkgInfoURLs(b) {
					add(l[1], name+" "+l[0])
				}
			}
		}
	}
	if len(registry) > 0 {
		readJSONURLs(registry, "registry record")
	}
	var own []ownDomain
	var sharedOnes []string
	seen := map[string]bool{}
	for _, c := range cands {
		if shared.Shared(c.host) {
			sharedOnes = append(sharedOnes, c.host+" ("+c.where+")")
			continue
		}
		if !seen[c.host] {
			seen[c.host] = true
			own = append(own, c)
		}
	}
	switch {
	case len(cands) == 0:
		return nil, "the package declares no homepage or repository URL"
	case len(own) == 0:
		return nil, "every homepage and repository URL the package declares is on a shared host: " + strings.Join(sharedOnes, ", ")
	}
	return own, ""
}

var tomlURLRe = regexp.MustCompile(`(?m)^\s*"?([A-Za-z][A-Za-z0-9 _.-]*)"?\s*=\s*"((?:https?)://[^"]+)"`)

// tomlURLs reads key = "http..." lines of a pyproject's [project.urls]
// table (and a top-level homepage/repository under [tool.poetry]).
func tomlURLs(b []byte) [][2]string {
	var out [][2]string
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[] ")
			continue
		}
		if section != "project.urls" && section != "tool.poetry" && section != "tool.poetry.urls" {
			continue
		}
		if m := tomlURLRe.FindStringSubmatch(line); m != nil {
			k := strings.ToLower(m[1])
			if section == "tool.poetry" && k != "homepage" && k != "repository" {
				continue
			}
			out = append(out, [2]string{m[1], m[2]})
		}
	}
	return out
}

// pkgInfoURLs reads Home-page: and Project-URL: Label, url headers.
func pkgInfoURLs(b []byte) [][2]string {
	var out [][2]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break // the body (the long description) follows the headers
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "home-page":
			out = append(out, [2]string{"Home-page", strings.TrimSpace(v)})
		case "project-url":
			label, u, ok := strings.Cut(v, ",")
			if ok {
				out = append(out, [2]string{"Project-URL " + strings.TrimSpace(label), strings.TrimSpace(u)})
			}
		}
	}
	return out
}

func ownedBy(host string, own []ownDomain) (string, bool) {
	for _, o := range own {
		if host == o.host || strings.HasSuffix(host, "."+o.host) {
			return o.host, true
		}
	}
	return "", false
}

func destinationOwned(dests []destination, destWhy string, own []ownDomain, ownWhy string, shared SharedHosts) rundir.ContextTag {
	t := rundir.ContextTag{Tag: TagDestinationPublisherOwned}
	if len(dests) == 0 {
		t.Why = "no network destination: no absolute URL literal in a source member that makes a network call; " + destWhy
		return t
	}
	if len(own) == 0 {
		t.Why = "no domain of the publisher's own to compare with: " + ownWhy
		return t
	}
	var ev []string
	for _, d := range dests {
		o, ok := ownedBy(d.host, own)
		if !ok {
			t.Why = fmt.Sprintf("%s (%s:%d) is not on a domain the package declares as its own (%s)", d.host, d.file, d.line, ownList(own))
			if shared.Shared(d.host) {
				t.Why += "; it is a shared host"
			}
			return t
		}
		ev = append(ev, fmt.Sprintf("%s (%s:%d) on %s", d.host, d.file, d.line, o))
	}
	t.Applied = true
	t.Why = fmt.Sprintf("every network destination the source names (%d) is on a domain the package declares as its own (%s); %s", len(dests), ownList(own), destWhy)
	t.Evidence = strings.Join(ev, "; ")
	return t
}

func ownList(own []ownDomain) string {
	var s []string
	for _, o := range own {
		s = append(s, o.host+" from "+o.where)
	}
	return strings.Join(s, ", ")
}

var (
	sendVerbRe       = regexp.MustCompile(`(?i)\b(send|sends|sent|sending|transmit\w*|upload\w*|post|posts|posted|posting|forward\w*|report\w*|share|shares|shared|sharing|collect\w*)\b`)
	telemetryNounRe  = regexp.MustCompile(`(?i)\b(telemetry|usage[ -]data|instrumentation|analytics)\b`)
	telemetryVerbRe  = regexp.MustCompile(`(?i)\b(collect\w*|send|sends|sent|sending|report\w*|transmit\w*|upload\w*|share|shares|shared|sharing)\b`)
	readmeCandidates = []string{"README.md", "README", "README.markdown", "README.rst", "README.txt", "readme.md", "Readme.md", "README.MD"}
)

// readme finds the README at the package root.
func readme(fsys fs.FS) (string, []byte) {
	if fsys == nil {
		return "", nil
	}
	for _, n := range readmeCandidates {
		if b, err := fs.ReadFile(fsys, n); err == nil {
			return n, b
		}
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", nil
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(strings.ToLower(e.Name()), "readme") {
			if b, err := fs.ReadFile(fsys, e.Name()); err == nil {
				return e.Name(), b
			}
		}
	}
	return "", nil
}

func disclosedInReadme(fsys fs.FS, dests []destination) rundir.ContextTag {
	t := rundir.ContextTag{Tag: TagDisclosedInReadme}
	name, b := readme(fsys)
	if b == nil {
		t.Why = "the artifact has no README"
		return t
	}
	if len(b) > exfilMaxFileBytes {
		b = b[:exfilMaxFileBytes]
	}
	hosts := map[string]bool{}
	for _, d := range dests {
		hosts[d.host] = true
	}
	sorted := make([]string, 0, len(hosts))
	for h := range hosts {
		sorted = append(sorted, h)
	}
	sort.Strings(sorted)
	for i, line := range strings.Split(string(b), "\n") {
		low := strings.ToLower(line)
		if telemetryNounRe.MatchString(line) && telemetryVerbRe.MatchString(line) {
			t.Applied, t.Why = true, "a line of the README discloses telemetry"
			t.Evidence = fmt.Sprintf("%s:%d: %s", name, i+1, strings.TrimSpace(line))
			return t
		}
		for _, h := range sorted {
			if strings.Contains(low, h) && sendVerbRe.MatchString(withoutLinkTargets(line)) {
				t.Applied, t.Why = true, "a line of the README names the transmit host "+h+" with a verb of sending"
				t.Evidence = fmt.Sprintf("%s:%d: %s", name, i+1, strings.TrimSpace(line))
				return t
			}
		}
	}
	t.Why = fmt.Sprintf("no line of %s names a transmit host with a verb of sending or discloses telemetry", name)
	if len(sorted) == 0 {
		t.Why += " (the source names no transmit host)"
	}
	return t
}

var linkTargetRe = regexp.MustCompile(`\]\([^)]*\)|<https?://[^>]*>|https?://\S+`)

// withoutLinkTargets drops URLs, so that a verb inside a link's address
// ("/docs/report-an-issue") does not turn a link into a disclosure.
func withoutLinkTargets(line string) string { return linkTargetRe.ReplaceAllString(line, " ") }

var (
	envReadRe     = regexp.MustCompile(`\bprocess\.env\b|\bos\.environ\b|\bos\.getenv\b|\bgetenv\s*\(|\bDeno\.env\b|\bBun\.env\b|\bimport\.meta\.env\b`)
	optOutVarRe   = regexp.MustCompile(`\b[A-Z0-9_]*(?:OPT_?OUT|DO_?NOT_?TRACK|DISABLE_?TELEMETRY|TELEMETRY_?DISABLED?|NO_?TELEMETRY|TELEMETRY_?OFF|TELEMETRY_?OPT_?OUT|DISABLE_?ANALYTICS|ANALYTICS_?DISABLED?)[A-Z0-9_]*\b`)
	fileTestRe    = regexp.MustCompile(`\bexistsSync\s*\(|\bfs\.(exists|access|stat)\w*\s*\(|\baccessSync\s*\(|\bstatSync\s*\(|\bos\.path\.(exists|isfile)\s*\(|\.(exists|is_file)\s*\(\s*\)|\bos\.access\s*\(|\bDeno\.stat\w*\s*\(|\bBun\.file\s*\(`)
	optOutFileRe  = regexp.MustCompile("(?i)[\"'`][^\"'`\n]*(opt[-_]?out|do[-_]?not[-_]?track|no[-_]?telemetry|disable[-_]?telemetry|telemetry[-_]?disabled?)[^\"'`\n]*[\"'`]")
	lineOfMatchAt = func(b []byte, off int) int { return 1 + bytes.Count(b[:off], []byte("\n")) }
)

func optOut(files []srcFile) rundir.ContextTag {
	t := rundir.ContextTag{Tag: TagOptOutAvailable}
	nEnv, nFile := 0, 0
	for _, f := range files {
		if envReadRe.Match(f.data) {
			nEnv++
			if m := optOutVarRe.FindIndex(f.data); m != nil {
				t.Applied = true
				t.Why = fmt.Sprintf("a source member that reads the environment names the opt-out variable %s", f.data[m[0]:m[1]])
				t.Evidence = fmt.Sprintf("%s:%d: %s", f.path, lineOfMatchAt(f.data, m[0]), lineAt(f.data, m[0]))
				return t
			}
		}
		if fileTestRe.Match(f.data) {
			nFile++
			if m := optOutFileRe.FindIndex(f.data); m != nil {
				t.Applied = true
				t.Why = fmt.Sprintf("a source member that tests for a file names the opt-out file %s", f.data[m[0]:m[1]])
				t.Evidence = fmt.Sprintf("%s:%d: %s", f.path, lineOfMatchAt(f.data, m[0]), lineAt(f.data, m[0]))
				return t
			}
		}
	}
	t.Why = fmt.Sprintf("no opt-out variable in the %d source member(s) that read the environment, and no opt-out file in the %d that test for a file", nEnv, nFile)
	return t
}

// lineAt returns the line around offset, trimmed and capped, as evidence
// text.
func lineAt(b []byte, off int) string {
	start := bytes.LastIndexByte(b[:off], '\n') + 1
	end := bytes.IndexByte(b[off:], '\n')
	if end < 0 {
		end = len(b)
	} else {
		end += off
	}
	l := strings.TrimSpace(string(b[start:end]))
	if len(l) > 240 {
		l = l[:240]
	}
	return l
}

// ExfilTagger computes the tags for the policy at decision time (its
// Options.ContextTags hook).
type ExfilTagger struct {
	Shared SharedHosts
	// RegistryRecord returns the version's registry record for a package,
	// when the run stored one; nil reads the artifact's manifest only.
	RegistryRecord func(ctx context.Context, pkg rundir.PackageRef) ([]byte, bool)
}

// manifestNames are the members read besides the surface's source files.
var manifestNames = append([]string{"package.json", "pyproject.toml", "PKG-INFO"}, readmeCandidates...)

// Tags matches policy.Options.ContextTags: member reads a stored artifact
// member by path. The files read are the surface's source members and the
// manifest and README names at the package root.
func (t ExfilTagger) Tags(ctx context.Context, f rundir.Finding, s *rundir.Surface, member func(path string) ([]byte, bool)) ([]rundir.ContextTag, error) {
	m := fstest.MapFS{}
	var paths []string
	if s != nil {
		for _, sf := range s.Files {
			paths = append(paths, sf.Path)
		}
	}
	for _, p := range append(paths, manifestNames...) {
		if !fs.ValidPath(p) {
			continue
		}
		if b, ok := member(p); ok {
			m[p] = &fstest.MapFile{Data: b}
		}
	}
	in := ExfilContextInput{Files: m, Surface: s, Shared: t.Shared}
	if t.RegistryRecord != nil {
		if b, ok := t.RegistryRecord(ctx, f.Package); ok {
			in.Registry = b
		}
	}
	return ExfilContext(ctx, in)
}
