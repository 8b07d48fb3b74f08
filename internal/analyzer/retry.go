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
)

// Sleeper waits for d or until ctx ends. Tests inject one that records the
// delays and returns at once, so retry behaviour is asserted without timing.
type Sleeper func(ctx context.Context, d time.Duration) error

// RealSleep is the Sleeper of production runs.
func RealSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

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

// attemptError is what one attempt of a network analyzer reports: whether
// trying again may help, the wait the server asked for, and the error.
type attemptError struct {
	retryable  bool
	retryAfter time.Duration // 0: none given
	err        error
}

func (e *attemptError) Error() string { return e.err.Error() }
func (e *attemptError) Unwrap() error { return e.err }

// retryableStatus is the set of HTTP statuses worth another attempt: request
// timeout, conflict, rate limit, every server error, and 529 (overloaded).
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict ||
		code == http.StatusTooManyRequests || code >= 500
}

// statusError classifies an HTTP error status of an attempt.
func statusError(code int, h http.Header, kind string) *attemptError {
	err := fmt.Errorf("%w: HTTP %d %s", ErrUnavailable, code, kind)
	return &attemptError{retryable: retryableStatus(code), retryAfter: retryAfter(h, time.Now()), err: err}
}

// clientError classifies an SDK error that is not an HTTP status. An error
// of the HTTP exchange itself (a *url.Error: a connection refused or lost, a
// body cut short, detected by bufferingTransport, or the attempt's own
// timeout) is worth another attempt unless the caller's context ctx has
// ended. Anything else arises after a whole body arrived, while decoding it:
// an answer that does not parse, ErrMalformed, not retried.
func clientError(ctx context.Context, err error) *attemptError {
	if ctx.Err() != nil {
		return &attemptError{err: fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return &attemptError{retryable: true, err: fmt.Errorf("%w: %v", ErrUnavailable, err)}
	}
	return &attemptError{err: fmt.Errorf("%w: response body: %v", ErrMalformed, err)}
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

// retryAfter reads Retry-After (seconds or an HTTP date) and the
// retry-after-ms header some servers send. Zero when absent or unreadable.
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
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// withRetries runs attempt until it succeeds, fails for good, or the policy's
// attempts are spent. The wait before attempt n+1 is the server's
// Retry-After when given, else BaseDelay·2^(n-1), capped at MaxDelay. It
// returns the number of attempts made.
func withRetries(ctx context.Context, p RetryPolicy, attempt func(ctx context.Context) error) (int, error) {
	p = p.withDefaults()
	for n := 1; ; n++ {
		err := attempt(ctx)
		if err == nil {
			return n, nil
		}
		var ae *attemptError
		if !errors.As(err, &ae) || !ae.retryable {
			return n, err
		}
		if n >= p.MaxAttempts {
			return n, fmt.Errorf("%w (gave up after %d attempts)", err, n)
		}
		d := ae.retryAfter
		if d <= 0 {
			d = p.BaseDelay << (n - 1)
		}
		if d > p.MaxDelay || d < 0 {
			d = p.MaxDelay
		}
		if serr := p.Sleep(ctx, d); serr != nil {
			return n, fmt.Errorf("%w: waiting to retry: %v", ErrUnavailable, serr)
		}
	}
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
