package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/vocab"
)

func TestListPackages(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/packages")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var l api.PackageList
	if err := json.Unmarshal([]byte(body), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 7 || l.Counts.ByVerdict["graded"] != 5 || l.Counts.ByVerdict["not_gradeable"] != 1 ||
		l.Counts.ByReason["minified_only"] != 1 || l.Counts.ByReason["not_a_server"] != 1 {
		t.Fatalf("list: %s", body)
	}
	// Pages of two cover the same items in the same order.
	var names []string
	next := "/packages?limit=2"
	for next != "" {
		res, body := ts.get(next)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", next, res.StatusCode, body)
		}
		var page api.PackageList
		_ = json.Unmarshal([]byte(body), &page)
		for _, it := range page.Items {
			names = append(names, it.Registry+":"+it.Name+"@"+it.Version)
		}
		next = ""
		if page.NextCursor != nil {
			next = "/packages?limit=2&cursor=" + *page.NextCursor
		}
	}
	var all []string
	for _, it := range l.Items {
		all = append(all, it.Registry+":"+it.Name+"@"+it.Version)
	}
	if strings.Join(names, " ") != strings.Join(all, " ") {
		t.Fatalf("pages %v\n  all %v", names, all)
	}
	for q, want := range map[string]int{
		"?q=acme": 3, "?q=win&registry=pypi": 1, "?verdict=not_gradeable": 1, "?reason=minified_only": 1,
		"?grade=B": 1, "?reason=not_a_server": 1, "?q=zzz": 0,
		// A code of the gate map that no version carries is an empty page,
		// as on the grades page.
		"?reason=verifier_rejected": 0,
	} {
		res, body := ts.get("/packages" + q)
		var page api.PackageList
		_ = json.Unmarshal([]byte(body), &page)
		if res.StatusCode != 200 || len(page.Items) != want {
			t.Errorf("%s: %d items, want %d (%d)", q, len(page.Items), want, res.StatusCode)
		}
	}
	for _, bad := range []string{"?limit=0", "?limit=201", "?grade=E", "?cursor=$$", "?reason=Bad-Code", "?cursor=zzzzzzzzzzzzzzzzzzzz",
		// Well formed, but neither in the gate map nor carried by a version:
		// a typo, refused as the grades page refuses it.
		"?reason=minified_onyl"} {
		if res, _ := ts.get("/packages" + bad); res.StatusCode != 400 {
			t.Errorf("%s: %d", bad, res.StatusCode)
		}
	}
}

func TestPackageDetail(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/packages/npm/@acme/files/1.0.0")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var d api.PackageDetail
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Findings) != 1 || d.Findings[0].Status != "withdrawn_on_appeal" || len(d.Capabilities) != 2 ||
		len(d.NotAssessed) != 4 || len(d.Tools) != 3 || strings.Join(d.Versions, ",") != "1.1.0,1.0.0" || string(d.MCPSurface) == "" {
		t.Fatalf("detail: %s", body)
	}
	res, body = ts.get("/packages/npm/minified-server/2.0.0")
	if err := json.Unmarshal([]byte(body), &d); err != nil || res.StatusCode != 200 {
		t.Fatal(res.StatusCode, err)
	}
	e, _ := vocab.GateEntryFor("minified_only")
	if d.Verdict != "not_gradeable" || d.Grade != nil || len(d.BlockedBy) != 1 || d.BlockedBy[0].Line != e.Line || d.BlockedBy[0].Guard != "G3" {
		t.Fatalf("refusal with its gate-map line: %s", body)
	}
	if res, body := ts.get("/packages/npm/@acme/files/3.0.0"); res.StatusCode != 404 || !strings.Contains(body, "1.1.0") {
		t.Fatalf("unknown version: %d %s", res.StatusCode, body)
	}
	if res, _ := ts.get("/packages/maven/x/1"); res.StatusCode != 400 {
		t.Fatalf("bad registry: %d", res.StatusCode)
	}
}

func TestGateMap(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/gate_map.json")
	var gm api.GateMap
	if err := json.Unmarshal([]byte(body), &gm); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %v", res.StatusCode, err)
	}
	if gm.MethodologyVersion != methodology.Version || len(gm.Codes) != len(vocab.GateMap) || gm.Codes[0].Code != vocab.GateMap[0].Code {
		t.Fatalf("gate map: %s", body)
	}
	// With nothing loaded the policy's own map is served.
	empty := newTestServer(t, openStore(t))
	res, body2 := empty.get("/gate_map.json")
	if res.StatusCode != 200 || body2 != body {
		t.Fatalf("empty database: %d\n%s\n%s", res.StatusCode, body2, body)
	}
}

