package corpus

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// PyRegistry is the registry a Python corpus row names.
const PyRegistry = vocab.RegistryPyPI

// PyEntry is one tool, prompt, resource or template of a Python truth file.
// Description is the text the framework publishes (nil when the reader
// could not carry it to text: an f-string over run-time values); the Doc*
// fields are the docstring's three readings when the text is a docstring.
type PyEntry struct {
	Name            string  `json:"name"`
	Description     *string `json:"description"`
	DescriptionFrom string  `json:"description_from,omitempty"` // keyword, docstring, none
	DocSource       *string `json:"doc_source,omitempty"`       // as written (what Python 3.12 and earlier send as __doc__)
	DocPy313        *string `json:"doc_py313,omitempty"`        // __doc__ as Python 3.13+ stores it
	DocCleandoc     *string `json:"doc_cleandoc,omitempty"`     // inspect.cleandoc, what fastmcp sends
	URI             string  `json:"uri,omitempty"`
	Site            string  `json:"site,omitempty"`
	// Parameters are the tool's parameter texts (nil: the truth file lists
	// none, so they are not compared).
	Parameters []PyParam `json:"parameters,omitempty"`
}

// PyTruth is testdata/corpus-python/truth/<name>@<version>.json: what a
// client of the running server would be shown, as scripts/py_truth.py reads
// it from the source and the review corrects it. Fields the evaluation does
// not read (servers, undecided sites, notes) stay in the file for people.
type PyTruth struct {
	Name              string    `json:"name"`
	Version           string    `json:"version"`
	Framework         string    `json:"framework"`
	Outcome           string    `json:"outcome"`
	OutcomeDetail     string    `json:"outcome_detail"`
	Tools             []PyEntry `json:"tools"`
	Prompts           []PyEntry `json:"prompts"`
	Resources         []PyEntry `json:"resources"`
	ResourceTemplates []PyEntry `json:"resource_templates"`
	Review            struct {
		Status string `json:"status"` // plain, reviewed
		Notes  string `json:"notes,omitempty"`
	} `json:"review"`
	Corrections []json.RawMessage `json:"corrections"`
}

// Key is "name@version".
func (t PyTruth) Key() string { return t.Name + "@" + t.Version }

// PyTruthPath is a truth file's path under dir.
func PyTruthPath(dir, name, version string) string {
	return filepath.Join(dir, name+"@"+version+".json")
}

// LoadPyTruths reads every truth file of dir, sorted by key.
func LoadPyTruths(dir string) ([]PyTruth, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus.LoadPyTruths %s: %w", dir, err)
	}
	out := make([]PyTruth, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("corpus.LoadPyTruths: %w", err)
		}
		var t PyTruth
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("corpus.LoadPyTruths %s: %w", p, err)
		}
		if t.Name == "" || t.Version == "" || t.Outcome == "" {
			return nil, fmt.Errorf("corpus.LoadPyTruths %s: %w: no name, version or outcome", p, ErrInvalidList)
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, nil
}

// ExtractorDied is the outcome the evaluation records for a server whose
// extraction ended its process (it runs each in a child so that one such
// input cannot end the evaluation). It is no outcome of the methodology.
const ExtractorDied = "extractor_died"

// Miss kinds the Python evaluation adds to Evaluate's.
const (
	MissOutcomeDiffers = "outcome_differs" // the extractor's outcome is not the truth's
	// MissOffListed is a name the truth lists that the extractor read off by
	// default: a recall miss, reported with this kind instead of missing.
	MissOffListed = "off_by_default_but_listed"
)

// PyReport is the Python corpus evaluation. Every truth is in the
// population (the truth is read from source, not from a server that had to
// start); names and descriptions are compared on servers whose truth and
// extracted outcome are both parsed.
type PyReport struct {
	Servers     int `json:"servers"`
	WithSurface int `json:"with_surface"`
	// OutcomeRight counts servers whose extracted outcome equals the truth's.
	OutcomeRight int `json:"outcome_right"`
	// Confusion counts (truth outcome, extracted outcome) pairs.
	Confusion map[[2]string]int `json:"-"`
	// BothParsed is the population of the name and description figures.
	BothParsed int                   `json:"both_parsed"`
	Names      map[string]NameCounts `json:"names"`
	// Tool descriptions on matched tools whose truth text is known: how many
	// the extractor read as readable, and how many of those are equal to the
	// text the framework publishes.
	ComparableDescriptions  int `json:"comparable_descriptions"`
	ReadableDescriptions    int `json:"readable_descriptions"`
	EqualDescriptions       int `json:"equal_descriptions"`
	NotReadableDescriptions int `json:"not_readable_descriptions"`
	// Readable but unequal texts that equal another reading of the same
	// docstring (the source text or the other cleaning): a framework or
	// interpreter-version question, not a misread.
	OtherDocReading int `json:"other_doc_reading"`
	// OffByDefault counts, per entry kind, the entries the extractor reads
	// off by default (methodology §5.2, Configuration: read and checked,
	// not in the list a start with nothing set gives) on servers parsed by
	// both. They are not in Names' Found, so none is a precision error.
	OffByDefault map[string]OffCounts `json:"off_by_default"`
	// Params compares the parameter texts of matched tools.
	Params ParamCounts `json:"params"`
	Misses []Miss      `json:"misses"`
	// offListed is, per server and kind, the names read off by default that
	// the truth lists (their missing misses are reported as MissOffListed).
	offListed map[[2]string]map[string]bool
}

