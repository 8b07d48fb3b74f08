package api

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/vocab"
)

// Client reads the public API. Its zero value is not usable: use NewClient.
type Client struct {
	base string
	http *http.Client
	// UserAgent is sent with every request when set.
	UserAgent string
}

// NewClient returns a client for the service at baseURL (scheme and host,
// optionally a path prefix). hc nil means http.DefaultClient.
func NewClient(baseURL string, hc *http.Client) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("api: base URL %q is not an http(s) URL", baseURL)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{base: strings.TrimSuffix(baseURL, "/"), http: hc}, nil
}

// Problem is an RFC 9457 error body as the service sends it.
type Problem struct {
	Type          string   `json:"type"`
	Title         string   `json:"title"`
	Status        int      `json:"status"`
	Detail        string   `json:"detail,omitempty"`
	Instance      string   `json:"instance,omitempty"`
	KnownVersions []string `json:"known_versions,omitempty"`
	Registries    []string `json:"registries,omitempty"`
}

// ProblemError is a non-2xx answer. errors.Is(err, ErrNotFound) holds for a
// 404, ErrUnavailable for a 503 and ErrTimeout for a 504.
type ProblemError struct {
	Problem
}

func (e *ProblemError) Error() string {
	return fmt.Sprintf("api: %d %s: %s", e.Status, e.Title, e.Detail)
}

// Is makes errors.Is(err, ErrNotFound) hold for a 404, ErrUnavailable for a
// 503 and ErrTimeout for a 504, so a gateway can tell "not published" from
// "ask again later".
func (e *ProblemError) Is(target error) bool {
	k, ok := vocab.FailureForStatus(e.Status)
	return ok && target == k.Err
}

// Manifest fetches the attested manifest of name@version: every page of it
// (docs/manifest.md, "Pages"), joined, after checking that the pages are of
// one manifest and add up to it: each page carries the same header, the
// tools number ToolCount, and when the manifest is attested their tool
// hashes give its manifest hash. Anything else is an error wrapping
// ErrManifestIncomplete, and no manifest is returned. registry may be empty
// when the name is published on one registry only; otherwise the answer is
// an *AmbiguousNameError.
func (c *Client) Manifest(ctx context.Context, registry, name, version string) (*Manifest, error) {
	p := "/manifest/" + url.PathEscape(name) + "/" + url.PathEscape(version)
	sep := "?"
	if registry != "" {
		p += "?registry=" + url.QueryEscape(registry)
		sep = "&"
	}
	m, err := c.manifestPages(ctx, p, sep)
	if err != nil {
		return nil, c.classify(err, registry, name, version)
	}
	return m, nil
}

// ManifestByPURL fetches the attested manifest named by a Package URL, every
// page of it, checked as Manifest checks it.
func (c *Client) ManifestByPURL(ctx context.Context, purl string) (*Manifest, error) {
	return c.manifestPages(ctx, "/manifest?purl="+url.QueryEscape(purl), "&")
}

// ErrManifestIncomplete reports pages of a manifest that do not add up to
// one whole manifest.
var ErrManifestIncomplete = errors.New("api: the pages of the manifest do not add up to it")

// manifestPages fetches the first page at path and then each next page
// (path + sep + "cursor=..."). A cursor the service refuses on a later page
// means the version was published again between two pages: the whole
// manifest is fetched again, once.
func (c *Client) manifestPages(ctx context.Context, path, sep string) (*Manifest, error) {
	for attempt := 0; ; attempt++ {
		m, stale, err := c.fetchManifestPages(ctx, path, sep)
		if stale && attempt == 0 {
			continue
		}
		return m, err
	}
}

