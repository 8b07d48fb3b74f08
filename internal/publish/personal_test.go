package publish

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const labelledDir = "../../testdata/personal-data"

type labelledSet struct {
	About string `json:"about"`
	Files map[string]struct {
		Personal []struct {
			Kind string `json:"kind"`
			Text string `json:"text"`
		} `json:"personal"`
		Decoys []string `json:"decoys"`
	} `json:"files"`
}

// scanFigures are the scan's measured figures on the labelled set, per kind.
type scanFigures struct {
	Labels, Missed, Hits, FalsePositives int
}

type span struct {
	kind       string
	start, end int
}

// measureLabelledSet scans every file of the labelled set and scores it.
// A hit is a true positive when it overlaps a labelled span of its kind; a
// label is missed when no hit of its kind overlaps any of its occurrences.
func measureLabelledSet(t *testing.T) (map[string]*scanFigures, []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(labelledDir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set labelledSet
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	figs := map[string]*scanFigures{}
	for _, k := range []string{KindEmail, KindPhone, KindStreetAddress} {
		figs[k] = &scanFigures{}
	}
	var notes []string
	names := make([]string, 0, len(set.Files))
	for n := range set.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		lab := set.Files[name]
		data, err := os.ReadFile(filepath.Join(labelledDir, name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		var spans []span
		for _, p := range lab.Personal {
			f, ok := figs[p.Kind]
			if !ok {
				t.Fatalf("%s: unknown kind %q", name, p.Kind)
			}
			f.Labels++
			n := strings.Count(text, p.Text)
			if n == 0 {
				t.Fatalf("%s: labelled text %q does not occur", name, p.Text)
			}
			for off := 0; ; {
				i := strings.Index(text[off:], p.Text)
				if i < 0 {
					break
				}
				spans = append(spans, span{p.Kind, off + i, off + i + len(p.Text)})
				off += i + len(p.Text)
			}
		}
		for _, d := range lab.Decoys {
			if !strings.Contains(text, d) {
				t.Fatalf("%s: decoy %q does not occur", name, d)
			}
		}
		hits := ScanPersonalData(data)
		for _, h := range hits {
			figs[h.Kind].Hits++
			tp := false
			for _, s := range spans {
				if s.kind == h.Kind && h.Start < s.end && s.start < h.End {
					tp = true
				}
			}
			if !tp {
				figs[h.Kind].FalsePositives++
				notes = append(notes, fmt.Sprintf("false positive %s (%s) in %s line %d: %q", h.Kind, h.Rule, name, h.Line, text[h.Start:h.End]))
			}
		}
		for _, p := range lab.Personal {
			found := false
			for _, s := range spans {
				if s.kind != p.Kind || text[s.start:s.end] != p.Text {
					continue
				}
				for _, h := range hits {
					if h.Kind == p.Kind && h.Start < s.end && s.start < h.End {
						found = true
					}
				}
			}
			if !found {
				figs[p.Kind].Missed++
				notes = append(notes, fmt.Sprintf("miss %s in %s: %q", p.Kind, name, p.Text))
			}
		}
	}
	return figs, notes
}

// TestPersonalDataLabelledSet measures the scan on testdata/personal-data
// and checks the figures docs/publish-contract.md states, so the document
// cannot drift from the code.
func TestPersonalDataLabelledSet(t *testing.T) {
	figs, notes := measureLabelledSet(t)
	for _, n := range notes {
		t.Log(n)
	}
	for _, k := range []string{KindEmail, KindPhone, KindStreetAddress} {
		f := figs[k]
		t.Logf("%s: %d labelled, %d missed, %d hits, %d false positives", k, f.Labels, f.Missed, f.Hits, f.FalsePositives)
	}
	doc, err := os.ReadFile("../../docs/publish-contract.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(email_address|phone_number|street_address)` \\| (\\d+) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|")
	seen := 0
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		f := figs[m[1]]
		got := []int{f.Labels, f.Missed, f.Hits, f.FalsePositives}
		for i, s := range m[2:6] {
			n, _ := strconv.Atoi(s)
			if n != got[i] {
				t.Errorf("docs/publish-contract.md states %s %v; measured labelled/missed/hits/false positives %v", m[1], m[2:6], got)
				break
			}
		}
		seen++
	}
	if seen != 3 {
		t.Errorf("docs/publish-contract.md has %d rows of measured figures, want 3 (one per kind)", seen)
	}
}
