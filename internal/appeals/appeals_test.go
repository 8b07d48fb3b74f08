package appeals

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func at(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }

// threeEvents files two appeals and resolves the first.
func threeEvents(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	id1, err := File(path, "f-1", "publisher of demo-server", "the quoted span is not in 1.0.0", at(0))
	if err != nil {
		t.Fatal(err)
	}
	id2, err := File(path, "f-2", "publisher of demo-server", "interpretation", at(1))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(id1, "ap-") || len(id1) != 19 || id1 == id2 {
		t.Fatalf("ids %s, %s", id1, id2)
	}
	if err := Resolve(path, id1, Upheld, "span misquoted; corrected", at(2)); err != nil {
		t.Fatal(err)
	}
	ids = [2]string{id1, id2}
	return path
}

// ids are the two appeals threeEvents filed, in order.
var ids [2]string

func TestFileResolveStatuses(t *testing.T) {
	path := threeEvents(t)
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st := l.Statuses()
	if len(st) != 2 {
		t.Fatalf("statuses %+v", st)
	}
	if st[0].ID != ids[0] || st[0].FindingID != "f-1" || st[0].Status != Upheld || st[0].ResolvedAt == nil || !st[0].ResolvedAt.Equal(at(2)) || !st[0].FiledAt.Equal(at(0)) {
		t.Errorf("first %+v", st[0])
	}
	if st[1].Status != Open || st[1].ResolvedAt != nil {
		t.Errorf("second %+v", st[1])
	}
	// As the log stood before the resolution, the first appeal was open.
	if s := l.Until(at(1)).Statuses(); s[0].Status != Open || len(s) != 2 {
		t.Errorf("until at(1): %+v", s)
	}
	if s := l.Until(at(0).Add(-time.Second)).Statuses(); len(s) != 0 {
		t.Errorf("before anything: %+v", s)
	}
	// Each event chains to the one before.
	for i, e := range l.Events {
		want := ""
		if i > 0 {
			want = l.Events[i-1].SHA256
		}
		if e.PrevSHA256 != want || len(e.SHA256) != 64 {
			t.Errorf("event %d chain %q prev %q", i+1, e.SHA256, e.PrevSHA256)
		}
	}
	if l.Head() != l.Events[2].SHA256 {
		t.Error("head is not the last event's hash")
	}
}

func TestResolveRefusals(t *testing.T) {
	path := threeEvents(t)
	if err := Resolve(path, ids[0], Dismissed, "", at(3)); !errors.Is(err, ErrNotOpen) {
		t.Errorf("resolving twice: %v", err)
	}
	if err := Resolve(path, "ap-0009", Upheld, "", at(3)); !errors.Is(err, ErrUnknownAppeal) {
		t.Errorf("unknown appeal: %v", err)
	}
	if err := Resolve(path, ids[1], "accepted", "", at(3)); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad outcome: %v", err)
	}
	if err := Resolve(path, ids[1], Withdrawn, "", at(-5)); !errors.Is(err, ErrInvalid) {
		t.Errorf("event dated before the last: %v", err)
	}
	if _, err := File(path, "", "x", "", at(3)); !errors.Is(err, ErrInvalid) {
		t.Errorf("no finding id: %v", err)
	}
	l, err := Load(path)
	if err != nil || len(l.Events) != 3 {
		t.Fatalf("a refused append changed the log: %v %d", err, len(l.Events))
	}
}

func TestMissingLogIsEmpty(t *testing.T) {
	l, err := Load(filepath.Join(t.TempDir(), FileName))
	if err != nil || len(l.Events) != 0 || l.Head() != "" {
		t.Fatalf("%v %+v", err, l)
	}
}

