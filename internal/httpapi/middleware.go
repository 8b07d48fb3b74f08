package httpapi

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"
	"github.com/prometheus/client_golang/prometheus"
)

type operation struct {
	path     string
	method   string
	pathItem *openapi3.PathItem
	op       *openapi3.Operation
	fast     fastCheck
}

func indexOperations(spec *openapi3.T) map[string]*operation {
	out := map[string]*operation{}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			o := &operation{path: path, method: method, pathItem: item, op: op}
			o.fast = compileFastCheck(o)
			out[method+" "+path] = o
		}
	}
	return out
}

// Operations lists "METHOD /path" for every operation of the contract.
func (s *Server) Operations() []string {
	var out []string
	for k := range s.ops {
		out = append(out, k)
	}
	return out
}

// validateRequest checks every request against the contract before a handler
// runs. The route is the one chi matched, so there is one router, not two.
func (s *Server) validateRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := chi.RouteContext(r.Context())
		// This middleware runs inside the router's group, after chi matched the
		// route, so the route context already holds the pattern.
		pattern := matchedPattern(s.router, r)
		op := s.ops[r.Method+" "+pattern]
		if op == nil && r.Method == http.MethodHead {
			op = s.ops[http.MethodGet+" "+pattern]
		}
		if op == nil {
			render(w, r, s.log, fmt.Errorf("route %s %s has no operation in the contract", r.Method, pattern))
			return
		}
		params := map[string]string{}
		if rc != nil {
			for i, k := range rc.URLParams.Keys {
				if k == "*" {
					continue
				}
				v, err := url.PathUnescape(rc.URLParams.Values[i])
				if err != nil {
					render(w, r, s.log, &Problem{Status: http.StatusBadRequest, Detail: fmt.Sprintf("path parameter %q is not valid percent-encoding", k)})
					return
				}
				params[k] = v
			}
		}
		if !op.fast.accepts(r, params) {
			if err := s.validateByContract(r, op, params); err != nil {
				render(w, r, s.log, &Problem{Status: http.StatusBadRequest, Detail: requestErrorDetail(err)})
				return
			}
		}
		ctx := withParams(r.Context(), params)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// validateByContract is kin-openapi's full validation of r against op.
func (s *Server) validateByContract(r *http.Request, op *operation, params map[string]string) error {
	input := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      &routers.Route{Spec: s.spec, Path: op.path, PathItem: op.pathItem, Method: op.method, Operation: op.op},
		Options:    &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: false},
	}
	return openapi3filter.ValidateRequest(r.Context(), input)
}

// requestErrorDetail turns a validation error into a fixed-form message that
// names the parameter and the rule, without echoing internals.
func requestErrorDetail(err error) string {
	switch e := err.(type) {
	case *openapi3filter.RequestError:
		if e.Parameter != nil {
			reason := e.Reason
			if se, ok := e.Err.(*openapi3.SchemaError); ok {
				reason = se.Reason
			} else if reason == "" && e.Err != nil {
				reason = e.Err.Error()
			}
			return fmt.Sprintf("parameter %q in %s is invalid: %s", e.Parameter.Name, e.Parameter.In, firstLine(reason))
		}
		if e.RequestBody != nil {
			return "request body is invalid: " + firstLine(e.Error())
		}
		return firstLine(e.Error())
	}
	return firstLine(err.Error())
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// matchedPattern is the pattern chi matched for r, read from the route
// context when routing has happened, and matched afresh otherwise.
func matchedPattern(router chi.Routes, r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return routePattern(router, r)
}

func routePattern(router chi.Routes, r *http.Request) string {
	rctx := chi.NewRouteContext()
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	if router.Match(rctx, r.Method, path) {
		return rctx.RoutePattern()
	}
	if r.Method == http.MethodHead && router.Match(rctx, http.MethodGet, path) {
		return rctx.RoutePattern()
	}
	return ""
}

type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	cache    sync.Map // metricKey → *observers
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "attestari_http_requests_total", Help: "HTTP requests by route and status."}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "attestari_http_request_duration_seconds", Help: "HTTP request latency by route.", Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"route", "method"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

type metricKey struct {
	route, method string
	status        int
}

// observe counts one request. The label lookups are cached per (route,
// method, status): the set is bounded by the router's patterns.
func (m *metrics) observe(route, method string, status int, d time.Duration) {
	k := metricKey{route, method, status}
	v, ok := m.cache.Load(k)
	if !ok {
		v, _ = m.cache.LoadOrStore(k, &observers{
			count: m.requests.WithLabelValues(route, method, strconv.Itoa(status)),
			dur:   m.duration.WithLabelValues(route, method),
		})
	}
	o := v.(*observers)
	o.count.Inc()
	o.dur.Observe(d.Seconds())
}

type observers struct {
	count prometheus.Counter
	dur   prometheus.Observer
}

// accessLog writes one structured line per request and counts it in the
// per-route metrics. It wraps the router, so it sees every answer; chi has
// filled the route context by the time the handler returns, so the route
// pattern (not the path, which would be unbounded) labels the metrics.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		elapsed := time.Since(start)
		if rc := chi.RouteContext(r.Context()); rc != nil {
			if route := rc.RoutePattern(); route != "" {
				s.metrics.observe(route, r.Method, ww.Status(), elapsed)
			}
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", ww.Status()),
			slog.Int("bytes", ww.BytesWritten()), slog.Duration("duration", elapsed),
			slog.String("request_id", middleware.GetReqID(r.Context())), slog.String("remote", r.RemoteAddr), slog.String("client", middleware.GetClientIP(r.Context())))
	})
}

// clientKey is the rate limiter's bucket: the client address the ClientIPFrom
// middleware resolved (IPv6 by /64). A request whose client could not be
// resolved (a malformed X-Forwarded-For chain from a trusted proxy) shares
// one bucket with every other such request rather than getting its own.
func clientKey(r *http.Request) (string, error) {
	ip := middleware.GetClientIP(r.Context())
	if ip == "" {
		return "unresolved", nil
	}
	return httprate.CanonicalizeIP(ip), nil
}

// recoverer turns a panic into a 500 problem; the stack goes to the log only.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.fail(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