// OffCounts splits the entries read off by default by what the truth (a
// default start) says: Unlisted agree with it and are no error; Listed are
// tools the default start lists that the extractor turned off, each a
// recall miss (MissOffListed).
type OffCounts struct {
	Unlisted int `json:"unlisted"`
	Listed   int `json:"listed"`
}

// OutcomeShare is OutcomeRight/Servers.
func (r PyReport) OutcomeShare() float64 { return ratio(r.OutcomeRight, r.Servers) }

// DescriptionEqualShare is equal/readable over matched tools with a known truth text.
func (r PyReport) DescriptionEqualShare() float64 {
	return ratio(r.EqualDescriptions, r.ReadableDescriptions)
}

// EvaluatePython compares extractor rows (keyed by SurfaceKey) with the
// Python truth.
func EvaluatePython(truths []PyTruth, surfaces map[string]rundir.Surface) PyReport {
	r := PyReport{Confusion: map[[2]string]int{}, Names: map[string]NameCounts{}, OffByDefault: map[string]OffCounts{},
		Misses: []Miss{}, offListed: map[[2]string]map[string]bool{}}
	for _, k := range []string{vocab.EntryTool, vocab.EntryPrompt, vocab.EntryResource, vocab.EntryResourceTemplate} {
		r.Names[k] = NameCounts{}
		r.OffByDefault[k] = OffCounts{}
	}
	sorted := append([]PyTruth(nil), truths...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key() < sorted[j].Key() })
	for _, t := range sorted {
		r.Servers++
		key := t.Key()
		s, ok := surfaces[SurfaceKey(t.Name, t.Version)]
		if !ok {
			r.Misses = append(r.Misses, Miss{Package: key, Kind: MissNoSurface})
			continue
		}
		r.WithSurface++
		r.Confusion[[2]string{t.Outcome, s.Outcome}]++
		if s.Outcome == t.Outcome {
			r.OutcomeRight++
		} else {
			detail := "truth " + t.Outcome + ", extracted " + s.Outcome
			if s.OutcomeDetail != "" {
				detail += ": " + s.OutcomeDetail
			}
			r.Misses = append(r.Misses, Miss{Package: key, Kind: MissOutcomeDiffers, Detail: detail})
		}
		if t.Outcome != vocab.OutcomeParsed || s.Outcome != vocab.OutcomeParsed {
			continue
		}
		r.BothParsed++
		// The truth is what the server lists under the default
		// configuration; an entry off by default is on the surface (read and
		// checked) but not listed (methodology §5.2, Configuration): it is
		// counted apart (countOff), never as found.
		r.countOff(key, "tool", pyNames(t.Tools), s.Tools)
		r.countOff(key, "prompt", pyNames(t.Prompts), s.Prompts)
		r.countOff(key, "resource", pyNames(t.Resources), s.Resources)
		r.countOff(key, vocab.EntryResourceTemplate, pyNames(t.ResourceTemplates), s.ResourceTemplates)
		r.compareTools(key, t.Tools, listedByDefault(s.Tools), s.ParameterDescriptions)
		r.compareNames(key, "prompt", pyNames(t.Prompts), entryNames(listedByDefault(s.Prompts)))
		r.compareNames(key, "resource", pyNames(t.Resources), entryNames(listedByDefault(s.Resources)))
		r.compareNames(key, vocab.EntryResourceTemplate, pyNames(t.ResourceTemplates), entryNames(listedByDefault(s.ResourceTemplates)))
	}
	return r
}

