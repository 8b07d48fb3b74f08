// Package attest is the format of Attestari's signed attestations
// (docs/attestations.md): an in-toto Statement v1 whose subject is the
// examined artifact and whose predicate is the published verdict, in a DSSE
// envelope signed with Ed25519. It builds, signs and verifies them, so that a
// gateway holding an attestation can check it offline: the signature over
// DSSE's pre-authentication encoding, the key's validity window, the subject's
// digests against a local artifact, and a server's tools/list answer against
// the attested tool hashes.
//
// The statement is written with encoding/json from the structs below, in
// their field order, so the same verdict always gives the same bytes (and,
// Ed25519 being deterministic, the same signature). The in-toto project's own
// Go types are protobuf messages whose JSON form is unstable by design; the
// tests check that every statement this package writes is a valid in-toto
// Statement v1 by those types.
package attest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/attestari/attestari/api"
)

// Media and type identifiers of the format.
const (
	// PayloadType is the DSSE payload type of an in-toto statement. It is
	// part of what is signed: an envelope whose payloadType was changed does
	// not verify.
	PayloadType = "application/vnd.in-toto+json"
	// StatementType is in-toto's Statement v1.
	StatementType = "https://in-toto.io/Statement/v1"
	// PredicateType names this project's predicate and its version. A
	// change to the predicate's meaning is a new version of this URI.
	PredicateType = "urn:attestari:predicate:verdict:v1"
)

// Digest algorithms of the subject, as in-toto names them.
const (
	DigestSHA256 = "sha256"
	DigestSHA512 = "sha512"
)

// Statement is an in-toto Statement v1 with this project's predicate.
type Statement struct {
	Type          string    `json:"_type"`
	Subject       []Subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     Predicate `json:"predicate"`
}

// Subject is in-toto's ResourceDescriptor as the statement uses it: the
// artifact's Package URL and its digests (hex), sha256 and sha512.
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Predicate is the published verdict on one package version.
type Predicate struct {
	Package     Package     `json:"package"`
	Verdict     string      `json:"verdict"`
	Grade       *string     `json:"grade"`
	Reasons     []Reason    `json:"reasons"`
	Manifest    Manifest    `json:"manifest"`
	Methodology Methodology `json:"methodology"`
	Versions    Versions    `json:"versions"`
	Publication Publication `json:"publication"`
	Appeals     []Appeal    `json:"appeals"`
}

