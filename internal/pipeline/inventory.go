package pipeline

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// The inventory pass (`attestari run --inventory RUN`, docs/inventory.md):
// an opt-in pass over a finished run that transcribes the routing-guidance
// spans of every readable entry ("call X first", ordering, rate, retry and
// resume guidance), which model_directed_text only counts. It writes
// runs/<id>/inventory.json and nothing else. It is not one of the seven
// files, the policy never reads it, and no guard, decision or publication
// depends on it: a run decides the same with or without it.

// InventoryFile is the inventory pass's file inside a run directory.
const InventoryFile = "inventory.json"

// InventorySchema versions inventory.json.
const InventorySchema = "attestari.inventory/v1"

// Transcriber finds the routing-guidance spans of one literal segment of an
// entry's text. OfflineTranscriber is the one this version has.
type Transcriber interface {
	// ID names the transcriber and its rules; it is written in the file.
	ID() string
	RoutingSpans(ctx context.Context, segment string) ([]analyzer.RoutingSpan, error)
}

// OfflineTranscriber transcribes with the offline analyzer's routing
// patterns (analyzer.RoutingSpans): the same sentences its
// routing_guidance_count counts.
type OfflineTranscriber struct{}

// ID is the offline analyzer's id: the rules are its rules.
func (OfflineTranscriber) ID() string { return analyzer.NewOffline().ID() }

// RoutingSpans implements Transcriber.
func (OfflineTranscriber) RoutingSpans(ctx context.Context, segment string) ([]analyzer.RoutingSpan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return analyzer.RoutingSpans(segment), nil
}

// InventoryOptions configures Inventory.
type InventoryOptions struct {
	// Home is $ATTESTARI_HOME; default "var".
	Home string
	// Run is a run id under Home/runs or a run directory's path.
	Run string
	// Transcriber finds the spans; nil means OfflineTranscriber.
	Transcriber Transcriber
}

// Inventory is inventory.json.
type Inventory struct {
	Schema string `json:"schema"`
	RunID  string `json:"run_id"`
	// Transcriber made the spans. RunAnalyzer is the analyzer of the run's
	// model check (the header's analyzer_model), which made the recorded
	// counts; the two may differ.
	Transcriber string `json:"transcriber"`
	RunAnalyzer string `json:"run_analyzer"`
	// Inputs are the run files read, with their SHA-256.
	Inputs  []rundir.InputFile `json:"inputs"`
	Counts  InventoryCounts    `json:"counts"`
	Entries []InventoryEntry   `json:"entries"`
}

// InventoryCounts sums the inventory.
type InventoryCounts struct {
	// EntriesRead is every readable or partial entry the pass read.
	EntriesRead int `json:"entries_read"`
	// EntriesWithGuidance have at least one transcribed span.
	EntriesWithGuidance int `json:"entries_with_guidance"`
	Spans               int `json:"spans"`
	// CountDiffers is how many entries' transcribed spans are not as many
	// as the run's analyzer recorded (where it recorded a count).
	CountDiffers int `json:"count_differs"`
}

// InventoryEntry is one entry that has routing guidance, transcribed or
// counted by the run.
type InventoryEntry struct {
	Package rundir.PackageRef `json:"package"`
	Kind    string            `json:"kind"`
	Name    string            `json:"name"`
	Parent  string            `json:"parent,omitempty"`
	File    string            `json:"file"`
	Line    int               `json:"line"`
	State   string            `json:"description_state"`
	// RecordedCount is the routing_guidance_count the run's model check
	// recorded for the entry: null when the run did not analyse it (no
	// model_directed_text result, or the entry is in not_analyzed.json).
	RecordedCount *int            `json:"recorded_count"`
	Spans         []InventorySpan `json:"spans"`
}

