package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/httpretry"
	"github.com/attestari/attestari/internal/vocab"
)

// Defaults for Options fields left zero.
const (
	DefaultRequestTimeout   = httpretry.DefaultRequestTimeout // 60 s
	DefaultOverallTimeout   = httpretry.DefaultOverallTimeout // 5 min
	DefaultMaxAttempts      = httpretry.DefaultMaxAttempts    // 4
	DefaultBaseBackoff      = httpretry.DefaultBaseBackoff    // 500 ms
	DefaultMaxBackoff       = httpretry.DefaultMaxBackoff     // 30 s
	DefaultMaxRetryAfter    = httpretry.DefaultMaxRetryAfter  // 60 s
	DefaultMaxDocumentBytes = 64 << 20                        // packuments of popular packages run to tens of MB
	DefaultMaxArtifactBytes = 256 << 20                       // well above any MCP server tarball seen; the archive reader has its own limits
)

// Options configures a client. The zero value is usable: every zero field
// takes the default above. Now, Sleep and Jitter exist so tests of backoff
// run instantly and deterministically.
type Options struct {
	// Version is the attestari version named in the User-Agent; "dev" if
	// empty. The binaries inject theirs at build time.
	Version string
	// HTTPClient carries the transport (proxy from the environment, TLS
	// roots). Its Timeout should be zero: timeouts are applied here.
	HTTPClient *http.Client
	// RequestTimeout bounds one attempt, body included.
	RequestTimeout time.Duration
	// OverallTimeout bounds one call, all attempts and waits included.
	OverallTimeout time.Duration
	// MaxAttempts bounds attempts per call (first try included).
	MaxAttempts int
	// BaseBackoff and MaxBackoff shape the exponential backoff: before retry
	// n (n ≥ 1) the client waits a uniformly random duration in
	// [0, min(MaxBackoff, BaseBackoff·2^(n-1))) ("full jitter").
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	// MaxRetryAfter caps a server's Retry-After; a longer request is waited
	// for only this long.
	MaxRetryAfter time.Duration
	// MaxDocumentBytes caps JSON documents; MaxArtifactBytes caps tarballs
	// and distribution files.
	MaxDocumentBytes int64
	MaxArtifactBytes int64
	// Now stamps FetchedAt and turns a Retry-After date into a wait.
	Now func() time.Time
	// Sleep waits between attempts; it must return ctx.Err() if ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a value in [0, 1) that scales each backoff.
	Jitter func() float64
}

// UserAgent is the User-Agent every request carries.
func UserAgent(version string) string {
	if version == "" {
		version = "dev"
	}
	return "attestari/" + version + " (+supply-chain examination)"
}

