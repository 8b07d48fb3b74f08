// Package sigstore verifies the Sigstore bundles an npm registry serves as a
// version's attestations: the signature and certificate chain against a
// trusted root the project ships (testdata/sigstore/trusted_root.json, see
// docs/provenance.md), the transparency-log entry, the certificate's
// identity against the workflow the provenance predicate declares, and the
// statement's subject digest against the sha512 of the tarball examined.
//
// It is the only importer of sigstore-go. It reads bytes handed to it and a
// clock; it never fetches anything (no TUF update, no log lookup), so a
// verification is a pure function of the bundle, the trusted root and the
// time, and a rerun gives the same verdict. It decides nothing about a
// package: whether the identity matches the package's declared repository
// is the provenance check's question (internal/checks).
package sigstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/sigstore/sigstore-go/pkg/bundle"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/verify"
)

// Configuration.
const (
	// EnvTrustedRoot names a trusted_root.json to use instead of the default.
	EnvTrustedRoot = "ATTESTARI_SIGSTORE_TRUSTED_ROOT"
	// DefaultTrustedRootPath is the trusted root the project ships, relative
	// to the repository root.
	DefaultTrustedRootPath = "testdata/sigstore/trusted_root.json"
)

// Failure reasons, stable strings recorded on findings and results.
const (
	// ReasonUnparseable: the bundle is not a Sigstore bundle this verifier
	// reads (bad JSON, unknown media type, missing members).
	ReasonUnparseable = "bundle_unparseable"
	// ReasonSignature: the signature, the certificate chain to the trusted
	// root, the certificate's validity at the logged time, the SCT or the
	// transparency-log entry does not verify.
	ReasonSignature = "signature_invalid"
	// ReasonNoCertificate: the bundle is signed by a key, not by a
	// short-lived certificate, so it carries no workflow identity.
	ReasonNoCertificate = "no_certificate_identity"
	// ReasonNotStatement: the signed payload is not an in-toto statement.
	ReasonNotStatement = "payload_not_a_statement"
	// ReasonSubjectDigest: no subject of the statement carries the sha512
	// of the artifact examined.
	ReasonSubjectDigest = "subject_digest_mismatch"
	// ReasonWorkflowMismatch: the certificate's identity is not the
	// workflow the provenance predicate declares.
	ReasonWorkflowMismatch = "certificate_workflow_mismatch"
)

// ErrInvalid classifies a bundle that does not verify (errors.Is); the
// concrete error is a *InvalidError with a Reason.
var ErrInvalid = errors.New("sigstore: attestation does not verify")

// InvalidError says why a bundle does not verify. Pointer is the JSON
// pointer, inside the bundle, of the member the failure is about (empty
// when it is the bundle as a whole).
type InvalidError struct {
	Reason  string
	Pointer string
	Err     error
}

func (e *InvalidError) Error() string {
	if e.Err == nil {
		return "sigstore: " + e.Reason
	}
	return "sigstore: " + e.Reason + ": " + e.Err.Error()
}

func (e *InvalidError) Unwrap() error { return e.Err }

// Is makes every InvalidError match ErrInvalid.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

func invalid(reason, pointer string, err error) error {
	return &InvalidError{Reason: reason, Pointer: pointer, Err: err}
}

// Identity is what the signing certificate says about who signed: the
// subject alternative name (for a CI workflow, the workflow file's URI at a
// ref) and the Fulcio extensions.
type Identity struct {
	SubjectAlternativeName string `json:"san"`
	Issuer                 string `json:"issuer"`
	SourceRepositoryURI    string `json:"source_repository_uri,omitempty"`
	SourceRepositoryRef    string `json:"source_repository_ref,omitempty"`
	SourceRepositoryDigest string `json:"source_repository_digest,omitempty"`
	BuildConfigURI         string `json:"build_config_uri,omitempty"`
	BuildSignerURI         string `json:"build_signer_uri,omitempty"`
	RunnerEnvironment      string `json:"runner_environment,omitempty"`
}

// Workflow is the build the provenance predicate declares.
type Workflow struct {
	Repository string `json:"repository"` // an https URL of the repository
	Path       string `json:"path"`       // the workflow file inside it
	Ref        string `json:"ref"`
}

// URI is the workflow's identity as a signing certificate states it:
// "<repository>/<path>@<ref>".
func (w Workflow) URI() string {
	return strings.TrimSuffix(w.Repository, "/") + "/" + w.Path + "@" + w.Ref
}

// Subject is one subject of the statement.
type Subject struct {
	Name    string            `json:"name"`
	Digests map[string]string `json:"digest"`
}

// Verified is a bundle that verified.
type Verified struct {
	PredicateType string    `json:"predicate_type"`
	Subjects      []Subject `json:"subjects"`
	Identity      Identity  `json:"identity"`
	// Workflow is nil when the predicate declares none (a predicate other
	// than SLSA provenance).
	Workflow *Workflow `json:"workflow,omitempty"`
	// SourceRepository is the repository the certificate vouches for: its
	// SourceRepositoryURI extension, or the repository part of its SAN.
	SourceRepository string    `json:"source_repository"`
	LoggedAt         time.Time `json:"logged_at"`
}

