package surface

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

var update = flag.Bool("update", false, "rewrite the want.json section of the golden txtar cases")

const goldenDir = "../../testdata/surface"

// goldenEntry is the projection of an entry a golden case pins.
type goldenEntry struct {
	Kind        string          `json:"kind"`
	Name        string          `json:"name"`
	NameState   string          `json:"name_state,omitempty"`
	Parent      string          `json:"parent,omitempty"`
	URI         string          `json:"uri,omitempty"`
	State       string          `json:"state"`
	Raw         string          `json:"description_raw,omitempty"`
	Holes       []string        `json:"holes,omitempty"`
	Reason      string          `json:"unreadable_reason,omitempty"`
	SchemaKind  string          `json:"schema_kind,omitempty"`
	SchemaRaw   string          `json:"schema_raw,omitempty"`
	Annotations map[string]bool `json:"annotations,omitempty"`
	Unreachable bool            `json:"unreachable,omitempty"`
	ListedAtRun bool            `json:"listed_at_run_time,omitempty"`
	// ListedMember: the listed resources' member a listed_at_run_time entry
	// records (resnames.go), empty for their description.
	ListedMember string `json:"listed_member,omitempty"`
	// Conditions and Configuration (pyconfig.go): "file:line when test: holds"
	// and "source name=default file:line".
	Conditions    []string `json:"conditions,omitempty"`
	Configuration []string `json:"configuration,omitempty"`
}

type goldenSurface struct {
	Outcome         string        `json:"outcome"`
	OutcomeEvidence []string      `json:"outcome_evidence,omitempty"`
	Entries         []goldenEntry `json:"entries"`
	Sampling        string        `json:"sampling,omitempty"`
	Elicitation     string        `json:"elicitation,omitempty"`
	Advertised      []string      `json:"advertised,omitempty"`
	DelegatesTo     string        `json:"delegates_to,omitempty"`
	Reassigned      []string      `json:"reassigned,omitempty"`
	Vendored        []string      `json:"vendored,omitempty"`
	Reach           []string      `json:"reach,omitempty"`
}

func project(s rundir.Surface) goldenSurface {
	g := goldenSurface{Outcome: s.Outcome, Entries: []goldenEntry{}}
	for _, ev := range s.OutcomeEvidence {
		g.OutcomeEvidence = append(g.OutcomeEvidence, ev.File+":"+itoa(ev.Line))
	}
	for _, e := range s.AllEntries() {
		ge := goldenEntry{Kind: e.Kind, Name: e.Name, NameState: e.NameState, Parent: e.Parent, URI: e.URI,
			State: e.DescriptionState, Raw: e.DescriptionRaw, Reason: e.UnreadableReason, SchemaKind: e.SchemaKind,
			SchemaRaw: e.SchemaRaw, Annotations: e.Annotations, Unreachable: e.Unreachable, ListedAtRun: e.ListedAtRunTime,
			ListedMember: e.ListedMember}
		if e.Kind == KindParameterDescription || e.Kind == KindPromptText || e.Kind == KindInstructions {
			ge.SchemaKind = ""
		}
		for _, h := range e.Holes {
			if h.FilledBy != "" {
				ge.Holes = append(ge.Holes, h.Source+" (filled by "+h.FilledBy+")")
				continue
			}
			ge.Holes = append(ge.Holes, h.Source)
		}
		for _, c := range e.Conditions {
			ge.Conditions = append(ge.Conditions, c.File+":"+itoa(c.Line)+" "+strconv.FormatBool(c.When)+" when "+c.Test+": "+c.Holds)
		}
		for _, r := range e.Configuration {
			ge.Configuration = append(ge.Configuration, r.Source+" "+r.Name+"="+r.Default+" "+r.File+":"+itoa(r.Line))
		}
		g.Entries = append(g.Entries, ge)
	}
	if s.Sampling != nil {
		g.Sampling = s.Sampling.File + ":" + itoa(s.Sampling.Line)
	}
	if s.Elicitation != nil {
		g.Elicitation = s.Elicitation.File + ":" + itoa(s.Elicitation.Line)
	}
	for _, a := range s.AdvertisedTools {
		if a.Stale && a.StaleBy != "" {
			g.Advertised = append(g.Advertised, a.Source+":"+a.Name+" (stale: "+a.StaleBy+")")
			continue
		}
		if a.Stale {
			g.Advertised = append(g.Advertised, a.Source+":"+a.Name+" (stale)")
			continue
		}
		g.Advertised = append(g.Advertised, a.Source+":"+a.Name)
	}
	if r := s.Reach; r != nil {
		if r.Unreachable > 0 {
			g.Reach = append(g.Reach, "unreachable: "+itoa(r.Unreachable))
		}
		for _, u := range r.Undetermined {
			g.Reach = append(g.Reach, "undetermined: "+u.File+":"+itoa(u.Line)+" "+u.Detail)
		}
		for _, u := range r.Uncalled {
			g.Reach = append(g.Reach, "uncalled: "+u.File+":"+itoa(u.Line)+" "+u.Detail)
		}
	}
	if s.DelegatesTo != nil {
		g.DelegatesTo = s.DelegatesTo.Name + "@" + s.DelegatesTo.Specifier
	}
	for _, r := range s.ReassignedAtRuntime {
		g.Reassigned = append(g.Reassigned, r.File+":"+itoa(r.Line))
	}
	for _, v := range s.Vendored {
		g.Vendored = append(g.Vendored, v.File+":"+v.Library)
	}
	return g
}

