package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/vocab"
)

// CandidatesSchema is the value of a candidates file's "schema" member. A
// change to the shape below that an older reader would misread changes it.
const CandidatesSchema = "attestari.candidates/v1"

// Registries a candidate may name.
const (
	RegistryNPM  = vocab.RegistryNPM
	RegistryPyPI = vocab.RegistryPyPI
)

// Exclusion reasons (docs/candidates.md), declared in internal/vocab.
// They are codes, not prose, so a report can count what selection passed
// over and why.
const (
	ExcludedBelowCut            = vocab.ExcludedBelowCut
	ExcludedDuplicateOfScoped   = vocab.ExcludedDuplicateOfScoped
	ExcludedNoDownloadFigure    = vocab.ExcludedNoDownloadFigure
	ExcludedConflictOfInterest  = vocab.ExcludedConflictOfInterest
	ExcludedNotFoundAtRegistry  = vocab.ExcludedNotFoundAtRegistry
	ExcludedDuplicateCandidate  = vocab.ExcludedDuplicateCandidate
	ExcludedUnsupportedRegistry = vocab.ExcludedUnsupportedRegistry
)

var exclusionReasons = vocab.ExclusionReasons

// Candidates is a candidates file: the selection record of methodology §4
// (how the list was drawn), the selected packages and the packages that
// surfaced and were not selected, each with its reason.
type Candidates struct {
	Schema     string      `json:"schema"`
	Selection  Selection   `json:"selection"`
	Candidates []Candidate `json:"candidates"`
	Excluded   []Exclusion `json:"excluded"`
}

// Selection records how the candidate list was drawn, so that anyone can
// draw it again against the same sources.
type Selection struct {
	// Queries are the exact search queries run, per registry.
	Queries []Query `json:"queries"`
	// RankingRule states how surfaced packages were ordered and cut.
	RankingRule string `json:"ranking_rule"`
	// PageSize is the page size every search request used.
	PageSize int `json:"page_size"`
	// Window is the download-count window the ranking used; null when no
	// candidate carries a download figure.
	Window *Window `json:"window"`
	// FetchedAt is the time of every fetch selection made.
	FetchedAt []Fetch `json:"fetched_at"`
	// Datasets are the snapshot identifiers of any dataset consulted.
	Datasets []Dataset `json:"datasets"`
}

// Query is one search query against one registry.
type Query struct {
	Registry string `json:"registry"`
	Text     string `json:"text"`
}

// Window is an inclusive range of calendar days (YYYY-MM-DD, UTC).
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Fetch is one request selection made and when.
type Fetch struct {
	Source string    `json:"source"`
	At     time.Time `json:"at"`
}

// Dataset names a dataset snapshot selection consulted.
type Dataset struct {
	Name     string `json:"name"`
	Snapshot string `json:"snapshot"`
}

// Candidate is one selected package: an exact version, or a range the run
// resolves at the registry when it examines the package.
type Candidate struct {
	Registry  string `json:"registry"`
	Name      string `json:"name"`
	Version   string `json:"version,omitempty"`
	Range     string `json:"range,omitempty"`
	Rank      int    `json:"rank"`
	Downloads *int64 `json:"downloads"`
}

// Spec is what the run resolves: the exact version, or the range.
func (c Candidate) Spec() string {
	if c.Version != "" {
		return c.Version
	}
	return c.Range
}

// identity is the candidate's stable identity inside a run, independent of
// what the range resolves to: the per-package file is named after it, so a
// resumed run finds the packages it already finished.
func (c Candidate) identity() string {
	kind := "version"
	if c.Version == "" {
		kind = "range"
	}
	return c.Registry + "\x00" + c.Name + "\x00" + kind + "\x00" + c.Spec()
}

// Exclusion is a package that surfaced during selection and was not selected.
type Exclusion struct {
	Registry string `json:"registry"`
	Name     string `json:"name"`
	Reason   string `json:"reason"`
	Detail   string `json:"detail,omitempty"`
}

// Problem is one thing wrong with a candidates file: where (a JSON path such
// as candidates[3].version), what, and what to do about it.
type Problem struct {
	Where string
	What  string
	Fix   string
}

func (p Problem) String() string {
	s := p.Where + ": " + p.What
	if p.Fix != "" {
		s += " (" + p.Fix + ")"
	}
	return s
}

// CandidatesError lists every problem found in a candidates file. Parsing
// reports all of them at once so an operator fixes the file in one pass.
type CandidatesError struct {
	File     string
	Problems []Problem
}

