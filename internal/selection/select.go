package selection

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/vocab"
)

// Defaults for Options left zero.
const (
	DefaultTop      = 200
	DefaultMaxPages = 20 // 5,000 results of one query at 250 a page
	PageSize        = registry.MaxSearchPageSize
)

// Options is one selection. Recording is required; the registry clients are
// needed only for the sources used (nil otherwise).
type Options struct {
	// Queries is the query set the search sources run (Queries1 when its
	// Name is empty).
	Queries QuerySet
	// SearchNPM runs the npm search over Queries.NPM; SearchPyPI reads the
	// PyPI simple index for names matching Queries.PyPI.
	SearchNPM, SearchPyPI bool
	// Names is a name list (the third source); with it nothing is searched.
	Names *Input
	// PyPIDownloads is the download dataset PyPI projects are ranked by.
	PyPIDownloads *Input
	// Conflicts is the conflicts list; nil when none is configured.
	Conflicts *Input
	// Top is how many packages per registry are selected (DefaultTop).
	Top int
	// Window is the download window of the downloads API and of the PyPI
	// dataset; nil gives the last whole calendar month before the
	// recording's selection time for the downloads API.
	Window *pipeline.Window
	// MaxPages bounds the pages read per npm query (DefaultMaxPages).
	MaxPages int

	NPM       *registry.NPM
	Downloads *registry.NPMDownloads
	PyPI      *registry.PyPI

	Recording *Recording
	// Clock stamps the reading of input files; default time.Now.
	Clock func() time.Time
	// Progress, when set, is told what selection is doing, a line at a time.
	Progress func(line string)
}

// Result is a selection's candidates file, its bytes as written, and counts
// for the operator.
type Result struct {
	Candidates *pipeline.Candidates
	Bytes      []byte
	Selected   map[string]int // by registry
	Excluded   map[string]int // by reason
}

// ErrNothingSelected: every package that surfaced was excluded, so there is
// no candidates file to write (a candidates file lists at least one).
var ErrNothingSelected = errors.New("selection: no package was selected")

// FetchError is a request selection could not complete: the registry
// answered 429 or 5xx after its retries, the network failed, or an answer
// was not the document it should be. The answers before it are recorded,
// so the selection resumes from them.
type FetchError struct {
	Source   string
	Err      error
	Recorded int
	Dir      string
}

func (e *FetchError) Error() string {
	var why string
	var se *registry.StatusError
	switch {
	case errors.As(e.Err, &se) && se.Status == 429:
		why = fmt.Sprintf("the registry is limiting the request rate (HTTP 429 after %d attempts)", se.Attempts)
	case errors.As(e.Err, &se):
		why = fmt.Sprintf("the registry answered HTTP %d after %d attempts", se.Status, se.Attempts)
	case errors.Is(e.Err, registry.ErrMalformed):
		why = "the answer is not the document this request returns (" + e.Err.Error() + "); check that the configured base URL is the right service"
	default:
		why = e.Err.Error()
	}
	return fmt.Sprintf("%s: %s; the %d answers before it are recorded in %s: run the same command again with --resume to pick up from there",
		e.Source, why, e.Recorded, e.Dir)
}

func (e *FetchError) Unwrap() error { return e.Err }

var (
	errNPMNotConfigured       = fmt.Errorf("%w: the npm registry (set $%s, or npm's registry)", registry.ErrNotConfigured, registry.EnvNPMRegistry)
	errDownloadsNotConfigured = fmt.Errorf("%w: the npm downloads API (set $%s)", registry.ErrNotConfigured, registry.EnvNPMDownloadsURL)
	errPyPINotConfigured      = fmt.Errorf("%w: the PyPI index (set $%s, or pip's index-url)", registry.ErrNotConfigured, registry.EnvPyPIURL)
)

// entry is one surfaced package.
type entry struct {
	reg, name string
	figure    *int64
	why       string // where the figure came from, or why there is none
	order     int
	rank      int
}

type exclusion struct {
	pipeline.Exclusion
	rank int
}

type run struct {
	o        Options
	now      time.Time
	fetched  []pipeline.Fetch
	datasets []pipeline.Dataset
	excluded []exclusion
	selected []pipeline.Candidate
	docs     map[string]*npmDoc
	conf     *Conflicts

	useAPI                               bool
	truncated                            []string // queries read to the page cap
	inputsRead                           map[string]bool
	searchFigures, apiFigures, dsFigures bool
	firstSearch                          time.Time
}

type npmDoc struct {
	reason, detail string // an exclusion when the document cannot be used
	p              *registry.Packument
}

