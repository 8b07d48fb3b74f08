package store_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
)

// signed signs p's attestations with a new key; storetest's artifacts are
// the bytes of each package's key.
func signed(t *testing.T, p *publish.Publication) *attest.KeySet {
	t.Helper()
	key, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	blobs := policy.MapBlobs{}
	for _, pk := range p.Packages {
		blobs[pk.ArtifactSHA256] = []byte(pk.Package.Key())
	}
	if err := publish.SignAttestations(context.Background(), p, key, blobs); err != nil {
		t.Fatal(err)
	}
	return &attest.KeySet{Keys: []attest.PublicKey{attest.NewPublicKey(key.Public(), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}}
}

// TestAttestationsLoadedAndServed: a publication's attestations are loaded
// with it and served byte for byte; each verifies and says what was
// published; a version published without one, or not published, is not found.
func TestAttestationsLoadedAndServed(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	p := firstPublication()
	keys := signed(t, p)
	byPkg, err := p.AttestationsByPackage()
	if err != nil || len(byPkg) != len(p.Packages) {
		t.Fatalf("%d attestations for %d packages: %v", len(byPkg), len(p.Packages), err)
	}
	if err := s.LoadPublication(ctx, p); err != nil {
		t.Fatal(err)
	}
	env, err := s.Attestation(ctx, "", "@acme/files", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(env, byPkg["npm:@acme/files@1.0.0"]) {
		t.Fatal("the served envelope is not the published bytes")
	}
	v, err := attest.Verify(ctx, env, keys)
	if err != nil {
		t.Fatal(err)
	}
	pr := v.Statement.Predicate
	if pr.Verdict != "graded" || *pr.Grade != "F" || pr.Publication.ID != "pub-1" || len(pr.Manifest.Tools) != 2 || *pr.Manifest.Hash != p.Packages[0].ManifestHash {
		t.Fatalf("predicate %+v", pr)
	}
	if err := v.Statement.CheckArtifact(bytes.NewReader([]byte("npm:@acme/files@1.0.0"))); err != nil {
		t.Fatal(err)
	}
	refused, err := s.Attestation(ctx, "npm", "minified-server", "2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	rv, err := attest.Verify(ctx, refused, keys)
	if err != nil || rv.Statement.Predicate.Verdict != "not_gradeable" || rv.Statement.Predicate.Reasons[0].Code != "minified_only" || rv.Statement.Predicate.Reasons[0].Line == "" {
		t.Fatalf("refused version: %+v %v", rv, err)
	}
	var nf *api.VersionNotFoundError
	if _, err := s.Attestation(ctx, "npm", "@acme/files", "9.9.9"); !errors.As(err, &nf) {
		t.Fatalf("unknown version: %v", err)
	}
	// A later publication made without a signing key: its versions are
	// served without an attestation.
	if err := s.LoadPublication(ctx, secondPublication()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Attestation(ctx, "npm", "@acme/files", "1.0.0"); !errors.Is(err, store.ErrNoAttestation) || !errors.Is(err, api.ErrNotFound) {
		t.Fatalf("published without an attestation: %v", err)
	}
}

// TestAttestationsThatDoNotMatchAreRefused: a publication whose
// attestations name other packages, or fewer, is refused whole.
func TestAttestationsThatDoNotMatchAreRefused(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	p := firstPublication()
	signed(t, p)
	lines := bytes.Split(bytes.TrimSuffix(p.Attestations, []byte("\n")), []byte("\n"))
	swapped := bytes.Join([][]byte{lines[1], lines[0], lines[2]}, []byte("\n"))
	p.Attestations = append(swapped, '\n')
	if err := s.LoadPublication(ctx, p); !errors.Is(err, store.ErrInvalidPublication) || !errors.Is(err, publish.ErrAttestation) {
		t.Fatalf("swapped attestations: %v", err)
	}
	if _, err := s.Manifest(ctx, "npm", "@acme/files", "1.0.0", ""); err == nil {
		t.Fatal("a refused publication left rows behind")
	}
}