// ErrCandidates is matched (errors.Is) by every *CandidatesError.
var ErrCandidates = errors.New("invalid candidates file")

func (e *CandidatesError) Error() string {
	var b strings.Builder
	name := e.File
	if name == "" {
		name = "candidates file"
	}
	fmt.Fprintf(&b, "%s: %d problem(s):", name, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}

// Is makes every CandidatesError match ErrCandidates.
func (e *CandidatesError) Is(target error) bool { return target == ErrCandidates }

// maxCandidatesBytes bounds a candidates file; tens of thousands of entries
// fit well inside it.
const maxCandidatesBytes = 64 << 20

// LoadCandidates reads and strictly parses the candidates file at path,
// returning it with the SHA-256 of its bytes.
func LoadCandidates(path string) (*Candidates, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("pipeline.LoadCandidates: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxCandidatesBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("pipeline.LoadCandidates(%s): %w", path, err)
	}
	if len(b) > maxCandidatesBytes {
		return nil, "", &CandidatesError{File: path, Problems: []Problem{{Where: "$", What: fmt.Sprintf("file is larger than %d bytes", maxCandidatesBytes), Fix: "split the selection into several runs"}}}
	}
	c, err := ParseCandidates(b)
	if err != nil {
		var ce *CandidatesError
		if errors.As(err, &ce) {
			ce.File = path
		}
		return nil, "", err
	}
	return c, vocab.SHA256Hex(b), nil
}

// ParseCandidates parses a candidates file strictly: unknown members,
// duplicate members, wrong types, missing required members, invalid names
// and versions, duplicate candidates and contradictory entries are all
// refused, each as a Problem naming the entry and the field. The error is a
// *CandidatesError.
func ParseCandidates(data []byte) (*Candidates, error) {
	p := &parser{}
	out := p.parse(data)
	if len(p.problems) > 0 {
		return nil, &CandidatesError{Problems: p.problems}
	}
	return out, nil
}

type parser struct {
	problems []Problem
}

func (p *parser) add(where, fix, format string, args ...any) {
	p.problems = append(p.problems, Problem{Where: where, What: fmt.Sprintf(format, args...), Fix: fix})
}

// object decodes raw as a JSON object, checking that every member is one of
// known and that every member of required is present. It returns the
// members, or nil when raw is not an object.
func (p *parser) object(where string, raw json.RawMessage, known, required []string) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || isNull(raw) {
		p.add(where, "see docs/candidates.md for the shape", "is missing or null; want an object")
		return nil
	}
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		p.add(where, "see docs/candidates.md for the shape", "is %s; want an object", jsonKind(raw))
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !contains(known, k) {
			p.add(join(where, k), "remove it, or fix its spelling; allowed members: "+strings.Join(known, ", "), "unknown member")
		}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			p.add(join(where, k), "add it; see docs/candidates.md", "required member is missing")
		}
	}
	return m
}

func (p *parser) array(where string, raw json.RawMessage, required bool) []json.RawMessage {
	if raw == nil {
		return nil // reported as missing by object()
	}
	if isNull(raw) {
		if required {
			p.add(where, "write [] for an empty list", "is null; want an array")
		}
		return nil
	}
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil {
		p.add(where, "write a JSON array", "is %s; want an array", jsonKind(raw))
		return nil
	}
	return a
}

func (p *parser) str(where string, raw json.RawMessage, required bool) string {
	if raw == nil {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.add(where, "write a JSON string", "is %s; want a string", jsonKind(raw))
		return ""
	}
	if required && strings.TrimSpace(s) == "" {
		p.add(where, "give a non-empty value", "is empty")
	}
	return s
}

// integer reads a JSON number that must be a whole number within int64.
func (p *parser) integer(where string, raw json.RawMessage) (int64, bool) {
	if raw == nil {
		return 0, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		p.add(where, "write a whole number", "is not valid JSON")
		return 0, false
	}
	n, ok := v.(json.Number)
	if !ok {
		p.add(where, "write a whole number", "is %s; want a number", jsonKind(raw))
		return 0, false
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		p.add(where, "write a whole number without a fraction or exponent", "is %s; want a whole number", n.String())
		return 0, false
	}
	return i, true
}

func (p *parser) registryName(where string, raw json.RawMessage) string {
	r := p.str(where, raw, true)
	if r != "" && r != RegistryNPM && r != RegistryPyPI {
		p.add(where, `use "npm" or "pypi"`, "unknown registry %q", r)
		return ""
	}
	return r
}

