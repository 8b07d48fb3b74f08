package analyzer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/httpretry"
)

// Sleeper waits for d or until ctx ends. Tests inject one that records the
// delays and returns at once, so retry behaviour is asserted without timing.
type Sleeper func(ctx context.Context, d time.Duration) error

// RealSleep is the Sleeper of production runs.
func RealSleep(ctx context.Context, d time.Duration) error { return httpretry.Sleep(ctx, d) }

// RetryPolicy says how often and how long a network analyzer retries. The
// SDKs' own retries are switched off so that this one policy, with its
// injected Sleeper, is the only one, and is tested.
type RetryPolicy struct {
	MaxAttempts int           // total attempts, the first included; default 5
	BaseDelay   time.Duration // first backoff; doubled each attempt; default 1s
	MaxDelay    time.Duration // cap on one wait, Retry-After included; default 60s
	Sleep       Sleeper       // default RealSleep
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 5
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 60 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = RealSleep
	}
	return p
}

// retryableStatus is the set of HTTP statuses worth another attempt: request
// timeout, conflict, rate limit, every server error, and 529 (overloaded).
// It is wider than httpretry.RetryableStatus: the model APIs document 408
// and 409 as transient, and a 501 is retried as any other 5xx.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// statusError classifies an HTTP error status of an attempt.
func statusError(code int, h http.Header, kind string) error {
	err := fmt.Errorf("%w: HTTP %d %s", ErrUnavailable, code, kind)
	if !retryableStatus(code) {
		return err
	}
	return httpretry.Retry(err, retryAfter(h, time.Now()))
}

// clientError classifies an SDK error that is not an HTTP status. An error
// of the HTTP exchange itself (a *url.Error: a connection refused or lost, a
// body cut short, detected by bufferingTransport, or the attempt's own
// timeout) is worth another attempt unless the caller's context ctx has
// ended. Anything else arises after a whole body arrived, while decoding it:
// an answer that does not parse, ErrMalformed, not retried.
func clientError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return httpretry.Retry(fmt.Errorf("%w: %v", ErrUnavailable, err), 0)
	}
	return fmt.Errorf("%w: response body: %v", ErrMalformed, err)
}

// maxResponseBytes bounds one response body; an answer to a bounded batch
// is far smaller.
const maxResponseBytes = 16 << 20

// errBodyCut is what bufferingTransport reports for a body that ended
// before its declared length or broke off mid-read.
var errBodyCut = errors.New("response body cut short")

// bufferingTransport reads every response body whole before the SDK sees
// it, so a body cut short is an error of the exchange (the client wraps it
// in a *url.Error) and never reaches the SDK's JSON decoder, where it would
// look like an answer that does not parse.
type bufferingTransport struct{ base http.RoundTripper }

func (t bufferingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	resp.Body.Close()
	if rerr != nil {
		return nil, fmt.Errorf("%w: %v", errBodyCut, rerr)
	}
	if len(body) > maxResponseBytes {
		return nil, fmt.Errorf("response body exceeds %d bytes", maxResponseBytes)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// wrapHTTPClient returns a copy of hc (or of a default client) whose
// transport buffers bodies. Its own Timeout is left as given: each attempt
// is bounded by its context.
func wrapHTTPClient(hc *http.Client) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = bufferingTransport{base: base}
	return c
}

// retryAfter reads the retry-after-ms header some servers send, then
// Retry-After as seconds (fractions allowed, as these APIs send them) or an
// HTTP date. Zero when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	return httpretry.ParseRetryAfter(v, now)
}

// withRetries runs attempt until it succeeds, fails for good, or the policy's
// attempts are spent. The wait before attempt n+1 is the server's
// Retry-After when given, else BaseDelay·2^(n-1), capped at MaxDelay; no
// jitter, and a wait is begun even past ctx's deadline (the sleep then
// reports it). It returns the number of attempts made.
func withRetries(ctx context.Context, p RetryPolicy, attempt func(ctx context.Context) error) (int, error) {
	p = p.withDefaults()
	n, err := httpretry.Policy{
		MaxAttempts:       p.MaxAttempts,
		BaseBackoff:       p.BaseDelay,
		MaxBackoff:        p.MaxDelay,
		NoJitter:          true,
		MaxRetryAfter:     p.MaxDelay,
		SleepPastDeadline: true,
		Sleep:             p.Sleep,
	}.Do(ctx, func(ctx context.Context, _ int) error { return attempt(ctx) })
	var w *httpretry.WaitError
	if errors.As(err, &w) {
		return n, fmt.Errorf("%w: waiting to retry: %v", ErrUnavailable, w.Err)
	}
	return n, err
}

// sdkDefaults applies the defaults both SDK analyzers share (8192 output
// tokens, 180 s per attempt), checks that a model is named, and returns the
// body-buffering client to hand the SDK.
func sdkDefaults(provider, model string, maxTokens *int64, timeout *time.Duration, hc *http.Client) (*http.Client, error) {
	if model == "" {
		return nil, fmt.Errorf("analyzer: %s: no model configured", provider)
	}
	if *maxTokens <= 0 {
		*maxTokens = 8192
	}
	if *timeout <= 0 {
		*timeout = 180 * time.Second
	}
	return wrapHTTPClient(hc), nil
}

// sdkCall makes one SDK request under policy p, each attempt bounded by
// timeout. apiStatus reads the SDK's API error (status, headers, error
// type; ok false for any other error), so a status is classified by
// statusError and anything else by clientError. It returns the result, the
// number of attempts and the error.
func sdkCall[T any](ctx context.Context, p RetryPolicy, timeout time.Duration,
	call func(ctx context.Context) (T, error),
	apiStatus func(error) (code int, h http.Header, kind string, ok bool)) (T, int, error) {
	var out T
	calls, err := withRetries(ctx, p, func(ctx context.Context) error {
		actx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		v, err := call(actx)
		if err != nil {
			if code, h, kind, ok := apiStatus(err); ok {
				return statusError(code, h, kind)
			}
			return clientError(ctx, err)
		}
		out = v
		return nil
	})
	return out, calls, err
}

// responseHeader is r's header, nil when the SDK kept no response.
func responseHeader(r *http.Response) http.Header {
	if r == nil {
		return nil
	}
	return r.Header
}

// semaphore bounds how many calls an analyzer has in flight at once.
type semaphore chan struct{}

func newSemaphore(n int) semaphore {
	if n <= 0 {
		n = 4
	}
	return make(semaphore, n)
}

func (s semaphore) acquire(ctx context.Context) error {
	select {
	case s <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w: waiting for a call slot: %v", ErrUnavailable, ctx.Err())
	}
}

func (s semaphore) release() { <-s }
