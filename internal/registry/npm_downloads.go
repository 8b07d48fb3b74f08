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

// MaxBulkDownloads is the most packages one bulk point query names (the
// API's own limit). The API takes only unscoped names in bulk, and answers
// a bulk query of one name in the single form, so a bulk query names two
// or more.
const MaxBulkDownloads = 128

// PointBulk asks for the downloads of several unscoped packages over
// from..to in one request (GET /downloads/point/{from}:{to}/{a},{b},...).
// The answer maps each name to its figure; a name answered null, or not
// answered, has no figure (it is absent from the map), never a guessed one.
func (c *NPMDownloads) PointBulk(ctx context.Context, from, to string, names []string) (Response, map[string]int64, error) {
	path, err := DownloadsBulkPath(from, to, names)
	if err != nil {
		r := invalid(vocab.KindNPMDownloads, err, c.f.o.Now)
		return r, nil, fmt.Errorf("registry.NPMDownloads.PointBulk: %w", err)
	}
	resp, err := c.f.get(ctx, vocab.KindNPMDownloads, c.base+path, "application/json", c.f.o.MaxDocumentBytes)
	if err != nil {
		return *resp, nil, fmt.Errorf("registry.NPMDownloads.PointBulk(%d packages, %s:%s): %w", len(names), from, to, err)
	}
	figures, err := ParseDownloadsBulk(resp.Body, from, to, names)
	if err != nil {
		c.f.fail(resp, vocab.RecordMalformed, err)
		return *resp, nil, fmt.Errorf("registry.NPMDownloads.PointBulk(%d packages, %s:%s): %w", len(names), from, to, err)
	}
	return *resp, figures, nil
}

// DownloadsBulkPath is the request path of a bulk point query.
func DownloadsBulkPath(from, to string, names []string) (string, error) {
	if len(names) < 2 || len(names) > MaxBulkDownloads {
		return "", fmt.Errorf("%w: a bulk downloads query names 2 to %d packages, not %d", ErrInvalidRequest, MaxBulkDownloads, len(names))
	}
	for _, n := range names {
		if strings.HasPrefix(n, "@") || strings.Contains(n, ",") {
			return "", fmt.Errorf("%w: %q cannot be asked for in bulk (scoped names are asked one at a time)", ErrInvalidRequest, n)
		}
	}
	p, err := DownloadsPointPath(from, to, names[0])
	if err != nil {
		return "", err
	}
	for _, n := range names[1:] {
		if _, err := EscapeNPMName(n); err != nil {
			return "", err
		}
		p += "," + url.PathEscape(n)
	}
	return p, nil
}

// ParseDownloadsBulk reads a bulk answer: an object keyed by package name,
// each value null or a point answer for that package and exactly the
// window asked. A key that was not asked for, or a point answer for
// another package or window, makes the answer malformed.
func ParseDownloadsBulk(body []byte, from, to string, names []string) (map[string]int64, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil || doc == nil {
		return nil, fmt.Errorf("%w: bulk downloads answer is not an object", ErrMalformed)
	}
	asked := map[string]bool{}
	for _, n := range names {
		asked[n] = true
	}
	out := map[string]int64{}
	for k, raw := range doc {
		if !asked[k] {
			return nil, fmt.Errorf("%w: bulk downloads answer names %q, which was not asked for", ErrMalformed, k)
		}
		if isNull(raw) {
			continue
		}
		n, err := ParseDownloadsPoint(raw, from, to, k)
		if err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, nil
}