func (p *parser) parse(data []byte) *Candidates {
	if err := checkDuplicateKeys(data); err != nil {
		var dk *duplicateKeyError
		if errors.As(err, &dk) {
			p.add(dk.path, "keep one of them", "member appears more than once")
		} else {
			p.add("$", "the file must be one JSON object", "not valid JSON: %v", err)
		}
		return nil
	}
	top := p.object("$", data, []string{"schema", "selection", "candidates", "excluded"},
		[]string{"schema", "selection", "candidates", "excluded"})
	if top == nil {
		return nil
	}
	out := &Candidates{}
	out.Schema = p.str("schema", top["schema"], true)
	if top["schema"] != nil && out.Schema != "" && out.Schema != CandidatesSchema {
		p.add("schema", `write "`+CandidatesSchema+`"; a file of another schema version needs the attestari that reads it`,
			"is %q; this attestari reads %q", out.Schema, CandidatesSchema)
	}

	// Candidates first: what the selection record must hold depends on them.
	seen := map[string]string{} // registry:name and registry:name@version -> where
	ranged := map[string]bool{} // registry:name -> listed by range
	ranks := map[string]string{}
	anyDownloads, pypiDownloads := false, false
	cands := p.array("candidates", top["candidates"], true)
	if isEmptyArray(top["candidates"]) {
		p.add("candidates", "list at least one package to examine", "is empty")
	}
	for i, raw := range cands {
		where := entryWhere("candidates", i, raw)
		m := p.object(where, raw, []string{"registry", "name", "version", "range", "rank", "downloads"},
			[]string{"registry", "name", "rank"})
		if m == nil {
			continue
		}
		c := Candidate{}
		c.Registry = p.registryName(where+".registry", m["registry"])
		c.Name = p.str(where+".name", m["name"], true)
		if _, ok := m["version"]; ok {
			c.Version = p.str(where+".version", m["version"], true)
		}
		if _, ok := m["range"]; ok {
			c.Range = p.str(where+".range", m["range"], true)
		}
		_, hasV := m["version"]
		_, hasR := m["range"]
		switch {
		case hasV && hasR:
			p.add(where, `keep "version" for an exact version or "range" for a specifier the run resolves, not both`, "has both version and range")
		case !hasV && !hasR:
			p.add(where, `add "version" (an exact version) or "range" (a specifier the run resolves)`, "has neither version nor range")
		}
		if rank, ok := p.integer(where+".rank", m["rank"]); ok {
			if rank < 1 || rank > 1<<31-1 {
				p.add(where+".rank", "ranks start at 1", "is %d", rank)
			} else {
				c.Rank = int(rank)
			}
		}
		if raw, ok := m["downloads"]; ok && !isNull(raw) {
			if n, ok := p.integer(where+".downloads", raw); ok {
				if n < 0 {
					p.add(where+".downloads", "write the download count, or null when there is no figure", "is negative")
				} else {
					c.Downloads = &n
					anyDownloads = true
					if c.Registry == RegistryPyPI {
						pypiDownloads = true
					}
				}
			}
		}
		p.validateCandidate(where, &c)
		if c.Registry != "" && c.Name != "" && (c.Version != "") != (c.Range != "") {
			// A package may be listed more than once only at distinct exact
			// versions: a range could resolve to a version another entry
			// names, and one subject must be examined once.
			k := c.Registry + ":" + normalizedName(c.Registry, c.Name)
			kv := k + "@" + c.Version
			prev, dup := seen[k]
			switch {
			case dup && (c.Range != "" || ranged[k]):
				p.add(where, "a package listed by range must be listed once; drop one entry, or list exact versions only",
					"is the same package as %s", prev)
			case seen[kv] != "":
				p.add(where, "list each version once; drop one entry or record it under excluded with reason "+ExcludedDuplicateCandidate,
					"is the same package and version as %s", seen[kv])
			default:
				if !dup {
					seen[k] = where
				}
				seen[kv] = where
				ranged[k] = ranged[k] || c.Range != ""
			}
		}
		if c.Registry != "" && c.Rank > 0 {
			k := c.Registry + ":" + strconv.Itoa(c.Rank)
			if prev, dup := ranks[k]; dup {
				p.add(where+".rank", "ranks are unique within a registry", "rank %d is also held by %s", c.Rank, prev)
			} else {
				ranks[k] = where
			}
		}
		out.Candidates = append(out.Candidates, c)
	}

	// Exclusions.
	for i, raw := range p.array("excluded", top["excluded"], true) {
		where := entryWhere("excluded", i, raw)
		m := p.object(where, raw, []string{"registry", "name", "reason", "detail"}, []string{"registry", "name", "reason"})
		if m == nil {
			continue
		}
		e := Exclusion{}
		e.Registry = p.registryName(where+".registry", m["registry"])
		e.Name = p.str(where+".name", m["name"], true)
		e.Reason = p.str(where+".reason", m["reason"], true)
		if e.Reason != "" && !contains(exclusionReasons, e.Reason) {
			p.add(where+".reason", "use one of: "+strings.Join(exclusionReasons, ", ")+"; put prose in detail", "unknown reason %q", e.Reason)
		}
		e.Detail = p.str(where+".detail", m["detail"], false)
		if e.Registry != "" && e.Name != "" {
			if prev, both := seen[e.Registry+":"+normalizedName(e.Registry, e.Name)]; both {
				p.add(where, "a package is either selected or excluded; remove one of the two entries",
					"is also selected, as %s", prev)
			}
		}
		out.Excluded = append(out.Excluded, e)
	}

	// The selection record.
	sel := p.object("selection", top["selection"],
		[]string{"queries", "ranking_rule", "page_size", "window", "fetched_at", "datasets"},
		[]string{"queries", "ranking_rule", "page_size", "window", "fetched_at", "datasets"})
	if sel != nil {
		s := &out.Selection
		for i, raw := range p.array("selection.queries", sel["queries"], true) {
			where := fmt.Sprintf("selection.queries[%d]", i)
			m := p.object(where, raw, []string{"registry", "text"}, []string{"registry", "text"})
			if m == nil {
				continue
			}
			s.Queries = append(s.Queries, Query{
				Registry: p.registryName(where+".registry", m["registry"]),
				Text:     p.str(where+".text", m["text"], true),
			})
		}
		s.RankingRule = p.str("selection.ranking_rule", sel["ranking_rule"], true)
		if n, ok := p.integer("selection.page_size", sel["page_size"]); ok {
			switch {
			case n < 0 || n > 1<<31-1:
				p.add("selection.page_size", "write the page size the searches used", "is %d", n)
			case n == 0 && len(s.Queries) > 0:
				p.add("selection.page_size", "write the page size the searches used", "is 0 but queries were run")
			default:
				s.PageSize = int(n)
			}
		}
		if raw := sel["window"]; raw != nil && !isNull(raw) {
			m := p.object("selection.window", raw, []string{"from", "to"}, []string{"from", "to"})
			if m != nil {
				w := &Window{From: p.str("selection.window.from", m["from"], true), To: p.str("selection.window.to", m["to"], true)}
				from, errF := time.Parse(time.DateOnly, w.From)
				to, errT := time.Parse(time.DateOnly, w.To)
				if w.From != "" && errF != nil {
					p.add("selection.window.from", "write a date as YYYY-MM-DD", "%q is not a date", w.From)
				}
				if w.To != "" && errT != nil {
					p.add("selection.window.to", "write a date as YYYY-MM-DD", "%q is not a date", w.To)
				}
				if errF == nil && errT == nil && to.Before(from) {
					p.add("selection.window", "from is the first day, to the last", "ends before it starts")
				}
				s.Window = w
			}
		} else if sel["window"] != nil && anyDownloads {
			p.add("selection.window", "state the window the download counts cover, as {\"from\": \"YYYY-MM-DD\", \"to\": \"YYYY-MM-DD\"}",
				"is null but candidates carry download counts")
		}
		for i, raw := range p.array("selection.fetched_at", sel["fetched_at"], true) {
			where := fmt.Sprintf("selection.fetched_at[%d]", i)
			m := p.object(where, raw, []string{"source", "at"}, []string{"source", "at"})
			if m == nil {
				continue
			}
			f := Fetch{Source: p.str(where+".source", m["source"], true)}
			at := p.str(where+".at", m["at"], true)
			if at != "" {
				t, err := time.Parse(time.RFC3339Nano, at)
				if err != nil {
					p.add(where+".at", "write an RFC 3339 timestamp such as 2026-11-30T12:00:00Z", "%q is not a timestamp", at)
				}
				f.At = t.UTC()
			}
			s.FetchedAt = append(s.FetchedAt, f)
		}
		if len(s.Queries) > 0 && isEmptyArray(sel["fetched_at"]) {
			p.add("selection.fetched_at", "record the time of every search and download-count request", "is empty but queries were run")
		}
		for i, raw := range p.array("selection.datasets", sel["datasets"], true) {
			where := fmt.Sprintf("selection.datasets[%d]", i)
			m := p.object(where, raw, []string{"name", "snapshot"}, []string{"name", "snapshot"})
			if m == nil {
				continue
			}
			s.Datasets = append(s.Datasets, Dataset{
				Name:     p.str(where+".name", m["name"], true),
				Snapshot: p.str(where+".snapshot", m["snapshot"], true),
			})
		}
		if pypiDownloads && isEmptyArray(sel["datasets"]) {
			p.add("selection.datasets", "name the download-statistics dataset and its snapshot id",
				"is empty but PyPI candidates carry download counts, which come from a dataset")
		}
	}
	return out
}

