package httpretry_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/httpretry"
)

var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// sleeper records the waits asked for and waits for none of them. A call's
// attempts run one after another, so it needs no lock.
type sleeper struct{ waits []time.Duration }

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration { return s.waits }

// script answers the i-th request with steps[i] (the last step repeats).
type step struct {
	status     int
	retryAfter string
	body       string
}

type server struct {
	*httptest.Server
	mu    sync.Mutex
	steps []step
	reqs  []*http.Request
	bods  [][]byte
}

func newServer(t *testing.T, steps ...step) *server {
	t.Helper()
	s := &server{steps: steps}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		i := len(s.reqs)
		s.reqs = append(s.reqs, r)
		s.bods = append(s.bods, b)
		st := s.steps[min(i, len(s.steps)-1)]
		s.mu.Unlock()
		if st.retryAfter != "" {
			w.Header().Set("Retry-After", st.retryAfter)
		}
		w.Header().Set("Content-Type", "text/plain")
		if st.status == 0 {
			st.status = 200
		}
		w.WriteHeader(st.status)
		_, _ = io.WriteString(w, st.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

func newClient(s *sleeper, mutate ...func(*httpretry.Options)) *httpretry.Client {
	o := httpretry.Options{
		Policy: httpretry.Policy{
			MaxAttempts: 4,
			BaseBackoff: 100 * time.Millisecond,
			MaxBackoff:  time.Second,
			Jitter:      func() float64 { return 0.5 },
			Sleep:       s.Sleep,
		},
		UserAgent: "test-agent/1",
		Now:       func() time.Time { return fixedNow },
	}
	for _, m := range mutate {
		m(&o)
	}
	return httpretry.New(o)
}

func TestRetryThenSucceed(t *testing.T) {
	srv := newServer(t, step{status: 500}, step{status: 503}, step{body: "hello"})
	s := &sleeper{}
	h := http.Header{}
	h.Set("Accept", "text/plain")
	r, err := newClient(s).Do(context.Background(), httpretry.Request{URL: srv.URL, Header: h})
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Body) != "hello" || r.Status != 200 || r.Attempts != 3 || r.ContentType != "text/plain" || !r.Received.Equal(fixedNow) {
		t.Errorf("response = %+v", r)
	}
	// Full jitter at 0.5 over 100ms·2^(n-1).
	if want := []time.Duration{50 * time.Millisecond, 100 * time.Millisecond}; !reflect.DeepEqual(s.Waits(), want) {
		t.Errorf("waits = %v, want %v", s.Waits(), want)
	}
	for _, q := range srv.reqs {
		if q.Header.Get("User-Agent") != "test-agent/1" || q.Header.Get("Accept") != "text/plain" {
			t.Errorf("headers %v", q.Header)
		}
	}
}

func TestRetryAfterHonouredAndCapped(t *testing.T) {
	cases := []struct {
		name, header string
		giveUp       bool
		want         []time.Duration
		wantErr      bool
	}{
		{"seconds", "7", false, []time.Duration{7 * time.Second}, false},
		{"http date", fixedNow.Add(90 * time.Second).Format(http.TimeFormat), false, []time.Duration{90 * time.Second}, false},
		{"capped", "3600", false, []time.Duration{2 * time.Minute}, false},
		{"beyond cap, give up", "3600", true, nil, true},
		{"past date falls back to backoff", fixedNow.Add(-time.Hour).Format(http.TimeFormat), false, []time.Duration{50 * time.Millisecond}, false},
		{"garbage falls back to backoff", "soon", false, []time.Duration{50 * time.Millisecond}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newServer(t, step{status: 429, retryAfter: c.header}, step{body: "ok"})
			s := &sleeper{}
			r, err := newClient(s, func(o *httpretry.Options) {
				o.MaxRetryAfter = 2 * time.Minute
				o.GiveUpBeyondCap = c.giveUp
			}).Do(context.Background(), httpretry.Request{URL: srv.URL})
			if got := s.Waits(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("waits = %v, want %v", got, c.want)
			}
			var se *httpretry.StatusError
			if c.wantErr {
				if !errors.As(err, &se) || se.Status != 429 || se.Attempts != 1 || r.Status != 429 || r.Body != nil {
					t.Errorf("err = %v, response %+v", err, r)
				}
			} else if err != nil || string(r.Body) != "ok" {
				t.Errorf("err = %v, response %+v", err, r)
			}
		})
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 410, 501} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			srv := newServer(t, step{status: code, retryAfter: "1"})
			s := &sleeper{}
			r, err := newClient(s).Do(context.Background(), httpretry.Request{URL: srv.URL})
			var se *httpretry.StatusError
			if !errors.As(err, &se) || se.Status != code || se.Attempts != 1 || r.Status != code {
				t.Fatalf("err = %v, response %+v", err, r)
			}
			if srv.count() != 1 || len(s.Waits()) != 0 {
				t.Errorf("%d requests, waits %v", srv.count(), s.Waits())
			}
		})
	}
}

