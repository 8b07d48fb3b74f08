package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/attestari/attestari/api"
)

func TestManifest(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/manifest/@acme/files/1.0.0")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var m api.Manifest
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256([]byte(body)); res.Header.Get("ETag") != `"`+hex.EncodeToString(sum[:])+`"` {
		t.Fatalf("ETag %q is not the SHA-256 of the body", res.Header.Get("ETag"))
	}
	// The row served for a version changes (appeals, newer publications):
	// cached for minutes, then revalidated; never "immutable".
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("Cache-Control %q", cc)
	}
	if m.Grade == nil || *m.Grade != "A" || m.PublishedAt.Equal(t0) || len(m.Tools) != 3 || m.Tools[0].Description == nil || *m.Tools[0].Description != poisoned {
		t.Fatalf("the newest publication's row is served: %+v", m)
	}
	// The encoded slash addresses the same resource.
	res2, body2 := ts.get("/manifest/@acme%2Ffiles/1.0.0")
	if res2.StatusCode != 200 || body2 != body {
		t.Fatalf("encoded form: %d", res2.StatusCode)
	}
	req := httptest.NewRequest(http.MethodGet, "/manifest/@acme/files/1.0.0", nil)
	req.Header.Set("If-None-Match", `"0000", `+res.Header.Get("ETag"))
	if r := ts.do(req); r.StatusCode != http.StatusNotModified || r.Header.Get("ETag") == "" {
		t.Fatalf("If-None-Match with the current tag: %d", r.StatusCode)
	}
	req = httptest.NewRequest(http.MethodGet, "/manifest/@acme/files/1.0.0", nil)
	req.Header.Set("If-None-Match", `"0000"`)
	if r := ts.do(req); r.StatusCode != 200 {
		t.Fatalf("If-None-Match with another tag: %d", r.StatusCode)
	}
	// A refused package has no manifest hash: it has a tag all the same.
	res, body = ts.get("/manifest/minified-server/2.0.0")
	if res.StatusCode != 200 || len(res.Header.Get("ETag")) != 66 || !strings.Contains(body, `"manifest_reason":"surface_not_parsed"`) {
		t.Fatalf("refused: %d %s %s", res.StatusCode, res.Header.Get("ETag"), body)
	}
}

func TestManifestErrors(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/manifest/@acme/files/9.9.9")
	var p api.Problem
	_ = json.Unmarshal([]byte(body), &p)
	if res.StatusCode != 404 || strings.Join(p.KnownVersions, ",") != "1.1.0,1.0.0" {
		t.Fatalf("unknown version: %d %s", res.StatusCode, body)
	}
	res, body = ts.get("/manifest/nobody-at-all/1.0.0")
	if res.StatusCode != 404 || strings.Contains(body, "known_versions") {
		t.Fatalf("unknown name: %d %s", res.StatusCode, body)
	}
	res, body = ts.get("/manifest/twin/1.0.0")
	p = api.Problem{}
	_ = json.Unmarshal([]byte(body), &p)
	if res.StatusCode != 409 || strings.Join(p.Registries, ",") != "npm,pypi" {
		t.Fatalf("a name on both registries: %d %s", res.StatusCode, body)
	}
	res, body = ts.get("/manifest/twin/1.0.0?registry=pypi")
	if res.StatusCode != 200 || !strings.Contains(body, `"registry":"pypi"`) || !strings.Contains(body, `"grade":"B"`) {
		t.Fatalf("with ?registry: %d %s", res.StatusCode, body)
	}
	for _, bad := range []string{"/manifest/..%2F..%2Fetc/1.0.0", "/manifest/ok/1.0.0%20rm", "/manifest/twin/1.0.0?registry=maven", "/manifest/@Scope/x/1"} {
		if res, body := ts.get(bad); res.StatusCode != 400 || !strings.Contains(body, "parameter") {
			t.Errorf("%s: %d %s", bad, res.StatusCode, body)
		}
	}
}

func TestManifestByPURL(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/manifest?purl=" + "pkg:npm/%2540acme/files@1.0.0")
	if res.StatusCode != 200 || !strings.Contains(body, `"name":"@acme/files"`) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	res, body = ts.get("/manifest?purl=pkg:pypi/Twin@1.0.0")
	if res.StatusCode != 200 || !strings.Contains(body, `"registry":"pypi"`) {
		t.Fatalf("pypi: %d %s", res.StatusCode, body)
	}
	for _, bad := range []string{"pkg:npm/files", "pkg:npm/a/b/c@1", "pkg:npm/x@1?repository_url=elsewhere"} {
		res, body := ts.get("/manifest?purl=" + bad)
		if res.StatusCode != 400 || !strings.Contains(body, `\"purl\"`) {
			t.Errorf("%s: %d %s", bad, res.StatusCode, body)
		}
	}
	if res, _ := ts.get("/manifest?purl=pkg:maven/x@1"); res.StatusCode != 400 {
		t.Errorf("a type outside the contract: %d", res.StatusCode)
	}
	if res, _ := ts.get("/manifest?purl=pkg:npm/nothing-here@1.0.0"); res.StatusCode != 404 {
		t.Errorf("unknown: %d", res.StatusCode)
	}
}