// Package names the examined version.
type Package struct {
	Registry string `json:"registry"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	PURL     string `json:"purl"`
}

// Reason is one reason code a refused version carries, with the guard and
// the plain line of the gate map in force.
type Reason struct {
	Code  string `json:"code"`
	Guard string `json:"guard"`
	Line  string `json:"line"`
}

// Manifest is the attested tool manifest: its hash and every tool's hash, or
// the reason there is none.
type Manifest struct {
	Hash   *string        `json:"hash"`
	Reason *string        `json:"reason"`
	Tools  []api.ToolHash `json:"tools"`
}

// Methodology names the rules the verdict was decided under.
type Methodology struct {
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
}

// Versions names the code that examined and decided.
type Versions struct {
	Extractor string `json:"extractor"`
	Verifier  string `json:"verifier"`
	// PromptSHA256 is the SHA-256 of the analyzer's system prompt, as the
	// decision recorded it (empty when no model prompt was used).
	PromptSHA256 string `json:"prompt_sha256"`
	Analyzer     string `json:"analyzer"`
}

// Publication says which publication carried the verdict and when. Demo and
// DisclosurePeriodOverridden are the labels of methodology §19.
type Publication struct {
	ID                         string    `json:"id"`
	DecidedAt                  time.Time `json:"decided_at"`
	PublishedAt                time.Time `json:"published_at"`
	Demo                       bool      `json:"demo"`
	DisclosurePeriodOverridden bool      `json:"disclosure_period_overridden"`
}

// Appeal is the state of an appeal on one finding at publication time.
type Appeal struct {
	FindingID string `json:"finding_id"`
	State     string `json:"state"`
}

// ErrBadStatement classifies every statement this package refuses to write
// or accept: a field the format requires is missing or malformed.
var ErrBadStatement = errors.New("attest: not a statement of this format")

// NewStatement wraps a predicate in a statement whose subject is the
// artifact with the given hex digests. The predicate's PURL is the subject's
// name.
func NewStatement(p Predicate, sha256Hex, sha512Hex string) (*Statement, error) {
	s := &Statement{
		Type:          StatementType,
		Subject:       []Subject{{Name: p.Package.PURL, Digest: map[string]string{DigestSHA256: sha256Hex, DigestSHA512: sha512Hex}}},
		PredicateType: PredicateType,
		Predicate:     p,
	}
	if s.Predicate.Reasons == nil {
		s.Predicate.Reasons = []Reason{}
	}
	if s.Predicate.Manifest.Tools == nil {
		s.Predicate.Manifest.Tools = []api.ToolHash{}
	}
	if s.Predicate.Appeals == nil {
		s.Predicate.Appeals = []Appeal{}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// Marshal returns the statement's bytes: compact JSON in the structs' field
// order (map keys sorted), the payload a signature covers.
func (s *Statement) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ParseStatement reads a statement and validates it.
func ParseStatement(b []byte) (*Statement, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s Statement
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadStatement, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the statement", ErrBadStatement)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate checks what the format requires of a statement.
func (s *Statement) Validate() error {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrBadStatement, why) }
	switch {
	case s.Type != StatementType:
		return bad("_type is not " + StatementType)
	case s.PredicateType != PredicateType:
		return bad("predicateType is not " + PredicateType)
	case len(s.Subject) != 1:
		return bad("there must be exactly one subject, the examined artifact")
	}
	sub := s.Subject[0]
	if sub.Name == "" || sub.Name != s.Predicate.Package.PURL {
		return bad("the subject's name is not the predicate's Package URL")
	}
	if !isHex(sub.Digest[DigestSHA256], 64) || !isHex(sub.Digest[DigestSHA512], 128) {
		return bad("the subject needs a hex sha256 and a hex sha512 digest")
	}
	key, err := api.ParsePURL(sub.Name)
	if err != nil {
		return bad("the subject's name is not a Package URL: " + err.Error())
	}
	p := s.Predicate.Package
	if key.Registry != p.Registry || key.Name != purlName(p.Registry, p.Name) || key.Version != p.Version {
		return bad("the Package URL names another package than the predicate")
	}
	switch s.Predicate.Verdict {
	case api.VerdictGraded:
		if s.Predicate.Grade == nil {
			return bad("a graded verdict carries a grade")
		}
	case api.VerdictNotGradeable, api.VerdictOutOfScope:
		if s.Predicate.Grade != nil {
			return bad("only a graded verdict carries a grade")
		}
		if len(s.Predicate.Reasons) == 0 {
			return bad("a refused or out-of-scope verdict carries its reasons")
		}
	default:
		return bad("unknown verdict " + fmt.Sprintf("%q", s.Predicate.Verdict))
	}
	m := s.Predicate.Manifest
	if (m.Hash == nil) == (m.Reason == nil) {
		return bad("the manifest has either a hash or the reason it has none")
	}
	if s.Predicate.Publication.ID == "" || s.Predicate.Publication.PublishedAt.IsZero() {
		return bad("the publication's id and time are required")
	}
	if s.Predicate.Methodology.Version == "" || !isHex(s.Predicate.Methodology.SHA256, 64) {
		return bad("the methodology's version and SHA-256 are required")
	}
	return nil
}

// AsManifest returns the predicate's manifest in the API's form, for
// api.VerifyTools.
func (s *Statement) AsManifest() *api.Manifest {
	p := s.Predicate
	return &api.Manifest{
		Registry: p.Package.Registry, Name: p.Package.Name, Version: p.Package.Version,
		ArtifactSHA256: s.Subject[0].Digest[DigestSHA256],
		ManifestHash:   p.Manifest.Hash, ManifestReason: p.Manifest.Reason,
		Verdict: p.Verdict, Grade: p.Grade,
		ToolCount: len(p.Manifest.Tools), Tools: p.Manifest.Tools,
	}
}

// purlName is a package name as a Package URL carries it: lowercased, and
// for PyPI with '_' read as '-' (the purl specification's rules, as
// api.ParsePURL reads them).
func purlName(registry, name string) string {
	name = strings.ToLower(name)
	if registry == api.RegistryPyPI {
		name = strings.ReplaceAll(name, "_", "-")
	}
	return name
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
