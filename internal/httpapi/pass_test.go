package httpapi

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store/storetest"
)

// seededPass loads, after the seed's publications, one of its own with
// known counts: two graded (A, C), three refused (two carry
// partial_description, one minified_only, all the recorded gate's code),
// one out of scope.
func seededPass(t *testing.T) *testServer {
	t.Helper()
	st := openStore(t)
	for _, p := range seedPublications() {
		if err := st.LoadPublication(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	p := storetest.Publication("pub-pass", "run-pass", t0.Add(20*24*time.Hour))
	p.Header.Supersedes = "pub-2"
	p.Packages = append(p.Packages,
		storetest.Package("npm", "pass-a", "1.0.0", "graded", "A", nil),
		storetest.Package("npm", "pass-c", "1.0.0", "graded", "C", nil),
		storetest.Package("npm", "pass-r1", "1.0.0", "not_gradeable", "", []string{"gate_failed_as_recorded", "partial_description"}),
		storetest.Package("npm", "pass-r2", "1.0.0", "not_gradeable", "", []string{"gate_failed_as_recorded", "partial_description", "minified_only"}),
		storetest.Package("npm", "pass-r3", "1.0.0", "not_gradeable", "", []string{"gate_failed_as_recorded", "minified_only"}),
		storetest.Package("npm", "pass-client", "1.0.0", "out_of_scope", "", []string{"not_a_server"}))
	if err := st.LoadPublication(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return newTestServer(t, st)
}

// TestLatestPassCountsTheNewestPublication: GET /pass counts the newest
// publication alone (not the versions earlier publications left current),
// by verdict, grade and reason code, and validates against the contract.
func TestLatestPassCountsTheNewestPublication(t *testing.T) {
	t.Parallel()
	ts := seededPass(t)
	res, body := ts.get("/pass")
	if res.StatusCode != 200 {
		t.Fatalf("GET /pass: %d %s", res.StatusCode, body)
	}
	var p api.Pass
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if p.RunID != "run-pass" || p.PublicationID != "pub-pass" || p.Packages != 6 {
		t.Fatalf("pass: run %s publication %s packages %d", p.RunID, p.PublicationID, p.Packages)
	}
	if p.ByVerdict["graded"] != 2 || p.ByVerdict["not_gradeable"] != 3 || p.ByVerdict["out_of_scope"] != 1 {
		t.Errorf("by verdict: %v", p.ByVerdict)
	}
	if p.ByGrade["A"] != 1 || p.ByGrade["C"] != 1 || len(p.ByGrade) != 2 {
		t.Errorf("by grade: %v", p.ByGrade)
	}
	want := []api.PassReason{{Code: "gate_failed_as_recorded", Packages: 3}, {Code: "minified_only", Packages: 2}, {Code: "partial_description", Packages: 2}}
	if len(p.ByReason) != len(want) {
		t.Fatalf("by reason: %v", p.ByReason)
	}
	for i := range want {
		if p.ByReason[i] != want[i] {
			t.Errorf("by reason %d: %v, want %v", i, p.ByReason[i], want[i])
		}
	}
}

// TestLatestPassBeforeAnyPublication: 404 as JSON, and a page that says
// nothing is published yet.
func TestLatestPassBeforeAnyPublication(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, openStore(t))
	if res, body := ts.get("/pass"); res.StatusCode != 404 {
		t.Errorf("GET /pass with nothing published: %d %s", res.StatusCode, body)
	}
	res, body := ts.get("/latest-pass")
	if res.StatusCode != 200 || !strings.Contains(body, "Nothing is published yet") {
		t.Errorf("GET /latest-pass with nothing published: %d %s", res.StatusCode, body)
	}
}

// TestLatestPassPage: the page shows the run, the counts, and links each
// reason code to its gate-map line and each verdict to the grades page.
func TestLatestPassPage(t *testing.T) {
	t.Parallel()
	ts := seededPass(t)
	res, body := ts.get("/latest-pass")
	if res.StatusCode != 200 {
		t.Fatalf("GET /latest-pass: %d", res.StatusCode)
	}
	for _, want := range []string{
		"<code>run-pass</code>",
		"It holds 6 package versions.",
		`<a href="/gate-map#minified_only"><code>minified_only</code></a></td><td>2</td>`,
		"<td>Not graded (refused) <code>not_gradeable</code></td><td>3</td>",
		"<td>Grade C</td><td>1</td>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if _, home := ts.get("/"); !strings.Contains(home, `<a href="/latest-pass">The latest pass</a>`) {
		t.Error("the home page does not link the latest pass")
	}
}