// Select draws the candidate list.
func Select(ctx context.Context, o Options) (*Result, error) {
	if o.Recording == nil {
		return nil, errors.New("selection.Select: no recording")
	}
	if o.Queries.Name == "" {
		o.Queries = Queries1
	}
	if o.Top <= 0 {
		o.Top = DefaultTop
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
	if o.Names == nil && !o.SearchNPM && !o.SearchPyPI {
		return nil, errors.New("selection.Select: no source: search npm, search PyPI or give a name list")
	}
	r := &run{o: o, now: o.Recording.Now().UTC(), docs: map[string]*npmDoc{}, inputsRead: map[string]bool{}, useAPI: o.Downloads != nil}
	if o.Recording.IsReplay() {
		r.useAPI = o.Recording.DownloadsAPI()
	} else if o.Recording.DownloadsAPI() != r.useAPI {
		return nil, fmt.Errorf("%w: %s was recorded %s the downloads API and this selection runs %s it: resume with the configuration the recording was made with ($%s)",
			ErrRecording, o.Recording.Dir(), withOrWithout(o.Recording.DownloadsAPI()), withOrWithout(r.useAPI), registry.EnvNPMDownloadsURL)
	}
	if o.Window != nil && !r.useAPI && o.PyPIDownloads == nil {
		return nil, fmt.Errorf("%w: a window is the download window of the downloads API ($%s) or of a PyPI dataset, and this selection reads neither: drop --window",
			ErrInput, registry.EnvNPMDownloadsURL)
	}
	if o.Window == nil && r.useAPI {
		r.o.Window = lastWholeMonth(r.now)
	}
	if o.Conflicts != nil {
		c, err := ParseConflicts(o.Conflicts.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrInput, o.Conflicts.Path, err)
		}
		r.conf = c
		if err := r.input(ctx, "conflicts list", o.Conflicts); err != nil {
			return nil, err
		}
	}

	var npmEntries, pypiEntries []*entry
	var err error
	if o.Names != nil {
		npmEntries, pypiEntries, err = r.fromNames(ctx)
	} else {
		if o.SearchNPM {
			if npmEntries, err = r.searchNPM(ctx); err != nil {
				return nil, err
			}
		}
		if o.SearchPyPI {
			pypiEntries, err = r.searchPyPI(ctx)
		}
	}
	if err != nil {
		return nil, err
	}
	if r.useAPI && len(npmEntries) > 0 {
		if err := r.confirmDownloads(ctx, npmEntries); err != nil {
			return nil, err
		}
	}
	if len(pypiEntries) > 0 && o.PyPIDownloads != nil {
		if err := r.readDataset(ctx, pypiEntries); err != nil {
			return nil, err
		}
	}
	if r.searchFigures && r.dsFigures {
		return nil, fmt.Errorf("%w: npm figures would come from the search answer (its own last 30 days) and PyPI figures from the dataset's window, and a selection states one window: configure the downloads API ($%s) so npm is read over --window too, or select one registry at a time",
			ErrInput, registry.EnvNPMDownloadsURL)
	}

	npmByFigure := o.Names == nil || r.useAPI
	pypiByFigure := o.Names == nil || o.PyPIDownloads != nil
	npmRanked := r.rank(r.nameConflicts(npmEntries), npmByFigure)
	pypiRanked := r.rank(r.nameConflicts(pypiEntries), pypiByFigure)
	if err := r.walkNPM(ctx, npmRanked, npmEntries); err != nil {
		return nil, err
	}
	if err := r.walkPyPI(ctx, pypiRanked); err != nil {
		return nil, err
	}
	if o.Recording.IsReplay() {
		// A replay given fewer inputs than the recording read (no conflicts
		// list, say) would draw another list from the same answers.
		for _, k := range o.Recording.inputs() {
			if !r.inputsRead[k] {
				return nil, fmt.Errorf("%w: the recording was made with the %s, which this replay is not given", ErrNotRecorded, k)
			}
		}
	}
	return r.result(npmByFigure, pypiByFigure)
}

// exchange answers one request from the recording, or fetches it live and
// records the answer. A package the registry does not have is an answer
// (not_found); so is a malformed document when keepMalformed is set (a
// package's own document, which excludes that package). Anything else is a
// *FetchError and is not recorded, so a resumed selection asks again.
func (r *run) exchange(ctx context.Context, kind, key string, keepMalformed bool, live func(context.Context) (registry.Response, error)) (Exchange, []byte, error) {
	rec := r.o.Recording
	ex, body, ok, err := rec.Lookup(key)
	if err != nil {
		return ex, nil, err
	}
	if ok {
		r.fetched = append(r.fetched, pipeline.Fetch{Source: key, At: ex.At.UTC()})
		return ex, body, nil
	}
	if rec.IsReplay() {
		return ex, nil, fmt.Errorf("%w: %s (replay needs the inputs and flags the recording was made with)", ErrNotRecorded, key)
	}
	if err := ctx.Err(); err != nil {
		return ex, nil, err
	}
	r.o.Progress(key)
	resp, err := live(ctx)
	ex = Exchange{Kind: kind, Key: key, Status: resp.Record.Status, ContentType: resp.ContentType, At: resp.Record.FetchedAt.UTC()}
	switch {
	case err == nil:
		ex.Outcome, body = vocab.RecordOK, resp.Body
		if body == nil {
			body = []byte{}
		}
	case errors.Is(err, registry.ErrNotFound):
		ex.Outcome, ex.ContentType, body = vocab.RecordNotFound, "", nil
	case keepMalformed && errors.Is(err, registry.ErrMalformed) && resp.Body != nil:
		ex.Outcome, body = vocab.RecordMalformed, resp.Body
	case keepMalformed && errors.Is(err, registry.ErrTooLarge):
		ex.Outcome, ex.ContentType, body = vocab.RecordTooLarge, "", nil
	case errors.Is(err, context.Canceled), errors.Is(err, registry.ErrNotConfigured):
		return ex, nil, err
	default:
		return ex, nil, &FetchError{Source: key, Err: err, Recorded: rec.Len(), Dir: rec.Dir()}
	}
	if err := rec.Add(ex, body); err != nil {
		return ex, nil, err
	}
	r.fetched = append(r.fetched, pipeline.Fetch{Source: key, At: ex.At})
	return ex, body, nil
}