func (c *Client) fetchManifestPages(ctx context.Context, path, sep string) (m *Manifest, stale bool, err error) {
	m = &Manifest{}
	if err := c.get(ctx, path, m); err != nil {
		return nil, false, err
	}
	if m.ToolCount < 0 {
		return nil, false, fmt.Errorf("%w: tool_count %d", ErrManifestIncomplete, m.ToolCount)
	}
	// Each page holds at least one tool, so a manifest has at most
	// ToolCount pages: a service that keeps naming next pages is refused.
	for pages := 1; m.NextCursor != nil; pages++ {
		if pages >= m.ToolCount {
			return nil, false, fmt.Errorf("%w: more pages than tools", ErrManifestIncomplete)
		}
		var next Manifest
		if err := c.get(ctx, path+sep+"cursor="+url.QueryEscape(*m.NextCursor), &next); err != nil {
			var pe *ProblemError
			if errors.As(err, &pe) && pe.Status == http.StatusBadRequest {
				return nil, true, err
			}
			return nil, false, err
		}
		if !samePage(m, &next) || len(next.Tools) == 0 {
			return nil, false, fmt.Errorf("%w: page %d is of another manifest", ErrManifestIncomplete, pages+1)
		}
		m.Tools = append(m.Tools, next.Tools...)
		m.NextCursor = next.NextCursor
	}
	if len(m.Tools) != m.ToolCount {
		return nil, false, fmt.Errorf("%w: %d tools in the pages, tool_count %d", ErrManifestIncomplete, len(m.Tools), m.ToolCount)
	}
	if m.ManifestHash != nil {
		digests := make([][32]byte, 0, len(m.Tools))
		for _, t := range m.Tools {
			var d [32]byte
			if t.ToolHash == nil || hex.DecodedLen(len(*t.ToolHash)) != 32 {
				return nil, false, fmt.Errorf("%w: tool %q of an attested manifest has no tool hash", ErrManifestIncomplete, t.Name)
			}
			if _, err := hex.Decode(d[:], []byte(*t.ToolHash)); err != nil {
				return nil, false, fmt.Errorf("%w: tool %q: %v", ErrManifestIncomplete, t.Name, err)
			}
			digests = append(digests, d)
		}
		if got := manifest.ManifestDigest(digests); hex.EncodeToString(got[:]) != *m.ManifestHash {
			return nil, false, fmt.Errorf("%w: the tool hashes give manifest hash %x, not %s", ErrManifestIncomplete, got, *m.ManifestHash)
		}
	}
	return m, false, nil
}

// samePage reports whether page b is of the manifest whose first page is a.
func samePage(a, b *Manifest) bool {
	return a.Registry == b.Registry && a.Name == b.Name && a.Version == b.Version && a.ArtifactSHA256 == b.ArtifactSHA256 &&
		equalPtr(a.ManifestHash, b.ManifestHash) && a.ToolCount == b.ToolCount && equalPtr(a.Grade, b.Grade) && a.Verdict == b.Verdict &&
		a.MethodologyVersion == b.MethodologyVersion && a.MethodologySHA256 == b.MethodologySHA256 && a.ExtractorVersion == b.ExtractorVersion &&
		a.DecidedAt.Equal(b.DecidedAt) && a.PublishedAt.Equal(b.PublishedAt)
}

// Lookup reads up to MaxLookupItems package versions at once; the answer has
// one item per key, in order.
func (c *Client) Lookup(ctx context.Context, keys []PackageKey) ([]LookupItem, error) {
	if len(keys) == 0 || len(keys) > MaxLookupItems {
		return nil, fmt.Errorf("api: lookup takes 1 to %d items, not %d", MaxLookupItems, len(keys))
	}
	body, err := json.Marshal(LookupRequest{Items: keys})
	if err != nil {
		return nil, err
	}
	var out LookupResponse
	if err := c.do(ctx, http.MethodPost, "/lookup", body, &out); err != nil {
		return nil, err
	}
	return out.Items, nil
}

// Diff fetches what changed between two published versions of a package.
func (c *Client) Diff(ctx context.Context, registry, name, from, to string) (*VersionDiff, error) {
	p := "/diff/" + url.PathEscape(name) + "/" + url.PathEscape(from) + "/" + url.PathEscape(to)
	if registry != "" {
		p += "?registry=" + url.QueryEscape(registry)
	}
	var d VersionDiff
	if err := c.get(ctx, p, &d); err != nil {
		return nil, c.classify(err, registry, name, "")
	}
	return &d, nil
}

func (c *Client) classify(err error, registry, name, version string) error {
	var pe *ProblemError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Status == http.StatusNotFound && len(pe.KnownVersions) > 0:
		return &VersionNotFoundError{Registry: registry, Name: name, Version: version, KnownVersions: pe.KnownVersions}
	case pe.Status == http.StatusConflict:
		return &AmbiguousNameError{Name: name, Registries: pe.Registries}
	}
	return err
}

func (c *Client) get(ctx context.Context, path string, out any) error {
	return c.do(ctx, http.MethodGet, path, nil, out)
}

// maxBody bounds what the client reads of one answer.
const maxBody = 32 << 20

func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	b, err := c.doRaw(ctx, method, path, body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("api: %s %s: decode: %w", method, path, err)
	}
	return nil
}

// doRaw sends a request and returns the body of a 200 answer as served.
func (c *Client) doRaw(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("api: %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("api: %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("api: %s %s: read body: %w", method, path, err)
	}
	if res.StatusCode != http.StatusOK {
		pe := &ProblemError{}
		if json.Unmarshal(b, &pe.Problem) != nil || pe.Status == 0 {
			pe.Problem = Problem{Status: res.StatusCode, Title: http.StatusText(res.StatusCode)}
		}
		return nil, pe
	}
	return b, nil
}