func itoa(i int) string { return strconv.Itoa(i) }

// archiveFS turns a txtar archive's files (all but want.json) into an fs.FS.
func archiveFS(a *txtar.Archive) fstest.MapFS {
	m := fstest.MapFS{}
	for _, f := range a.Files {
		if f.Name == "want.json" {
			continue
		}
		m[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
	}
	return m
}

func extractArchive(t testing.TB, a *txtar.Archive) rundir.Surface {
	t.Helper()
	fsys := archiveFS(a)
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return Extract(context.Background(), packageRefOf(fsys), fsys, members, Options{WallBudget: time.Minute})
}

// checkSpans is the generic span assertion: decoding each span's source
// bytes reproduces its part of description_raw, spans tile the literal
// text in order, and each hole's source is the bytes it covers.
func checkSpans(t *testing.T, fsys fs.FS, s rundir.Surface) {
	t.Helper()
	for _, e := range s.AllEntries() {
		var joined strings.Builder
		for _, sp := range e.Spans {
			src, err := fs.ReadFile(fsys, sp.File)
			if err != nil {
				t.Errorf("%s %s: span file %s: %v", e.Kind, e.Name, sp.File, err)
				continue
			}
			if sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End {
				t.Errorf("%s %s: span [%d,%d) outside %s", e.Kind, e.Name, sp.Start, sp.End, sp.File)
				continue
			}
			text, _, err := literal.Decode(sp.Encoding, src[sp.Start:sp.End])
			if err != nil {
				t.Errorf("%s %s: span does not decode: %v", e.Kind, e.Name, err)
				continue
			}
			if sp.RawStart != joined.Len() || sp.RawEnd != sp.RawStart+len(text) || e.DescriptionRaw[sp.RawStart:sp.RawEnd] != text {
				t.Errorf("%s %s: span %d..%d decodes to %q, raw has %q", e.Kind, e.Name, sp.RawStart, sp.RawEnd, text, e.DescriptionRaw)
			}
			if lineAt(src, sp.Start) != sp.Line {
				t.Errorf("%s %s: span line %d, want %d", e.Kind, e.Name, sp.Line, lineAt(src, sp.Start))
			}
			joined.WriteString(text)
		}
		if (e.DescriptionState == vocab.StateReadable || e.DescriptionState == vocab.StatePartial) && joined.String() != e.DescriptionRaw {
			t.Errorf("%s %s: spans decode to %q, description_raw is %q", e.Kind, e.Name, joined.String(), e.DescriptionRaw)
		}
		for _, h := range e.Holes {
			src, _ := fs.ReadFile(fsys, h.File)
			if h.End > len(src) || string(src[h.Start:h.End]) != h.Source || h.RawOffset > len(e.DescriptionRaw) {
				t.Errorf("%s %s: hole %+v does not match its source", e.Kind, e.Name, h)
			}
		}
		if e.DescriptionState == vocab.StatePartial && len(e.Holes) == 0 {
			t.Errorf("%s %s: partial without holes", e.Kind, e.Name)
		}
	}
}

func lineAt(src []byte, off int) int { return bytes.Count(src[:off], []byte("\n")) + 1 }

func TestGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no golden cases found")
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			a, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			s := extractArchive(t, a)
			checkSpans(t, archiveFS(a), s)
			got, err := json.MarshalIndent(project(s), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			var want []byte
			wantIdx := -1
			for i, f := range a.Files {
				if f.Name == "want.json" {
					want, wantIdx = f.Data, i
				}
			}
			if *update {
				if wantIdx < 0 {
					a.Files = append(a.Files, txtar.File{Name: "want.json", Data: got})
				} else {
					a.Files[wantIdx].Data = got
				}
				if err := os.WriteFile(p, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 {
				t.Fatalf("no want.json section; run with -update\ngot:\n%s", got)
			}
			if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
				t.Errorf("surface differs from want.json (run with -update to accept)\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