// withDefaults fills the fields this package reads itself; the retry and
// timeout fields are left to httpretry, whose defaults are this package's.
func (o Options) withDefaults() Options {
	if o.MaxDocumentBytes <= 0 {
		o.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if o.MaxArtifactBytes <= 0 {
		o.MaxArtifactBytes = DefaultMaxArtifactBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// fetcher is the HTTP core both registry clients share: the retry loop,
// backoff and body caps of package httpretry, with this package's records,
// sentinels and error texts around it.
type fetcher struct {
	o Options
	c *httpretry.Client
}

func newFetcher(o Options) *fetcher {
	o = o.withDefaults()
	return &fetcher{o: o, c: httpretry.New(httpretry.Options{
		Policy: httpretry.Policy{
			MaxAttempts:   o.MaxAttempts,
			BaseBackoff:   o.BaseBackoff,
			MaxBackoff:    o.MaxBackoff,
			Jitter:        o.Jitter,
			MaxRetryAfter: o.MaxRetryAfter,
			Sleep:         o.Sleep,
		},
		HTTPClient:     o.HTTPClient,
		UserAgent:      UserAgent(o.Version),
		RequestTimeout: o.RequestTimeout,
		OverallTimeout: o.OverallTimeout,
		ErrTooLarge:    ErrTooLarge,
		Now:            o.Now,
	})}
}

// endpoint is what the npm and PyPI clients share: the configured base URL
// and the fetcher.
type endpoint struct {
	base string
	f    *fetcher
}

// newEndpoint checks baseURL for the constructor named ctor.
func newEndpoint(ctor, baseURL string, opts Options) (endpoint, error) {
	b, err := normalizeBase(baseURL)
	if err != nil {
		return endpoint{}, fmt.Errorf("registry.%s: %w", ctor, err)
	}
	return endpoint{base: b, f: newFetcher(opts)}, nil
}

// BaseURL is the base URL this client talks to, without trailing slash.
func (e endpoint) BaseURL() string { return e.base }

// get fetches rawURL with bounded retries. It always returns a Response whose
// Record says what happened; err is nil exactly when Record.Outcome is ok.
func (f *fetcher) get(ctx context.Context, kind, rawURL, accept string, limit int64) (*Response, error) {
	resp := &Response{Record: Record{Kind: kind, URL: redactURL(rawURL)}}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		err = fmt.Errorf("%w: %s URL %q is not an absolute http(s) URL", ErrInvalidRequest, kind, resp.Record.URL)
		return resp, f.fail(resp, vocab.RecordInvalidRequest, err)
	}
	h := http.Header{}
	if accept != "" {
		h.Set("Accept", accept)
	}
	r, err := f.c.Do(ctx, httpretry.Request{URL: rawURL, Header: h, MaxBodyBytes: limit})
	resp.Record.Status, resp.Record.FetchedAt = r.Status, r.Received.UTC()
	if err == nil {
		resp.Body = r.Body
		resp.ContentType = r.ContentType
		resp.Record.SHA256 = vocab.SHA256Hex(r.Body)
		resp.Record.Outcome = vocab.RecordOK
		return resp, nil
	}
	if se, ok := err.(*httpretry.StatusError); ok {
		err = &StatusError{Kind: kind, URL: resp.Record.URL, Status: se.Status, Attempts: se.Attempts}
	}
	return resp, f.fail(resp, OutcomeOf(err), fmt.Errorf("registry: GET %s (%s): %w", resp.Record.URL, kind, err))
}

// fail records a failed fetch.
func (f *fetcher) fail(resp *Response, outcome string, err error) error {
	resp.Record.Outcome = outcome
	resp.Record.Error = err.Error()
	if resp.Record.FetchedAt.IsZero() {
		resp.Record.FetchedAt = f.o.Now().UTC()
	}
	return err
}

// OutcomeOf is the Record outcome a failed fetch's error stands for:
// not_found, http_error, too_large, canceled, else network_error. Clients
// that share this package's records (repohost) classify with it too.
func OutcomeOf(err error) string {
	var se *StatusError
	switch {
	case errors.Is(err, ErrNotFound):
		return vocab.RecordNotFound
	case errors.As(err, &se):
		return vocab.RecordHTTPError
	case errors.Is(err, ErrTooLarge):
		return vocab.RecordTooLarge
	case errors.Is(err, context.Canceled):
		return vocab.RecordCanceled
	default:
		return vocab.RecordNetworkError
	}
}

// redactURL hides a password in a URL's userinfo, so a credentialed index
// URL never reaches records.json or an error message.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}

// resolveRef resolves ref (absolute or relative) against base and insists on
// http(s), so a registry document cannot point the client at another scheme.
func resolveRef(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("%w: base %q: %v", ErrInvalidRequest, redactURL(base), err)
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return "", fmt.Errorf("%w: reference %q: %v", ErrInvalidRequest, ref, err)
	}
	u := b.ResolveReference(r)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: reference %q is not an http(s) URL", ErrInvalidRequest, ref)
	}
	return u.String(), nil
}

// normalizeBase checks a configured base URL and drops its trailing slash.
func normalizeBase(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: base URL %q is not an absolute http(s) URL", ErrNotConfigured, redactURL(raw))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%w: base URL %q must not carry a query or fragment", ErrNotConfigured, redactURL(raw))
	}
	return strings.TrimRight(raw, "/"), nil
}
