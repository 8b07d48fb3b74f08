package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// EnvNPMDownloadsURL names the npm downloads API's base URL (the root under
// which /downloads/point/ lives). The npm client has no setting for it, so it
// is this variable or nothing: unset, selection ranks by what the search
// answer carries.
const EnvNPMDownloadsURL = "ATTESTARI_NPM_DOWNLOADS_URL"

// DefaultNPMDownloadsURL returns $ATTESTARI_NPM_DOWNLOADS_URL, or
// ErrNotConfigured when it is unset.
func DefaultNPMDownloadsURL() (string, error) {
	v := strings.TrimSpace(os.Getenv(EnvNPMDownloadsURL))
	if v == "" {
		return "", fmt.Errorf("%w: $%s is unset", ErrNotConfigured, EnvNPMDownloadsURL)
	}
	b, err := normalizeBase(v)
	if err != nil {
		return "", fmt.Errorf("$%s: %w", EnvNPMDownloadsURL, err)
	}
	return b, nil
}

// NPMDownloads is a client for the npm downloads API at a configured base.
type NPMDownloads struct{ endpoint }

// NewNPMDownloads returns a client for the downloads API at baseURL.
func NewNPMDownloads(baseURL string, opts Options) (*NPMDownloads, error) {
	e, err := newEndpoint("NewNPMDownloads", baseURL, opts)
	if err != nil {
		return nil, err
	}
	return &NPMDownloads{e}, nil
}

// DownloadsPoint is one answer of GET /downloads/point/{from}:{to}/{name}:
// the package's downloads over the inclusive days from..to (UTC).
type DownloadsPoint struct {
	Response  Response
	Downloads int64
}

// Point asks for name's downloads over the days from..to (YYYY-MM-DD). A
// package the API has no figure for is ErrNotFound. An answer for another
// package or another window than the one asked is ErrMalformed: a figure is
// only read for exactly the window stated.
func (c *NPMDownloads) Point(ctx context.Context, from, to, name string) (*DownloadsPoint, error) {
	d := &DownloadsPoint{}
	path, err := DownloadsPointPath(from, to, name)
	if err != nil {
		d.Response = invalid(vocab.KindNPMDownloads, err, c.f.o.Now)
		return d, fmt.Errorf("registry.NPMDownloads.Point: %w", err)
	}
	resp, err := c.f.get(ctx, vocab.KindNPMDownloads, c.base+path, "application/json", c.f.o.MaxDocumentBytes)
	d.Response = *resp
	if err != nil {
		return d, fmt.Errorf("registry.NPMDownloads.Point(%s, %s:%s): %w", name, from, to, err)
	}
	n, err := ParseDownloadsPoint(resp.Body, from, to, name)
	if err != nil {
		c.f.fail(&d.Response, vocab.RecordMalformed, err)
		return d, fmt.Errorf("registry.NPMDownloads.Point(%s, %s:%s): %w", name, from, to, err)
	}
	d.Downloads = n
	return d, nil
}

// DownloadsPointPath is the request path of a point query.
func DownloadsPointPath(from, to, name string) (string, error) {
	for _, day := range []string{from, to} {
		if _, err := time.Parse(time.DateOnly, day); err != nil {
			return "", fmt.Errorf("%w: day %q is not YYYY-MM-DD", ErrInvalidRequest, day)
		}
	}
	if _, err := EscapeNPMName(name); err != nil {
		return "", err
	}
	// The downloads API takes a scoped name with its slash as written.
	parts := strings.SplitN(name, "/", 2)
	for i := range parts {
		parts[i] = url.PathEscape(parts[i])
	}
	return "/downloads/point/" + from + ":" + to + "/" + strings.Join(parts, "/"), nil
}

// ParseDownloadsPoint reads a point answer for name over from..to:
// {"downloads": n, "start": from, "end": to, "package": name}.
func ParseDownloadsPoint(body []byte, from, to, name string) (int64, error) {
	var doc struct {
		Downloads json.RawMessage `json:"downloads"`
		Start     any             `json:"start"`
		End       any             `json:"end"`
		Package   any             `json:"package"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return 0, fmt.Errorf("%w: downloads answer: %v", ErrMalformed, err)
	}
	n, ok := wholeNumber(doc.Downloads)
	if !ok || n < 0 {
		return 0, fmt.Errorf("%w: downloads answer has no whole downloads figure", ErrMalformed)
	}
	if str(doc.Start) != from || str(doc.End) != to {
		return 0, fmt.Errorf("%w: downloads answer covers %q to %q, not the window asked (%s to %s)", ErrMalformed, str(doc.Start), str(doc.End), from, to)
	}
	if str(doc.Package) != name {
		return 0, fmt.Errorf("%w: downloads answer is for %q, not %q", ErrMalformed, str(doc.Package), name)
	}
	return n, nil
}
