package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Targets are the figures issue 4 sets for parsed packages.
var Targets = struct {
	NameRecall, NamePrecision, DescriptionEqual float64
}{0.95, 0.99, 0.98}

// Miss kinds listed by Evaluate.
const (
	MissNoSurface        = "no_surface"          // the extractor produced no row for a started server
	MissNotParsed        = "not_parsed"          // the row's outcome is not parsed
	MissMissingName      = "missing"             // listed at run time, not found statically
	MissExtraName        = "extra"               // found statically, not listed at run time (a lower bound: may be legitimate)
	MissDescriptionDiff  = "description_differs" // readable, but not byte-equal to the runtime text
	MissDescriptionState = "description_not_readable"
	MissInstructionsDiff = "instructions_differ"
)

// Miss is one disagreement between the extractor and a running server.
type Miss struct {
	Package string `json:"package"` // name@version
	Kind    string `json:"kind"`
	Surface string `json:"surface,omitempty"` // tool, prompt, resource, resource_template, instructions
	Name    string `json:"name,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

// NameCounts compares one kind's names on parsed packages.
type NameCounts struct {
	Truth   int `json:"truth"`
	Found   int `json:"found"`
	Matched int `json:"matched"`
}

// Recall is matched/truth; 1 when the truth is empty.
func (c NameCounts) Recall() float64 { return ratio(c.Matched, c.Truth) }

// Precision is matched/found; 1 when nothing was found.
func (c NameCounts) Precision() float64 { return ratio(c.Matched, c.Found) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Report is the corpus evaluation: over packages whose server started and
// listed its tools, how the extractor's rows compare with what ran.
type Report struct {
	// Started is the number of truths whose server started and whose
	// tools/list succeeded: the population every figure is over.
	Started     int            `json:"started"`
	WithSurface int            `json:"with_surface"`
	Parsed      int            `json:"parsed"`
	Outcomes    map[string]int `json:"outcomes"`
	// Names per surface kind, over parsed packages only.
	Names map[string]NameCounts `json:"names"`
	// Tool descriptions on parsed packages: matched tools whose extracted
	// description is readable, and how many of those are byte-equal.
	ReadableDescriptions int `json:"readable_descriptions"`
	EqualDescriptions    int `json:"equal_descriptions"`
	// Matched tools whose extracted description is not readable.
	NotReadableDescriptions int `json:"not_readable_descriptions"`
	// Parameter texts of matched tools on parsed packages (npmparams.go).
	Params NpmParamCounts `json:"params"`
	Misses []Miss         `json:"misses"`
}

// ParsedShare is parsed/started.
func (r Report) ParsedShare() float64 { return ratio(r.Parsed, r.Started) }

// DescriptionEqualShare is equal/readable over matched tools.
func (r Report) DescriptionEqualShare() float64 {
	return ratio(r.EqualDescriptions, r.ReadableDescriptions)
}

// SurfaceKey is the key Evaluate looks a truth's surface up by:
// "name@version", the corpus key. A map keyed by rundir's
// PackageRef.Key() ("npm:name@version") is accepted too.
func SurfaceKey(name, version string) string { return name + "@" + version }

// Evaluate compares extractor rows with the runtime truth. surfaces is keyed
// by SurfaceKey (or by rundir.PackageRef.Key()). Truths whose server did not
// start, or whose tools/list failed, are outside the population: they say
// nothing about what the server lists.
func Evaluate(truths []Truth, surfaces map[string]rundir.Surface) Report {
	r := Report{Outcomes: map[string]int{}, Names: map[string]NameCounts{}, Misses: []Miss{}}
	for _, k := range []string{vocab.EntryTool, vocab.EntryPrompt, vocab.EntryResource, vocab.EntryResourceTemplate} {
		r.Names[k] = NameCounts{}
	}
	sorted := append([]Truth(nil), truths...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key() < sorted[j].Key() })
	for _, t := range sorted {
		if !t.Started || t.Lists["tools/list"].Status != ListOK {
			continue
		}
		r.Started++
		key := t.Key()
		s, ok := surfaces[SurfaceKey(t.Name, t.Version)]
		if !ok {
			s, ok = surfaces[rundir.PackageRef{Registry: Registry, Name: t.Name, Version: t.Version}.Key()]
		}
		if !ok {
			r.Misses = append(r.Misses, Miss{Package: key, Kind: MissNoSurface})
			continue
		}
		r.WithSurface++
		r.Outcomes[s.Outcome]++
		if s.Outcome != vocab.OutcomeParsed {
			detail := s.Outcome
			if s.OutcomeDetail != "" {
				detail += ": " + s.OutcomeDetail
			}
			r.Misses = append(r.Misses, Miss{Package: key, Kind: MissNotParsed, Detail: detail})
			continue
		}
		r.Parsed++
		// Entries off by default are compared as the probe's configuration
		// lists them (configured.go).
		r.compareTools(key, t.Tools, listedAsProbed(t, s.Tools), s.ParameterDescriptions)
		r.compareNames(key, "prompt", promptNames(t.Prompts), entryNames(listedAsProbed(t, s.Prompts)))
		r.compareNames(key, "resource", resourceNames(t.Resources), entryNames(listedAsProbed(t, s.Resources)))
		r.compareNames(key, vocab.EntryResourceTemplate, resourceNames(t.Templates), entryNames(listedAsProbed(t, s.ResourceTemplates)))
		r.compareInstructions(key, t.Instructions, s.Instructions)
	}
	return r
}

func (r *Report) compareTools(pkg string, truth []ToolTruth, found, params []rundir.Entry) {
	byName := map[string]rundir.Entry{}
	for _, e := range found {
		if e.NameState != "" && e.NameState != vocab.StateReadable {
			continue // a name the extractor could not read matches nothing
		}
		if _, dup := byName[e.Name]; !dup {
			byName[e.Name] = e
		}
	}
	truthNames := make([]string, 0, len(truth))
	for _, tt := range truth {
		truthNames = append(truthNames, tt.Name)
	}
	r.compareNames(pkg, "tool", truthNames, slices.Sorted(maps.Keys(byName)))
	for _, tt := range truth {
		e, ok := byName[tt.Name]
		if !ok {
			continue
		}
		r.compareParams(pkg, tt.Name, tt.ParamDescriptions, params)
		if e.DescriptionState != vocab.StateReadable {
			// An absent description that is absent at run time too agrees.
			if e.DescriptionState == vocab.StateAbsent && tt.Description == "" {
				continue
			}
			r.NotReadableDescriptions++
			r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissDescriptionState, Surface: "tool", Name: tt.Name, Detail: e.DescriptionState})
			continue
		}
		r.ReadableDescriptions++
		if e.DescriptionRaw == tt.Description {
			r.EqualDescriptions++
			continue
		}
		r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissDescriptionDiff, Surface: "tool", Name: tt.Name, Detail: firstDifference(e.DescriptionRaw, tt.Description)})
	}
}

func (r *Report) compareNames(pkg, kind string, truth, found []string) {
	c := r.Names[kind]
	ts, fs := set(truth), set(found)
	c.Truth += len(ts)
	c.Found += len(fs)
	for _, n := range slices.Sorted(maps.Keys(ts)) {
		if fs[n] {
			c.Matched++
		} else {
			r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissMissingName, Surface: kind, Name: n})
		}
	}
	for _, n := range slices.Sorted(maps.Keys(fs)) {
		if !ts[n] {
			r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissExtraName, Surface: kind, Name: n})
		}
	}
	r.Names[kind] = c
}

func (r *Report) compareInstructions(pkg, truth string, found []rundir.Entry) {
	if truth == "" {
		return
	}
	for _, e := range found {
		if e.DescriptionState == vocab.StateReadable && e.DescriptionRaw == truth {
			return
		}
	}
	detail := "not found"
	for _, e := range found {
		if e.DescriptionState == vocab.StateReadable {
			detail = firstDifference(e.DescriptionRaw, truth)
			break
		}
		detail = e.DescriptionState
	}
	r.Misses = append(r.Misses, Miss{Package: pkg, Kind: MissInstructionsDiff, Surface: vocab.EntryInstructions, Detail: detail})
}

// firstDifference describes where two texts part, with a little context.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	clip := func(s string) string {
		end := i + 40
		if end > len(s) {
			end = len(s)
		}
		start := i - 20
		if start < 0 {
			start = 0
		}
		return fmt.Sprintf("%q", s[start:end])
	}
	return fmt.Sprintf("byte %d: extracted %s, runtime %s (lengths %d, %d)", i, clip(got), clip(want), len(got), len(want))
}

func promptNames(ps []PromptTruth) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func resourceNames(rs []ResourceTruth) []string {
	out := make([]string, 0, len(rs))
	for _, x := range rs {
		out = append(out, x.Name)
	}
	return out
}

func entryNames(es []rundir.Entry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		if e.NameState == "" || e.NameState == vocab.StateReadable {
			out = append(out, e.Name)
		}
	}
	return out
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Markdown renders the report: the figures beside their targets, then every
// miss grouped by package.
func (r Report) Markdown() string {
	var b strings.Builder
	pct := func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
	mark := func(f, target float64) string {
		if f >= target {
			return "met"
		}
		return "**not met**"
	}
	b.WriteString("# Corpus evaluation\n\n")
	fmt.Fprintf(&b, "Servers that started and listed their tools: %d; with an extractor row: %d; parsed: %d (%s).\n\n", r.Started, r.WithSurface, r.Parsed, pct(r.ParsedShare()))
	if len(r.Outcomes) > 0 {
		b.WriteString("| outcome | packages |\n| --- | ---: |\n")
		for _, k := range slices.Sorted(maps.Keys(r.Outcomes)) {
			fmt.Fprintf(&b, "| %s | %d |\n", k, r.Outcomes[k])
		}
		b.WriteString("\n")
	}
	t := r.Names["tool"]
	b.WriteString("## On parsed packages\n\n| figure | value | target | |\n| --- | ---: | ---: | --- |\n")
	fmt.Fprintf(&b, "| tool-name recall | %s (%d/%d) | %s | %s |\n", pct(t.Recall()), t.Matched, t.Truth, pct(Targets.NameRecall), mark(t.Recall(), Targets.NameRecall))
	fmt.Fprintf(&b, "| tool-name precision | %s (%d/%d) | %s | %s |\n", pct(t.Precision()), t.Matched, t.Found, pct(Targets.NamePrecision), mark(t.Precision(), Targets.NamePrecision))
	fmt.Fprintf(&b, "| readable descriptions byte-equal | %s (%d/%d) | %s | %s |\n", pct(r.DescriptionEqualShare()), r.EqualDescriptions, r.ReadableDescriptions, pct(Targets.DescriptionEqual), mark(r.DescriptionEqualShare(), Targets.DescriptionEqual))
	fmt.Fprintf(&b, "| matched tools with a description not readable | %d | | |\n", r.NotReadableDescriptions)
	pc := r.Params
	fmt.Fprintf(&b, "| parameter texts of %d matched tools: equal / sent by the server only / read by the extractor only | %d / %d / %d | | |\n", pc.Tools, pc.Equal, pc.TruthOnly, pc.ExtractorOnly)
	fmt.Fprintf(&b, "| matched tools with a parameter text not read (not compared; the server's texts of them) | %d (%d) | | |\n", pc.ToolsNotRead, pc.TruthNotRead)
	for _, k := range []string{vocab.EntryPrompt, vocab.EntryResource, vocab.EntryResourceTemplate} {
		c := r.Names[k]
		fmt.Fprintf(&b, "| %s-name recall / precision | %s / %s (%d/%d, %d/%d) | | |\n", k, pct(c.Recall()), pct(c.Precision()), c.Matched, c.Truth, c.Matched, c.Found)
	}
	b.WriteString("\nThe runtime lists are lower bounds (most servers ran unconfigured, and a configured server may list more; a truth file's `args`, `extra_env` and `extra_client_capabilities` say how its server ran), so an `extra` name is not proof of a false positive.\n\n")
	b.WriteString("Parameter texts are compared per matched tool as multisets, by text (the server's `parameter_descriptions`, found by walking its input schema, against the extractor's `parameter_description` entries of the tool): the truth addresses a text by JSON pointer and the extractor by parameter path, so a text both list is equal wherever each puts it. A tool with a parameter text the extractor recorded unreadable or partial is not compared. A text read by the extractor only may be on a branch the unconfigured server does not take; a text sent by the server only, on a tool the extractor read whole, is a reading the extractor missed.\n\n")
	fmt.Fprintf(&b, "## Misses (%d)\n\n", len(r.Misses))
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

// LoadSurfaces reads extractor rows for Evaluate: a JSON array of surface
// rows, or one row per line (what `attestari surface --json` prints for each
// artifact, concatenated). Rows are keyed by SurfaceKey of their package.
// When l is given, a row whose artifact_sha256 is a listed tarball's is
// keyed by that package instead, since a row read from a bare .tgz path
// names the file, not the package. A row that names no version and matches
// no listed tarball is an error: it could match nothing.
func LoadSurfaces(path string, l *List) (map[string]rundir.Surface, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus.LoadSurfaces %s: %w", path, err)
	}
	var rows []rundir.Surface
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &rows); err != nil {
			return nil, fmt.Errorf("corpus.LoadSurfaces %s: %w", path, err)
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(b))
		for {
			var s rundir.Surface
			if err := dec.Decode(&s); err == io.EOF {
				break
			} else if err != nil {
				return nil, fmt.Errorf("corpus.LoadSurfaces %s: row %d: %w", path, len(rows)+1, err)
			}
			rows = append(rows, s)
		}
	}
	bySHA := map[string]Package{}
	if l != nil {
		for _, p := range l.Packages {
			bySHA[p.TarballSHA256] = p
		}
	}
	out := make(map[string]rundir.Surface, len(rows))
	for i, s := range rows {
		if p, ok := bySHA[s.ArtifactSHA256]; ok {
			s.Package = rundir.PackageRef{Registry: Registry, Name: p.Name, Version: p.Version}
		}
		if s.Package.Name == "" || s.Package.Version == "" {
			return nil, fmt.Errorf("corpus.LoadSurfaces %s: row %d: %w: no package name or version", path, i+1, ErrInvalidList)
		}
		out[SurfaceKey(s.Package.Name, s.Package.Version)] = s
	}
	return out, nil
}