// Options tunes the verifier.
type Options struct {
	// SkipSCT drops the requirement of an embedded certificate-transparency
	// timestamp; only tests against a trusted root without CT logs set it.
	SkipSCT bool
}

// Verifier checks bundles against one trusted root.
type Verifier struct {
	tm         root.TrustedMaterial
	rootSHA256 string
	sv         *verify.Verifier
}

// NewVerifier reads a trusted_root.json (the Sigstore trusted-root media
// type) and returns a verifier that demands one transparency-log entry,
// one observer timestamp (the log's integrated time or a signed timestamp)
// and, unless opts.SkipSCT, an embedded SCT.
func NewVerifier(trustedRootJSON []byte, opts Options) (*Verifier, error) {
	tr, err := root.NewTrustedRootFromJSON(trustedRootJSON)
	if err != nil {
		return nil, fmt.Errorf("sigstore.NewVerifier: trusted root: %w", err)
	}
	sum := sha256.Sum256(trustedRootJSON)
	return newVerifier(tr, hex.EncodeToString(sum[:]), opts)
}

func newVerifier(tm root.TrustedMaterial, rootSHA string, opts Options) (*Verifier, error) {
	vopts := []verify.VerifierOption{verify.WithTransparencyLog(1), verify.WithObserverTimestamps(1)}
	if !opts.SkipSCT {
		vopts = append(vopts, verify.WithSignedCertificateTimestamps(1))
	}
	sv, err := verify.NewVerifier(tm, vopts...)
	if err != nil {
		return nil, fmt.Errorf("sigstore: verifier: %w", err)
	}
	return &Verifier{tm: tm, rootSHA256: rootSHA, sv: sv}, nil
}

// LoadVerifier reads the trusted root at path ("" means $ATTESTARI_SIGSTORE_TRUSTED_ROOT,
// else DefaultTrustedRootPath).
func LoadVerifier(path string) (*Verifier, error) {
	if path == "" {
		path = os.Getenv(EnvTrustedRoot)
	}
	if path == "" {
		path = DefaultTrustedRootPath
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sigstore.LoadVerifier: %w", err)
	}
	v, err := NewVerifier(b, Options{})
	if err != nil {
		return nil, fmt.Errorf("sigstore.LoadVerifier(%s): %w", path, err)
	}
	return v, nil
}

// TrustedRootSHA256 is the SHA-256 of the trusted root's bytes, recorded on
// the provenance result so a reader knows what the verdict rests on.
func (v *Verifier) TrustedRootSHA256() string { return v.rootSHA256 }

// VerifyBundle verifies one bundle (its JSON bytes, as the attestations
// document carries it under "bundle") for an artifact whose sha512 is
// artifactSHA512. A bundle that does not verify returns an error matching
// ErrInvalid, whose *InvalidError says why and where.
func (v *Verifier) VerifyBundle(bundleJSON []byte, artifactSHA512 []byte) (*Verified, error) {
	b := &bundle.Bundle{}
	if err := b.UnmarshalJSON(bundleJSON); err != nil {
		return nil, invalid(ReasonUnparseable, "", err)
	}
	return v.verifyEntity(b, artifactSHA512)
}

