package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
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

// Changes fetches one page of the change feed after since (the NextCursor
// of the previous answer; empty for the beginning), at most limit changes
// (0: the service's default). Poll with the answer's NextCursor; More says
// that the next page is ready at once.
func (c *Client) Changes(ctx context.Context, since string, limit int) (*ChangeList, error) {
	q := url.Values{}
	if since != "" {
		q.Set("since", since)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	p := "/changes"
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	var out ChangeList
	if err := c.get(ctx, p, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
