package corpus

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// ExtractFunc reads the surface of one fetched tarball. The command that
// runs the evaluation wires the extractor in, so this package never imports
// what it judges.
type ExtractFunc func(ctx context.Context, p Package, tarball []byte) rundir.Surface

// ErrTarballMismatch reports a fetched tarball whose bytes are not the ones
// the list pins: it is never evaluated.
var ErrTarballMismatch = errors.New("corpus tarball does not match the pinned SHA-256")

// TarballPath is where scripts/corpus-fetch.sh stores a package's tarball
// under dir: one flat file per version, "@scope/x" at 1.0.0 written
// "scope__x@1.0.0.tgz".
func TarballPath(dir string, p Package) string {
	return filepath.Join(dir, strings.TrimSuffix(TruthFileName(p.Name, p.Version), ".json")+".tgz")
}

// Extracted is what one package's extraction cost, beside its row.
type Extracted struct {
	Key          string `json:"key"`
	Outcome      string `json:"outcome"`
	TarballBytes int64  `json:"tarball_bytes"`
	SourceBytes  int64  `json:"source_bytes"` // bytes of the members the extractor parsed
	WallMs       int64  `json:"wall_ms"`      // the row's own budget figure
	RSSBytes     int64  `json:"rss_bytes"`
	// CPUMs is the row's CPU time, when the time part of its budget was
	// CPU time (methodology §5.2 since 2.3.11).
	CPUMs int64 `json:"cpu_ms,omitempty"`
}

