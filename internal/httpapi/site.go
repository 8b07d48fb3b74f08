package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/vocab"
	"github.com/attestari/attestari/web"
)

// SiteRoutes are the website's routes: served by the same router as the JSON
// API, outside the contract (they answer HTML), so the route-equality test
// leaves them out.
var SiteRoutes = []string{
	"GET /",
	"GET /package/{registry}/{name}",
	"GET /package/{registry}/{name}/{version}",
	"GET /finding/{id}",
	"GET /gate-map",
	"GET /latest-pass",
	"GET /docs/methodology",
	"GET /docs/methodology/{version}",
	"GET /static/*",
}

type site struct {
	pages      map[string]*template.Template
	cssVersion string
	assets     map[string]*asset // "style.css" → its bytes, type and ETag
}

func newSite() (*site, error) {
	st := &site{pages: map[string]*template.Template{}}
	for _, p := range []string{"grades", "package", "versions", "finding", "gatemap", "methodology", "error", "pass"} {
		t, err := template.New(p).Funcs(template.FuncMap{"slug": slug}).ParseFS(web.Templates, "templates/layout.html", "templates/"+p+".html")
		if err != nil {
			return nil, fmt.Errorf("website template %s: %w", p, err)
		}
		st.pages[p] = t
	}
	css, err := fs.ReadFile(web.Static, "static/style.css")
	if err != nil {
		return nil, fmt.Errorf("website stylesheet: %w", err)
	}
	sum := sha256.Sum256(css)
	st.cssVersion = hex.EncodeToString(sum[:6])
	if st.assets, err = loadAssets(web.Static, "static"); err != nil {
		return nil, fmt.Errorf("website assets: %w", err)
	}
	return st, nil
}

func (s *Server) siteRoutes(r chi.Router) {
	r.Get("/", s.page(s.gradesPage))
	r.Get("/package/{registry}/{name}", s.page(s.versionsPage))
	r.Get("/package/{registry}/{name}/{version}", s.page(s.packagePage))
	r.Get("/finding/{id}", s.page(s.findingPage))
	r.Get("/gate-map", s.page(s.gateMapPage))
	r.Get("/latest-pass", s.page(s.passPage))
	r.Get("/docs/methodology", s.page(s.methodologyPage))
	r.Get("/docs/methodology/{version}", s.page(s.methodologyPage))
	r.Get("/static/*", s.staticAsset)
}

// common is what the layout shows on every page.
type common struct {
	Section            string
	CSSVersion         string
	MethodologyVersion string
	MethodologySHA256  string
	// Label is the banner of a page showing rows of a demo or
	// clock-overridden publication (methodology §19).
	Label   pageLabel
	Appeals appealsContact
}

// pageLabel says whether what a page shows comes from a demo publication or
// one whose disclosure period was overridden; the layout shows a banner for
// either, on every page that shows such rows.
type pageLabel struct {
	Demo, Overridden bool
	// Published is the (injected) publication date of the labelled rows.
	Published string
}

// add labels the page with one shown row's labels.
func (l *pageLabel) add(x api.Labels, published time.Time) {
	if !x.Labelled() {
		return
	}
	l.Demo = l.Demo || x.Demo
	l.Overridden = true
	if l.Published == "" {
		l.Published = date(published)
	}
}

// appealsContact is the operator's configured appeals contact as a page
// shows it: a link for an e-mail address or an http(s) URL, else the text.
type appealsContact struct {
	Text string
	URL  template.URL
}

func newAppealsContact(c string) appealsContact {
	c = strings.TrimSpace(c)
	out := appealsContact{Text: c}
	switch u, err := url.Parse(c); {
	case c == "" || err != nil:
	case u.Scheme == "https" || u.Scheme == "http":
		out.URL = template.URL(u.String())
	case u.Scheme == "mailto":
		out.URL, out.Text = template.URL(u.String()), u.Opaque
	case u.Scheme == "" && strings.Count(c, "@") == 1 && !strings.ContainsAny(c, " /:<>\"\\"):
		out.URL = template.URL("mailto:" + c)
	}
	return out
}

func (s *Server) common(section string) common {
	return common{Section: section, CSSVersion: s.site.cssVersion, MethodologyVersion: methodology.Version, MethodologySHA256: methodology.SHA256(),
		Appeals: newAppealsContact(s.opts.AppealsContact)}
}

// page wraps a page handler: its error becomes an HTML error page (the
// site's counterpart of render; the detail is a fixed client-safe string).
func (s *Server) page(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r, cancel := s.pageDeadline(r)
		defer cancel()
		if err := h(w, r); err != nil {
			s.errorPage(w, r, err)
		}
	}
}

