package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/store/internal/dbq"
	"github.com/attestari/attestari/internal/vocab"
)

// ErrNoAttestation: the version is published, without an attestation (its
// publication was made with no signing key). errors.Is(err, api.ErrNotFound)
// holds: to a gateway it is the same as no attestation at all.
var ErrNoAttestation = fmt.Errorf("%w: the version is published without an attestation", api.ErrNotFound)

// loadAttestation stores the envelope of one package version, as the
// publication carries it.
func loadAttestation(ctx context.Context, q *dbq.Queries, pvID int64, env []byte) error {
	var e struct {
		Signatures []struct {
			KeyID string `json:"keyid"`
		} `json:"signatures"`
	}
	if err := json.Unmarshal(env, &e); err != nil || len(e.Signatures) == 0 {
		return invalid("attestation of package version %d is not an envelope", pvID)
	}
	return q.AttestationInsert(ctx, dbq.AttestationInsertParams{
		PackageVersionID: pvID, KeyID: e.Signatures[0].KeyID, Envelope: env, EnvelopeSha256: vocab.SHA256Hex(env),
	})
}

// attestationsOf checks and splits a publication's attestations.
func attestationsOf(p *publication.Publication) (map[string][]byte, error) {
	m, err := p.AttestationsByPackage()
	if err != nil {
		// Both kinds stay visible: the publication is refused, and why.
		return nil, fmt.Errorf("%w: %w", ErrInvalidPublication, err)
	}
	return m, nil
}

// Attestation returns the signed attestation of the version a lookup of
// name@version serves, byte for byte as published. The name rules, the
// errors for an unknown version or an ambiguous name are Manifest's; a
// version published without an attestation gives ErrNoAttestation.
func (s *Store) Attestation(ctx context.Context, registry, name, version string) ([]byte, error) {
	rows, err := s.q.AttestationGet(ctx, dbq.AttestationGetParams{Name: name, PypiName: api.LookupName(api.RegistryPyPI, name), Version: version, Registry: optional(registry)})
	if err != nil {
		return nil, fmt.Errorf("attestation %s@%s: %w", name, version, err)
	}
	if len(rows) == 0 {
		if v, ok := s.pypiSpelling(ctx, registry, name, version); ok {
			return s.Attestation(respelled(ctx), registry, name, v)
		}
		return nil, s.missing(ctx, registry, name, version)
	}
	if registry == "" && (len(rows) > 1 || rows[0].OnOtherRegistry) {
		return nil, &api.AmbiguousNameError{Name: name, Registries: []string{api.RegistryNPM, api.RegistryPyPI}}
	}
	r := rows[0]
	if r.Envelope == nil {
		return nil, ErrNoAttestation
	}
	if r.EnvelopeSha256 == nil || vocab.SHA256Hex(r.Envelope) != *r.EnvelopeSha256 {
		return nil, fmt.Errorf("attestation %s@%s: the stored envelope does not hash to its recorded SHA-256", name, version)
	}
	return r.Envelope, nil
}