// edit rewrites the log file with f applied to its decoded form.
func edit(t *testing.T, path string, f func(doc map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func events(doc map[string]any) []any { return doc["events"].([]any) }

func TestTamperedLogIsRefused(t *testing.T) {
	cases := []struct {
		name    string
		seq     int
		tamper  func(doc map[string]any)
		rewrite bool // edit the raw bytes instead
		raw     func(b []byte) []byte
	}{
		{name: "grounds edited", seq: 1, tamper: func(d map[string]any) {
			events(d)[0].(map[string]any)["grounds"] = "something else"
		}},
		{name: "outcome edited on the last event", seq: 3, tamper: func(d map[string]any) {
			events(d)[2].(map[string]any)["outcome"] = Dismissed
		}},
		{name: "finding id edited, its own hash recomputed", seq: 1, tamper: func(d map[string]any) {
			e := events(d)[0].(map[string]any)
			e["finding_id"] = "f-9"
			var ev Event
			b, _ := json.Marshal(e)
			_ = json.Unmarshal(b, &ev)
			e["sha256"], _ = eventSHA256(ev)
		}},
		{name: "finding id edited, id and own hash recomputed, chain broken after it", seq: 2, tamper: func(d map[string]any) {
			e := events(d)[0].(map[string]any)
			e["finding_id"] = "f-9"
			var ev Event
			b, _ := json.Marshal(e)
			_ = json.Unmarshal(b, &ev)
			ev.AppealID, _ = filedID(ev)
			e["appeal_id"] = ev.AppealID
			e["sha256"], _ = eventSHA256(ev)
		}},
		{name: "middle event deleted", seq: 2, tamper: func(d map[string]any) {
			ev := events(d)
			d["events"] = []any{ev[0], ev[2]}
		}},
		{name: "first event deleted", seq: 1, tamper: func(d map[string]any) {
			d["events"] = events(d)[1:]
		}},
		{name: "events swapped", seq: 1, tamper: func(d map[string]any) {
			ev := events(d)
			ev[0], ev[1] = ev[1], ev[0]
		}},
		{name: "field added", seq: 0, tamper: func(d map[string]any) {
			events(d)[1].(map[string]any)["extra"] = true
		}},
		{name: "date moved", seq: 2, tamper: func(d map[string]any) {
			events(d)[1].(map[string]any)["at"] = at(1).Add(time.Minute).Format(time.RFC3339)
		}},
		{name: "not JSON", seq: 0, raw: func(b []byte) []byte { return b[:len(b)/2] }},
		{name: "trailing event appended as a second document", seq: 0, raw: func(b []byte) []byte { return append(b, []byte(`{"schema":"x"}`)...) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := threeEvents(t)
			if c.raw != nil {
				b, _ := os.ReadFile(path)
				if err := os.WriteFile(path, c.raw(b), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				edit(t, path, c.tamper)
			}
			_, err := Load(path)
			var te *TamperedError
			if !errors.As(err, &te) || !errors.Is(err, ErrTampered) {
				t.Fatalf("Load accepted a tampered log: %v", err)
			}
			if te.Seq != c.seq {
				t.Errorf("named event %d, want %d: %v", te.Seq, c.seq, err)
			}
			// Appending to a tampered log is refused too.
			if _, err := File(path, "f-3", "x", "", at(5)); !errors.Is(err, ErrTampered) {
				t.Errorf("File appended to a tampered log: %v", err)
			}
		})
	}
}

func TestReformattingIsNotTampering(t *testing.T) {
	path := threeEvents(t)
	b, _ := os.ReadFile(path)
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, compact.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("whitespace is not content: %v", err)
	}
}

func TestAppendKeepsEarlierEvents(t *testing.T) {
	path := threeEvents(t)
	before, _ := Load(path)
	if err := Resolve(path, ids[1], Dismissed, "interpretation, not fact", at(4)); err != nil {
		t.Fatal(err)
	}
	after, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range before.Events {
		if after.Events[i] != e {
			t.Errorf("event %d changed on append", i+1)
		}
	}
	if !strings.Contains(after.Events[3].Note, "interpretation") || after.Events[3].PrevSHA256 != before.Head() {
		t.Errorf("appended %+v", after.Events[3])
	}
}
