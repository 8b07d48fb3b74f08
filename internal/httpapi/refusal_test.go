package httpapi

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
	"github.com/attestari/attestari/internal/vocab"
)

// refusalPublication holds one refused package whose reasons say what
// failed and where, as a publication carries them (policy.Blocking), and
// one whose partial description's text was withheld for personal data.
func refusalPublication() *publish.Publication {
	p := storetest.Publication("pub-r", "run-r", t0)
	p.Diff = []byte(`{"previous_run_id":null,"changed":[]}`)
	codes := []string{vocab.CodeGateFailedAsRecorded, vocab.CodeMinifiedOnly, vocab.CodeAdvertisedToolsNotParsed, vocab.CodePartialDescription}
	refused := storetest.Package("npm", "docs-server", "3.1.0", "not_gradeable", "", codes,
		storetest.Tool("search", "partial", "Searches the  index for a library's docs.", "json", `{"type":"object"}`))
	refused.Blocking = []policy.Blocking{
		{Code: vocab.CodeGateFailedAsRecorded, Guard: "G2", Detail: "recorded reasons: minified_only, advertised_tools_not_parsed, partial_description",
			Names: []string{vocab.CodeMinifiedOnly, vocab.CodeAdvertisedToolsNotParsed, vocab.CodePartialDescription}},
		{Code: vocab.CodeMinifiedOnly, Guard: "G3", Detail: "registration text exists only in minified bundles; dist/index.min.js: minified bundle of 90000 bytes, longest line 89000 bytes",
			File: "dist/index.min.js", Line: 1, Names: []string{"dist/index.min.js"}},
		{Code: vocab.CodeAdvertisedToolsNotParsed, Guard: "G3", Detail: "advertised, not parsed: get-library-docs, resolve-library-id",
			File: "README.md", Line: 14, Names: []string{"get-library-docs", "resolve-library-id"}},
		{Code: vocab.CodePartialDescription, Guard: "G3", Detail: "1 partial description(s) with 1 substitution(s) no finding quotes: tool search",
			File: "src/tools.js", Line: 22, Names: []string{"tool search"},
			Partial: []policy.PartialEntry{{Kind: "tool", Name: "search", File: "src/tools.js", Line: 22,
				Text: "Searches the  index for a library's docs.", Holes: []policy.PartialHole{{Offset: len("Searches the "), Line: 22, Source: "${INDEX_NAME}"}}}}},
	}
	withheld := storetest.Package("npm", "helpdesk-server", "1.0.0", "not_gradeable", "", []string{vocab.CodePartialDescription, vocab.CodeExcerptUnverified, vocab.CodeEvidenceUnpublishable})
	withheld.Blocking = []policy.Blocking{
		{Code: vocab.CodePartialDescription, Guard: "G3", Detail: "1 partial description(s) with 1 substitution(s) no finding quotes: tool support",
			File: "index.js", Line: 3, Names: []string{"tool support"},
			Partial: []policy.PartialEntry{{Kind: "tool", Name: "support", File: "index.js", Line: 3, TextWithheld: publish.WithheldPersonalData,
				Holes: []policy.PartialHole{{Line: 3}}}}},
		{Code: vocab.CodeExcerptUnverified, Guard: "G6", Detail: "finding zq-withheld-id: excerpt_not_in_blob ", File: "zq-withheld-path.js", Line: 9, Findings: []string{"zq-withheld-id"}},
		{Code: vocab.CodeEvidenceUnpublishable, Guard: "publish", Detail: "the package's published rows carry personal data (package at /tools/0/description_raw: a phone number)"},
	}
	p.Packages = append(p.Packages, refused, withheld)
	return p
}

func refusalServer(t *testing.T) *testServer {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dbtest.URL(t), store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	if err := st.LoadPublication(ctx, refusalPublication()); err != nil {
		t.Fatal(err)
	}
	return newTestServer(t, st)
}

