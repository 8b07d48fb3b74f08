package publication

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/attestari/attestari/api/attest"
)

// AttestationsFile holds the publication's signed attestations
// (docs/attestations.md): one DSSE envelope a line, in the order of
// packages.json, each exactly the bytes that are served.
const AttestationsFile = "attestations.jsonl"

// ErrAttestation classifies an attestation the publication cannot carry or
// a publication's attestations file that does not match its packages.
var ErrAttestation = errors.New("attestation")

// AttestationsByPackage splits the publication's attestations file into
// envelopes by package key (rundir.PackageRef.Key), checking that each line
// is an envelope whose statement names the package of the same position in
// packages.json. Nil when the publication carries none.
func (p *Publication) AttestationsByPackage() (map[string][]byte, error) {
	if len(p.Attestations) == 0 {
		return nil, nil
	}
	lines := bytes.Split(bytes.TrimSuffix(p.Attestations, []byte("\n")), []byte("\n"))
	if len(lines) != len(p.Packages) {
		return nil, fmt.Errorf("%w: %s holds %d envelopes for %d packages", ErrAttestation, AttestationsFile, len(lines), len(p.Packages))
	}
	out := make(map[string][]byte, len(lines))
	for i, line := range lines {
		var env struct {
			Payload string `json:"payload"`
		}
		if err := json.Unmarshal(line, &env); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrAttestation, i+1, err)
		}
		body, err := b64Std(env.Payload)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: payload: %v", ErrAttestation, i+1, err)
		}
		st, err := attest.ParseStatement(body)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrAttestation, i+1, err)
		}
		ref := p.Packages[i].Package
		sp := st.Predicate.Package
		if sp.Registry != ref.Registry || sp.Name != ref.Name || sp.Version != ref.Version || st.Subject[0].Digest[attest.DigestSHA256] != p.Packages[i].ArtifactSHA256 {
			return nil, fmt.Errorf("%w: line %d attests %s, package %d is %s", ErrAttestation, i+1, sp.PURL, i+1, ref.Key())
		}
		out[ref.Key()] = line
	}
	return out, nil
}

func b64Std(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }
