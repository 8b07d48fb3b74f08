package httpapi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

// seededRefusals is seeded with, besides seedPublications, refusals as a run
// records them: gate_failed_as_recorded (G2) first, then the reasons that
// explain them; one carries G2 alone.
func seededRefusals(t *testing.T) *testServer {
	t.Helper()
	ts, dbURL := seeded(t)
	st, err := store.Open(context.Background(), dbURL, store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	p := storetest.Publication("pub-refusals", "run-refusals", t0.Add(10*24*time.Hour))
	p.Header.Supersedes = "pub-2"
	p.Packages = append(p.Packages,
		storetest.Package("npm", "docs-server", "1.0.0", "not_gradeable", "", []string{"gate_failed_as_recorded", "advertised_tools_not_parsed", "partial_description"}),
		storetest.Package("npm", "bundle-server", "3.0.0", "not_gradeable", "", []string{"gate_failed_as_recorded", "minified_only"}),
		storetest.Package("npm", "notes-server", "0.2.0", "not_gradeable", "", []string{"gate_failed_as_recorded", "partial_description"}),
		storetest.Package("npm", "odd-server", "0.0.1", "not_gradeable", "", []string{"gate_failed_as_recorded"}))
	if err := st.LoadPublication(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestCountsByFirstReason: by_first_reason counts each refused or
// out-of-scope version once, under its first code other than G2's (or G2's
// when it is alone), so it sums to those versions; by_reason still counts
// every code a version carries, and so sums past them.
func TestCountsByFirstReason(t *testing.T) {
	t.Parallel()
	ts := seededRefusals(t)
	res, body := ts.get("/packages")
	var l api.PackageList
	if err := json.Unmarshal([]byte(body), &l); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %v %s", res.StatusCode, err, body)
	}
	want := map[string]int{"minified_only": 2, "advertised_tools_not_parsed": 1, "partial_description": 1, "gate_failed_as_recorded": 1, "not_a_server": 1}
	if len(l.Counts.ByFirstReason) != len(want) {
		t.Errorf("by_first_reason %v, want %v", l.Counts.ByFirstReason, want)
	}
	sum := 0
	for code, n := range want {
		if l.Counts.ByFirstReason[code] != n {
			t.Errorf("by_first_reason[%s] = %d, want %d", code, l.Counts.ByFirstReason[code], n)
		}
		sum += n
	}
	if refused := l.Counts.ByVerdict["not_gradeable"] + l.Counts.ByVerdict["out_of_scope"]; refused != sum || refused != 6 {
		t.Errorf("by_first_reason sums to %d, the refused and out-of-scope versions are %d", sum, refused)
	}
	if l.Counts.ByReason["gate_failed_as_recorded"] != 4 || l.Counts.ByReason["partial_description"] != 2 {
		t.Errorf("by_reason counts every code a version carries: %v", l.Counts.ByReason)
	}
	// The counts follow the search: only the names with "server" and "notes".
	res, body = ts.get("/packages?q=notes+server")
	l = api.PackageList{}
	if err := json.Unmarshal([]byte(body), &l); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %v", res.StatusCode, err)
	}
	if len(l.Items) != 1 || l.Items[0].Name != "notes-server" || len(l.Counts.ByFirstReason) != 1 || l.Counts.ByFirstReason["partial_description"] != 1 {
		t.Errorf("search by words, counts: %s", body)
	}
}

// TestGradesPageReasonCounts: the page counts each version not graded once,
// says so, lists G2 apart as the run's own gate agreeing, and puts the
// reasons that explain a refusal before G2 wherever a refusal is shown.
func TestGradesPageReasonCounts(t *testing.T) {
	t.Parallel()
	ts := seededRefusals(t)
	res, body := ts.get("/")
	if res.StatusCode != 200 {
		t.Fatalf("%d", res.StatusCode)
	}
	counts := between(body, `id="counts-h"`, `id="results-h"`)
	for _, want := range []string{
		"Each of the 6 versions not graded is counted once",
		`<code>minified_only</code></a> <span class="n">2</span>`,
		`<code>partial_description</code></a> <span class="n">1</span> <span class="also">(and 1 more`,
		`<code>gate_failed_as_recorded</code> alone <span class="n">1</span>`,
		`id="g2-note"`, "the run's own gate agreed",
	} {
		if !strings.Contains(counts, want) {
			t.Errorf("counts lack %q:\n%s", want, counts)
		}
	}
	if strings.Contains(counts, `<code>gate_failed_as_recorded</code></a> <span class="n">4</span>`) {
		t.Error("G2 is counted as a reason of its own")
	}
	// In the list, the explaining reason comes before G2.
	row := between(body, `>bundle-server</a>`, `</li>
    
    <li`)
	if i, j := strings.Index(row, "minified_only"), strings.Index(row, "gate_failed_as_recorded"); i < 0 || j < 0 || i > j {
		t.Errorf("bundle-server's reasons are not explaining-first: %s", row)
	}
	res, body = ts.get("/package/npm/docs-server/1.0.0")
	outcome := between(body, `class="outcome`, `</section>`)
	a, p, g := strings.Index(outcome, "advertised_tools_not_parsed"), strings.Index(outcome, "partial_description"), strings.Index(outcome, "gate_failed_as_recorded")
	if res.StatusCode != 200 || a < 0 || p < a || g < p || !strings.Contains(outcome, "own gate agreed") {
		t.Errorf("package page: %d, reasons not explaining-first: %s", res.StatusCode, outcome)
	}
	// G2 alone stays what it is, with the gate map's line.
	res, body = ts.get("/package/npm/odd-server/0.0.1")
	if res.StatusCode != 200 || !strings.Contains(between(body, `class="outcome`, `</section>`), "said this package cannot be graded") {
		t.Errorf("G2 alone: %d", res.StatusCode)
	}
}

// between returns the text of s from the first from to the next to after it
// ("" when from is absent).
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s[len(from):], to); j >= 0 {
		return s[:len(from)+j]
	}
	return s
}
