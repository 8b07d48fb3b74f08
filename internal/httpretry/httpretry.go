// Package httpretry owns the retry discipline every outbound HTTP client of
// the project shares: how many attempts, the backoff between them (full
// jitter over an exponential ceiling, or none), the server's Retry-After and
// its cap, which answers are worth another try (by default 429 and every
// 5xx but 501; network errors; a body cut short) and which are outcomes (any
// other 4xx), bounded body reads, the User-Agent, and stopping at once when
// the caller's context ends. Policy.Do is the loop alone, for callers whose
// attempt is not a plain request (an SDK call); Client.Do is the loop around
// one HTTP request.
//
// Failures are typed (StatusError, GaveUpError, WaitError, and a caller's
// own too-large sentinel) and are classified with errors.Is/As, never by
// text. Where callers differ (which statuses to retry, how to read a
// server's requested wait, whether a wait beyond the cap is waited for),
// they say so through Options rather than copies of this loop.
//
// It must not know any host, registry or service (base URLs and headers are
// the caller's), must not record or store anything, and must not decide
// what an outcome means: a 404 is a StatusError here, and a finding or a
// refusal only in the caller.
package httpretry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults for Policy and Options fields left zero.
const (
	DefaultMaxAttempts    = 4
	DefaultBaseBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff     = 30 * time.Second
	DefaultMaxRetryAfter  = 60 * time.Second
	DefaultRequestTimeout = 60 * time.Second
	DefaultOverallTimeout = 5 * time.Minute
	DefaultMaxBodyBytes   = 64 << 20
)

// ErrTooLarge is the sentinel a body over the cap wraps when Options names
// none of its own.
var ErrTooLarge = errors.New("httpretry: response too large")

// Policy is how often and how long to retry. The zero value is usable.
type Policy struct {
	// MaxAttempts bounds attempts (first try included).
	MaxAttempts int
	// Before retry n (n ≥ 1) the wait is j·min(MaxBackoff,
	// BaseBackoff·2^(n-1)) with j from Jitter in [0, 1) ("full jitter"), or
	// j = 1 when NoJitter is set.
	BaseBackoff time.Duration
	MaxBackoff  time.Duration
	// Jitter returns a value in [0, 1); out-of-range values count as 0.
	// Tests inject a constant so waits are exact. Default rand.Float64.
	Jitter   func() float64
	NoJitter bool
	// MaxRetryAfter caps a server's requested wait. A longer request is
	// waited for only this long, or, with GiveUpBeyondCap, not at all: the
	// last failure is returned at once (a rate-limit window longer than the
	// caller will wait is an outcome to record, not a stall).
	MaxRetryAfter   time.Duration
	GiveUpBeyondCap bool
	// Unless SleepPastDeadline is set, a wait that would end after ctx's
	// deadline is not begun: failing then is certain, so the last failure
	// is returned now.
	SleepPastDeadline bool
	// Sleep waits d; it must return ctx.Err() if ctx ends. Tests inject one
	// that records the waits and returns at once. Default Sleep.
	Sleep func(ctx context.Context, d time.Duration) error
}

// orDefault sets *v to d when *v is zero or negative.
func orDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

func (p Policy) withDefaults() Policy {
	orDefault(&p.MaxAttempts, DefaultMaxAttempts)
	orDefault(&p.BaseBackoff, DefaultBaseBackoff)
	orDefault(&p.MaxBackoff, DefaultMaxBackoff)
	orDefault(&p.MaxRetryAfter, DefaultMaxRetryAfter)
	if p.Jitter == nil {
		p.Jitter = rand.Float64
	}
	if p.Sleep == nil {
		p.Sleep = Sleep
	}
	return p
}