func TestAttemptsExhaustedReturnLastStatus(t *testing.T) {
	srv := newServer(t, step{status: 500}, step{status: 502}, step{status: 503})
	s := &sleeper{}
	r, err := newClient(s, func(o *httpretry.Options) { o.MaxAttempts = 3 }).Do(context.Background(), httpretry.Request{URL: srv.URL})
	var se *httpretry.StatusError
	if !errors.As(err, &se) || se.Status != 503 || se.Attempts != 3 {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "HTTP 503 after 3 attempt(s)" {
		t.Errorf("message %q", err)
	}
	if r.Status != 503 || r.Attempts != 3 || srv.count() != 3 || len(s.Waits()) != 2 {
		t.Errorf("response %+v, %d requests, waits %v", r, srv.count(), s.Waits())
	}
}

func TestBodyLimit(t *testing.T) {
	mine := errors.New("mine: too large")
	srv := newServer(t, step{body: "0123456789abcdef"})
	s := &sleeper{}
	c := newClient(s, func(o *httpretry.Options) { o.MaxBodyBytes = 8; o.ErrTooLarge = mine })
	r, err := c.Do(context.Background(), httpretry.Request{URL: srv.URL})
	if !errors.Is(err, mine) || r.Body != nil || r.Status != 200 {
		t.Errorf("err = %v, response %+v", err, r)
	}
	// A per-request cap overrides the client's.
	if r, err := c.Do(context.Background(), httpretry.Request{URL: srv.URL, MaxBodyBytes: 16}); err != nil || len(r.Body) != 16 {
		t.Errorf("at the cap: err = %v, response %+v", err, r)
	}
	// Without Content-Length (chunked) the read itself stops at the cap.
	chunked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		_, _ = w.Write(bytes.Repeat([]byte("x"), 4096))
	}))
	defer chunked.Close()
	_, err = newClient(s, func(o *httpretry.Options) { o.MaxBodyBytes = 100 }).Do(context.Background(), httpretry.Request{URL: chunked.URL})
	if !errors.Is(err, httpretry.ErrTooLarge) {
		t.Errorf("chunked: err = %v", err)
	}
	if len(s.Waits()) != 0 {
		t.Errorf("too large was retried: %v", s.Waits())
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	srv := newServer(t, step{status: 503})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waits int
	c := newClient(nil, func(o *httpretry.Options) {
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			waits++
			cancel() // the caller gives up while we wait
			return httpretry.Sleep(ctx, time.Hour)
		}
	})
	r, err := c.Do(ctx, httpretry.Request{URL: srv.URL})
	var we *httpretry.WaitError
	if !errors.As(err, &we) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	var se *httpretry.StatusError
	if errors.As(err, &se) {
		t.Error("a wait error unwraps to the status it waited after")
	}
	if err.Error() != "waiting to retry after HTTP 503 after 1 attempt(s): context canceled" {
		t.Errorf("message %q", err)
	}
	if waits != 1 || srv.count() != 1 || r.Attempts != 1 || r.Status != 503 {
		t.Errorf("waits %d, %d requests, response %+v", waits, srv.count(), r)
	}
}

func TestCanceledContextEndsAtOnce(t *testing.T) {
	srv := newServer(t, step{body: "ok"})
	s := &sleeper{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newClient(s).Do(ctx, httpretry.Request{URL: srv.URL})
	if !errors.Is(err, context.Canceled) || len(s.Waits()) != 0 {
		t.Errorf("err = %v, waits %v", err, s.Waits())
	}
}

func TestNetworkErrorRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	s := &sleeper{}
	r, err := newClient(s, func(o *httpretry.Options) { o.MaxAttempts = 3 }).Do(context.Background(), httpretry.Request{URL: url})
	var se *httpretry.StatusError
	var re *httpretry.RetryableError
	if err == nil || errors.As(err, &se) || errors.As(err, &re) || r.Status != 0 || r.Attempts != 3 {
		t.Errorf("err = %v, response %+v", err, r)
	}
	if len(s.Waits()) != 2 {
		t.Errorf("waits = %v", s.Waits())
	}
}

