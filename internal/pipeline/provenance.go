package pipeline

import (
	"context"
	"crypto/sha512"
	"encoding/hex"
	"fmt"

	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/vocab"
)

// ProvenanceCheck runs publisher_provenance (internal/checks) in the
// pipeline: it looks up the declared repository on the configured host,
// stores those responses as blobs and records, and hands the check every
// record with its bytes and the artifact's digests.
type ProvenanceCheck struct {
	// Verifier checks attestation bundles; nil records them as present and
	// not verified.
	Verifier checks.AttestationVerifier
	// Repositories is the repository host; nil records its inputs as not
	// looked up.
	Repositories *repohost.Client
}

// ID is the check id.
func (ProvenanceCheck) ID() string { return vocab.CheckProvenance }

// Run examines one package's provenance. With no registry record at all
// (the fetch failed before anything was served) it is skipped: there is
// nothing to read, and the fetch failure already blocks the package.
func (p ProvenanceCheck) Run(ctx context.Context, in CheckInput) (CheckOutput, error) {
	if len(in.Records) == 0 {
		return CheckOutput{}, ErrSkipped
	}
	var out CheckOutput
	pin := checks.ProvenanceInput{Package: in.Package, ArtifactSHA256: in.ArtifactSHA256}
	if p.Verifier != nil {
		pin.Verifier = p.Verifier
	}
	if in.ArtifactSHA256 != "" {
		b, err := in.Blobs.Get(ctx, in.ArtifactSHA256)
		if err != nil {
			return out, fmt.Errorf("provenance: read artifact %s: %w", in.ArtifactSHA256, err)
		}
		sum := sha512.Sum512(b)
		pin.ArtifactSHA512 = hex.EncodeToString(sum[:])
	}
	recs := in.Records
	stored, err := checks.LoadRecords(ctx, recs, in.Blobs.Get)
	if err != nil {
		return out, err
	}
	pin.Records = stored
	if p.Repositories != nil {
		pin.Repositories = p.Repositories
		if ref, ok := checks.DeclaredRepository(ctx, pin); ok {
			l, err := p.Repositories.Lookup(ctx, ref)
			if err != nil {
				return out, err
			}
			for _, resp := range l.Responses() {
				rec, err := storeRecord(ctx, in.Blobs, in.Package, resp)
				if err != nil {
					return out, err
				}
				out.Records = append(out.Records, rec)
				pin.Records = append(pin.Records, checks.StoredRecord{Record: rec, Body: resp.Body})
			}
		}
	}
	res, findings := checks.RunProvenance(ctx, pin)
	out.Result, out.Findings = res, findings
	return out, nil
}