func postJSON(ts *testServer, path, body string) (*http.Response, string) {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res := ts.do(req)
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestLookup(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := postJSON(ts, "/lookup", `{"items":[
		{"registry":"npm","name":"minified-server","version":"2.0.0"},
		{"registry":"npm","name":"nope","version":"1"},
		{"registry":"pypi","name":"twin","version":"1.0.0"},
		{"registry":"npm","name":"@acme/files","version":"1.1.0"}]}`)
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var out api.LookupResponse
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 4 || out.Items[0].Name != "minified-server" || *out.Items[0].Verdict != "not_gradeable" ||
		out.Items[1].Found || *out.Items[2].Grade != "B" || out.Items[3].ManifestHash == nil || out.Items[3].PublishedAt == nil {
		t.Fatalf("items: %s", body)
	}
	many := `{"items":[` + strings.Repeat(`{"registry":"npm","name":"a","version":"1"},`, 1000) + `{"registry":"npm","name":"a","version":"1"}]}`
	if res, body := postJSON(ts, "/lookup", many); res.StatusCode != 400 || !strings.Contains(body, "request body") {
		t.Fatalf("1,001 items: %d %s", res.StatusCode, body)
	}
	full := `{"items":[` + strings.TrimSuffix(strings.Repeat(`{"registry":"npm","name":"twin","version":"1.0.0"},`, 1000), ",") + `]}`
	if res, body := postJSON(ts, "/lookup", full); res.StatusCode != 200 || strings.Count(body, `"found":true`) != 1000 {
		t.Fatalf("1,000 items: %d", res.StatusCode)
	}
	for _, bad := range []string{`{"items":[]}`, `{}`, `not json`, `{"items":[{"registry":"maven","name":"a","version":"1"}]}`} {
		if res, body := postJSON(ts, "/lookup", bad); res.StatusCode != 400 {
			t.Errorf("%s: %d %s", bad, res.StatusCode, body)
		}
	}
}

func TestVersionDiff(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	res, body := ts.get("/diff/@acme/files/1.0.0/1.1.0")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var d api.VersionDiff
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	changes := map[string]string{}
	for _, c := range d.Tools {
		changes[c.Name] = c.Change
	}
	if changes["read_file"] != "description_changed" || changes["write_file"] != "added" || changes["list"] != "removed" || changes["search"] != "removed" {
		t.Fatalf("tools: %v", changes)
	}
	if len(d.CapabilitiesRemoved) != 1 || d.CapabilitiesRemoved[0].Kind != "network" || len(d.CapabilitiesAdded) != 0 {
		t.Fatalf("capabilities: %s", body)
	}
	if res, body := ts.get("/diff/@acme/files/1.0.0/7.0.0"); res.StatusCode != 404 || !strings.Contains(body, "known_versions") {
		t.Fatalf("unknown to: %d %s", res.StatusCode, body)
	}
	if res, _ := ts.get("/diff/twin/1.0.0/1.0.0"); res.StatusCode != 409 {
		t.Fatalf("ambiguous: %d", res.StatusCode)
	}
	if res, body := ts.get("/diff/twin/1.0.0/1.0.0?registry=npm"); res.StatusCode != 200 || !strings.Contains(body, `"tools":[]`) {
		t.Fatalf("same version: %d %s", res.StatusCode, body)
	}
}

func TestNoDatabaseIs503(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, p := range []string{"/manifest/x/1", "/packages", "/gate_map.json", "/runs"} {
		if res, _ := ts.get(p); res.StatusCode != 503 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
}

// TestRevalidationSeesAnAppeal: a version whose tools (so its manifest hash)
// stay the same while its grade changes with a newer publication must not
// answer 304 to the tag a client cached before: the client would keep the
// old grade.
func TestRevalidationSeesAnAppeal(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	pubs := seedPublications()
	if err := st.LoadPublication(context.Background(), pubs[0]); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, st)
	res, before := ts.get("/manifest/@acme/files/1.0.0")
	if res.StatusCode != 200 || !strings.Contains(before, `"grade":"F"`) {
		t.Fatalf("before the appeal: %d %s", res.StatusCode, before)
	}
	tag := res.Header.Get("ETag")
	if err := st.LoadPublication(context.Background(), pubs[1]); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/manifest/@acme/files/1.0.0", nil)
	req.Header.Set("If-None-Match", tag)
	after := ts.do(req)
	b, _ := io.ReadAll(after.Body)
	if after.StatusCode != 200 || !strings.Contains(string(b), `"grade":"A"`) || after.Header.Get("ETag") == tag {
		t.Fatalf("after the appeal, revalidating with the old tag: %d %s (tag %s)", after.StatusCode, b, after.Header.Get("ETag"))
	}
	var m1, m2 api.Manifest
	if json.Unmarshal([]byte(before), &m1) != nil || json.Unmarshal(b, &m2) != nil || *m1.ManifestHash != *m2.ManifestHash {
		t.Fatal("the test's premise: the attested tools, and so the manifest hash, are the same")
	}
}