// input records the reading of a local file by its SHA-256, and names it
// among the datasets consulted.
func (r *run) input(_ context.Context, label string, in *Input) error {
	key := label + " sha256:" + in.SHA256
	r.datasets = append(r.datasets, pipeline.Dataset{Name: label + " " + filepath.Base(in.Path), Snapshot: "sha256:" + in.SHA256})
	rec := r.o.Recording
	ex, _, ok, err := rec.Lookup(key)
	if err != nil {
		return err
	}
	if !ok {
		if rec.IsReplay() {
			return fmt.Errorf("%w: %s %s (sha256:%s) is not the file the recording was made with", ErrNotRecorded, label, in.Path, in.SHA256)
		}
		for _, k := range rec.inputs() {
			if strings.HasPrefix(k, label+" sha256:") {
				return fmt.Errorf("%w: %s was made with another %s (%s) than %s (sha256:%s): resume with that file, or select afresh without --resume",
					ErrRecording, rec.Dir(), label, strings.TrimPrefix(k, label+" "), in.Path, in.SHA256)
			}
		}
		ex = Exchange{Kind: vocab.KindSelectionInput, Key: key, Outcome: vocab.RecordOK, SHA256: in.SHA256, NoBody: true, At: r.o.Clock().UTC()}
		if err := rec.Add(ex, nil); err != nil {
			return err
		}
	}
	r.inputsRead[key] = true
	r.fetched = append(r.fetched, pipeline.Fetch{Source: key, At: ex.At.UTC()})
	return nil
}

func (r *run) exclude(reg, name, reason, detail string, rank int) {
	r.excluded = append(r.excluded, exclusion{pipeline.Exclusion{Registry: reg, Name: name, Reason: reason, Detail: detail}, rank})
}

func (r *run) fromNames(ctx context.Context) (npmE, pypiE []*entry, err error) {
	list, err := parseNames(r.o.Names)
	if err != nil {
		return nil, nil, err
	}
	if err := r.input(ctx, "name list", r.o.Names); err != nil {
		return nil, nil, err
	}
	seen := map[string]int{}
	for _, n := range list {
		k := n.registry + ":" + n.name
		if n.registry == pipeline.RegistryPyPI {
			k = n.registry + ":" + registry.NormalizePyPIName(n.name)
		}
		if _, dup := seen[k]; dup {
			// One package, listed again: it keeps its first place. It is
			// not excluded, since it is the package selected or excluded
			// under its first line.
			continue
		}
		seen[k] = n.line
		e := &entry{reg: n.registry, name: n.name, why: "listed on line " + fmt.Sprint(n.line) + " of the name list"}
		if n.registry == pipeline.RegistryNPM {
			e.order = len(npmE)
			npmE = append(npmE, e)
		} else {
			e.order = len(pypiE)
			pypiE = append(pypiE, e)
		}
	}
	return npmE, pypiE, nil
}