// isEmptyArray reports whether raw is exactly an empty JSON array.
func isEmptyArray(raw json.RawMessage) bool {
	var a []json.RawMessage
	return raw != nil && !isNull(raw) && json.Unmarshal(raw, &a) == nil && len(a) == 0
}

// validateCandidate checks the name and the version or range against the
// registry's own rules, so a bad entry is refused before any request.
func (p *parser) validateCandidate(where string, c *Candidate) {
	switch c.Registry {
	case RegistryNPM:
		if c.Name != "" {
			if _, err := registry.EscapeNPMName(c.Name); err != nil {
				p.add(where+".name", "write the package name exactly as the registry lists it", "is not a valid npm package name")
			}
		}
		if c.Version != "" {
			if _, err := semver.StrictNewVersion(c.Version); err != nil {
				p.add(where+".version", `write an exact version such as "1.2.3", or use "range" for a specifier`, "%q is not an exact npm version", c.Version)
			}
		}
		if c.Range != "" && strings.TrimSpace(c.Range) != c.Range {
			p.add(where+".range", "remove the surrounding spaces", "has leading or trailing whitespace")
		}
	case RegistryPyPI:
		if c.Name != "" && !registry.ValidPyPIName(c.Name) {
			p.add(where+".name", "write the project name as the index lists it", "is not a valid PyPI project name")
		}
		if c.Version != "" {
			if _, err := registry.ParsePEP440(c.Version); err != nil || strings.ContainsAny(c.Version, "<>=!~*, ") {
				p.add(where+".version", `write an exact version such as "1.2.3", or use "range" for a specifier`, "%q is not an exact PEP 440 version", c.Version)
			}
		}
		if c.Range != "" {
			if _, err := registry.ParsePEP440Specifier(c.Range); err != nil {
				p.add(where+".range", `write a PEP 440 specifier such as ">=1.2,<2"`, "%q is not a PEP 440 specifier", c.Range)
			}
		}
	}
}