// Sleep waits d or until ctx ends, whichever is first.
func Sleep(ctx context.Context, d time.Duration) error {
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

// Backoff is the wait before retry n (n ≥ 1) when the server asked for none.
func (p Policy) Backoff(n int) time.Duration {
	p = p.withDefaults()
	ceil := float64(p.MaxBackoff)
	if n-1 < 62 {
		ceil = math.Min(ceil, float64(p.BaseBackoff)*math.Pow(2, float64(n-1)))
	}
	j := 1.0
	if !p.NoJitter {
		j = p.Jitter()
		if j < 0 || j >= 1 || math.IsNaN(j) {
			j = 0
		}
	}
	return time.Duration(j * ceil)
}

// RetryableError marks an attempt's failure as worth another attempt, after
// After when the server asked for a wait (0: use the backoff).
type RetryableError struct {
	Err   error
	After time.Duration
}

func (e *RetryableError) Error() string { return e.Err.Error() }
func (e *RetryableError) Unwrap() error { return e.Err }

// Retry marks err as retryable; see RetryableError.
func Retry(err error, after time.Duration) error {
	return &RetryableError{Err: err, After: after}
}

// GaveUpError: the last attempt failed retryably and no further attempt was
// made (attempts spent, the next wait past the deadline, or, with
// GiveUpBeyondCap, a requested wait beyond the cap). Err is that attempt's
// error.
type GaveUpError struct {
	Attempts int
	Err      error
}

func (e *GaveUpError) Error() string {
	return fmt.Sprintf("%v (gave up after %d attempts)", e.Err, e.Attempts)
}
func (e *GaveUpError) Unwrap() error { return e.Err }

// WaitError: ctx ended while waiting to retry after Last. It unwraps to
// ctx's error only, so errors.Is(err, context.Canceled) tells a caller's
// cancellation, and Last (already answered) is kept as text.
type WaitError struct {
	Last error
	Err  error
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("waiting to retry after %v: %v", e.Last, e.Err)
}
func (e *WaitError) Unwrap() error { return e.Err }

// Do runs attempt (n counts from 1) until it returns nil, returns an error
// not marked by Retry (returned as is), or no further attempt will be made
// (a *GaveUpError). A *WaitError says ctx ended during a wait. It returns
// the number of attempts made.
func (p Policy) Do(ctx context.Context, attempt func(ctx context.Context, n int) error) (int, error) {
	p = p.withDefaults()
	for n := 1; ; n++ {
		err := attempt(ctx, n)
		if err == nil {
			return n, nil
		}
		var re *RetryableError
		if !errors.As(err, &re) {
			return n, err
		}
		last := err
		if top, ok := err.(*RetryableError); ok {
			last = top.Err
		}
		if n >= p.MaxAttempts {
			return n, &GaveUpError{Attempts: n, Err: last}
		}
		wait := p.Backoff(n)
		if re.After > 0 {
			if re.After > p.MaxRetryAfter {
				if p.GiveUpBeyondCap {
					return n, &GaveUpError{Attempts: n, Err: last}
				}
				re.After = p.MaxRetryAfter
			}
			wait = re.After
		}
		if dl, ok := ctx.Deadline(); ok && !p.SleepPastDeadline && time.Until(dl) < wait {
			return n, &GaveUpError{Attempts: n, Err: last}
		}
		if err := p.Sleep(ctx, wait); err != nil {
			return n, &WaitError{Last: last, Err: err}
		}
	}
}

// ParseRetryAfter reads a Retry-After value: delay-seconds or an HTTP-date
// (RFC 9110 §10.2.3). A missing, unparseable or past value yields 0 (use the
// backoff); a number of seconds too large for a Duration yields the largest
// one (the cap then applies).
func ParseRetryAfter(v string, now time.Time) time.Duration {
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

// RetryableStatus is the default set of statuses worth another attempt:
// 429 and every 5xx but 501 (a server that does not implement the method
// will not start to).
func RetryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || (code >= 500 && code != http.StatusNotImplemented)
}

// DefaultClassify retries RetryableStatus, waiting what Retry-After asks.
func DefaultClassify(res *http.Response, now time.Time) (retry bool, after time.Duration) {
	if !RetryableStatus(res.StatusCode) {
		return false, 0
	}
	return true, ParseRetryAfter(res.Header.Get("Retry-After"), now)
}

// StatusError is a non-2xx answer. Attempts counts the attempts made up to
// and including the one that received it.
type StatusError struct {
	Status   int
	Attempts int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d after %d attempt(s)", e.Status, e.Attempts)
}

// Options configures a Client. The zero value is usable.
type Options struct {
	Policy
	// HTTPClient carries the transport; its Timeout should be zero, as
	// timeouts are applied here.
	HTTPClient *http.Client
	// UserAgent, when set, is sent on every request.
	UserAgent string
	// RequestTimeout bounds one attempt, body included; OverallTimeout one
	// call, all attempts and waits included.
	RequestTimeout time.Duration
	OverallTimeout time.Duration
	// MaxBodyBytes caps a 2xx body when a Request names no cap of its own.
	MaxBodyBytes int64
	// ErrTooLarge is the sentinel a body over the cap wraps, so a caller's
	// errors.Is against its own vocabulary keeps working. Default
	// ErrTooLarge.
	ErrTooLarge error
	// Now turns an HTTP-date into a wait and stamps Response.Received.
	Now func() time.Time
	// Classify says whether a non-2xx answer is worth another attempt, and
	// after what wait (0: the backoff). Default DefaultClassify.
	Classify func(res *http.Response, now time.Time) (retry bool, after time.Duration)
}

// Client sends requests under Options.
type Client struct{ o Options }

// New returns a Client; zero fields of o take the defaults.
func New(o Options) *Client {
	o.Policy = o.Policy.withDefaults()
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Transport: http.DefaultTransport}
	}
	orDefault(&o.RequestTimeout, DefaultRequestTimeout)
	orDefault(&o.OverallTimeout, DefaultOverallTimeout)
	orDefault(&o.MaxBodyBytes, DefaultMaxBodyBytes)
	if o.ErrTooLarge == nil {
		o.ErrTooLarge = ErrTooLarge
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Classify == nil {
		o.Classify = DefaultClassify
	}
	return &Client{o: o}
}

