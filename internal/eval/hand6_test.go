package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// hand6Categories are methodology §5.4's three categories, the only labels
// a span of the part may carry.
var hand6Categories = []string{"exfiltrate_data", "override_user", "conceal_from_user"}

// hand6KindRows are the rows of the table of counts in docs/model-check.md
// ("The sixth hand-written part"), in order, and the surface kinds each
// row counts.
var hand6KindRows = []struct {
	label string
	kinds []string
}{
	{"tool", []string{"tool"}},
	{"parameter_description", []string{"parameter_description"}},
	{"instructions", []string{"instructions"}},
	{"prompt", []string{"prompt"}},
	{"prompt_text", []string{"prompt_text"}},
	{"resource", []string{"resource"}},
	{"resource_template", []string{"resource_template"}},
}

// handPart is one hand-written development part, as its files, ids and
// docs/model-check.md section state it (hand6.go, hand7.go).
type handPart struct {
	split, idPrefix, ordinal                        string
	files                                           []string
	minPoisoned, minSpans, minClean, minPerKindPair int
}

var (
	hand6Part = handPart{SplitHand6, Hand6IDPrefix, "sixth", Hand6Files, Hand6MinPoisoned, Hand6MinSpans, Hand6MinClean, Hand6MinPerKindPair}
	hand7Part = handPart{SplitHand7, Hand7IDPrefix, "seventh", Hand7Files, Hand7MinPoisoned, Hand7MinSpans, Hand7MinClean, Hand7MinPerKindPair}
)

// TestHand6Files: testdata/eval/hand6_poisoned.jsonl and hand6_clean.jsonl
// are the sixth hand-written part, development material. Every line
// parses (ReadCases), says split hand6 and an id hand6- and ten hex digits
// of its description's SHA-256; every span is an exact substring labelled
// once with one of the three categories, without surrounding white space;
// ids are unique across every file of testdata/eval; each poisoned case
// has a clean twin of the same tool name; no description shares an id, a
// source key, a text or a near-duplicate (token Jaccard at least 0.5) with
// any case of another file (CheckBlindPart); and the counts by surface kind
// and category are the table docs/model-check.md states, rows and sums,
// beside the sha256 of each file.
// No analyzer is run on the part.
func TestHand6Files(t *testing.T) { checkHandPartFiles(t, hand6Part) }