func (r *run) searchNPM(ctx context.Context) ([]*entry, error) {
	byName := map[string]*entry{}
	var out []*entry
	for _, q := range r.o.Queries.NPM {
		for page := 0; page < r.o.MaxPages; page++ {
			from := page * PageSize
			key := fmt.Sprintf("npm search %q from %d size %d", q, from, PageSize)
			ex, body, err := r.exchange(ctx, vocab.KindNPMSearch, key, false, func(ctx context.Context) (registry.Response, error) {
				if r.o.NPM == nil {
					return registry.Response{}, errNPMNotConfigured
				}
				p, err := r.o.NPM.SearchPage(ctx, q, from, PageSize)
				return p.Response, err
			})
			if err != nil {
				return nil, err
			}
			if ex.Outcome == vocab.RecordNotFound {
				return nil, fmt.Errorf("%s: the registry does not serve the search API (HTTP 404); on a machine that reaches no search API, select from a name list with --names FILE", key)
			}
			if r.firstSearch.IsZero() || ex.At.Before(r.firstSearch) {
				r.firstSearch = ex.At
			}
			sp, err := registry.ParseSearchPage(body)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
			for _, obj := range sp.Objects {
				e := byName[obj.Name]
				if e == nil {
					e = &entry{reg: pipeline.RegistryNPM, name: obj.Name, order: len(out), why: "the search answers carry no downloads.monthly for it"}
					byName[obj.Name] = e
					out = append(out, e)
				}
				if e.figure == nil && obj.MonthlyDownloads != nil {
					n := *obj.MonthlyDownloads
					e.figure, e.why = &n, fmt.Sprintf("downloads.monthly of the search answer to %q", q)
					r.searchFigures = true
				}
			}
			if len(sp.Objects) < PageSize || (sp.Total > 0 && int64(from+PageSize) >= sp.Total) {
				break
			}
			if page == r.o.MaxPages-1 {
				r.truncated = append(r.truncated, fmt.Sprintf("%q (%d results, %d read)", q, sp.Total, from+len(sp.Objects)))
			}
		}
	}
	// A name the registry would refuse to be asked for cannot be examined.
	kept := out[:0]
	for _, e := range out {
		if _, err := registry.EscapeNPMName(e.name); err != nil {
			r.exclude(e.reg, e.name, vocab.ExcludedMalformedAtRegistry, "the search answer lists a name that is not a valid npm package name", 0)
			continue
		}
		kept = append(kept, e)
	}
	return kept, nil
}

func (r *run) searchPyPI(ctx context.Context) ([]*entry, error) {
	if r.o.PyPIDownloads == nil {
		return nil, fmt.Errorf("%w: PyPI projects are ranked by a download dataset: give --pypi-downloads FILE", ErrInput)
	}
	const key = "pypi simple index"
	ex, body, err := r.exchange(ctx, vocab.KindPyPIIndex, key, false, func(ctx context.Context) (registry.Response, error) {
		if r.o.PyPI == nil {
			return registry.Response{}, errPyPINotConfigured
		}
		s, err := r.o.PyPI.SimpleProjects(ctx)
		return s.Response, err
	})
	if err != nil {
		return nil, err
	}
	if ex.Outcome == vocab.RecordNotFound {
		return nil, fmt.Errorf("%s: the index serves no simple index root (HTTP 404)", key)
	}
	names, err := registry.ParseSimpleProjects(body, ex.ContentType)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	seen := map[string]string{}
	var out []*entry
	for _, n := range names {
		match := false
		for _, q := range r.o.Queries.PyPI {
			if matchesPyPIQuery(n, q) {
				match = true
				break
			}
		}
		if !match {
			continue
		}
		k := registry.NormalizePyPIName(n)
		if _, dup := seen[k]; dup {
			continue // a second spelling of one project keeps the first's place
		}
		seen[k] = n
		out = append(out, &entry{reg: pipeline.RegistryPyPI, name: n, order: len(out)})
	}
	return out, nil
}

// confirmDownloads replaces every npm figure with the downloads API's for
// the window: the search answer's figure states no window, the API's does.
// Unscoped names are asked for in bulk, up to registry.MaxBulkDownloads a
// request, in surfacing order; scoped ones (which the API takes only alone)
// and a last batch of one are asked for one at a time.
func (r *run) confirmDownloads(ctx context.Context, es []*entry) error {
	w := r.o.Window
	var unscoped, single []*entry
	for _, e := range es {
		e.figure, e.why = nil, fmt.Sprintf("the downloads API has no figure for %s to %s", w.From, w.To)
		if strings.HasPrefix(e.name, "@") {
			single = append(single, e)
		} else {
			unscoped = append(unscoped, e)
		}
	}
	for len(unscoped) > 0 {
		n := min(len(unscoped), registry.MaxBulkDownloads)
		batch := unscoped[:n]
		unscoped = unscoped[n:]
		if n == 1 {
			single = append(single, batch...)
			continue
		}
		names := make([]string, n)
		for i, e := range batch {
			names[i] = e.name
		}
		key := fmt.Sprintf("npm downloads %s:%s %d packages sha256:%s (%s ... %s)", w.From, w.To, n,
			vocab.SHA256Hex([]byte(strings.Join(names, ","))), names[0], names[n-1])
		ex, body, err := r.exchange(ctx, vocab.KindNPMDownloads, key, false, func(ctx context.Context) (registry.Response, error) {
			if r.o.Downloads == nil {
				return registry.Response{}, errDownloadsNotConfigured
			}
			resp, _, err := r.o.Downloads.PointBulk(ctx, w.From, w.To, names)
			return resp, err
		})
		if err != nil {
			return err
		}
		if ex.Outcome == vocab.RecordNotFound {
			continue // none of them has a figure
		}
		figures, err := registry.ParseDownloadsBulk(body, w.From, w.To, names)
		if err != nil {
			return &FetchError{Source: key, Err: err, Recorded: r.o.Recording.Len(), Dir: r.o.Recording.Dir()}
		}
		for _, e := range batch {
			if f, ok := figures[e.name]; ok {
				e.figure, e.why = &f, "the downloads API"
				r.apiFigures = true
			}
		}
	}
	sort.SliceStable(single, func(i, j int) bool { return single[i].order < single[j].order })
	for _, e := range single {
		key := fmt.Sprintf("npm downloads %s %s:%s", e.name, w.From, w.To)
		ex, body, err := r.exchange(ctx, vocab.KindNPMDownloads, key, false, func(ctx context.Context) (registry.Response, error) {
			if r.o.Downloads == nil {
				return registry.Response{}, errDownloadsNotConfigured
			}
			d, err := r.o.Downloads.Point(ctx, w.From, w.To, e.name)
			return d.Response, err
		})
		if err != nil {
			return err
		}
		if ex.Outcome == vocab.RecordNotFound {
			continue
		}
		n, err := registry.ParseDownloadsPoint(body, w.From, w.To, e.name)
		if err != nil {
			return &FetchError{Source: key, Err: err, Recorded: r.o.Recording.Len(), Dir: r.o.Recording.Dir()}
		}
		e.figure, e.why = &n, "the downloads API"
		r.apiFigures = true
	}
	r.searchFigures = false
	return nil
}