// Request is one call. Body is resent whole on every attempt.
type Request struct {
	Method       string // default GET
	URL          string
	Header       http.Header
	Body         []byte
	MaxBodyBytes int64 // 0: the Client's
}

// Response is what the last attempt received.
type Response struct {
	Status      int // 0 when no answer arrived
	Body        []byte
	ContentType string
	Attempts    int
	Received    time.Time // Now() when the last attempt ended
}

// Do sends req with bounded retries. The Response is never nil. err is the
// last attempt's error (a *StatusError for a non-2xx answer, an error
// wrapping ErrTooLarge for a body over the cap, the transport's error), or a
// *WaitError when ctx ended during a wait; a body is returned only with a
// nil err.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	resp := &Response{}
	ctx, cancel := context.WithTimeout(ctx, c.o.OverallTimeout)
	defer cancel()
	n, err := c.o.Policy.Do(ctx, func(ctx context.Context, n int) error {
		var err error
		resp.Status, resp.ContentType, resp.Body, err = c.once(ctx, req)
		resp.Received = c.o.Now()
		var se *StatusError
		if errors.As(err, &se) {
			se.Attempts = n
		}
		return err
	})
	resp.Attempts = n
	var g *GaveUpError
	if errors.As(err, &g) {
		err = g.Err
	}
	if err != nil {
		resp.Body = nil
	}
	return resp, err
}

func (c *Client) once(ctx context.Context, r Request) (status int, contentType string, body []byte, err error) {
	actx, cancel := context.WithTimeout(ctx, c.o.RequestTimeout)
	defer cancel()
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	var rb io.Reader
	if r.Body != nil {
		rb = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(actx, method, r.URL, rb)
	if err != nil {
		return 0, "", nil, fmt.Errorf("httpretry: building request: %w", err)
	}
	for k, vs := range r.Header {
		req.Header[k] = vs
	}
	if c.o.UserAgent != "" {
		req.Header.Set("User-Agent", c.o.UserAgent)
	}
	res, err := c.o.HTTPClient.Do(req)
	if err != nil {
		// The caller's own context ending is final; anything else (refused
		// connection, reset, this attempt's timeout) may pass.
		if ctx.Err() == nil {
			return 0, "", nil, Retry(err, 0)
		}
		return 0, "", nil, err
	}
	defer res.Body.Close()
	status, contentType = res.StatusCode, res.Header.Get("Content-Type")
	if status < 200 || status > 299 {
		retry, after := c.o.Classify(res, c.o.Now())
		drain(res.Body)
		if retry {
			return status, contentType, nil, Retry(&StatusError{Status: status}, after)
		}
		return status, contentType, nil, &StatusError{Status: status}
	}
	limit := r.MaxBodyBytes
	if limit <= 0 {
		limit = c.o.MaxBodyBytes
	}
	if res.ContentLength > limit {
		return status, contentType, nil, fmt.Errorf("%w: Content-Length %d exceeds cap %d", c.o.ErrTooLarge, res.ContentLength, limit)
	}
	body, err = io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		// A body cut short is a network failure worth another try.
		err = fmt.Errorf("reading body: %w", err)
		if ctx.Err() == nil {
			return status, contentType, nil, Retry(err, 0)
		}
		return status, contentType, nil, err
	}
	if int64(len(body)) > limit {
		return status, contentType, nil, fmt.Errorf("%w: body exceeds cap %d", c.o.ErrTooLarge, limit)
	}
	return status, contentType, body, nil
}

// drain reads a little of an error body so the connection can be reused,
// without letting a hostile server feed us forever.
func drain(r io.Reader) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r, 64<<10))
}