// ExtractAll reads every listed package whose tarball is in dir, parallel at
// a time, after checking the tarball against the pinned SHA-256. It returns
// the rows keyed by SurfaceKey, what each cost, and the keys of packages
// whose tarball is not in dir. A tarball with the wrong digest is an error:
// evaluating other bytes than the truth was captured from would measure
// nothing.
func ExtractAll(ctx context.Context, l *List, dir string, extract ExtractFunc, parallel int) (map[string]rundir.Surface, []Extracted, []string, error) {
	if parallel < 1 {
		parallel = 1
	}
	surfaces := map[string]rundir.Surface{}
	var costs []Extracted
	var missing []string
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for _, p := range l.Packages {
		path := TarballPath(dir, p)
		if _, err := os.Stat(path); err != nil {
			missing = append(missing, p.Key())
			continue
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			data, err := os.ReadFile(path)
			if err == nil {
				if got := vocab.SHA256Hex(data); got != p.TarballSHA256 {
					err = fmt.Errorf("%w: %s: %s has %s, the list pins %s", ErrTarballMismatch, p.Key(), path, got, p.TarballSHA256)
				}
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("corpus.ExtractAll: %w", err)
				}
				mu.Unlock()
				return
			}
			s := extract(ctx, p, data)
			var src int64
			for _, f := range s.Files {
				src += f.Size
			}
			mu.Lock()
			surfaces[p.Key()] = s
			costs = append(costs, Extracted{Key: p.Key(), Outcome: s.Outcome, TarballBytes: int64(len(data)), SourceBytes: src,
				WallMs: s.Budget.WallMs, RSSBytes: s.Budget.RSSBytes, CPUMs: s.Budget.CPUMs})
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Slice(costs, func(i, j int) bool { return costs[i].Key < costs[j].Key })
	if firstErr == nil && ctx.Err() != nil {
		firstErr = fmt.Errorf("corpus.ExtractAll: %w", ctx.Err())
	}
	return surfaces, costs, missing, firstErr
}

// AdvertisedFigures measures the advertised-tools rule (methodology §5.2)
// against the runtime truth, over servers that started and listed tools.
// Every advertised name that is not a parsed tool refuses the package; the
// refusal is justified when the running server lists that name (the
// extractor missed a real tool) and false when it does not (the rule read a
// name that is no tool). The runtime list is a lower bound, so a "false"
// name may still be a tool the server lists once configured: each is listed
// for reading.
type AdvertisedFigures struct {
	Packages           int `json:"packages"`              // started packages with at least one advertised name
	Names              int `json:"names"`                 // advertised names over those packages
	ListedAtRuntime    int `json:"listed_at_runtime"`     // advertised names the running server listed
	Refused            int `json:"refused"`               // packages with an advertised name not parsed
	RefusedOnlyByFalse int `json:"refused_only_by_false"` // ... every such name absent from the runtime list
	// The same two counts over packages whose outcome is parsed: there the
	// advertised-tools rule is what decides whether the gate refuses.
	ParsedRefused            int            `json:"parsed_refused"`
	ParsedRefusedOnlyByFalse int            `json:"parsed_refused_only_by_false"`
	FalseNames               []Miss         `json:"false_names"`           // advertised, not parsed, not listed at run time
	UnparsedListedNames      []Miss         `json:"unparsed_listed_names"` // advertised, listed at run time, not parsed
	BySource                 map[string]int `json:"by_source"`             // advertised names per source file kind
}

// EvaluateAdvertised computes AdvertisedFigures.
func EvaluateAdvertised(truths []Truth, surfaces map[string]rundir.Surface) AdvertisedFigures {
	a := AdvertisedFigures{FalseNames: []Miss{}, UnparsedListedNames: []Miss{}, BySource: map[string]int{}}
	for _, t := range truths {
		if !t.Started || t.Lists["tools/list"].Status != ListOK {
			continue
		}
		s, ok := surfaces[SurfaceKey(t.Name, t.Version)]
		if !ok || len(s.AdvertisedTools) == 0 {
			continue
		}
		runtime := map[string]bool{}
		for _, tt := range t.Tools {
			runtime[tt.Name] = true
		}
		parsed := map[string]bool{}
		for _, e := range s.Tools {
			if e.NameState == "" || e.NameState == vocab.StateReadable {
				parsed[e.Name] = true
			}
		}
		a.Packages++
		refused, onlyFalse := false, true
		seen := map[string]bool{}
		for _, ad := range s.AdvertisedTools {
			if seen[ad.Name] {
				continue
			}
			seen[ad.Name] = true
			a.Names++
			src := ad.Source
			if strings.HasPrefix(strings.ToLower(filepath.Base(src)), "readme") {
				src = "README"
			}
			a.BySource[src]++
			if runtime[ad.Name] {
				a.ListedAtRuntime++
			}
			if parsed[ad.Name] {
				continue
			}
			if ad.Stale {
				// A stale advertisement refuses nothing (methodology §5.2);
				// StaleFigures checks it against the runtime list.
				continue
			}
			refused = true
			where := ad.Source
			if ad.Line > 0 {
				where = fmt.Sprintf("%s:%d", ad.Source, ad.Line)
			}
			m := Miss{Package: t.Key(), Kind: "advertised_not_parsed", Surface: "tool", Name: ad.Name, Detail: where}
			if runtime[ad.Name] {
				onlyFalse = false
				a.UnparsedListedNames = append(a.UnparsedListedNames, m)
			} else {
				a.FalseNames = append(a.FalseNames, m)
			}
		}
		if refused {
			a.Refused++
			if onlyFalse {
				a.RefusedOnlyByFalse++
			}
			if s.Outcome == vocab.OutcomeParsed {
				a.ParsedRefused++
				if onlyFalse {
					a.ParsedRefusedOnlyByFalse++
				}
			}
		}
	}
	return a
}

// EvalHeader says how a report was produced.
type EvalHeader struct {
	Command          string
	Date             time.Time
	ExtractorVersion string
	Listed           int      // packages in the list
	Extracted        int      // tarballs present and read
	Missing          []string // listed, no tarball
	Truths           int      // truth files read
	// StaleReach, when set, adds the stale-advertisement and reachability
	// checks against the runtime lists (EvaluateStaleAndReach).
	StaleReach *StaleReachFigures
}

// EvalMarkdown renders the whole corpus evaluation: how it was produced,
// the outcome of every listed package (started or not), Evaluate's figures
// and misses, the advertised-tools figures and the extraction costs.
func EvalMarkdown(h EvalHeader, r Report, adv AdvertisedFigures, surfaces map[string]rundir.Surface, costs []Extracted) string {
	var b strings.Builder
	b.WriteString("<!-- Generated by `" + h.Command + "`; do not edit by hand. -->\n\n")
	body := r.Markdown()
	body = strings.TrimPrefix(body, "# Corpus evaluation\n\n")
	b.WriteString("# Extractor against the runtime truth\n\n")
	fmt.Fprintf(&b, "Produced by `%s` on %s with extractor `%s`: %d packages listed, %d tarballs read (SHA-256 checked against the list), %d truth files.\n\n",
		h.Command, h.Date.UTC().Format("2006-01-02"), h.ExtractorVersion, h.Listed, h.Extracted, h.Truths)
	if len(h.Missing) > 0 {
		fmt.Fprintf(&b, "Not fetched, so not evaluated: %s.\n\n", strings.Join(h.Missing, ", "))
	}
	all := map[string]int{}
	for _, s := range surfaces {
		all[s.Outcome]++
	}
	b.WriteString("Outcomes over every extracted package, started or not:\n\n| outcome | packages |\n| --- | ---: |\n")
	for _, k := range slices.Sorted(maps.Keys(all)) {
		fmt.Fprintf(&b, "| %s | %d |\n", k, all[k])
	}
	b.WriteString("\n## Over servers that started\n\n")
	b.WriteString(demoteHeadings(body))
	b.WriteString("\n## Advertised tools against the runtime lists\n\n")
	if h.StaleReach != nil {
		b.WriteString(h.StaleReach.Markdown())
	}
	fmt.Fprintf(&b, "Started packages with advertised names: %d; names: %d (", adv.Packages, adv.Names)
	srcs := slices.Sorted(maps.Keys(adv.BySource))
	for i, k := range srcs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", k, adv.BySource[k])
	}
	fmt.Fprintf(&b, "); listed by the running server: %d.\n", adv.ListedAtRuntime)
	fmt.Fprintf(&b, "Packages the rule refuses (an advertised name that is not a parsed tool): %d, of which %d only on names the running server does not list. ", adv.Refused, adv.RefusedOnlyByFalse)
	fmt.Fprintf(&b, "Among packages whose outcome is parsed, where the rule decides: %d refused, %d of them only on names the running server does not list.\n\n", adv.ParsedRefused, adv.ParsedRefusedOnlyByFalse)
	byPkg := map[string][2][]string{}
	for _, m := range adv.UnparsedListedNames {
		e := byPkg[m.Package]
		e[0] = append(e[0], m.Name)
		byPkg[m.Package] = e
	}
	for _, m := range adv.FalseNames {
		e := byPkg[m.Package]
		e[1] = append(e[1], m.Name+" ("+m.Detail+")")
		byPkg[m.Package] = e
	}
	if len(byPkg) > 0 {
		b.WriteString("| package | outcome | advertised, not parsed, listed at run time | advertised, not parsed, not listed at run time |\n| --- | --- | --- | --- |\n")
		for _, k := range slices.Sorted(maps.Keys(byPkg)) {
			e := byPkg[k]
			outcome := ""
			if s, ok := surfaces[k]; ok {
				outcome = s.Outcome
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", k, outcome, nameList(e[0], 8), nameList(e[1], 12))
		}
		b.WriteString("\n")
	}

	if len(costs) > 0 {
		b.WriteString("## Extraction cost per package\n\n")
		walls := make([]int64, 0, len(costs))
		var src, wall int64
		var peak int64
		for _, c := range costs {
			walls = append(walls, c.WallMs)
			src += c.SourceBytes
			wall += c.WallMs
			peak = max(peak, c.RSSBytes)
		}
		sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
		q := func(p float64) int64 { return walls[int(p*float64(len(walls)-1))] }
		fmt.Fprintf(&b, "%d packages, %.1f MiB of source parsed, %d ms of extraction in all (one package at a time on a shared machine). Wall time per package: median %d ms, p90 %d ms, max %d ms. Largest memory held by one extraction: %.1f MiB.\n",
			len(costs), float64(src)/(1<<20), wall, q(0.5), q(0.9), walls[len(walls)-1], float64(peak)/(1<<20))
		writeCPUCost(&b, costs)
	}
	return b.String()
}

// demoteHeadings moves every Markdown heading of s one level down, so a
// report rendered on its own nests under a section of a larger one.
func demoteHeadings(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "#" + l
		}
	}
	return strings.Join(lines, "\n")
}

// nameList renders up to max names and how many more there are.
func nameList(names []string, max int) string {
	if len(names) == 0 {
		return ""
	}
	shown := names
	if len(shown) > max {
		shown = shown[:max]
	}
	out := strings.Join(shown, ", ")
	if len(names) > max {
		out += fmt.Sprintf(" and %d more", len(names)-max)
	}
	return fmt.Sprintf("%d: %s", len(names), strings.ReplaceAll(out, "|", "\\|"))
}

// AnnotateDelegation adds the delegation target to each not_parsed miss of a
// package that delegates (methodology §4): its tools live in the target
// package, which joins a run on its own.
func AnnotateDelegation(r *Report, surfaces map[string]rundir.Surface) {
	for i, m := range r.Misses {
		if m.Kind != MissNotParsed {
			continue
		}
		if s, ok := surfaces[m.Package]; ok && s.DelegatesTo != nil {
			r.Misses[i].Detail += fmt.Sprintf("; delegates to %s@%s", s.DelegatesTo.Name, s.DelegatesTo.Specifier)
		}
	}
}