func (r *run) readDataset(ctx context.Context, es []*entry) error {
	figures, err := parseDataset(r.o.PyPIDownloads)
	if err != nil {
		return err
	}
	if r.o.Window == nil {
		return fmt.Errorf("%w: a PyPI download dataset needs the window its counts cover: give --window FROM:TO", ErrInput)
	}
	if err := r.input(ctx, "pypi download dataset", r.o.PyPIDownloads); err != nil {
		return err
	}
	for _, e := range es {
		if n, ok := figures[registry.NormalizePyPIName(e.name)]; ok {
			e.figure, e.why = &n, "the download dataset"
		} else {
			e.figure, e.why = nil, "the download dataset has no row for it"
		}
	}
	r.dsFigures = true
	return nil
}

// nameConflicts excludes the surfaced packages whose name or scope is on
// the conflicts list, before anything is fetched about them.
func (r *run) nameConflicts(es []*entry) []*entry {
	out := es[:0:0]
	for _, e := range es {
		if m := r.conf.nameConflict(e.reg, e.name); len(m) > 0 {
			r.exclude(e.reg, e.name, m[0].code, joinMatches(m), 0)
			continue
		}
		out = append(out, e)
	}
	return out
}

// rank orders a registry's entries: by figure, descending, ties by name in
// byte order (a package without a figure is excluded), or by the order the
// source gave them.
func (r *run) rank(es []*entry, byFigure bool) []*entry {
	var out []*entry
	if byFigure {
		for _, e := range es {
			if e.figure == nil {
				r.exclude(e.reg, e.name, vocab.ExcludedNoDownloadFigure, e.why, 0)
				continue
			}
			out = append(out, e)
		}
		sort.SliceStable(out, func(i, j int) bool {
			if *out[i].figure != *out[j].figure {
				return *out[i].figure > *out[j].figure
			}
			return out[i].name < out[j].name
		})
	} else {
		out = append(out, es...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].order < out[j].order })
	}
	for i, e := range out {
		e.rank = i + 1
	}
	return out
}

func joinMatches(ms []conflictMatch) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.detail
	}
	return "on the conflicts list: " + strings.Join(parts, "; ")
}

func belowCut(e *entry, total, top int) string {
	return fmt.Sprintf("rank %d of %d; the first %d not excluded are selected", e.rank, total, top)
}

// npmDocument fetches (once) and parses a packument.
func (r *run) npmDocument(ctx context.Context, name string) (*npmDoc, error) {
	if d, ok := r.docs[name]; ok {
		return d, nil
	}
	key := "npm packument " + name
	ex, body, err := r.exchange(ctx, vocab.KindNPMPackument, key, true, func(ctx context.Context) (registry.Response, error) {
		if r.o.NPM == nil {
			return registry.Response{}, errNPMNotConfigured
		}
		p, err := r.o.NPM.Packument(ctx, name)
		return p.Response, err
	})
	if err != nil {
		return nil, err
	}
	d := &npmDoc{}
	switch ex.Outcome {
	case vocab.RecordNotFound:
		d.reason, d.detail = vocab.ExcludedNotFoundAtRegistry, "the registry answered 404 or 410 for its packument"
	case vocab.RecordTooLarge:
		d.reason, d.detail = vocab.ExcludedMalformedAtRegistry, "its packument is larger than the registry client's document cap, so it cannot be read whole"
	default:
		p, err := registry.ParsePackument(body)
		if err != nil {
			d.reason, d.detail = vocab.ExcludedMalformedAtRegistry, "its packument is not a JSON object"
		} else {
			d.p = p
		}
	}
	r.docs[name] = d
	return d, nil
}