// InventorySpan is one transcribed span. RawStart and RawEnd are byte
// offsets into the entry's description_raw (the decoded text, as on the
// surface row); File and Line are those of the literal segment it sits in.
type InventorySpan struct {
	Text     string `json:"text"`
	RawStart int    `json:"raw_start"`
	RawEnd   int    `json:"raw_end"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

// ErrRunNotFinished: the inventory pass reads only a finished run.
var ErrRunNotFinished = errors.New("pipeline: run is not finished")

// RunInventory reads a finished run's surfaces.json (and, for the counts
// the run recorded, results.json and not_analyzed.json), transcribes the
// routing guidance of every readable or partial entry and writes
// inventory.json into the run directory. It changes no other file. The
// file depends only on those inputs and the transcriber, so a second pass
// writes the same bytes.
func RunInventory(ctx context.Context, o InventoryOptions) (*Inventory, string, error) {
	if o.Home == "" {
		o.Home = "var"
	}
	tr := o.Transcriber
	if isNil(tr) {
		tr = OfflineTranscriber{}
	}
	dir, err := RunDir(o.Home, o.Run)
	if err != nil {
		return nil, "", err
	}
	unlock, err := lockRun(dir)
	if err != nil {
		return nil, "", fmt.Errorf("pipeline: inventory %s: %w", dir, err)
	}
	defer unlock()
	var h rundir.Header
	if _, err := rundir.ReadJSON(dir, rundir.HeaderFile, &h); err != nil {
		return nil, "", fmt.Errorf("pipeline: inventory %s: %w", dir, err)
	}
	if h.Status != rundir.StatusFinished {
		return nil, "", fmt.Errorf("%w: %s is %s; finish it first (attestari run --resume %s)", ErrRunNotFinished, h.RunID, h.Status, h.RunID)
	}
	var surfaces []rundir.Surface
	var results []rundir.Result
	var notAnalyzed []rundir.NotAnalyzed
	inv := &Inventory{Schema: InventorySchema, RunID: h.RunID, Transcriber: tr.ID(), RunAnalyzer: h.AnalyzerModel,
		Inputs: []rundir.InputFile{}, Entries: []InventoryEntry{}}
	for _, in := range []struct {
		name string
		v    any
	}{{rundir.SurfacesFile, &surfaces}, {rundir.ResultsFile, &results}, {rundir.NotAnalyzedFile, &notAnalyzed}} {
		sum, err := rundir.ReadJSON(dir, in.name, in.v)
		if err != nil {
			return nil, "", fmt.Errorf("pipeline: inventory %s: %w", dir, err)
		}
		inv.Inputs = append(inv.Inputs, rundir.InputFile{Path: in.name, SHA256: sum})
	}
	recorded := recordedRouting(results, notAnalyzed)

	for i := range surfaces {
		s := &surfaces[i]
		for _, e := range s.AllEntries() {
			if e.DescriptionState != vocab.StateReadable && e.DescriptionState != vocab.StatePartial {
				continue
			}
			inv.Counts.EntriesRead++
			ie := InventoryEntry{Package: s.Package, Kind: e.Kind, Name: e.Name, Parent: e.Parent, File: inventoryFile(e),
				Line: e.Line, State: e.DescriptionState, Spans: []InventorySpan{}}
			for _, seg := range rawSegments(e) {
				spans, err := tr.RoutingSpans(ctx, e.DescriptionRaw[seg[0]:seg[1]])
				if err != nil {
					return nil, "", fmt.Errorf("pipeline: inventory: %s %s %q: %w", s.Package.Key(), e.Kind, e.Name, err)
				}
				for _, sp := range spans {
					if sp.Start < 0 || sp.End < sp.Start || seg[0]+sp.End > seg[1] {
						return nil, "", fmt.Errorf("pipeline: inventory: transcriber %s gave span [%d,%d) outside a segment of %d bytes", tr.ID(), sp.Start, sp.End, seg[1]-seg[0])
					}
					a, b := seg[0]+sp.Start, seg[0]+sp.End
					file, line := literalAt(e, a)
					ie.Spans = append(ie.Spans, InventorySpan{Text: e.DescriptionRaw[a:b], RawStart: a, RawEnd: b, File: file, Line: line})
				}
			}
			rk, ok := recorded.count(s.Package, e)
			if ok {
				ie.RecordedCount = &rk
				if rk != len(ie.Spans) {
					inv.Counts.CountDiffers++
				}
			}
			if len(ie.Spans) > 0 {
				inv.Counts.EntriesWithGuidance++
				inv.Counts.Spans += len(ie.Spans)
			}
			if len(ie.Spans) > 0 || rk > 0 {
				inv.Entries = append(inv.Entries, ie)
			}
		}
	}
	slices.SortStableFunc(inv.Entries, func(a, b InventoryEntry) int {
		return cmp.Or(strings.Compare(a.Package.Key(), b.Package.Key()), strings.Compare(a.Kind, b.Kind),
			strings.Compare(a.Parent, b.Parent), strings.Compare(a.Name, b.Name), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	if err := rundir.WriteJSON(dir, InventoryFile, inv); err != nil {
		return nil, "", fmt.Errorf("pipeline: inventory: %w", err)
	}
	return inv, dir, nil
}

// rawSegments are an entry's literal segments as [start, end) offsets into
// description_raw: the text split at its holes, as model_directed_text
// splits it for the analyzer.
func rawSegments(e rundir.Entry) [][2]int {
	cuts := []int{}
	for _, h := range e.Holes {
		if h.RawOffset > 0 && h.RawOffset < len(e.DescriptionRaw) {
			cuts = append(cuts, h.RawOffset)
		}
	}
	sort.Ints(cuts)
	var out [][2]int
	prev := 0
	for _, c := range cuts {
		if c > prev {
			out = append(out, [2]int{prev, c})
		}
		prev = c
	}
	if prev < len(e.DescriptionRaw) {
		out = append(out, [2]int{prev, len(e.DescriptionRaw)})
	}
	return out
}

// literalAt is the file and line of the literal segment holding raw offset
// a, else the entry's own place.
func literalAt(e rundir.Entry, a int) (string, int) {
	for _, sp := range e.Spans {
		if a >= sp.RawStart && a < sp.RawEnd {
			return sp.File, sp.Line
		}
	}
	return inventoryFile(e), e.Line
}

// inventoryFile is the member an entry's text is declared in, as the model
// check names it on its counts: the first span's file, else the entry's.
func inventoryFile(e rundir.Entry) string {
	if len(e.Spans) > 0 && e.Spans[0].File != "" {
		return e.Spans[0].File
	}
	return e.File
}

// routingIndex is what the run's model check recorded per entry.
type routingIndex struct {
	counts      map[string]int
	analysed    map[string]bool // packages with a model_directed_text result that ran
	notAnalyzed map[string]bool
}

func routingKeyOf(p rundir.PackageRef, kind, name, parent, file string) string {
	return strings.Join([]string{p.Key(), kind, name, parent, file}, "\x00")
}

func notAnalyzedKey(p rundir.PackageRef, kind, name, file string, line int) string {
	return strings.Join([]string{p.Key(), kind, name, file, fmt.Sprint(line)}, "\x00")
}

// recordedRouting indexes the counts the model check kept in its result
// rows' audit (checks.RoutingCount; only entries with a count above zero
// are listed there) and the entries it did not analyse.
func recordedRouting(results []rundir.Result, na []rundir.NotAnalyzed) routingIndex {
	ix := routingIndex{counts: map[string]int{}, analysed: map[string]bool{}, notAnalyzed: map[string]bool{}}
	for _, r := range results {
		if r.Check != vocab.CheckModel || r.Outcome == vocab.ResultError || r.Outcome == vocab.ResultSkipped {
			continue
		}
		ix.analysed[r.Package.Key()] = true
		if len(r.Audit) == 0 {
			continue
		}
		var a struct {
			Routing []checks.RoutingCount `json:"routing"`
		}
		if json.Unmarshal(r.Audit, &a) != nil {
			// An audit this code cannot read says nothing it can use.
			delete(ix.analysed, r.Package.Key())
			continue
		}
		for _, c := range a.Routing {
			ix.counts[routingKeyOf(r.Package, c.Kind, c.Name, c.Parent, c.File)] += c.Count
		}
	}
	for _, n := range na {
		if n.Check == vocab.CheckModel {
			ix.notAnalyzed[notAnalyzedKey(n.Package, n.Kind, n.Name, n.File, n.Line)] = true
		}
	}
	return ix
}

// count is the entry's recorded count; false when the run has none for it.
func (ix routingIndex) count(p rundir.PackageRef, e rundir.Entry) (int, bool) {
	if !ix.analysed[p.Key()] || ix.notAnalyzed[notAnalyzedKey(p, e.Kind, e.Name, inventoryFile(e), e.Line)] {
		return 0, false
	}
	return ix.counts[routingKeyOf(p, e.Kind, e.Name, e.Parent, inventoryFile(e))], true
}
