package api

import (
	"context"
	"net/http"
	"net/url"
)

// Paths of the signed attestations (docs/attestations.md).
const (
	// AttestationKeysPath serves the key set that signs attestations.
	AttestationKeysPath = "/.well-known/attestari-keys.json"
)

// Attestation fetches the signed attestation of name@version: the DSSE
// envelope exactly as served, for api/attest.Verify. registry may be empty
// when the name is published on one registry only. A version that is not
// published is an error for which errors.Is(err, ErrNotFound) holds.
func (c *Client) Attestation(ctx context.Context, registry, name, version string) ([]byte, error) {
	p := "/attestations/" + url.PathEscape(name) + "/" + url.PathEscape(version)
	if registry != "" {
		p += "?registry=" + url.QueryEscape(registry)
	}
	b, err := c.doRaw(ctx, http.MethodGet, p, nil)
	if err != nil {
		return nil, c.classify(err, registry, name, version)
	}
	return b, nil
}

// AttestationKeys fetches the key set document, for api/attest.ParseKeySet.
// A gateway that pins the key set itself does not need it; one that
// fetches it trusts the service's TLS for the keys.
func (c *Client) AttestationKeys(ctx context.Context) ([]byte, error) {
	return c.doRaw(ctx, http.MethodGet, AttestationKeysPath, nil)
}