// newestRelease is the highest version the packument lists that is a
// strict SemVer version and not a pre-release; "" when there is none.
func newestRelease(p *registry.Packument) string {
	var best *semver.Version
	key := ""
	for k := range p.Versions {
		v, err := semver.StrictNewVersion(k)
		if err != nil || v.Prerelease() != "" {
			continue
		}
		if best == nil || v.GreaterThan(best) || (v.Equal(best) && k < key) {
			best, key = v, k
		}
	}
	return key
}

// npmFacts gathers the conflicts rule's fields from every version the
// packument lists, not only the one selected: a package any of whose
// versions an account of Attestari's published or maintained is excluded.
func npmFacts(name string, p *registry.Packument) packageFacts {
	f := packageFacts{registry: pipeline.RegistryNPM, name: name}
	addPerson := func(pp *registry.Person, accounts *[]string) {
		if pp == nil {
			return
		}
		if accounts != nil {
			*accounts = append(*accounts, pp.Name)
		} else {
			f.authors = append(f.authors, pp.Name)
		}
		f.contacts = append(f.contacts, emailsIn(pp.Email)...)
	}
	for i := range p.Maintainers {
		addPerson(&p.Maintainers[i], &f.maintainers)
	}
	if p.Repository != nil {
		f.repos = append(f.repos, p.Repository.URL)
	}
	for _, k := range p.VersionList() {
		v := p.Versions[k]
		for i := range v.Maintainers {
			addPerson(&v.Maintainers[i], &f.maintainers)
		}
		addPerson(v.NPMUser, &f.publishers)
		addPerson(v.Author, nil)
		if v.Repository != nil {
			f.repos = append(f.repos, v.Repository.URL)
		}
	}
	return f
}

// conflictFieldProblems lists the packument's ill-typed members that the
// conflicts rule reads (maintainers, publishers, authors, repositories, or a
// version that did not decode at all); a dist problem is not one.
func conflictFieldProblems(p *registry.Packument) []string {
	var out []string
	for _, pr := range p.Problems {
		path, _, _ := strings.Cut(pr, ": ")
		switch {
		case path == "maintainers", strings.HasPrefix(path, "maintainers["), path == "repository", path == "versions":
		case strings.HasPrefix(path, "versions.") && !strings.HasSuffix(path, ".dist"):
		default:
			continue
		}
		out = append(out, path)
	}
	return out
}

// repositoryOf is the normalised repository (and directory) the release
// declares, "" when it declares none.
func repositoryOf(p *registry.Packument, version string) string {
	if v := p.Versions[version]; v != nil && v.Repository != nil {
		if u := normalizeRepository(v.Repository.URL); u != "" {
			return u + "#" + strings.Trim(v.Repository.Directory, "/")
		}
	}
	return ""
}

func (r *run) walkNPM(ctx context.Context, ranked, surfaced []*entry) error {
	scoped := map[string][]string{} // unscoped basename -> surfaced scoped names
	for _, e := range surfaced {
		if strings.HasPrefix(e.name, "@") {
			_, base, _ := strings.Cut(e.name, "/")
			scoped[base] = append(scoped[base], e.name)
		}
	}
	for _, names := range scoped {
		sort.Strings(names)
	}
	n := 0
	for _, e := range ranked {
		if n >= r.o.Top {
			r.exclude(e.reg, e.name, vocab.ExcludedBelowCut, belowCut(e, len(ranked), r.o.Top), e.rank)
			continue
		}
		d, err := r.npmDocument(ctx, e.name)
		if err != nil {
			return err
		}
		if d.reason != "" {
			r.exclude(e.reg, e.name, d.reason, d.detail, e.rank)
			continue
		}
		if ill := conflictFieldProblems(d.p); r.conf != nil && len(ill) > 0 {
			// The conflicts rule cannot be applied to a field it cannot
			// read, so the package cannot be shown not to be Attestari's.
			r.exclude(e.reg, e.name, vocab.ExcludedMalformedAtRegistry, "fields the conflicts rule reads are ill-typed in its packument: "+strings.Join(ill, "; "), e.rank)
			continue
		}
		if m := r.conf.match(npmFacts(e.name, d.p)); len(m) > 0 {
			r.exclude(e.reg, e.name, m[0].code, joinMatches(m), e.rank)
			continue
		}
		version := newestRelease(d.p)
		if version == "" {
			detail := "the registry lists no version that is not a pre-release"
			if d.p.Unpublished {
				detail = "the registry records the package as unpublished"
			}
			r.exclude(e.reg, e.name, vocab.ExcludedNoReleaseVersion, detail, e.rank)
			continue
		}
		if dup, err := r.scopedVariant(ctx, e.name, d.p, version, scoped); err != nil {
			return err
		} else if dup != "" {
			r.exclude(e.reg, e.name, vocab.ExcludedDuplicateOfScoped, dup+" (same name after the scope, same repository)", e.rank)
			continue
		}
		r.selected = append(r.selected, pipeline.Candidate{Registry: e.reg, Name: e.name, Version: version, Rank: e.rank, Downloads: e.figure})
		n++
	}
	return nil
}

