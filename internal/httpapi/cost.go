package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// The per-client cost limit. The rate limiter counts requests, which does
// not bound what they cost: a client could keep the whole connection pool
// busy with few requests that each read a lot, and every other reader would
// wait for a connection. So each client (the rate limiter's key) may have
// at most a fair share of the pool in database-bound requests at once; one
// more is refused at once with 429 and Retry-After, which costs nothing,
// instead of queueing for a connection. Answers that read no database (a
// cached manifest, the methodology, health, metrics, static files) are not
// counted.

// defaultClientInFlight is the bound when Options does not set one: with
// the server's default pool of 32 connections, eight clients at their
// bound fill it, and a gateway fetching pages one after another, or a
// browser loading a page, stays far below it.
const defaultClientInFlight = 4

// costRetryAfter is what the refusal tells a client to wait, in seconds:
// a database-bound request of this service takes milliseconds, so a slot
// of the client's is soon free again.
const costRetryAfter = 1

// errClientBusy is the refusal: a fixed detail, and Retry-After.
var errClientBusy = &Problem{Status: http.StatusTooManyRequests, RetryAfter: costRetryAfter,
	Detail: "too many requests from this client are reading the database at once; retry after the number of seconds in Retry-After"}

// costLimiter counts each client's database-bound requests in flight.
type costLimiter struct {
	limit   int // per client; <= 0: no bound
	mu      sync.Mutex
	flying  map[string]int
	refused prometheus.Counter
}

func newCostLimiter(limit int, reg prometheus.Registerer) *costLimiter {
	l := &costLimiter{limit: limit, flying: map[string]int{}}
	l.refused = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "attestari_client_busy_total",
		Help: "Database-bound requests refused (429) because their client already had its bound of them in flight.",
	})
	reg.MustRegister(l.refused)
	return l
}

// acquire takes one of key's slots; ok false means key has none left. A
// successful acquire must be followed by exactly one release of key.
func (l *costLimiter) acquire(key string) bool {
	if l.limit <= 0 {
		return true
	}
	l.mu.Lock()
	n := l.flying[key]
	if n >= l.limit {
		l.mu.Unlock()
		l.refused.Inc()
		return false
	}
	l.flying[key] = n + 1
	l.mu.Unlock()
	return true
}

func (l *costLimiter) release(key string) {
	if l.limit <= 0 {
		return
	}
	l.mu.Lock()
	// Deleting at zero keeps the map as small as the set of clients with
	// a request in flight, however many clients have come and gone.
	if n := l.flying[key]; n <= 1 {
		delete(l.flying, key)
	} else {
		l.flying[key] = n - 1
	}
	l.mu.Unlock()
}

// costKey is the client a request is counted against: the rate limiter's.
func costKey(r *http.Request) string {
	k, _ := clientKey(r)
	return k
}

// limitCost wraps the API's database-bound routes: a request over its
// client's bound is answered 429 problem+json.
func (s *Server) limitCost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := costKey(r)
		if !s.cost.acquire(k) {
			render(w, r, s.log, errClientBusy)
			return
		}
		defer s.cost.release(k)
		next.ServeHTTP(w, r)
	})
}

// limitPageCost is limitCost for the website: the refusal is the HTML
// error page, and static files, which read no database, are not counted.
func (s *Server) limitPageCost(next http.Handler) http.Handler {
	refuse := s.page(func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Retry-After", "1")
		return errClientBusy
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/static/") {
			next.ServeHTTP(w, r)
			return
		}
		k := costKey(r)
		if !s.cost.acquire(k) {
			refuse(w, r)
			return
		}
		defer s.cost.release(k)
		next.ServeHTTP(w, r)
	})
}

// isClientBusy reports the refusal, which is the refused client's own and
// must not be handed to other requests sharing a read (manifestCache.load).
func isClientBusy(err error) bool { return errors.Is(err, errClientBusy) }
