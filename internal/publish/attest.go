package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/vocab"
)

// predicate is the attested verdict of one published package version.
func predicate(h Header, pk Package, findings []Finding, gm *api.GateMap) (attest.Predicate, error) {
	ref := pk.Package
	key := api.PackageKey{Registry: ref.Registry, Name: ref.Name, Version: ref.Version}
	p := attest.Predicate{
		Package:     attest.Package{Registry: ref.Registry, Name: ref.Name, Version: ref.Version, PURL: key.PURL()},
		Verdict:     pk.Verdict,
		Reasons:     []attest.Reason{},
		Methodology: attest.Methodology{Version: h.MethodologyVersion, SHA256: h.MethodologySHA256},
		Versions: attest.Versions{Extractor: pk.Stamps.ExtractorVersion, Verifier: pk.Stamps.VerifierVersion,
			PromptSHA256: pk.Stamps.PromptSHA256, Analyzer: pk.Stamps.AnalyzerModel},
		Publication: attest.Publication{ID: h.ID, DecidedAt: pk.Stamps.DecidedAt.UTC(), PublishedAt: h.PublishedAt.UTC(),
			Demo: h.Demo, DisclosurePeriodOverridden: h.Demo || h.DisclosurePeriodOverridden},
		Appeals: []attest.Appeal{},
	}
	if pk.Grade != "" {
		g := pk.Grade
		p.Grade = &g
	}
	codes := pk.BlockedBy
	if pk.Verdict == vocab.VerdictOutOfScope && pk.Reason != "" {
		codes = []string{pk.Reason}
	}
	for _, c := range codes {
		r := attest.Reason{Code: c}
		if e, ok := gm.Lookup(c); ok {
			r.Guard, r.Line = e.Guard, e.Line
		}
		p.Reasons = append(p.Reasons, r)
	}
	if pk.ManifestHash != "" {
		mh := pk.ManifestHash
		p.Manifest.Hash = &mh
	} else {
		mr := pk.ManifestReason
		if mr == "" {
			// manifest.Compute always gives one or the other: a row with
			// neither is not a verdict the service can sign.
			return attest.Predicate{}, fmt.Errorf("%w: %s has neither a manifest hash nor a manifest reason", ErrAttestation, key.PURL())
		}
		p.Manifest.Reason = &mr
	}
	p.Manifest.Tools = make([]api.ToolHash, 0, len(pk.Tools))
	for _, t := range pk.Tools {
		th := api.ToolHash{Name: t.Name, DescriptionState: t.DescriptionState, SchemaKind: t.SchemaKind, Verification: manifest.Level(t.SchemaKind)}
		switch t.DescriptionState {
		case "readable", "absent", "partial":
			if t.TextWithheld == "" {
				d := t.DescriptionRaw
				th.Description = &d
			}
		}
		if t.ToolHash != "" {
			h := t.ToolHash
			th.ToolHash = &h
		} else if t.Reason != "" {
			r := t.Reason
			th.Reason = &r
		}
		p.Manifest.Tools = append(p.Manifest.Tools, th)
	}
	for _, f := range findings {
		if f.Package.Key() != ref.Key() {
			continue
		}
		for _, a := range f.Appeals {
			p.Appeals = append(p.Appeals, attest.Appeal{FindingID: f.ID, State: a.Status})
		}
	}
	return p, nil
}

// SignAttestations signs one attestation for every package of pub, after
// its header is complete: the subject is the examined artifact, read from
// the evidence store to take its sha512 (the sha256 is checked against the
// row's). The envelopes become pub.Attestations.
func SignAttestations(ctx context.Context, pub *Publication, key *attest.PrivateKey, blobs policy.Blobs) error {
	var gm api.GateMap
	if err := json.Unmarshal(pub.GateMap, &gm); err != nil {
		return fmt.Errorf("%w: gate map: %v", ErrAttestation, err)
	}
	var buf bytes.Buffer
	for _, pk := range pub.Packages {
		if err := ctx.Err(); err != nil {
			return err
		}
		art, err := blobs.Get(ctx, pk.ArtifactSHA256)
		if err != nil {
			return fmt.Errorf("%w: %s: the examined artifact is not in the evidence store: %v", ErrAttestation, pk.Package.Key(), err)
		}
		d256, d512, err := attest.ArtifactDigests(bytes.NewReader(art))
		if err != nil {
			return err
		}
		if d256 != pk.ArtifactSHA256 {
			return fmt.Errorf("%w: %s: the stored artifact hashes to %s, the row says %s", ErrAttestation, pk.Package.Key(), d256, pk.ArtifactSHA256)
		}
		pred, err := predicate(pub.Header, pk, pub.Findings, &gm)
		if err != nil {
			return err
		}
		st, err := attest.NewStatement(pred, d256, d512)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrAttestation, pk.Package.Key(), err)
		}
		env, err := attest.Sign(ctx, key, st)
		if err != nil {
			return err
		}
		buf.Write(env)
		buf.WriteByte('\n')
	}
	pub.Attestations = buf.Bytes()
	return nil
}