// scopedVariant returns the scoped package that surfaced beside the
// unscoped name and declares the same repository at its newest release.
func (r *run) scopedVariant(ctx context.Context, name string, p *registry.Packument, version string, scoped map[string][]string) (string, error) {
	if strings.HasPrefix(name, "@") {
		return "", nil
	}
	repo := repositoryOf(p, version)
	if repo == "" {
		return "", nil
	}
	for _, s := range scoped[name] {
		d, err := r.npmDocument(ctx, s)
		if err != nil {
			return "", err
		}
		if d.p == nil {
			continue
		}
		if v := newestRelease(d.p); v != "" && repositoryOf(d.p, v) == repo {
			return s, nil
		}
	}
	return "", nil
}

func (r *run) walkPyPI(ctx context.Context, ranked []*entry) error {
	n := 0
	for _, e := range ranked {
		if n >= r.o.Top {
			r.exclude(e.reg, e.name, vocab.ExcludedBelowCut, belowCut(e, len(ranked), r.o.Top), e.rank)
			continue
		}
		key := "pypi project " + registry.NormalizePyPIName(e.name)
		ex, body, err := r.exchange(ctx, vocab.KindPyPIJSON, key, true, func(ctx context.Context) (registry.Response, error) {
			if r.o.PyPI == nil {
				return registry.Response{}, errPyPINotConfigured
			}
			p, err := r.o.PyPI.Project(ctx, e.name)
			return p.Response, err
		})
		if err != nil {
			return err
		}
		if ex.Outcome == vocab.RecordNotFound {
			r.exclude(e.reg, e.name, vocab.ExcludedNotFoundAtRegistry, "the index answered 404 or 410 for its JSON document", e.rank)
			continue
		}
		if ex.Outcome == vocab.RecordTooLarge {
			r.exclude(e.reg, e.name, vocab.ExcludedMalformedAtRegistry, "its JSON document is larger than the registry client's document cap, so it cannot be read whole", e.rank)
			continue
		}
		p, err := registry.ParsePyPIProject(body)
		if err != nil {
			r.exclude(e.reg, e.name, vocab.ExcludedMalformedAtRegistry, "its JSON document has no info object", e.rank)
			continue
		}
		f := packageFacts{registry: pipeline.RegistryPyPI, name: e.name, authors: []string{p.Info.Author, p.Info.Maintainer}}
		if p.Ownership != nil {
			for _, role := range p.Ownership.Roles {
				f.maintainers = append(f.maintainers, role.User)
			}
		}
		f.contacts = append(emailsIn(p.Info.AuthorEmail), emailsIn(p.Info.MaintainerEmail)...)
		f.repos = append(f.repos, p.Info.HomePage)
		for _, k := range sortedKeys(p.Info.ProjectURLs) {
			f.repos = append(f.repos, p.Info.ProjectURLs[k])
		}
		if m := r.conf.match(f); len(m) > 0 {
			r.exclude(e.reg, e.name, m[0].code, joinMatches(m), e.rank)
			continue
		}
		res, err := registry.ResolvePyPI(p, "")
		if err != nil || res.Version == "" {
			r.exclude(e.reg, e.name, vocab.ExcludedNoReleaseVersion, "the index lists no release that is not a pre-release, has a file and is not wholly yanked", e.rank)
			continue
		}
		r.selected = append(r.selected, pipeline.Candidate{Registry: e.reg, Name: e.name, Version: res.Version, Rank: e.rank, Downloads: e.figure})
		n++
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func withOrWithout(b bool) string {
	if b {
		return "with"
	}
	return "without"
}

// lastWholeMonth is the last calendar month that ended before now (UTC).
func lastWholeMonth(now time.Time) *pipeline.Window {
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	from := first.AddDate(0, -1, 0)
	return &pipeline.Window{From: from.Format(time.DateOnly), To: first.AddDate(0, 0, -1).Format(time.DateOnly)}
}

func (r *run) rankingRule(npmByFigure, pypiByFigure bool) string {
	var parts []string
	if r.o.Names != nil {
		parts = append(parts, "source: the name list (one package a line, npm unless written pypi:NAME; a name listed again, under PEP 503 for PyPI, keeps its first place)")
	} else {
		var src []string
		if r.o.SearchNPM {
			src = append(src, fmt.Sprintf("the npm search API over each npm query of the set, every page of %d read until a page holds fewer or the answer's total is reached, at most %d pages a query", PageSize, r.o.MaxPages))
		}
		if r.o.SearchPyPI {
			src = append(src, "the PyPI simple index's project names whose PEP 503 form holds a PyPI query's words as consecutive hyphen-separated parts")
		}
		parts = append(parts, "query set "+r.o.Queries.Name+"; source: "+strings.Join(src, "; and ")+"; the union per registry, one entry a name")
		if len(r.truncated) > 0 {
			parts = append(parts, "read to the page cap: "+strings.Join(r.truncated, ", "))
		}
	}
	if npmByFigure {
		fig := "the first search answer's downloads.monthly that carries one (the registry states no window for it; the window recorded is the 30 days before the first search page)"
		if r.useAPI {
			fig = "the downloads API's point figure for the window"
		}
		parts = append(parts, "npm ranked by "+fig+", descending, ties by name in byte order, a package without a figure excluded as no_download_figure")
	} else {
		parts = append(parts, "npm ranked in the name list's order")
	}
	if pypiByFigure {
		parts = append(parts, "PyPI ranked by the download dataset's count for the window (by PEP 503 name), descending, ties by name, a project without a row excluded as no_download_figure")
	} else {
		parts = append(parts, "PyPI ranked in the name list's order")
	}
	parts = append(parts, fmt.Sprintf("walked in rank order, each package's registry document read, and the first %d per registry not excluded (conflicts list, not found, malformed document, no release version, unscoped duplicate of a scoped package that surfaced with the same repository) selected at the highest version that is not a pre-release; the rest below_cut", r.o.Top))
	if r.conf == nil {
		parts = append(parts, "no conflicts list configured")
	} else {
		parts = append(parts, fmt.Sprintf("conflicts list of %d entries", r.conf.Size()))
	}
	return strings.Join(parts, "; ")
}

func (r *run) result(npmByFigure, pypiByFigure bool) (*Result, error) {
	res := &Result{Selected: map[string]int{}, Excluded: map[string]int{}}
	for _, c := range r.selected {
		res.Selected[c.Registry]++
	}
	for _, e := range r.excluded {
		res.Excluded[e.Reason]++
	}
	if len(r.selected) == 0 {
		return res, fmt.Errorf("%w: %d package(s) surfaced and every one was excluded (%s); nothing was written", ErrNothingSelected, len(r.excluded), countsLine(res.Excluded))
	}
	sel := pipeline.Selection{
		Queries:     []pipeline.Query{},
		RankingRule: r.rankingRule(npmByFigure, pypiByFigure),
		FetchedAt:   r.fetched,
		Datasets:    r.datasets,
	}
	if sel.FetchedAt == nil {
		sel.FetchedAt = []pipeline.Fetch{}
	}
	if sel.Datasets == nil {
		sel.Datasets = []pipeline.Dataset{}
	}
	if r.o.Names == nil {
		if r.o.SearchNPM {
			for _, q := range r.o.Queries.NPM {
				sel.Queries = append(sel.Queries, pipeline.Query{Registry: pipeline.RegistryNPM, Text: q})
			}
		}
		if r.o.SearchPyPI {
			for _, q := range r.o.Queries.PyPI {
				sel.Queries = append(sel.Queries, pipeline.Query{Registry: pipeline.RegistryPyPI, Text: q})
			}
		}
		sel.PageSize = PageSize
	}
	switch {
	case r.apiFigures || r.dsFigures:
		sel.Window = r.o.Window
	case r.searchFigures:
		day := time.Date(r.firstSearch.Year(), r.firstSearch.Month(), r.firstSearch.Day(), 0, 0, 0, 0, time.UTC)
		sel.Window = &pipeline.Window{From: day.AddDate(0, 0, -30).Format(time.DateOnly), To: day.AddDate(0, 0, -1).Format(time.DateOnly)}
	}
	regOrder := map[string]int{pipeline.RegistryNPM: 0, pipeline.RegistryPyPI: 1}
	sort.SliceStable(r.selected, func(i, j int) bool {
		a, b := r.selected[i], r.selected[j]
		if a.Registry != b.Registry {
			return regOrder[a.Registry] < regOrder[b.Registry]
		}
		return a.Rank < b.Rank
	})
	sort.SliceStable(r.excluded, func(i, j int) bool {
		a, b := r.excluded[i], r.excluded[j]
		if a.Registry != b.Registry {
			return regOrder[a.Registry] < regOrder[b.Registry]
		}
		ra, rb := a.rank, b.rank
		if ra == 0 {
			ra = 1 << 30
		}
		if rb == 0 {
			rb = 1 << 30
		}
		if ra != rb {
			return ra < rb
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Reason < b.Reason
	})
	c := &pipeline.Candidates{Schema: pipeline.CandidatesSchema, Selection: sel, Candidates: r.selected, Excluded: []pipeline.Exclusion{}}
	for _, e := range r.excluded {
		c.Excluded = append(c.Excluded, e.Exclusion)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return res, err
	}
	if _, err := pipeline.ParseCandidates(buf.Bytes()); err != nil {
		return res, fmt.Errorf("selection drew a candidates file that does not validate, so nothing was written (a defect of attestari select: report it with the recording in %s): %w", r.o.Recording.Dir(), err)
	}
	res.Candidates, res.Bytes = c, buf.Bytes()
	return res, nil
}

func countsLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// CountsLine is the operator's one-line summary of a count map.
func CountsLine(m map[string]int) string { return countsLine(m) }