// errorPage writes err as the website's error page: a *Problem keeps its
// status and detail, anything else is a 500 whose cause goes to the log only.
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, err error) {
	var p *Problem
	if !errors.As(readError(err), &p) {
		s.log.ErrorContext(r.Context(), "page failed", "path", r.URL.Path, "error", err.Error())
		p = &Problem{Status: http.StatusInternalServerError, Detail: "Something went wrong on our side. Please try again later."}
	}
	logCause(r, s.log, p)
	view := errorView{Common: s.common(""), Title: p.Title, Detail: p.Detail}
	if p.Status == http.StatusServiceUnavailable || p.Status == http.StatusGatewayTimeout {
		view.Detail = "Our database is not answering right now. Please try again in a few seconds."
	}
	switch {
	case view.Title != "":
	case p.Status == http.StatusNotFound:
		view.Title = "Not published"
	default:
		view.Title = http.StatusText(p.Status)
	}
	if len(p.KnownVersions) > 0 {
		reg, name := chi.URLParam(r, "registry"), pathParam(r, "name")
		for _, v := range p.KnownVersions {
			view.KnownVersions = append(view.KnownVersions, versionLink{Version: v, URL: packageURL(reg, name, v)})
		}
	}
	h := w.Header()
	// The page may be written before the site group's pageHeaders ran (an
	// unknown path, refused input, the rate limit).
	h["Content-Security-Policy"] = hdrCSP
	h["X-Frame-Options"] = hdrDeny
	h["Referrer-Policy"] = hdrNoReferrer
	h.Set("Cache-Control", "no-store")
	if p.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(p.RetryAfter))
	}
	s.renderPage(w, r, p.Status, "error", view)
}