// verifyEntity checks signature, chain and log first without the artifact,
// so that a digest mismatch is told apart from a bad signature, and then
// the statement, the identity and the subject itself.
func (v *Verifier) verifyEntity(e verify.SignedEntity, artifactSHA512 []byte) (*Verified, error) {
	vc, err := e.VerificationContent()
	if err != nil {
		return nil, invalid(ReasonUnparseable, "/verificationMaterial", err)
	}
	if vc.Certificate() == nil {
		return nil, invalid(ReasonNoCertificate, "/verificationMaterial", errors.New("bundle is signed by a public key"))
	}
	// The statement is read before the signature is checked only so that
	// a payload that is no statement is reported as such (sigstore-go
	// would fold it into its signature error); nothing read here counts
	// until the signature below verifies.
	sc, err := e.SignatureContent()
	if err != nil || sc.EnvelopeContent() == nil || sc.EnvelopeContent().RawEnvelope() == nil {
		return nil, invalid(ReasonNotStatement, "/dsseEnvelope", errors.New("bundle carries no DSSE envelope"))
	}
	env := sc.EnvelopeContent().RawEnvelope()
	payload, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		return nil, invalid(ReasonNotStatement, "/dsseEnvelope/payload", err)
	}
	st, err := parseStatement(payload)
	if err != nil {
		return nil, invalid(ReasonNotStatement, "/dsseEnvelope/payload", err)
	}
	res, err := v.sv.Verify(e, verify.NewPolicy(verify.WithoutArtifactUnsafe(), verify.WithoutIdentitiesUnsafe()))
	if err != nil {
		return nil, invalid(ReasonSignature, "", err)
	}
	out := &Verified{PredicateType: st.PredicateType, Subjects: st.Subjects, Workflow: st.Workflow}
	if res.Signature != nil && res.Signature.Certificate != nil {
		c := res.Signature.Certificate
		out.Identity = Identity{
			SubjectAlternativeName: c.SubjectAlternativeName, Issuer: c.Extensions.Issuer,
			SourceRepositoryURI: c.Extensions.SourceRepositoryURI, SourceRepositoryRef: c.Extensions.SourceRepositoryRef,
			SourceRepositoryDigest: c.Extensions.SourceRepositoryDigest, BuildConfigURI: c.Extensions.BuildConfigURI,
			BuildSignerURI: c.Extensions.BuildSignerURI, RunnerEnvironment: c.Extensions.RunnerEnvironment,
		}
	}
	for _, ts := range res.VerifiedTimestamps {
		if out.LoggedAt.IsZero() || ts.Timestamp.Before(out.LoggedAt) {
			out.LoggedAt = ts.Timestamp.UTC()
		}
	}
	out.SourceRepository = out.Identity.SourceRepositoryURI
	if out.SourceRepository == "" {
		out.SourceRepository = repositoryOfWorkflowURI(out.Identity.SubjectAlternativeName)
	}
	if st.Workflow != nil && !sameWorkflowIdentity(out.Identity, *st.Workflow) {
		return out, invalid(ReasonWorkflowMismatch, "/dsseEnvelope/payload",
			fmt.Errorf("certificate identity %q is not the declared workflow %q", out.Identity.SubjectAlternativeName, st.Workflow.URI()))
	}
	want := hex.EncodeToString(artifactSHA512)
	for _, s := range st.Subjects {
		if len(artifactSHA512) > 0 && strings.EqualFold(s.Digests["sha512"], want) {
			return out, nil
		}
	}
	return out, invalid(ReasonSubjectDigest, "/dsseEnvelope/payload",
		fmt.Errorf("no subject carries sha512 %s", want))
}

// sameWorkflowIdentity: the SAN must be the declared workflow's URI, as
// the npm client's own verification requires; when the certificate also
// carries a source repository extension it must be the declared repository.
func sameWorkflowIdentity(id Identity, w Workflow) bool {
	if !strings.EqualFold(id.SubjectAlternativeName, w.URI()) {
		return false
	}
	if id.SourceRepositoryURI != "" && !sameURL(id.SourceRepositoryURI, w.Repository) {
		return false
	}
	return true
}

func sameURL(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "/"), strings.TrimSuffix(b, "/"))
}

// repositoryOfWorkflowURI cuts a workflow identity
// "https://host/owner/name/<workflow path>@ref" to "https://host/owner/name".
func repositoryOfWorkflowURI(san string) string {
	u, err := url.Parse(san)
	if err != nil || u.Host == "" {
		return ""
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 {
		return ""
	}
	return u.Scheme + "://" + u.Host + "/" + parts[0] + "/" + parts[1]
}

type statement struct {
	PredicateType string
	Subjects      []Subject
	Workflow      *Workflow
}

// parseStatement reads the in-toto statement and the workflow a SLSA
// provenance predicate declares: v1 (buildDefinition.externalParameters.
// workflow) or v0.2 (invocation.configSource, uri "git+<repo>@<ref>" and
// entryPoint).
func parseStatement(payload []byte) (*statement, error) {
	var doc struct {
		Type          string    `json:"_type"`
		PredicateType string    `json:"predicateType"`
		Subject       []Subject `json:"subject"`
		Predicate     struct {
			BuildDefinition struct {
				ExternalParameters struct {
					Workflow *Workflow `json:"workflow"`
				} `json:"externalParameters"`
			} `json:"buildDefinition"`
			Invocation struct {
				ConfigSource struct {
					URI        string `json:"uri"`
					EntryPoint string `json:"entryPoint"`
				} `json:"configSource"`
			} `json:"invocation"`
		} `json:"predicate"`
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if doc.Type == "" || doc.PredicateType == "" {
		return nil, errors.New("statement without _type or predicateType")
	}
	st := &statement{PredicateType: doc.PredicateType, Subjects: doc.Subject}
	switch {
	case doc.Predicate.BuildDefinition.ExternalParameters.Workflow != nil:
		w := *doc.Predicate.BuildDefinition.ExternalParameters.Workflow
		st.Workflow = &w
	case doc.Predicate.Invocation.ConfigSource.URI != "":
		cs := doc.Predicate.Invocation.ConfigSource
		repo, ref, _ := strings.Cut(strings.TrimPrefix(cs.URI, "git+"), "@")
		st.Workflow = &Workflow{Repository: repo, Path: cs.EntryPoint, Ref: ref}
	}
	return st, nil
}

// IsBuildProvenance reports whether a predicate type is SLSA build
// provenance: its URI's path is "/provenance/v<n>". The npm publish
// attestation (path ".../publish/v<n>") is not a build attestation.
func IsBuildProvenance(predicateType string) bool {
	u, err := url.Parse(predicateType)
	if err != nil {
		return false
	}
	return strings.HasPrefix(u.Path, "/provenance/v")
}
