//go:build corpus

package checks

// The opt-in real-registry test of publisher_provenance:
//
//	go test -tags corpus -run Corpus ./internal/checks/
//
// It fetches sigstore@2.0.0 (a real npm package published with build
// provenance) from the registry this machine's npm client is configured
// for, asks that registry for the version's attestations, and runs the
// check on what it served. When the registry serves the attestations, they
// are verified as served; when it does not (a mirror answers 404), the
// check must say "not served", never no_build_attestation, and the
// provenance bundle the public registry served for this version (kept by
// sigstore-go as test data) is verified against the tarball this registry
// served — the subject digest is the sha512 of these very bytes — and a
// tampered copy of it must fail.

import (
	"context"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
	sgdata "github.com/sigstore/sigstore-go/pkg/testing/data"
)

func TestCorpusRealProvenance(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base, err := registry.DefaultNPMRegistry(ctx)
	if err != nil {
		t.Fatalf("no registry configured: %v", err)
	}
	c, err := registry.NewNPM(base, registry.Options{Version: "corpus-test"})
	if err != nil {
		t.Fatal(err)
	}
	ref := rundir.PackageRef{Registry: "npm", Name: "sigstore", Version: "2.0.0"}
	p, err := c.Packument(ctx, ref.Name)
	if err != nil {
		t.Fatalf("packument: %v", err)
	}
	m := p.Versions[ref.Version]
	if m == nil {
		t.Fatal("the registry has no sigstore@2.0.0")
	}
	tgz, err := c.Tarball(ctx, m)
	if err != nil {
		t.Fatalf("tarball: %v", err)
	}
	sum := sha512.Sum512(tgz.Response.Body)
	sha := hex.EncodeToString(sum[:])
	att, _ := c.Attestations(ctx, ref.Name, ref.Version)

	stored := func(r registry.Response) StoredRecord {
		sr := StoredRecord{Record: rundir.Record{Package: ref, Kind: r.Record.Kind, URL: r.Record.URL, Status: r.Record.Status,
			Outcome: r.Record.Outcome, SHA256: r.Record.SHA256, FetchedAt: r.Record.FetchedAt}}
		sr.Body = r.Body
		return sr
	}
	in := ProvenanceInput{Package: ref, ArtifactSHA512: sha, Verifier: realVerifier(t),
		Records: []StoredRecord{stored(p.Response), stored(att.Response)}}
	a, res, fs := run(t, in)
	t.Logf("registry served attestations: %s (HTTP %d)\n%s", att.Response.Record.Outcome, att.Response.Record.Status, res.Detail)
	for _, f := range fs {
		if f.Tag == TagAttestationInvalid || f.Tag == TagAttestationRepoMismatch {
			t.Fatalf("the real provenance of sigstore@2.0.0 was judged %s: %s", f.Tag, f.Title)
		}
	}
	if att.Response.Record.Outcome != "ok" {
		if o := outcome(t, a, TagNoBuildAttestation); o.Applied {
			t.Fatalf("a registry that served no attestations made no_build_attestation: %+v", o)
		}
	} else if o := outcome(t, a, TagAttestationInvalid); !o.Established || o.Applied {
		t.Fatalf("served attestations not verified: %+v", o)
	}

	// The public registry's bundle for this version against these bytes.
	bundleJSON, err := sgdata.Bundle(t, "sigstore.js@2.0.0-provenance.sigstore.json").MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	v := realVerifier(t)
	if _, err := v.VerifyBundle(bundleJSON, sum[:]); err != nil {
		t.Fatalf("the real provenance does not verify against the tarball this registry served: %v", err)
	}
	var doc map[string]any
	_ = json.Unmarshal(bundleJSON, &doc)
	env := doc["dsseEnvelope"].(map[string]any)
	env["payload"] = strings.Replace(env["payload"].(string), "A", "B", 1)
	tampered, _ := json.Marshal(doc)
	if _, err := v.VerifyBundle(tampered, sum[:]); err == nil {
		t.Fatal("a tampered copy of the real provenance verified")
	}
}