func TestWaitPastDeadlineNotBegun(t *testing.T) {
	srv := newServer(t, step{status: 429, retryAfter: "30"}, step{body: "ok"})
	s := &sleeper{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := newClient(s, func(o *httpretry.Options) { o.OverallTimeout = time.Second }).Do(ctx, httpretry.Request{URL: srv.URL})
	var se *httpretry.StatusError
	if !errors.As(err, &se) || se.Status != 429 || len(s.Waits()) != 0 {
		t.Errorf("err = %v, waits %v", err, s.Waits())
	}
}

func TestPostBodyResentOnRetry(t *testing.T) {
	srv := newServer(t, step{status: 502}, step{body: "done"})
	r, err := newClient(&sleeper{}).Do(context.Background(), httpretry.Request{Method: http.MethodPost, URL: srv.URL, Body: []byte(`{"q":1}`)})
	if err != nil || string(r.Body) != "done" {
		t.Fatalf("err = %v, response %+v", err, r)
	}
	for i, b := range srv.bods {
		if srv.reqs[i].Method != http.MethodPost || string(b) != `{"q":1}` {
			t.Errorf("request %d: %s %q", i, srv.reqs[i].Method, b)
		}
	}
}

func TestCustomClassify(t *testing.T) {
	srv := newServer(t, step{status: 403}, step{body: "ok"})
	s := &sleeper{}
	c := newClient(s, func(o *httpretry.Options) {
		o.Classify = func(res *http.Response, now time.Time) (bool, time.Duration) {
			return res.StatusCode == http.StatusForbidden, 3 * time.Second
		}
	})
	if _, err := c.Do(context.Background(), httpretry.Request{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{3 * time.Second}; !reflect.DeepEqual(s.Waits(), want) {
		t.Errorf("waits = %v", s.Waits())
	}
}

func TestPolicyDo(t *testing.T) {
	terminal := errors.New("terminal")
	transient := errors.New("transient")
	s := &sleeper{}
	p := httpretry.Policy{MaxAttempts: 5, BaseBackoff: time.Second, MaxBackoff: 3 * time.Second, NoJitter: true, Sleep: s.Sleep}

	n, err := p.Do(context.Background(), func(context.Context, int) error { return terminal })
	if n != 1 || err != terminal {
		t.Errorf("terminal: %d %v", n, err)
	}
	n, err = p.Do(context.Background(), func(context.Context, int) error { return httpretry.Retry(transient, 0) })
	var g *httpretry.GaveUpError
	if n != 5 || !errors.As(err, &g) || g.Attempts != 5 || g.Err != transient || !errors.Is(err, transient) {
		t.Errorf("exhausted: %d %v", n, err)
	}
	if err.Error() != "transient (gave up after 5 attempts)" {
		t.Errorf("message %q", err)
	}
	// No jitter: exactly BaseBackoff·2^(n-1), capped at MaxBackoff.
	if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}; !reflect.DeepEqual(s.Waits(), want) {
		t.Errorf("waits = %v, want %v", s.Waits(), want)
	}
	n, err = p.Do(context.Background(), func(_ context.Context, n int) error {
		if n < 3 {
			return httpretry.Retry(transient, 0)
		}
		return nil
	})
	if n != 3 || err != nil {
		t.Errorf("recovered: %d %v", n, err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	cases := map[string]time.Duration{
		"":                               0,
		"0":                              0,
		"-5":                             0,
		" 12 ":                           12 * time.Second,
		"Sun, 01 Mar 2026 12:00:30 GMT":  30 * time.Second,
		"Sunday, 01-Mar-26 12:01:00 GMT": time.Minute,     // RFC 850
		"Sun Mar  1 12:00:05 2026":       5 * time.Second, // asctime
		"Sun, 01 Mar 2026 11:00:00 GMT":  0,
		"tomorrow":                       0,
		"1.5":                            0, // delay-seconds is digits only
		"99999999999999999999":           0, // not an int64: unparseable, so back off instead
	}
	for in, want := range cases {
		if got := httpretry.ParseRetryAfter(in, fixedNow); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
	if got := httpretry.ParseRetryAfter("9223372036854775807", fixedNow); got <= 0 {
		t.Errorf("huge seconds overflowed to %v", got)
	}
}

func TestBackoffJitterOutOfRangeIsZero(t *testing.T) {
	for _, j := range []float64{-1, 1, 2} {
		p := httpretry.Policy{Jitter: func() float64 { return j }}
		if got := p.Backoff(3); got != 0 {
			t.Errorf("jitter %v: %v", j, got)
		}
	}
	p := httpretry.Policy{Jitter: func() float64 { return 0.999 }, BaseBackoff: time.Second, MaxBackoff: 4 * time.Second}
	if got := p.Backoff(1000); got <= 0 || got > 4*time.Second {
		t.Errorf("large n: %v", got)
	}
}

func TestSleepEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := httpretry.Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if err := httpretry.Sleep(context.Background(), 0); err != nil {
		t.Errorf("zero wait: %v", err)
	}
}
