package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store/storetest"
)

// TestAttestationsOverHTTP: the envelope is served byte for byte by name and
// by PURL, verifies against the served key set, revalidates with its ETag;
// a version published without one is a 404, and so is the key set of a
// server configured with none.
func TestAttestationsOverHTTP(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	ctx := context.Background()
	p := storetest.Publication("pub-signed", "run-signed", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	p.Packages = append(p.Packages, storetest.Package("npm", "@acme/signed", "1.0.0", "graded", "B", nil, storetest.Tool("t", "readable", "A tool.", "none", "")))
	blobs := policy.MapBlobs{}
	for _, pk := range p.Packages {
		blobs[pk.ArtifactSHA256] = []byte(pk.Package.Key())
	}
	if err := publish.SignAttestations(ctx, p, testSigningKey(t), blobs); err != nil {
		t.Fatal(err)
	}
	unsigned := storetest.Publication("pub-unsigned", "run-unsigned", time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC))
	unsigned.Packages = append(unsigned.Packages, storetest.Package("npm", "plain", "1.0.0", "graded", "A", nil))
	for _, pub := range []*publish.Publication{p, unsigned} {
		if err := st.LoadPublication(ctx, pub); err != nil {
			t.Fatal(err)
		}
	}
	ts := newTestServer(t, st)
	res, body := ts.get("/attestations/@acme/signed/1.0.0")
	if res.StatusCode != 200 || !bytes.Equal([]byte(body), bytes.TrimSuffix(p.Attestations, []byte("\n"))) {
		t.Fatalf("%d: not the published bytes: %s", res.StatusCode, body)
	}
	kres, keys := ts.get("/.well-known/attestari-keys.json")
	ks, err := attest.ParseKeySet([]byte(keys))
	if kres.StatusCode != 200 || err != nil {
		t.Fatalf("key set: %d %v", kres.StatusCode, err)
	}
	v, err := attest.Verify(ctx, []byte(body), ks)
	if err != nil || *v.Statement.Predicate.Grade != "B" {
		t.Fatalf("verify: %v", err)
	}
	if res2, body2 := ts.get("/attestations?purl=pkg:npm/%40acme/signed@1.0.0"); res2.StatusCode != 200 || body2 != body {
		t.Fatalf("by purl: %d", res2.StatusCode)
	}
	req := httptest.NewRequest(http.MethodGet, "/attestations/@acme/signed/1.0.0", nil)
	req.Header.Set("If-None-Match", res.Header.Get("ETag"))
	if r := ts.do(req); r.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", r.StatusCode)
	}
	for _, path := range []string{"/attestations/plain/1.0.0", "/attestations/@acme/signed/9.0.0", "/attestations?purl=pkg:npm/none@1.0.0"} {
		if r, _ := ts.get(path); r.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", path, r.StatusCode)
		}
	}
	lres, lbody := postJSON(ts, "/lookup", `{"items":[{"registry":"npm","name":"@acme/signed","version":"1.0.0"},{"registry":"npm","name":"plain","version":"1.0.0"}]}`)
	sum := sha256.Sum256([]byte(body))
	if lres.StatusCode != 200 || !strings.Contains(lbody, `"attestation_sha256":"`+hex.EncodeToString(sum[:])+`"`) || !strings.Contains(lbody, `"attestation_sha256":null`) {
		t.Fatalf("lookup names the attestation's hash: %d %s", lres.StatusCode, lbody)
	}
	if r, _ := ts.get("/attestations?purl=pkg:maven/x@1"); r.StatusCode != 400 {
		t.Errorf("a purl of another type: %d", r.StatusCode)
	}
	bare, err := New(Options{Reader: st, RequestsPerMinute: 100000})
	if err != nil {
		t.Fatal(err)
	}
	bts := &testServer{Server: bare, t: t}
	if r, _ := bts.get("/.well-known/attestari-keys.json"); r.StatusCode != 404 {
		t.Fatalf("no key set configured: %d", r.StatusCode)
	}
	if _, err := New(Options{Reader: st, AttestationKeys: []byte(`{"keys":[]}`)}); err == nil {
		t.Fatal("an invalid key set was accepted")
	}
}