// normalizedName is the name under which two spellings are one package:
// PEP 503 for PyPI; npm names are compared as written.
func normalizedName(reg, name string) string {
	if reg == RegistryPyPI {
		return registry.NormalizePyPIName(name)
	}
	return name
}

// entryWhere names the i-th entry of a list, with its package name when it
// has one, so a problem in a long file can be found by name.
func entryWhere(list string, i int, raw json.RawMessage) string {
	var peek struct {
		Name any `json:"name"`
	}
	if json.Unmarshal(raw, &peek) == nil {
		if n, ok := peek.Name.(string); ok && n != "" {
			return fmt.Sprintf("%s[%d] (%s)", list, i, n)
		}
	}
	return fmt.Sprintf("%s[%d]", list, i)
}

func join(where, key string) string {
	if where == "$" {
		return key
	}
	return where + "." + key
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "empty"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// maxCandidatesDepth bounds how deep checkDuplicateKeys walks.
const maxCandidatesDepth = 32

// duplicateKeyError names the first object member that appears twice.
type duplicateKeyError struct{ path string }

func (e *duplicateKeyError) Error() string { return "duplicate member " + e.path }

// checkDuplicateKeys walks the JSON tokens and refuses an object with a
// repeated member: encoding/json would silently keep the last one, and a
// selection record that says two things must not be read as saying one.
// It also refuses trailing data after the top-level value, and a value
// nested deeper than maxCandidatesDepth (the file's shape nests five
// levels), so the walk's recursion is bounded by this code, not by the
// decoder's own limit.
func checkDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
		if depth > maxCandidatesDepth {
			return fmt.Errorf("%s nests deeper than %d levels; a candidates file nests five", path, maxCandidatesDepth)
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return nil
		}
		switch d {
		case '{':
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				child := join(path, k)
				if seen[k] {
					return &duplicateKeyError{path: child}
				}
				seen[k] = true
				if err := walk(child, depth+1); err != nil {
					return err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
					return err
				}
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err
	}
	if err := walk("$", 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the top-level value")
	}
	return nil
}
