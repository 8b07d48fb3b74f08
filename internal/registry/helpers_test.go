package registry_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
)

// fixedNow is the injected clock's time.
var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// sleeper records the waits a client asks for, and waits for none of them.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// testOptions injects the clock, the sleeper and a jitter of exactly one
// half, so the backoff before retry n is BaseBackoff·2^(n-1)/2.
func testOptions(s *sleeper) registry.Options {
	return registry.Options{
		Version:     "1.2.3-test",
		Now:         func() time.Time { return fixedNow },
		Sleep:       s.Sleep,
		Jitter:      func() float64 { return 0.5 },
		BaseBackoff: 100 * time.Millisecond,
		MaxBackoff:  time.Second,
	}
}

type env struct {
	fake  *fakeregistry.Fake
	srv   *httptest.Server
	sleep *sleeper
	npm   *registry.NPM
	pypi  *registry.PyPI
}

func newEnv(t *testing.T, mutate ...func(*registry.Options)) *env {
	t.Helper()
	e := &env{fake: fakeregistry.New(), sleep: &sleeper{}}
	e.srv = httptest.NewServer(e.fake)
	t.Cleanup(e.srv.Close)
	o := testOptions(e.sleep)
	for _, m := range mutate {
		m(&o)
	}
	var err error
	if e.npm, err = registry.NewNPM(e.srv.URL+"/", o); err != nil {
		t.Fatal(err)
	}
	if e.pypi, err = registry.NewPyPI(e.srv.URL, o); err != nil {
		t.Fatal(err)
	}
	return e
}

// rawGet fetches a path from the fake directly, for comparing bytes.
func rawGet(t *testing.T, srv *httptest.Server, path string, accept string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