// checkHandPartFiles checks a hand-written part's files (TestHand6Files,
// TestHand7Files). The table and the sha256s are read in the part's own
// section of docs/model-check.md only.
func checkHandPartFiles(t *testing.T, p handPart) {
	t.Helper()
	poisoned := loadFiles(t, p.files[:1])
	clean := loadFiles(t, p.files[1:])
	hand := append(append([]Case{}, poisoned...), clean...)
	valid := map[string]bool{}
	for _, c := range hand6Categories {
		valid[c] = true
	}
	own := map[string]bool{}
	for _, c := range hand {
		sum := sha256.Sum256([]byte(c.Description))
		if want := p.idPrefix + hex.EncodeToString(sum[:])[:10]; c.ID != want {
			t.Fatalf("case id %q: want %q", c.ID, want)
		}
		if own[c.ID] {
			t.Fatalf("id %s twice in the part", c.ID)
		}
		own[c.ID] = true
		if c.Split != p.split {
			t.Fatalf("case %s says split %q, not %s", c.ID, c.Split, p.split)
		}
		if !strings.HasPrefix(c.Source, "written for this corpus ("+p.split+"): ") && !strings.HasPrefix(c.Source, "adapted from http") {
			t.Fatalf("case %s: source %q", c.ID, c.Source)
		}
		words := Tokens(c.ID + " " + c.ToolName)
		for _, w := range []string{"clean", "poison", "poisoned", "benign", "malicious", "twin"} {
			if words[w] {
				t.Fatalf("case %s (%s) names its label with %q", c.ID, c.ToolName, w)
			}
		}
		seen := map[string]bool{}
		for _, s := range c.ExpectedSpans {
			if !valid[s.Category] {
				t.Fatalf("case %s: span category %q", c.ID, s.Category)
			}
			if !strings.Contains(c.Description, s.Text) {
				t.Fatalf("case %s: span %q is not in the description", c.ID, s.Text)
			}
			if strings.TrimSpace(s.Text) != s.Text {
				t.Fatalf("case %s: span %q starts or ends with white space", c.ID, s.Text)
			}
			if seen[s.Text] {
				t.Fatalf("case %s labels %q twice", c.ID, s.Text)
			}
			seen[s.Text] = true
		}
	}
	for _, c := range poisoned {
		if c.Kind != KindPoisoned {
			t.Fatalf("%s: case %s is %s", p.files[0], c.ID, c.Kind)
		}
	}
	names := map[string]bool{}
	for _, c := range clean {
		if c.Kind != KindClean {
			t.Fatalf("%s: case %s is %s", p.files[1], c.ID, c.Kind)
		}
		names[c.ToolName] = true
	}
	for _, c := range poisoned {
		if !names[c.ToolName] {
			t.Fatalf("poisoned case %s (%s) has no clean twin of that tool name", c.ID, c.ToolName)
		}
	}
	// Every other file of testdata/eval: ids unique across all of them, and
	// nothing shared with any (the near-duplicate check of the blind parts).
	files, err := filepath.Glob(filepath.Join(evalDir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string][]Case{}
	for _, f := range files {
		base := filepath.Base(f)
		if base == p.files[0] || base == p.files[1] {
			continue
		}
		cs, err := LoadCases(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if own[c.ID] {
				t.Fatalf("id %s of the part is also an id of %s", c.ID, base)
			}
		}
		parts[base] = cs
	}
	if len(parts) < 10 {
		t.Fatalf("only %d other files found in %s", len(parts), evalDir)
	}
	if err := CheckBlindPart(p.split, hand, parts); err != nil {
		t.Fatal(err)
	}
	// The counts, and the table of docs/model-check.md.
	cases, spans, cleanBy := map[string]int{}, map[string]map[string]int{}, map[string]int{}
	total := map[string]int{}
	nSpans := 0
	for _, c := range poisoned {
		cases[c.SurfaceKind]++
		if spans[c.SurfaceKind] == nil {
			spans[c.SurfaceKind] = map[string]int{}
		}
		for _, s := range c.ExpectedSpans {
			spans[c.SurfaceKind][s.Category]++
			total[s.Category]++
			nSpans++
		}
	}
	for _, c := range clean {
		cleanBy[c.SurfaceKind]++
	}
	if len(poisoned) < p.minPoisoned || nSpans < p.minSpans || len(clean) < p.minClean {
		t.Fatalf("%d poisoned cases, %d spans, %d clean: below %d, %d, %d", len(poisoned), nSpans, len(clean), p.minPoisoned, p.minSpans, p.minClean)
	}
	// About 40% override_user, 40% conceal_from_user, at least 20% exfiltrate_data.
	if 5*total["exfiltrate_data"] < nSpans || 100*total["override_user"] < 35*nSpans || 100*total["conceal_from_user"] < 35*nSpans {
		t.Fatalf("spans by category %v of %d: want at least 20%% exfiltrate_data and 35%% each of the others", total, nSpans)
	}
	for _, pair := range [][]string{{"parameter_description"}, {"instructions"}, {"prompt", "prompt_text"}, {"resource", "resource_template"}} {
		n := 0
		for _, k := range pair {
			n += cases[k]
		}
		if n < p.minPerKindPair {
			t.Fatalf("%d poisoned cases of %v, below %d", n, pair, p.minPerKindPair)
		}
	}
	for k := range surfaceKinds {
		if k != "tool" && cases[k] >= cases["tool"] {
			t.Fatalf("%d poisoned %s cases, not fewer than the %d tools", cases[k], k, cases["tool"])
		}
	}
	whole, err := os.ReadFile(filepath.Join("..", "..", "docs", "model-check.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The table and the sha256s are read in the part's own section only, so
	// a row that happens to equal a row of another part's table is not taken
	// for this part's.
	doc := string(whole)
	heading := "### The " + p.ordinal + " hand-written part (`" + p.split + "`, development material)"
	at := strings.Index(doc, heading)
	if at < 0 {
		t.Fatalf("docs/model-check.md has no section %q", heading)
	}
	doc = doc[at+len(heading):]
	if end := strings.Index(doc, "\n### "); end >= 0 {
		doc = doc[:end]
	}
	var rows []string
	for _, r := range hand6KindRows {
		k := r.label
		sp := spans[k]
		n := sp["exfiltrate_data"] + sp["override_user"] + sp["conceal_from_user"]
		rows = append(rows, fmt.Sprintf("| %s | %d | %d | %d / %d / %d | %d |", k, cases[k], n, sp["exfiltrate_data"], sp["override_user"], sp["conceal_from_user"], cleanBy[k]))
	}
	rows = append(rows, fmt.Sprintf("| **%s** | **%d** | **%d** | **%d / %d / %d** | **%d** |", p.split, len(poisoned), nSpans, total["exfiltrate_data"], total["override_user"], total["conceal_from_user"], len(clean)))
	for _, r := range rows {
		if !strings.Contains(doc, r) {
			t.Fatalf("docs/model-check.md does not state the row\n%s\nof the "+p.ordinal+" hand-written part; restate its table:\n%s", r, strings.Join(rows, "\n"))
		}
	}
	for _, f := range p.files {
		raw, err := os.ReadFile(filepath.Join(evalDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(raw); !strings.Contains(doc, hex.EncodeToString(sum[:])) {
			t.Fatalf("docs/model-check.md does not state the sha256 %x of %s; restate its counts", sum, f)
		}
	}
	known := map[string]bool{}
	for _, r := range hand6KindRows {
		for _, k := range r.kinds {
			known[k] = true
		}
	}
	var missing []string
	for k := range surfaceKinds {
		if !known[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("the table has no row for %v", missing)
	}
}

// hand6 is development material: its name is accepted, it is neither
// measured only nor retired, a report scoring it names it as development
// material, and a case saying hand6 is read.
func TestHand6IsDevelopmentMaterial(t *testing.T) { checkHandPartIsDevelopment(t, SplitHand6) }

func checkHandPartIsDevelopment(t *testing.T, split string) {
	t.Helper()
	if err := CheckSplitName(split); err != nil {
		t.Fatal(err)
	}
	if !Development(split) || MeasuredOnly(split) || Retired(split) {
		t.Fatalf("%s: development %v, measured only %v, retired %v", split, Development(split), MeasuredOnly(split), Retired(split))
	}
	if _, ok := BlindPartOf(split); ok {
		t.Fatalf("%s is a blind test part", split)
	}
	line := `{"id":"` + split + `-y","kind":"clean","surface_kind":"tool","tool_name":"g","description":"Reads a gauge.","expected_spans":[],"source":"written for this corpus (` + split + `): g","split":"` + split + `"}`
	cs, err := ReadCases(strings.NewReader(line + "\n"))
	if err != nil || len(cs) != 1 || cs[0].Split != split {
		t.Fatalf("a %s case read as %v, %v", split, cs, err)
	}
	if got := developmentParts(cs); len(got) != 1 || got[0] != split {
		t.Fatalf("development parts %v", got)
	}
}