func TestRuns(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/runs?limit=1")
	var l api.RunList
	if err := json.Unmarshal([]byte(body), &l); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	fin := t0.Add(7*24*time.Hour - 32*24*time.Hour + 2*time.Hour)
	if len(l.Items) != 1 || l.Items[0].ID != "run-2" || l.NextCursor == nil || l.Items[0].Publications[0] != "pub-2" ||
		l.Items[0].FinishedAt == nil || !l.Items[0].FinishedAt.Equal(fin) {
		t.Fatalf("first page: %s", body)
	}
	res, body = ts.get("/runs?limit=1&cursor=" + *l.NextCursor)
	if err := json.Unmarshal([]byte(body), &l); err != nil || res.StatusCode != 200 || len(l.Items) != 1 || l.Items[0].ID != "run-1" || l.NextCursor != nil {
		t.Fatalf("second page: %s", body)
	}
	res, body = ts.get("/runs/run-1/diff")
	if res.StatusCode != 200 || !strings.Contains(body, `"run_id":"run-1"`) {
		t.Fatalf("diff of run-1 (run_id added): %d %s", res.StatusCode, body)
	}
	res, body = ts.get("/runs/run-2/diff")
	if res.StatusCode != 200 || !strings.Contains(body, `"previous_run_id":"run-1"`) {
		t.Fatalf("diff of run-2: %d %s", res.StatusCode, body)
	}
	if res, _ := ts.get("/runs/run-9/diff"); res.StatusCode != 404 {
		t.Fatalf("unknown run: %d", res.StatusCode)
	}
}

func TestFindingAndEvidence(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/findings/F-1")
	var f api.FindingDetail
	if err := json.Unmarshal([]byte(body), &f); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if f.Finding.Status != "withdrawn_on_appeal" || f.PublicationID != "pub-2" || len(f.Appeals) != 1 || f.Appeals[0].Status != "upheld" ||
		f.Package.Name != "@acme/files" || f.Finding.Evidence.Excerpt == "" {
		t.Fatalf("finding: %s", body)
	}
	if res, _ := ts.get("/findings/F-404"); res.StatusCode != 404 {
		t.Fatalf("unknown finding: %d", res.StatusCode)
	}
	if res, _ := ts.get("/findings/bad%20id"); res.StatusCode != 400 {
		t.Fatalf("bad id: %d", res.StatusCode)
	}
	sha := f.Finding.Evidence.SHA256
	res, body = ts.get("/evidence/" + sha)
	if res.StatusCode != 200 || !strings.Contains(body, f.Finding.Evidence.Excerpt) {
		t.Fatalf("evidence: %d", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("a JavaScript file is served as text, got %q", ct)
	}
	if res.Header.Get("ETag") != `"`+sha+`"` || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("caching headers: %v", res.Header)
	}
	req := httptest.NewRequest(http.MethodGet, "/evidence/"+sha, nil)
	req.Header.Set("If-None-Match", `"`+sha+`"`)
	if r := ts.do(req); r.StatusCode != 304 {
		t.Errorf("If-None-Match: %d", r.StatusCode)
	}
	if res, _ := ts.get("/evidence/" + strings.Repeat("0", 64)); res.StatusCode != 404 {
		t.Fatalf("unknown blob: %d", res.StatusCode)
	}
	if res, _ := ts.get("/evidence/" + strings.Repeat("A", 64)); res.StatusCode != 400 {
		t.Fatalf("uppercase hex: %d", res.StatusCode)
	}
}

func TestServedType(t *testing.T) {
	for in, want := range map[string]string{
		"application/json": "application/json", "application/vnd.x+json": "application/json",
		"text/javascript": "text/plain; charset=utf-8", "text/html; charset=utf-8": "text/plain; charset=utf-8",
		"application/gzip": "application/octet-stream", "": "application/octet-stream", "bogus//": "application/octet-stream",
	} {
		if got := servedType(in); got != want {
			t.Errorf("servedType(%q) = %q, want %q", in, got, want)
		}
	}
}
