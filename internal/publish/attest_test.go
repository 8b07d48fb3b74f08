package publish_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store/storetest"
)

// TestAttestationsWrittenAndRead: the attestations a publication is signed
// with are written to attestations.jsonl, listed in the header, read back
// byte for byte, and each verifies; a changed byte makes the directory
// incomplete; an artifact missing from the evidence store refuses signing.
func TestAttestationsWrittenAndRead(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	p := storetest.Publication("pub-att", "run-att", at)
	p.Packages = append(p.Packages,
		storetest.Package("npm", "@acme/files", "1.0.0", "graded", "A", nil, storetest.Tool("read", "readable", "Reads.", "none", "")),
		storetest.Package("pypi", "Acme_Tools", "2.0", "out_of_scope", "", []string{"not_a_server"}))
	key, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := publish.SignAttestations(ctx, p, key, policy.MapBlobs{}); !errors.Is(err, publish.ErrAttestation) {
		t.Fatalf("no artifact in the store: %v", err)
	}
	blobs := policy.MapBlobs{}
	for _, pk := range p.Packages {
		blobs[pk.ArtifactSHA256] = []byte(pk.Package.Key())
	}
	if err := publish.SignAttestations(ctx, p, key, blobs); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "pub-att")
	if err := publish.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	back, err := publish.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Attestations, p.Attestations) {
		t.Fatal("attestations.jsonl not read back byte for byte")
	}
	keys := &attest.KeySet{Keys: []attest.PublicKey{attest.NewPublicKey(key.Public(), at.Add(-time.Hour))}}
	m, err := back.AttestationsByPackage()
	if err != nil {
		t.Fatal(err)
	}
	v, err := attest.Verify(ctx, m["pypi:Acme_Tools@2.0"], keys)
	if err != nil {
		t.Fatal(err)
	}
	if v.Statement.Subject[0].Name != "pkg:pypi/acme-tools@2.0" || v.Statement.Predicate.Verdict != "out_of_scope" || v.Statement.Predicate.Reasons[0].Code != "not_a_server" {
		t.Fatalf("%+v", v.Statement)
	}
	b, _ := os.ReadFile(filepath.Join(dir, publish.AttestationsFile))
	b[len(b)/2] ^= 1
	if err := os.WriteFile(filepath.Join(dir, publish.AttestationsFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := publish.Read(dir); !errors.Is(err, publish.ErrIncomplete) {
		t.Fatalf("a changed attestations file: %v", err)
	}
}

// TestAttestationRefusedWithoutManifest: a row with neither a manifest hash
// nor a manifest reason is not signed (manifest.Compute always gives one of
// them; an attestation never carries an invented reason).
func TestAttestationRefusedWithoutManifest(t *testing.T) {
	ctx := context.Background()
	p := storetest.Publication("pub-nomf", "run-nomf", time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
	pk := storetest.Package("npm", "@acme/files", "1.0.0", "graded", "A", nil, storetest.Tool("read", "readable", "Reads.", "none", ""))
	pk.ManifestHash, pk.ManifestReason = "", ""
	p.Packages = append(p.Packages, pk)
	key, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	blobs := policy.MapBlobs{pk.ArtifactSHA256: []byte(pk.Package.Key())}
	err = publish.SignAttestations(ctx, p, key, blobs)
	if !errors.Is(err, publish.ErrAttestation) || !strings.Contains(err.Error(), "neither a manifest hash nor a manifest reason") {
		t.Fatalf("signed a row with no manifest: %v", err)
	}
	if len(p.Attestations) != 0 {
		t.Fatal("attestations were written for a refused publication")
	}
}