// countOff counts the entries of one kind read off by default against the
// truth's names, and remembers those the truth lists.
func (r *PyReport) countOff(pkg, kind string, truth []string, es []rundir.Entry) {
	ts := set(truth)
	c := r.OffByDefault[kind]
	seen := map[string]bool{}
	for _, e := range listedByDefault(es) {
		seen[e.Name] = true // also listed by another reading: counted as found
	}
	for _, e := range es {
		if !e.OffByDefault() || seen[e.Name] || e.NameState != "" && e.NameState != vocab.StateReadable {
			continue
		}
		seen[e.Name] = true
		if !ts[e.Name] {
			c.Unlisted++
			continue
		}
		c.Listed++
		k := [2]string{pkg, kind}
		if r.offListed[k] == nil {
			r.offListed[k] = map[string]bool{}
		}
		r.offListed[k][e.Name] = true
	}
	r.OffByDefault[kind] = c
}

// listedByDefault drops the entries registered only under a configuration
// other than the default (rundir.Entry.OffByDefault).
func listedByDefault(es []rundir.Entry) []rundir.Entry {
	out := make([]rundir.Entry, 0, len(es))
	for _, e := range es {
		if !e.OffByDefault() {
			out = append(out, e)
		}
	}
	return out
}

func pyNames(es []PyEntry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

func (r *PyReport) compareTools(pkg string, truth []PyEntry, found []rundir.Entry, params []rundir.Entry) {
	byName := map[string]rundir.Entry{}
	for _, e := range found {
		if e.NameState != "" && e.NameState != vocab.StateReadable {
			continue // a name the extractor could not read matches nothing
		}
		if _, dup := byName[e.Name]; !dup {
			byName[e.Name] = e
		}
	}
	r.compareNames(pkg, "tool", pyNames(truth), slices.Sorted(maps.Keys(byName)))
	byParent := map[string][]rundir.Entry{}
	for _, p := range listedByDefault(params) { // a text of a tool off by default is not listed either
		byParent[p.Parent] = append(byParent[p.Parent], p)
	}
	for _, tt := range truth {
		if _, ok := byName[tt.Name]; ok && tt.Parameters != nil {
			r.Misses = append(r.Misses, compareParams(pkg, tt.Name, tt.Parameters, byParent[tt.Name], &r.Params)...)
		}
	}
	for _, tt := range truth {
		e, ok := byName[tt.Name]
		if !ok || tt.Description == nil {
			continue
		}
		r.ComparableDescriptions++
		want := *tt.Description
		if e.DescriptionState != vocab.StateReadable {
			if e.DescriptionState == vocab.StateAbsent && want == "" {
				continue // nothing published, nothing read: they agree
			}
			r.NotReadableDescriptions++
			r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissDescriptionState, Surface: "tool", Name: tt.Name, Detail: e.DescriptionState})
			continue
		}
		r.ReadableDescriptions++
		if e.DescriptionRaw == want {
			r.EqualDescriptions++
			continue
		}
		detail := firstDifference(e.DescriptionRaw, want)
		for _, alt := range []struct {
			name string
			text *string
		}{{"the docstring as written (Python 3.12 and earlier)", tt.DocSource}, {"__doc__ as Python 3.13+ stores it", tt.DocPy313}, {"inspect.cleandoc", tt.DocCleandoc}} {
			if alt.text != nil && *alt.text == e.DescriptionRaw {
				r.OtherDocReading++
				detail = "equals " + alt.name + ", not the text this framework publishes; " + detail
				break
			}
		}
		r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissDescriptionDiff, Surface: "tool", Name: tt.Name, Detail: detail})
	}
}

// compareNames is Report.compareNames over a PyReport's counts.
func (r *PyReport) compareNames(pkg, kind string, truth, found []string) {
	tmp := Report{Names: map[string]NameCounts{kind: r.Names[kind]}}
	tmp.compareNames(pkg, kind, truth, found)
	r.Names[kind] = tmp.Names[kind]
	for i, m := range tmp.Misses {
		if m.Kind == MissMissingName && r.offListed[[2]string{pkg, kind}][m.Name] {
			tmp.Misses[i].Kind = MissOffListed
			tmp.Misses[i].Detail = "the truth lists it; the extractor reads it off by default"
		}
	}
	r.Misses = append(r.Misses, tmp.Misses...)
}

// PyEvalHeader says how a Python report was produced.
type PyEvalHeader struct {
	Command          string
	Date             time.Time
	ExtractorVersion string
	Listed           int
	Extracted        int
	Missing          []string
}