// GET /packages/{registry}/{name}/{version} serves each reason's detail as
// the publication states it, within the contract (every response of the
// test server is validated against openapi.yaml).
func TestPackageServesReasonDetail(t *testing.T) {
	t.Parallel()
	ts := refusalServer(t)
	res, body := ts.get("/packages/npm/docs-server/3.1.0")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var d api.PackageDetail
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	by := map[string]api.BlockedBy{}
	for _, b := range d.BlockedBy {
		by[b.Code] = b
	}
	if len(d.BlockedBy) != 4 {
		t.Fatalf("blocked_by %+v", d.BlockedBy)
	}
	for code, b := range by {
		if b.Detail == nil || b.Detail.Summary == "" || b.Line == "" {
			t.Errorf("%s: no detail or gate-map line: %+v", code, b)
		}
	}
	m := by[vocab.CodeMinifiedOnly].Detail
	if m.File == nil || *m.File != "dist/index.min.js" || m.Line == nil || *m.Line != 1 || !strings.Contains(m.Summary, "longest line 89000 bytes") {
		t.Errorf("minified_only detail %+v", m)
	}
	a := by[vocab.CodeAdvertisedToolsNotParsed].Detail
	if a.File == nil || *a.File != "README.md" || len(a.Names) != 2 || a.Names[0] != "get-library-docs" {
		t.Errorf("advertised detail %+v", a)
	}
	pd := by[vocab.CodePartialDescription].Detail
	if len(pd.Partial) != 1 {
		t.Fatalf("partial detail %+v", pd)
	}
	if e := pd.Partial[0]; e.Name != "search" || e.Text != "Searches the  index for a library's docs." || len(e.Holes) != 1 || e.Holes[0].Offset != 13 || e.Holes[0].Source != "${INDEX_NAME}" || e.TextWithheld != nil {
		t.Errorf("partial entry %+v", e)
	}
	if g2 := by[vocab.CodeGateFailedAsRecorded].Detail; g2.File != nil || g2.Line != nil || len(g2.Names) != 3 {
		t.Errorf("a reason without a place serves none: %+v", g2)
	}

	res, body = ts.get("/packages/npm/helpdesk-server/1.0.0")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	d = api.PackageDetail{}
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	if p := d.BlockedBy[0].Detail.Partial; len(p) != 1 || p[0].TextWithheld == nil || *p[0].TextWithheld != publish.WithheldPersonalData || p[0].Text != "" {
		t.Errorf("withheld partial %+v", d.BlockedBy[0].Detail)
	}

	// A reason resting on a finding keeps its code and says the finding is
	// withheld, never which or where.
	if ex := d.BlockedBy[1]; ex.Code != vocab.CodeExcerptUnverified || ex.Detail == nil || ex.Detail.File != nil || len(ex.Detail.Names) != 0 || !strings.Contains(ex.Detail.Summary, "withheld from publication") {
		t.Errorf("excerpt_unverified served as %+v", ex.Detail)
	}
	if strings.Contains(body, "zq-withheld") {
		t.Errorf("a withheld finding's id or place is served: %s", body)
	}
	if up := d.BlockedBy[2].Detail; up == nil || !strings.Contains(up.Summary, "/tools/0/description_raw: a phone number") {
		t.Errorf("evidence_unpublishable resting on no finding keeps its detail: %+v", up)
	}

	// Lists carry the codes only; the detail is the version's own row.
	_, body = ts.get("/packages?verdict=not_gradeable")
	if strings.Contains(body, `"summary"`) || strings.Contains(body, "INDEX_NAME") {
		t.Errorf("/packages serves reason detail: %s", firstLine(body))
	}
}

// The package page of a refusal says, for each reason, what failed and
// where, and shows a partial description with each hole marked where it
// sits, in the reason and in the tool table.
func TestRefusalDetailInBrowser(t *testing.T) {
	t.Parallel()
	ts := refusalServer(t)
	srv := httptest.NewServer(ts.Server)
	defer srv.Close()
	ctx, problems := browser(t, 1280, 900)

	do(t, ctx, chromedp.Navigate(srv.URL+"/package/npm/docs-server/3.1.0"), chromedp.WaitVisible(chromedp.CSS(".outcome .reason")))
	reasons := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".outcome .reason")).map(e => e.innerText)`))
	if len(reasons) != 4 {
		t.Fatalf("reasons %q", reasons)
	}
	for i, want := range [][]string{
		// The explaining reasons first, G2 (the run's own gate agreed) last.
		{"minified_only", "longest line 89000 bytes", "at dist/index.min.js:1"},
		{"advertised_tools_not_parsed", "advertised, not parsed: get-library-docs, resolve-library-id", "at README.md:14"},
		{"partial_description", "at src/tools.js:22", "The description of tool search at src/tools.js:22"},
		{"gate_failed_as_recorded", "The run's own gate agreed", "recorded reasons"},
	} {
		for _, w := range want {
			if !strings.Contains(reasons[i], w) {
				t.Errorf("reason %d lacks %q: %q", i, w, reasons[i])
			}
		}
	}
	// The description reads, to eyes and to a screen reader, with the hole
	// at its place.
	quote := run(t, ctx, chromedp.Evaluate[string](`document.querySelector(".outcome blockquote.partial").textContent`))
	if quote != "Searches the [substitution not read: «${INDEX_NAME}»] index for a library's docs." {
		t.Errorf("partial description reads %q", quote)
	}
	// The hole is drawn: a box of its own, with a border, not a collapsed
	// double space; the tool table marks it too.
	holes := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".hole")).map(e => {
	  const r = e.getBoundingClientRect(), st = getComputedStyle(e);
	  return e.textContent + "|" + (r.width > 20 && r.height > 0) + "|" + st.borderTopStyle + "|" + (e.closest("table") ? "table" : "reason");
	})`))
	want := []string{
		"[substitution not read: «${INDEX_NAME}»]|true|dashed|reason",
		"[substitution not read: «${INDEX_NAME}»]|true|dashed|table",
	}
	if strings.Join(holes, "\n") != strings.Join(want, "\n") {
		t.Errorf("holes\n got %q\nwant %q", holes, want)
	}
	if low := run(t, ctx, chromedp.Evaluate[[]string](contrastJS)); len(low) > 0 {
		t.Errorf("text below WCAG AA contrast: %v", low)
	}
	shoot(t, ctx, "package-refused-detail")

	// A partial description whose text was withheld says so and shows none.
	do(t, ctx, chromedp.Navigate(srv.URL+"/package/npm/helpdesk-server/1.0.0"), chromedp.WaitVisible(chromedp.CSS(".outcome .reason")))
	body := run(t, ctx, chromedp.Text(chromedp.CSS(".outcome")))
	if !strings.Contains(body, "withheld: it carries personal data") || run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll(".hole").length`)) != 0 {
		t.Errorf("withheld partial: %q", body)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("console errors: %v", p)
	}
}
