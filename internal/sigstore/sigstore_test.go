package sigstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/testing/ca"
	"github.com/sigstore/sigstore-go/pkg/testing/data"
)

// realBundleFile is the provenance bundle the npm registry served for
// sigstore@2.0.0, kept by sigstore-go as test data (it is read from that
// module, not copied into this repository).
const realBundleFile = "sigstore.js@2.0.0-provenance.sigstore.json"

// realTarballSHA512 is the sha512 of sigstore-2.0.0.tgz, the dist.integrity
// the registry publishes for that version (and what the corpus test
// recomputes from the tarball itself).
const realTarballSHA512 = "46d4e2f74c4877316640000a6fdf8a8b59f1e0847667973e9859f774dd31b8f1e0937813b777fb66a2ac67d50540fe34640966eee9fc2ccca387082b4c85cd3c"

func shippedVerifier(t *testing.T) *Verifier {
	t.Helper()
	b, err := os.ReadFile(shippedRootPath())
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVerifier(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func realBundleJSON(t *testing.T) []byte {
	t.Helper()
	b, err := data.Bundle(t, realBundleFile).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func reason(err error) string {
	var ie *InvalidError
	if errors.As(err, &ie) {
		return ie.Reason
	}
	return fmt.Sprintf("not an InvalidError: %v", err)
}

func TestRealNPMProvenanceVerifies(t *testing.T) {
	v := shippedVerifier(t)
	got, err := v.VerifyBundle(realBundleJSON(t), mustHex(t, realTarballSHA512))
	if err != nil {
		t.Fatalf("real provenance bundle does not verify: %v", err)
	}
	if !IsBuildProvenance(got.PredicateType) || got.Workflow == nil || got.Workflow.Path != ".github/workflows/release.yml" {
		t.Fatalf("verified = %+v", got)
	}
	if got.SourceRepository == "" || !sameURL(got.SourceRepository, got.Workflow.Repository) || got.Identity.SubjectAlternativeName != got.Workflow.URI() {
		t.Fatalf("identity %+v vs workflow %+v", got.Identity, got.Workflow)
	}
	if got.LoggedAt.IsZero() || got.LoggedAt.Year() != 2023 {
		t.Fatalf("logged at %v", got.LoggedAt)
	}
}

func TestRealBundleOtherArtifactIsSubjectMismatch(t *testing.T) {
	other := sha256.Sum256([]byte("another tarball"))
	_, err := shippedVerifier(t).VerifyBundle(realBundleJSON(t), append(other[:], other[:]...))
	if !errors.Is(err, ErrInvalid) || reason(err) != ReasonSubjectDigest {
		t.Fatalf("err = %v", err)
	}
}

// tamper edits the real bundle's JSON through f.
func tamper(t *testing.T, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(realBundleJSON(t), &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTamperedPayloadFails(t *testing.T) {
	b := tamper(t, func(doc map[string]any) {
		env := doc["dsseEnvelope"].(map[string]any)
		p, _ := base64.StdEncoding.DecodeString(env["payload"].(string))
		var st map[string]any
		_ = json.Unmarshal(p, &st)
		st["predicateType"] = st["predicateType"].(string) + "x"
		p, _ = json.Marshal(st)
		env["payload"] = base64.StdEncoding.EncodeToString(p)
	})
	_, err := shippedVerifier(t).VerifyBundle(b, mustHex(t, realTarballSHA512))
	if reason(err) != ReasonSignature {
		t.Fatalf("err = %v", err)
	}
}

func TestTamperedSignatureFails(t *testing.T) {
	b := tamper(t, func(doc map[string]any) {
		sig := doc["dsseEnvelope"].(map[string]any)["signatures"].([]any)[0].(map[string]any)
		raw, _ := base64.StdEncoding.DecodeString(sig["sig"].(string))
		raw[len(raw)-1] ^= 1
		sig["sig"] = base64.StdEncoding.EncodeToString(raw)
	})
	_, err := shippedVerifier(t).VerifyBundle(b, mustHex(t, realTarballSHA512))
	if reason(err) != ReasonSignature {
		t.Fatalf("err = %v", err)
	}
}

func TestGarbageIsUnparseable(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("{"), []byte(`{"mediaType":"nope"}`), []byte(`[]`)} {
		_, err := shippedVerifier(t).VerifyBundle(b, mustHex(t, realTarballSHA512))
		if reason(err) != ReasonUnparseable {
			t.Errorf("%q: err = %v", b, err)
		}
	}
}

// TestOwnCAIsNotTrusted re-signs the real bundle's envelope with a key whose
// certificate comes from a CA made here: everything is well formed, and the
// chain does not lead to the shipped root.
func TestOwnCAIsNotTrusted(t *testing.T) {
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, NotBefore: now.Add(-time.Hour),
		NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	leafKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	san, _ := url.Parse("https://code.example/acme/tool/.github/workflows/release.yml@refs/heads/main")
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), NotBefore: now.Add(-time.Minute), NotAfter: now.Add(10 * time.Minute),
		URIs: []*url.URL{san}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, caCert, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	b := tamper(t, func(doc map[string]any) {
		env := doc["dsseEnvelope"].(map[string]any)
		p, _ := base64.StdEncoding.DecodeString(env["payload"].(string))
		pae := fmt.Sprintf("DSSEv1 %d %s %d %s", len(env["payloadType"].(string)), env["payloadType"], len(p), p)
		h := sha256.Sum256([]byte(pae))
		sig, err := ecdsa.SignASN1(rand.Reader, leafKey, h[:])
		if err != nil {
			t.Fatal(err)
		}
		env["signatures"] = []any{map[string]any{"sig": base64.StdEncoding.EncodeToString(sig), "keyid": ""}}
		doc["verificationMaterial"].(map[string]any)["x509CertificateChain"] = map[string]any{"certificates": []any{
			map[string]any{"rawBytes": base64.StdEncoding.EncodeToString(leafDER)},
			map[string]any{"rawBytes": base64.StdEncoding.EncodeToString(caDER)},
		}}
	})
	_, err = shippedVerifier(t).VerifyBundle(b, mustHex(t, realTarballSHA512))
	if reason(err) != ReasonSignature {
		t.Fatalf("err = %v", err)
	}
}

// virtual is a whole Sigstore made in the test (CA, log, timestamp
// authority, keys), so the checks after the signature can be driven to
// each outcome with a statement of our choosing.
func virtual(t *testing.T) (*ca.VirtualSigstore, *Verifier) {
	t.Helper()
	vs, err := ca.NewVirtualSigstore()
	if err != nil {
		t.Fatal(err)
	}
	v, err := newVerifier(vs, "virtual", Options{SkipSCT: true})
	if err != nil {
		t.Fatal(err)
	}
	return vs, v
}

func statementJSON(t *testing.T, digest string, w Workflow) []byte {
	t.Helper()
	st := map[string]any{
		"_type": "https://in-toto.io/Statement/v1", "predicateType": "https://slsa.example/provenance/v1",
		"subject":   []any{map[string]any{"name": "pkg:npm/tool@1.0.0", "digest": map[string]any{"sha512": digest}}},
		"predicate": map[string]any{"buildDefinition": map[string]any{"externalParameters": map[string]any{"workflow": w}}},
	}
	b, _ := json.Marshal(st)
	return b
}

func TestVirtualSigstoreOutcomes(t *testing.T) {
	vs, v := virtual(t)
	digest := sha256.Sum256([]byte("tarball"))
	sha512 := append(digest[:], digest[:]...) // any 64 bytes stand in for a sha512
	w := Workflow{Repository: "https://code.example/acme/tool", Path: ".github/workflows/release.yml", Ref: "refs/heads/main"}

	ok, err := vs.Attest(w.URI(), "https://issuer.example", statementJSON(t, hex.EncodeToString(sha512), w))
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.verifyEntity(ok, sha512)
	if err != nil {
		t.Fatalf("valid attestation: %v", err)
	}
	if got.SourceRepository != w.Repository || got.Identity.Issuer != "https://issuer.example" || !IsBuildProvenance(got.PredicateType) {
		t.Fatalf("verified = %+v", got)
	}

	other := Workflow{Repository: "https://code.example/mallory/tool", Path: w.Path, Ref: w.Ref}
	mismatch, _ := vs.Attest(w.URI(), "https://issuer.example", statementJSON(t, hex.EncodeToString(sha512), other))
	if _, err := v.verifyEntity(mismatch, sha512); reason(err) != ReasonWorkflowMismatch {
		t.Fatalf("certificate for another workflow: %v", err)
	}

	if _, err := v.verifyEntity(ok, make([]byte, 64)); reason(err) != ReasonSubjectDigest {
		t.Fatalf("other artifact: %v", err)
	}

	notStatement, _ := vs.Attest(w.URI(), "https://issuer.example", []byte(`{"hello":"world"}`))
	if _, err := v.verifyEntity(notStatement, sha512); reason(err) != ReasonNotStatement {
		t.Fatalf("not a statement: %v", err)
	}

	// The same valid attestation against the shipped (real) root: its CA
	// is not trusted there.
	if _, err := shippedVerifier(t).verifyEntity(ok, sha512); reason(err) != ReasonSignature {
		t.Fatalf("virtual CA against the shipped root: %v", err)
	}
}

func TestIsBuildProvenance(t *testing.T) {
	for pt, want := range map[string]bool{
		"https://slsa.example/provenance/v1":                                true,
		"https://slsa.example/provenance/v0.2":                              true,
		"https://code.example/npm/attestation/tree/main/specs/publish/v0.1": false,
		"": false,
	} {
		if IsBuildProvenance(pt) != want {
			t.Errorf("%q", pt)
		}
	}
}
