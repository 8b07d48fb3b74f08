package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults for Options fields left zero.
const (
	DefaultRequestTimeout   = 60 * time.Second
	DefaultOverallTimeout   = 5 * time.Minute
	DefaultMaxAttempts      = 4
	DefaultBaseBackoff      = 500 * time.Millisecond
	DefaultMaxBackoff       = 30 * time.Second
	DefaultMaxRetryAfter    = 60 * time.Second
	DefaultMaxDocumentBytes = 64 << 20  // packuments of popular packages run to tens of MB
	DefaultMaxArtifactBytes = 256 << 20 // well above any MCP server tarball seen; the archive reader has its own limits
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

func (o Options) withDefaults() Options {
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Transport: http.DefaultTransport}
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.OverallTimeout <= 0 {
		o.OverallTimeout = DefaultOverallTimeout
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.BaseBackoff <= 0 {
		o.BaseBackoff = DefaultBaseBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if o.MaxDocumentBytes <= 0 {
		o.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if o.MaxArtifactBytes <= 0 {
		o.MaxArtifactBytes = DefaultMaxArtifactBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
	return o
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// fetcher is the HTTP core both registry clients share.
type fetcher struct {
	o  Options
	ua string
}

func newFetcher(o Options) *fetcher {
	o = o.withDefaults()
	return &fetcher{o: o, ua: UserAgent(o.Version)}
}

// attempt is the result of one HTTP exchange.
type attempt struct {
	status      int
	body        []byte
	contentType string
	err         error
	retryable   bool
	retryAfter  time.Duration // > 0 when the server asked for a wait
}

// get fetches rawURL with bounded retries. It always returns a Response whose
// Record says what happened; err is nil exactly when Record.Outcome is ok.
func (f *fetcher) get(ctx context.Context, kind, rawURL, accept string, limit int64) (*Response, error) {
	resp := &Response{Record: Record{Kind: kind, URL: redactURL(rawURL)}}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		err = fmt.Errorf("%w: %s URL %q is not an absolute http(s) URL", ErrInvalidRequest, kind, resp.Record.URL)
		return resp, f.fail(resp, OutcomeInvalidRequest, err)
	}

	ctx, cancel := context.WithTimeout(ctx, f.o.OverallTimeout)
	defer cancel()

	var last attempt
	for n := 1; ; n++ {
		last = f.once(ctx, rawURL, accept, limit)
		var se *StatusError
		if errors.As(last.err, &se) {
			se.Kind, se.Attempts = kind, n
		}
		resp.Record.Status = last.status
		resp.Record.FetchedAt = f.o.Now().UTC()
		if last.err == nil {
			resp.Body = last.body
			resp.ContentType = last.contentType
			resp.Record.SHA256 = sha256Hex(last.body)
			resp.Record.Outcome = OutcomeOK
			resp.Record.Error = ""
			return resp, nil
		}
		if !last.retryable || n >= f.o.MaxAttempts {
			break
		}
		wait := f.backoff(n)
		if last.retryAfter > 0 {
			wait = min(last.retryAfter, f.o.MaxRetryAfter)
		}
		// Waiting past the overall deadline only to fail is pointless;
		// stop now with the error we have.
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			break
		}
		if err := f.o.Sleep(ctx, wait); err != nil {
			last.err = fmt.Errorf("waiting to retry after %v: %w", last.err, err)
			break
		}
	}
	return resp, f.fail(resp, classify(last.err), fmt.Errorf("registry: GET %s (%s): %w", resp.Record.URL, kind, last.err))
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

func classify(err error) string {
	var se *StatusError
	switch {
	case errors.Is(err, ErrNotFound):
		return OutcomeNotFound
	case errors.As(err, &se):
		return OutcomeHTTPError
	case errors.Is(err, ErrTooLarge):
		return OutcomeTooLarge
	case errors.Is(err, context.Canceled):
		return OutcomeCanceled
	default:
		return OutcomeNetworkError
	}
}

// backoff returns the wait before retry n (n ≥ 1): full jitter over an
// exponentially growing ceiling.
func (f *fetcher) backoff(n int) time.Duration {
	ceil := float64(f.o.MaxBackoff)
	if n-1 < 62 {
		ceil = math.Min(ceil, float64(f.o.BaseBackoff)*math.Pow(2, float64(n-1)))
	}
	j := f.o.Jitter()
	if j < 0 || j >= 1 || math.IsNaN(j) {
		j = 0
	}
	return time.Duration(j * ceil)
}

func (f *fetcher) once(ctx context.Context, rawURL, accept string, limit int64) (a attempt) {
	actx, cancel := context.WithTimeout(ctx, f.o.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, rawURL, nil)
	if err != nil {
		return attempt{err: fmt.Errorf("%w: %v", ErrInvalidRequest, err)}
	}
	req.Header.Set("User-Agent", f.ua)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := f.o.HTTPClient.Do(req)
	if err != nil {
		// The caller's own context ending is final; anything else (refused
		// connection, reset, this attempt's timeout) may pass.
		return attempt{err: err, retryable: ctx.Err() == nil}
	}
	defer res.Body.Close()
	a.status = res.StatusCode
	a.contentType = res.Header.Get("Content-Type")

	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
	case res.StatusCode == http.StatusTooManyRequests ||
		(res.StatusCode >= 500 && res.StatusCode != http.StatusNotImplemented):
		a.err = &StatusError{URL: redactURL(rawURL), Status: res.StatusCode}
		a.retryable = true
		a.retryAfter = parseRetryAfter(res.Header.Get("Retry-After"), f.o.Now())
		drain(res.Body)
		return a
	default:
		a.err = &StatusError{URL: redactURL(rawURL), Status: res.StatusCode}
		drain(res.Body)
		return a
	}

	if res.ContentLength > limit {
		a.err = fmt.Errorf("%w: Content-Length %d exceeds cap %d", ErrTooLarge, res.ContentLength, limit)
		return a
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		// A body cut short is a network failure worth another try.
		a.err = fmt.Errorf("reading body: %w", err)
		a.retryable = ctx.Err() == nil
		return a
	}
	if int64(len(body)) > limit {
		a.err = fmt.Errorf("%w: body exceeds cap %d", ErrTooLarge, limit)
		return a
	}
	a.body = body
	return a
}

// drain reads a little of an error body so the connection can be reused,
// without letting a hostile server feed us forever.
func drain(r io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, 64<<10))
}

// parseRetryAfter reads delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
// A missing, unparseable or past value yields 0 (use the backoff instead).
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		if secs > int64(math.MaxInt64/time.Second) {
			return time.Duration(math.MaxInt64)
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
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