// PyTargets are the figures issue 14 sets.
var PyTargets = struct {
	Outcome, NameRecall, NamePrecision, DescriptionEqual float64
}{0.90, 0.95, 0.95, 0.95}

// Markdown renders the Python report.
func (r PyReport) Markdown(h PyEvalHeader, truths []PyTruth, surfaces map[string]rundir.Surface) string {
	var b strings.Builder
	pct := func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
	mark := func(f, target float64) string {
		if f >= target {
			return "met"
		}
		return "**not met**"
	}
	b.WriteString("<!-- Generated by `" + h.Command + "`; do not edit by hand. -->\n\n")
	b.WriteString("# Extractor against the Python truth\n\n")
	fmt.Fprintf(&b, "Produced by `%s` on %s with extractor `%s`: %d servers listed in `testdata/corpus-python/servers.json`, %d archives read (SHA-256 checked against the list), %d truth files. ",
		h.Command, h.Date.UTC().Format("2006-01-02"), h.ExtractorVersion, h.Listed, h.Extracted, len(truths))
	b.WriteString("The truth is read from each server's source by `scripts/py_truth.py` (Python's `ast`, independent of the extractor) and reviewed by hand (`testdata/corpus-python/README.md`); it is the project's own corpus (development figures), not a held-out set.\n\n")
	if len(h.Missing) > 0 {
		fmt.Fprintf(&b, "Not packed, so not evaluated: %s.\n\n", strings.Join(h.Missing, ", "))
	}
	t := r.Names["tool"]
	b.WriteString("| figure | value | target | |\n| --- | ---: | ---: | --- |\n")
	fmt.Fprintf(&b, "| outcome equal to the truth's | %s (%d/%d) | %s | %s |\n", pct(r.OutcomeShare()), r.OutcomeRight, r.Servers, pct(PyTargets.Outcome), mark(r.OutcomeShare(), PyTargets.Outcome))
	fmt.Fprintf(&b, "| tool-name recall, %d servers parsed by both | %s (%d/%d) | %s | %s |\n", r.BothParsed, pct(t.Recall()), t.Matched, t.Truth, pct(PyTargets.NameRecall), mark(t.Recall(), PyTargets.NameRecall))
	fmt.Fprintf(&b, "| tool-name precision, same servers | %s (%d/%d) | %s | %s |\n", pct(t.Precision()), t.Matched, t.Found, pct(PyTargets.NamePrecision), mark(t.Precision(), PyTargets.NamePrecision))
	fmt.Fprintf(&b, "| readable descriptions equal to the published text | %s (%d/%d) | %s | %s |\n", pct(r.DescriptionEqualShare()), r.EqualDescriptions, r.ReadableDescriptions, pct(PyTargets.DescriptionEqual), mark(r.DescriptionEqualShare(), PyTargets.DescriptionEqual))
	fmt.Fprintf(&b, "| matched tools whose description the extractor did not read as readable | %d of %d with a known text | | |\n", r.NotReadableDescriptions, r.ComparableDescriptions)
	fmt.Fprintf(&b, "| unequal descriptions equal to another reading of the docstring | %d | | |\n", r.OtherDocReading)
	off := r.OffByDefault["tool"]
	fmt.Fprintf(&b, "| tools read off by default that the truth does not list (no error) | %d | | |\n", off.Unlisted)
	fmt.Fprintf(&b, "| tools read off by default that the truth lists (recall misses) | %d | | |\n", off.Listed)
	pc := r.Params
	fmt.Fprintf(&b, "| parameter texts of %d matched tools: equal / differing | %d / %d | | |\n", pc.Tools, pc.Equal, pc.Differing)
	fmt.Fprintf(&b, "| parameter texts: extractor only / truth only | %d / %d | | |\n", pc.ExtractorOnly, pc.TruthOnly)
	fmt.Fprintf(&b, "| parameter texts not read: by the truth (unknown) / by the extractor (unreadable, partial) | %d / %d | | |\n", pc.UnknownTruth, pc.UnknownExtractor)
	for _, k := range []string{vocab.EntryPrompt, vocab.EntryResource, vocab.EntryResourceTemplate} {
		c := r.Names[k]
		fmt.Fprintf(&b, "| %s-name recall / precision | %s / %s (%d/%d, %d/%d) | | |\n", k, pct(c.Recall()), pct(c.Precision()), c.Matched, c.Truth, c.Matched, c.Found)
	}
	b.WriteString("\nThe truth is the list a server gives when started with nothing set. A tool the extractor reads off by default (a condition that does not hold under the default configuration, methodology §5.2) is read and checked but is not in that list, so it is not counted as found: when the truth does not list it either, the two agree, and it is counted in its own row, not as a precision error; when the truth lists it, it is a recall miss (`" + MissOffListed + "`). A tool read as listed by default that the truth does not list is an extra and a precision error; a tool of the truth the extractor does not read at all is a recall miss (`missing`).\n\n")
	b.WriteString("Descriptions are compared as each server's framework publishes them: `inspect.cleandoc` of the docstring for the standalone `fastmcp`, `fn.__doc__` as Python 3.13+ stores it for the SDK's FastMCP, the literal for a low-level `Tool(...)`.\n\n")
	b.WriteString("Parameter texts are the descriptions inside a tool's inputSchema, compared byte for byte per matched tool and path (the truth's `parameters`, the extractor's `parameter_description` entries; a `[]` item mark is not part of the key). A path either side marks not read (the truth's unknown marker, the extractor's unreadable or partial entry), or one under it, is counted as not read and not compared; `(schema)` is the whole schema.\n\n")
	b.WriteString("## Outcomes\n\n| truth | extracted | servers |\n| --- | --- | ---: |\n")
	pairs := make([][2]string, 0, len(r.Confusion))
	for p := range r.Confusion {
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	for _, p := range pairs {
		fmt.Fprintf(&b, "| %s | %s | %d |\n", p[0], p[1], r.Confusion[p])
	}
	b.WriteString("\n## By framework\n\n| framework | servers | outcome right |\n| --- | ---: | ---: |\n")
	byFw := map[string][2]int{}
	for _, t := range truths {
		c := byFw[t.Framework]
		c[0]++
		if s, ok := surfaces[SurfaceKey(t.Name, t.Version)]; ok && s.Outcome == t.Outcome {
			c[1]++
		}
		byFw[t.Framework] = c
	}
	for _, k := range slices.Sorted(maps.Keys(byFw)) {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", k, byFw[k][0], byFw[k][1])
	}
	b.WriteString("\n## Per server\n\n| server | framework | truth | extracted | tools (truth / extracted) | of which off by default | review |\n| --- | --- | --- | --- | ---: | ---: | --- |\n")
	for _, t := range truths {
		s, ok := surfaces[SurfaceKey(t.Name, t.Version)]
		got, n, off := "(no row)", 0, 0
		if ok {
			got, n = s.Outcome, len(s.Tools)
			off = len(s.Tools) - len(listedByDefault(s.Tools))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d / %d | %d | %s |\n", t.Key(), t.Framework, t.Outcome, got, len(t.Tools), n, off, t.Review.Status)
	}
	fmt.Fprintf(&b, "\n## Misses (%d)\n", len(r.Misses))
	last := ""
	for _, m := range r.Misses {
		if m.Package != last {
			fmt.Fprintf(&b, "\n### %s\n\n", m.Package)
			last = m.Package
		}
		line := "- " + m.Kind
		if m.Surface != "" {
			line += " " + m.Surface
		}
		if m.Name != "" {
			line += " `" + m.Name + "`"
		}
		if m.Detail != "" {
			line += ": " + oneLine(m.Detail, 300)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// PyExtractFunc reads the surface of one packed archive.
type PyExtractFunc func(ctx context.Context, s PyServer, archive []byte) rundir.Surface

// PyExtractAll reads every listed server whose archive is in dir, one at a
// time, after checking the archive against the pinned SHA-256 (a mismatch is
// an error: the truth was read from other bytes). It returns the rows keyed
// by SurfaceKey and the keys of servers with no archive.
func PyExtractAll(ctx context.Context, l *PyList, dir string, extract PyExtractFunc) (map[string]rundir.Surface, []string, error) {
	out := map[string]rundir.Surface{}
	var missing []string
	for _, s := range l.Servers {
		if err := ctx.Err(); err != nil {
			return out, missing, fmt.Errorf("corpus.PyExtractAll: %w", err)
		}
		p := PyArchivePath(dir, s)
		data, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			missing = append(missing, s.Key())
			continue
		}
		if err != nil {
			return out, missing, fmt.Errorf("corpus.PyExtractAll: %w", err)
		}
		if got := vocab.SHA256Hex(data); got != s.SHA256 {
			return out, missing, fmt.Errorf("corpus.PyExtractAll: %w: %s: %s has %s, the list pins %s", ErrArchiveMismatch, s.Key(), p, got, s.SHA256)
		}
		out[SurfaceKey(s.Name, s.Version)] = extract(ctx, s, data)
	}
	return out, missing, nil
}