// fallbackErrorPage is the error page when a template itself fails: fixed
// HTML with no template behind it.
const fallbackErrorPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Internal Server Error · Attestari</title></head>
<body><main id="main"><h1>Internal Server Error</h1><p>Something went wrong on our side. Please try again later.</p>
<p><a href="/">Back to the grades</a></p></main></body></html>
`

type errorView struct {
	Common        common
	Title, Detail string
	KnownVersions []versionLink
}

type versionLink struct{ Version, URL string }

func (s *Server) renderPage(w http.ResponseWriter, r *http.Request, status int, name string, view any) {
	var buf bytes.Buffer
	if err := s.site.pages[name].ExecuteTemplate(&buf, "layout", view); err != nil {
		s.log.ErrorContext(r.Context(), "render page", "page", name, "error", err.Error())
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, fallbackErrorPage)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// pathParam returns a path parameter percent-decoded (scoped npm names
// arrive as @scope%2Fname).
func pathParam(r *http.Request, name string) string {
	v, err := url.PathUnescape(chi.URLParam(r, name))
	if err != nil {
		return ""
	}
	return v
}

func packageURL(registry, name, version string) string {
	return "/package/" + registry + "/" + name + "/" + url.PathEscape(version)
}

var (
	siteName    = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$`)
	siteVersion = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+!_-]*$`)
	siteCode    = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	siteCursor  = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

func badPage(detail string) error { return &Problem{Status: http.StatusBadRequest, Detail: detail} }

type option struct {
	Value, Label string
	Selected     bool
}

func options(selected string, pairs ...string) []option {
	out := make([]option, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, option{Value: pairs[i], Label: pairs[i+1], Selected: pairs[i] == selected})
	}
	return out
}

var gradeMeaning = map[string]string{
	"A": "No confirmed finding.",
	"B": "The highest confirmed severity is low.",
	"C": "The highest confirmed severity is medium.",
	"F": "At least one confirmed finding of high severity.",
}

var verdictLabel = map[string]string{
	api.VerdictGraded: "Graded", api.VerdictNotGradeable: "Not graded (refused)", api.VerdictOutOfScope: "Out of scope",
}

type gradeRow struct {
	Name, Version, Registry, URL string
	Verdict, Grade, Meaning      string
	Codes                        []api.BlockedBy
	Published                    string
}

type countRow struct {
	Label, URL string
	N          int
}

type reasonCount struct {
	Code, Guard, Line, URL string
	N                      int
	Also                   int // versions that carry the code after another one
}

// G2's code (vocab.CodeGateFailedAsRecorded) says the run's own gate refused
// the package too. Nearly every refusal carries it first, so it explains
// nothing by itself; the site shows the codes that do first, and G2 apart.

// explainingFirst orders a refusal's codes: the codes that explain it, then
// G2's, which only says that the run's gate agreed.
func explainingFirst(codes []api.BlockedBy) []api.BlockedBy {
	out := make([]api.BlockedBy, 0, len(codes))
	var meta []api.BlockedBy
	for _, c := range codes {
		if c.Code == vocab.CodeGateFailedAsRecorded && len(codes) > 1 {
			c.Line = "The run's own gate agreed: it refused this version too, for the reasons above."
			meta = append(meta, c)
			continue
		}
		out = append(out, c)
	}
	return append(out, meta...)
}

type gradesView struct {
	Common                                                       common
	Filter                                                       api.PackageFilter
	Filtered                                                     bool
	RegistryOptions, VerdictOptions, GradeOptions, ReasonOptions []option
	VerdictCounts                                                []countRow
	ReasonCounts                                                 []reasonCount
	ReasonTotal, GateAgreedOnly                                  int
	GateAgreed                                                   *reasonCount
	Rows                                                         []gradeRow
	NextURL                                                      string
}

func date(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2 January 2006")
}

func filterURL(f api.PackageFilter) string {
	q := url.Values{}
	for k, v := range map[string]string{"q": f.Query, "registry": f.Registry, "verdict": f.Verdict, "grade": f.Grade, "reason": f.Reason, "cursor": f.Cursor} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if len(q) == 0 {
		return "/"
	}
	return "/?" + q.Encode()
}

func (s *Server) gradesPage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := api.PackageFilter{Query: strings.TrimSpace(q.Get("q")), Registry: q.Get("registry"), Verdict: q.Get("verdict"),
		Grade: q.Get("grade"), Reason: q.Get("reason"), Cursor: q.Get("cursor"), Limit: 50}
	switch {
	case len(f.Query) > 100:
		return badPage("The search is longer than 100 characters.")
	case f.Registry != "" && f.Registry != api.RegistryNPM && f.Registry != api.RegistryPyPI:
		return badPage("The registry must be npm or pypi.")
	case f.Verdict != "" && verdictLabel[f.Verdict] == "":
		return badPage("The verdict is not one of graded, not_gradeable, out_of_scope.")
	case f.Grade != "" && gradeMeaning[f.Grade] == "":
		return badPage("The grade is not one of A, B, C, F.")
	case f.Reason != "" && !siteCode.MatchString(f.Reason):
		return badPage("The reason is not a reason code.")
	case f.Cursor != "" && !siteCursor.MatchString(f.Cursor):
		return badPage(detailBadCursor)
	}
	list, err := rd.ListPackages(r.Context(), f)
	if err != nil {
		return err
	}
	gm, err := rd.GateMap(r.Context(), methodology.Version)
	if err != nil {
		return err
	}
	if _, known := gm.Lookup(f.Reason); f.Reason != "" && !known && list.Counts.ByReason[f.Reason] == 0 {
		// Neither a code of the gate map in force nor one a published
		// version still carries: a typo, not an empty result.
		return badPage("The reason is not a code of the gate map.")
	}
	v := gradesView{Common: s.common("grades"), Filter: f,
		Filtered: f.Query != "" || f.Registry != "" || f.Verdict != "" || f.Grade != "" || f.Reason != ""}
	v.RegistryOptions = options(f.Registry, "", "Any registry", vocab.RegistryNPM, "npm", vocab.RegistryPyPI, "PyPI")
	v.VerdictOptions = options(f.Verdict, "", "Any verdict", vocab.VerdictGraded, "Graded", vocab.VerdictNotGradeable, "Not graded (refused)", vocab.VerdictOutOfScope, "Out of scope")
	v.GradeOptions = options(f.Grade, "", "Any grade", "A", "A", "B", "B", "C", "C", "F", "F")
	reasons := []string{"", "Any reason"}
	for _, e := range gm.Codes {
		reasons = append(reasons, e.Code, e.Code)
	}
	v.ReasonOptions = options(f.Reason, reasons...)
	base := api.PackageFilter{Query: f.Query, Registry: f.Registry}
	for _, verdict := range []string{api.VerdictGraded, api.VerdictNotGradeable, api.VerdictOutOfScope} {
		vf := base
		vf.Verdict = verdict
		v.VerdictCounts = append(v.VerdictCounts, countRow{Label: verdictLabel[verdict], N: list.Counts.ByVerdict[verdict], URL: filterURL(vf)})
	}
	for _, e := range gm.Codes {
		rf := base
		rf.Reason = e.Code
		if e.Code == vocab.CodeGateFailedAsRecorded {
			if n := list.Counts.ByReason[e.Code]; n > 0 {
				v.GateAgreed = &reasonCount{Code: e.Code, Guard: e.Guard, Line: e.Line, N: n, URL: filterURL(rf)}
			}
			if n := list.Counts.ByFirstReason[e.Code]; n > 0 {
				v.GateAgreedOnly = n
			}
			continue
		}
		if n := list.Counts.ByFirstReason[e.Code]; n > 0 {
			v.ReasonCounts = append(v.ReasonCounts, reasonCount{Code: e.Code, Guard: e.Guard, Line: e.Line, N: n,
				Also: list.Counts.ByReason[e.Code] - n, URL: filterURL(rf)})
		}
	}
	for _, r := range v.ReasonCounts {
		v.ReasonTotal += r.N
	}
	v.ReasonTotal += v.GateAgreedOnly
	for _, it := range list.Items {
		row := gradeRow{Name: it.Name, Version: it.Version, Registry: it.Registry, URL: packageURL(it.Registry, it.Name, it.Version),
			Verdict: it.Verdict, Published: date(it.PublishedAt)}
		if it.Grade != nil {
			row.Grade, row.Meaning = *it.Grade, gradeMeaning[*it.Grade]
		}
		codes := it.BlockedBy
		if it.Reason != nil {
			codes = append(codes, *it.Reason)
		}
		for _, c := range codes {
			e, ok := gm.Lookup(c)
			if !ok {
				e = api.GateMapEntry{Code: c, Guard: "unknown", Line: "Not in the gate map of the methodology in force."}
			}
			row.Codes = append(row.Codes, api.BlockedBy{Code: c, Guard: e.Guard, Line: e.Line})
		}
		row.Codes = explainingFirst(row.Codes)
		v.Rows = append(v.Rows, row)
		v.Common.Label.add(it.Labels, it.PublishedAt)
	}
	if list.NextCursor != nil {
		nf := f
		nf.Cursor = *list.NextCursor
		v.NextURL = filterURL(nf)
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	s.renderPage(w, r, http.StatusOK, "grades", v)
	return nil
}

type resultView struct {
	Kind, Grade, Meaning string
	Codes                []api.BlockedBy
	Reasons              []reasonView // not_gradeable: each code with what failed (reasons.go)
}

type findingView struct {
	api.Finding
	StatusLabel, EvidenceURL, URL string
	EntryKind                     string
	Highlighted                   bool
	Before, Mark, After           string
}

type capGroup struct {
	Label string
	Items []api.Capability
}

type toolView struct {
	Name, State, Description, Hash, Reason string
	HasDescription                         bool
	Pieces                                 []textPiece // a partial description with its holes
}

type notAssessed struct{ ID, Meaning string }

// reproEvidence is how to check one cited blob: Commands to paste, in
// order, and what each must print.
type reproEvidence struct {
	Path, Lines, Excerpt, URL, SHA string
	Record                         bool // a projected registry or repository record, not a file of the artifact
	OneLine                        bool
	Commands                       []reproCommand
}

type reproCommand struct{ Command, Expect string }

type reproView struct {
	Demo                   bool
	Fetch, Note, File, Dir string
	Unpack                 []reproCommand
	Evidence               []reproEvidence
	ToolHashes             []reproCommand
}

// shellQuote quotes s for a POSIX shell: single quotes, each ' as '\”.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// siteOrigin is the scheme and host a reader reached this page at, for
// the commands that fetch from this site.
func siteOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// jqPath turns an RFC 6901 pointer (or its # form) into a jq path array:
// numeric tokens index arrays.
func jqPath(ptr string) string {
	ptr = strings.TrimPrefix(ptr, "#")
	if u, err := url.PathUnescape(ptr); err == nil {
		ptr = u
	}
	ptr = strings.TrimPrefix(ptr, "/")
	if ptr == "" {
		return "[]"
	}
	var parts []string
	for _, t := range strings.Split(ptr, "/") {
		t = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(t); err == nil {
			parts = append(parts, t)
			continue
		}
		b, _ := json.Marshal(t)
		parts = append(parts, string(b))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// reproSteps are the "Check this yourself" steps of a package version:
// commands a reader pastes as they are, each with what it must print, for
// every kind of evidence a finding cites (a file of the artifact, or a
// projected record), and the tool hashes that can be recomputed from the
// page alone. A demo package was never on a public registry: the steps say
// so and start from the published evidence.
func reproSteps(d *api.PackageDetail, demo bool, origin string) reproView {
	v := reproView{Demo: demo, Dir: "attestari-check"}
	root := v.Dir + "/"
	if d.Registry == api.RegistryNPM {
		v.File = strings.TrimPrefix(strings.ReplaceAll(d.Name, "/", "-"), "@") + "-" + d.Version + ".tgz"
		v.Fetch = "npm pack " + shellQuote(d.Name+"@"+d.Version)
		v.Unpack = []reproCommand{{Command: "mkdir -p " + v.Dir + " && tar xzf " + v.File + " -C " + v.Dir + " --strip-components=1",
			Expect: "nothing; the files are then under " + root + ", as npm installs them"}}
	} else {
		// The run examines the pure-Python wheel when the release has one,
		// else the sdist (pipeline.pickDistribution); pip's own choice for a
		// pure-Python project is the same wheel. The SHA-256 names the file.
		v.File = "dist/*"
		v.Fetch = "pip download --no-deps --dest dist " + shellQuote(d.Name+"=="+d.Version)
		v.Note = "pip fetches the pure-Python wheel when the release has one, as the run did; if no file prints the checksum, another file of the release (listed on the index) has it."
		v.Unpack = []reproCommand{
			{Command: "mkdir -p " + v.Dir + " && unzip -q dist/*.whl -d " + v.Dir, Expect: "nothing, for a wheel (its files sit at the root)"},
			{Command: "mkdir -p " + v.Dir + " && tar xzf dist/*.tar.gz -C " + v.Dir + " --strip-components=1", Expect: "nothing, for an sdist (its name-version/ directory is dropped)"},
		}
	}
	seen := map[string]bool{}
	for _, f := range d.Findings {
		e := f.Evidence
		if seen[e.SHA256+e.Path] {
			continue
		}
		seen[e.SHA256+e.Path] = true
		blob := origin + "/evidence/" + e.SHA256
		ev := reproEvidence{Path: e.Path, Lines: lineRange(e), Excerpt: e.Excerpt, URL: "/evidence/" + e.SHA256, SHA: e.SHA256,
			Record: strings.HasPrefix(e.Path, "/") || strings.HasPrefix(e.Path, "#"), OneLine: e.LineEnd <= e.LineStart}
		if ev.Record {
			ev.Commands = []reproCommand{
				{Command: "curl -s " + shellQuote(blob) + " -o record.json && sha256sum record.json", Expect: e.SHA256 + "  record.json"},
				{Command: "jq " + shellQuote("getpath("+jqPath(e.Path)+")") + " record.json", Expect: "the value that holds the quoted text"},
			}
		} else {
			file := root + e.Path
			ev.Commands = []reproCommand{{Command: "sed -n " + shellQuote(strconv.Itoa(e.LineStart)+","+strconv.Itoa(max(e.LineEnd, e.LineStart))+"p") + " " + shellQuote(file),
				Expect: "the lines that hold the quoted text"}}
			if e.Excerpt != "" && !strings.ContainsAny(e.Excerpt, "\n\r") {
				ev.Commands = append(ev.Commands, reproCommand{Command: "grep -cF -- " + shellQuote(e.Excerpt) + " " + shellQuote(file), Expect: "1 or more"})
			}
			ev.Commands = append(ev.Commands, reproCommand{Command: "curl -s " + shellQuote(blob) + " | sha256sum", Expect: e.SHA256 + "  -"})
			if !demo {
				ev.Commands = append(ev.Commands, reproCommand{Command: "curl -s " + shellQuote(blob) + " | cmp - " + shellQuote(file),
					Expect: "nothing: the published copy is the artifact's file byte for byte"})
			}
		}
		v.Evidence = append(v.Evidence, ev)
	}
	for _, t := range d.Tools {
		if t.ToolHash == nil || t.SchemaKind != vocab.SchemaNone || t.Description == nil || len(v.ToolHashes) == 3 {
			continue
		}
		v.ToolHashes = append(v.ToolHashes, reproCommand{Command: "printf '%s\\0%s\\0' " + shellQuote(t.Name) + " " + shellQuote(*t.Description) + " | sha256sum",
			Expect: *t.ToolHash + "  -"})
	}
	return v
}

type historyRow struct {
	Version, URL, Result, ManifestHash, DiffURL string
	Current                                     bool
	Changes                                     []string
}

type packageView struct {
	Common                                    common
	D                                         *api.PackageDetail
	Result                                    resultView
	Decided, Published                        string
	Findings                                  []findingView
	CapGroups                                 []capGroup
	Tools                                     []toolView
	ManifestHash, ManifestReason, ManifestURL string
	VersionsURL                               string
	NotAssessed                               []notAssessed
	Repro                                     reproView
	History                                   []historyRow
}

var statusLabel = map[string]string{
	api.StatusConfirmed: "confirmed", api.StatusNoted: "noted",
	api.StatusUnderAppeal: "under appeal", api.StatusWithdrawnOnAppeal: "withdrawn on appeal",
}

// capabilityKinds orders the inventory's kinds (methodology §20) with a plain label each.
var capabilityKinds = []struct{ Kind, Label string }{
	{"network", "Network"}, {"filesystem", "Files"}, {"process", "Processes"}, {"environment", "Environment"},
	{"credentials", "Credentials"}, {"remote_code", "Code obtained at run time"},
}

var declaredChecks = map[string]string{
	vocab.CheckUndeclaredNetworkCalls: "hosts the code contacts that neither the README nor the tool descriptions mention.",
	vocab.CheckDependencyRisk:         "known advisories, unpinned or deprecated direct dependencies, install-time scripts.",
	vocab.CheckAbandonment:            "archived repositories, no commits over a stated period, growth of unanswered issues.",
	vocab.CheckForkDivergence:         "packages published from forks, and the difference between the shipped code and its upstream.",
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (s *Server) packagePage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	reg, name, version := chi.URLParam(r, "registry"), pathParam(r, "name"), pathParam(r, "version")
	if reg != api.RegistryNPM && reg != api.RegistryPyPI {
		return &Problem{Status: http.StatusNotFound, Detail: "There is no such registry here: only npm and pypi."}
	}
	if len(name) > 214 || !siteName.MatchString(name) || len(version) > 128 || !siteVersion.MatchString(version) {
		return badPage("The package name or version is not valid.")
	}
	d, err := rd.Package(r.Context(), reg, name, version)
	if err != nil {
		return err
	}
	hist, err := rd.History(r.Context(), reg, name)
	if err != nil {
		return err
	}
	v := packageView{Common: s.common("grades"), D: d, Decided: date(d.DecidedAt), Published: date(d.PublishedAt),
		ManifestHash: deref(d.ManifestHash), ManifestReason: deref(d.ManifestReason),
		ManifestURL: "/manifest/" + d.Name + "/" + url.PathEscape(d.Version) + "?registry=" + d.Registry,
		VersionsURL: "/package/" + d.Registry + "/" + d.Name}
	v.Common.Label.add(d.Labels, d.PublishedAt)
	v.Result = resultView{Kind: d.Verdict, Codes: d.BlockedBy, Reasons: reasonViews(explainingFirst(d.BlockedBy))}
	holes := toolHoles(v.Result.Reasons)
	if d.Grade != nil {
		v.Result.Grade, v.Result.Meaning = *d.Grade, gradeMeaning[*d.Grade]
	}
	if d.Reason != nil {
		v.Result.Codes = append(v.Result.Codes, *d.Reason)
	}
	v.Result.Codes = explainingFirst(v.Result.Codes)
	descs := map[string]string{}
	for _, t := range d.Tools {
		tv := toolView{Name: t.Name, State: t.DescriptionState, Hash: deref(t.ToolHash), Reason: deref(t.Reason)}
		if t.Description != nil && t.DescriptionState != vocab.StateAbsent {
			tv.Description, tv.HasDescription, tv.Pieces = *t.Description, true, holes[t.Name]
			descs[t.Name] = *t.Description
		}
		v.Tools = append(v.Tools, tv)
	}
	for _, f := range d.Findings {
		fv := findingView{Finding: f, StatusLabel: statusLabel[f.Status], EvidenceURL: "/evidence/" + f.Evidence.SHA256, EntryKind: "the tool",
			URL: findingURL(f.ID)}
		if f.SurfaceKind != nil && *f.SurfaceKind != vocab.EntryTool {
			fv.EntryKind = "the " + strings.ReplaceAll(*f.SurfaceKind, "_", " ")
		}
		if f.EntryName != nil && (f.SurfaceKind == nil || *f.SurfaceKind == vocab.EntryTool) {
			if desc, ok := descs[*f.EntryName]; ok {
				fv.Before, fv.Mark, fv.After, fv.Highlighted = highlight(desc, f.Evidence.Excerpt)
			}
		}
		v.Findings = append(v.Findings, fv)
	}
	for _, k := range capabilityKinds {
		g := capGroup{Label: k.Label}
		for _, c := range d.Capabilities {
			if c.Kind == k.Kind {
				g.Items = append(g.Items, c)
			}
		}
		if len(g.Items) > 0 {
			v.CapGroups = append(v.CapGroups, g)
		}
	}
	for _, c := range d.NotAssessed {
		v.NotAssessed = append(v.NotAssessed, notAssessed{ID: c, Meaning: declaredChecks[c]})
	}
	// The demo label is served by the publication labels (api.Labels);
	// until a row carries it, no page is marked demo here.
	v.Repro = reproSteps(d, d.Demo, siteOrigin(r))
	v.History = historyRows(d.Registry, d.Name, d.Version, hist)
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.renderPage(w, r, http.StatusOK, "package", v)
	return nil
}

// historyRows are the rows of a version history; current is the version of
// the page showing it ("" for none).
func historyRows(registry, name, current string, hist []api.VersionHistoryEntry) []historyRow {
	var out []historyRow
	for _, h := range hist {
		row := historyRow{Version: h.Version, URL: packageURL(registry, name, h.Version), Current: h.Version == current,
			ManifestHash: deref(h.ManifestHash)}
		switch {
		case h.Grade != nil:
			row.Result = "Grade " + *h.Grade
		case h.Verdict == api.VerdictNotGradeable:
			codes := make([]api.BlockedBy, len(h.BlockedBy))
			for i, c := range h.BlockedBy {
				codes[i] = api.BlockedBy{Code: c}
			}
			var names []string
			for _, c := range explainingFirst(codes) {
				names = append(names, c.Code)
			}
			row.Result = "Not graded: " + strings.Join(names, ", ")
		default:
			row.Result = verdictLabel[h.Verdict]
		}
		if c := h.Changes; c != nil {
			for _, t := range c.Tools {
				row.Changes = append(row.Changes, "tool "+t.Name+": "+strings.ReplaceAll(t.Change, "_", " "))
			}
			for _, k := range c.CapabilitiesAdded {
				row.Changes = append(row.Changes, "can now reach "+k.Kind+" "+k.Target)
			}
			for _, k := range c.CapabilitiesRemoved {
				row.Changes = append(row.Changes, "no longer reaches "+k.Kind+" "+k.Target)
			}
			if len(row.Changes) == 0 {
				row.Changes = []string{"manifest hash changed"}
			}
			row.DiffURL = "/diff/" + name + "/" + url.PathEscape(c.From) + "/" + url.PathEscape(c.To) + "?registry=" + registry
			row.Changes = append([]string{"since " + c.From + ":"}, row.Changes...)
		}
		out = append(out, row)
	}
	return out
}

func findingURL(id string) string { return "/finding/" + url.PathEscape(id) }

var siteFindingID = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)

type appealRow struct{ ID, Status, Filed, Resolved string }

var appealStatusLabel = map[string]string{
	"open": "open: the finding is under appeal", "upheld": "upheld: the finding is withdrawn",
	"dismissed": "dismissed: the finding stands", "withdrawn": "withdrawn by the appellant",
}

type findingPageView struct {
	Common                       common
	F                            findingView
	D                            *api.FindingDetail
	PackageURL, Published, Lines string
	Appeals                      []appealRow
}

// findingPage is one finding as its newest publication states it: its
// public status, every appeal with its dates, and where its evidence is.
func (s *Server) findingPage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	id := pathParam(r, "id")
	if !siteFindingID.MatchString(id) {
		return badPage("The finding id is not valid.")
	}
	d, err := rd.Finding(r.Context(), id)
	if err != nil {
		return err
	}
	f := d.Finding
	v := findingPageView{Common: s.common("grades"), D: d,
		F:          findingView{Finding: f, StatusLabel: statusLabel[f.Status], EvidenceURL: "/evidence/" + f.Evidence.SHA256, URL: findingURL(f.ID), EntryKind: entryKind(f)},
		PackageURL: packageURL(d.Package.Registry, d.Package.Name, d.Package.Version), Published: date(d.PublishedAt),
		Lines: lineRange(f.Evidence)}
	for _, a := range d.Appeals {
		row := appealRow{ID: a.ID, Status: a.Status, Filed: date(a.FiledAt), Resolved: "not yet"}
		if l := appealStatusLabel[a.Status]; l != "" {
			row.Status = l
		}
		if a.ResolvedAt != nil {
			row.Resolved = date(*a.ResolvedAt)
		}
		v.Appeals = append(v.Appeals, row)
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	s.renderPage(w, r, http.StatusOK, "finding", v)
	return nil
}

func entryKind(f api.Finding) string {
	if f.SurfaceKind != nil && *f.SurfaceKind != vocab.EntryTool {
		return "the " + strings.ReplaceAll(*f.SurfaceKind, "_", " ")
	}
	return "the tool"
}

func lineRange(e api.Evidence) string {
	lines := strconv.Itoa(e.LineStart)
	if e.LineEnd != e.LineStart {
		lines += "–" + strconv.Itoa(e.LineEnd)
	}
	return lines
}

type versionsView struct {
	Common         common
	Registry, Name string
	History        []historyRow
}

// versionsPage lists the published versions of a package, newest first,
// for a package address without a version.
func (s *Server) versionsPage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	reg, name := chi.URLParam(r, "registry"), pathParam(r, "name")
	if reg != api.RegistryNPM && reg != api.RegistryPyPI {
		return &Problem{Status: http.StatusNotFound, Detail: "There is no such registry here: only npm and pypi."}
	}
	if len(name) > 214 || !siteName.MatchString(name) {
		return badPage("The package name is not valid.")
	}
	hist, err := rd.History(r.Context(), reg, name)
	if err != nil {
		return err
	}
	if len(hist) == 0 {
		return &Problem{Status: http.StatusNotFound, Detail: "No version of this package is published."}
	}
	v := versionsView{Common: s.common("grades"), Registry: reg, Name: name, History: historyRows(reg, name, "", hist)}
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.renderPage(w, r, http.StatusOK, "versions", v)
	return nil
}

// highlight finds a finding's quote in the description a client receives.
// The quote is source bytes, so escapes are decoded when the raw bytes are
// not found as they are.
func highlight(desc, quote string) (before, mark, after string, ok bool) {
	for _, q := range []string{quote, decodeEscapes(quote)} {
		if q == "" {
			continue
		}
		if i := strings.Index(desc, q); i >= 0 {
			return desc[:i], q, desc[i+len(q):], true
		}
	}
	return "", "", "", false
}

// decodeEscapes decodes the backslash escapes common to JavaScript and
// Python string literals.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'u':
			if i+4 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(n))
					i += 4
					continue
				}
			}
			b.WriteString(`\u`)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

type gateMapRow struct {
	api.GateMapEntry
	N   int
	URL string
}

type gateMapView struct {
	Common  common
	GateMap *api.GateMap
	Rows    []gateMapRow
}

func (s *Server) gateMapPage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	gm, err := rd.GateMap(r.Context(), methodology.Version)
	if err != nil {
		return err
	}
	list, err := rd.ListPackages(r.Context(), api.PackageFilter{Limit: 1})
	if err != nil {
		return err
	}
	v := gateMapView{Common: s.common("gate-map"), GateMap: gm}
	// The page's counts are over the current rows; the first of them stands
	// for the publication they come from.
	for _, it := range list.Items {
		v.Common.Label.add(it.Labels, it.PublishedAt)
	}
	for _, e := range gm.Codes {
		v.Rows = append(v.Rows, gateMapRow{GateMapEntry: e, N: list.Counts.ByReason[e.Code], URL: filterURL(api.PackageFilter{Reason: e.Code})})
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.renderPage(w, r, http.StatusOK, "gatemap", v)
	return nil
}

type methodologyVersionView struct {
	Version, SHA256, URL, Markdown, Extractors string
	Current, InForce                           bool
}

type methodologyView struct {
	Common          common
	Version, SHA256 string
	Title           string
	InForce         bool
	TOC             []tocEntry
	Body            template.HTML
	Versions        []methodologyVersionView
}

func (s *Server) methodologyPage(w http.ResponseWriter, r *http.Request) error {
	version := chi.URLParam(r, "version")
	if version == "" {
		version = methodology.Version
	}
	sn, ok := methodology.Snapshot(version)
	if !ok {
		return &Problem{Status: http.StatusNotFound, Detail: "No published methodology has that version."}
	}
	title, toc, body := documentHTML(string(sn.Bytes))
	if title == "" {
		title = "The Attestari methodology"
	}
	v := methodologyView{Common: s.common("methodology"), Version: sn.Version, SHA256: sn.SHA256, Title: title,
		InForce: sn.Version == methodology.Version, TOC: toc, Body: body}
	for _, x := range methodology.Snapshots() {
		v.Versions = append(v.Versions, methodologyVersionView{Version: x.Version, SHA256: x.SHA256, URL: "/docs/methodology/" + x.Version,
			Markdown: "/methodology/" + x.Version + "?format=markdown", Extractors: strings.Join(extractorsFor(x.Version), ", "),
			Current: x.Version == sn.Version, InForce: x.Version == methodology.Version})
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	s.renderPage(w, r, http.StatusOK, "methodology", v)
	return nil
}
