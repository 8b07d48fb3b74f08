// Package httpapi is the public, read-only HTTP service: the chi router, the
// middleware every request passes (the text and body check of input.go,
// contract validation, rate limits, body and header limits, recovery, access
// logs, metrics), the per-client bound on
// database-bound requests in flight (cost.go), the handlers, and the one renderer of errors (problem+json,
// RFC 9457; on the website's paths its HTML error page, by the rule in
// fallback.go). ProblemListener extends that rule to the answers net/http
// writes itself before a request reaches the router.
//
// It reads through the small Reader interface that package store satisfies and
// never imports pgx. A request is bounded by the http.Server's read and write
// timeouts (cmd/attestari-api sets them), each statement by the pool's
// statement_timeout (store.Options.StatementTimeout), and the database work
// of a request by Options.RequestDeadline, set on the context of each Reader
// call rather than by a timer on every request: a timer context per request
// cost a measurable share of the gateways' hot path, which a cached
// manifest answers without a Reader call (deadline.go, docs/reliability.md
// section 6). A database that is down answers 503 with Retry-After, one that
// does not answer in time 504 (readError). Handlers return error; only
// render writes an error body, and a client never sees a stack trace or an
// internal message.
package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	attestari "github.com/attestari/attestari"
	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
)

// Options configures the service.
type Options struct {
	Reader Reader
	Logger *slog.Logger
	// RequestsPerMinute is the per-client rate limit (0: 600).
	RequestsPerMinute int
	// Version is the build's version, shown by /healthz logs and metrics.
	Version string
	// ManifestCacheBytes bounds the encoded GET /manifest answers kept in
	// memory (0: 64 MiB; negative: no cache). The cache is used only while
	// PublicationsChanged(true) holds (see manifestcache.go).
	ManifestCacheBytes int
	// RequestDeadline bounds the database reads of one request (0:
	// DefaultRequestDeadline): each Reader call a handler makes gets it, and
	// a website page shares one across its calls. When it passes, the
	// answer is 504 problem+json (deadline.go says why it is not a timer on
	// every request). cmd/attestari-api keeps it shorter than its write
	// timeout, so the answer is always written.
	RequestDeadline time.Duration
	// ClientInFlight bounds each client's database-bound requests in flight
	// (0: 4; negative: no bound); one more is answered 429 with
	// Retry-After (cost.go).
	ClientInFlight int
	// TrustedProxies are the CIDR prefixes of the reverse proxies in front of
	// the server. Empty: the TCP peer is the client (X-Forwarded-For is never
	// read, so no client can choose its rate-limit bucket). Set: the client is
	// the rightmost X-Forwarded-For entry outside these prefixes, and only
	// when the TCP peer itself is one of them.
	TrustedProxies []string
	// MaxBodyBytes bounds a request body (0 or less: 1 MiB); a larger one
	// answers 413.
	MaxBodyBytes int64
	// AppealsContact is where a publisher sends an appeal (an e-mail
	// address or a URL), shown on the website's package and finding pages;
	// empty: the pages say that none is configured.
	AppealsContact string
	// AttestationKeys is the key set served at
	// /.well-known/attestari-keys.json (docs/attestations.md), checked by
	// New; nil: the path answers 404 (no attestation can be verified
	// against this service's keys).
	AttestationKeys []byte
}

var registerDecoders sync.Once

// Server is the HTTP handler with its contract and metrics.
type Server struct {
	opts Options
	// rd is opts.Reader with a deadline on every call (deadline.go); nil
	// without a Reader.
	rd      Reader
	spec    *openapi3.T
	ops     map[string]*operation // "GET /manifest/{name}/{version}" → operation
	router  chi.Router
	metrics *metrics
	log     *slog.Logger
	site    *site
	// manifests caches GET /manifest answers while publications are watched.
	manifests *manifestCache
	// watch is what readyz knows of the owner's watcher (readiness.go).
	watch watchState
	// paramNames are the parameter names an input refusal may name;
	// headerParams the contract's header parameters; apiRoots the first path
	// segments of the contract's paths (input.go, fallback.go).
	paramNames   map[string]bool
	headerParams []string
	apiRoots     map[string]bool
	// cost bounds each client's database-bound requests in flight.
	cost *costLimiter
}

// New loads and validates the contract, then builds the router.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.RequestsPerMinute == 0 {
		opts.RequestsPerMinute = 600
	}
	if opts.RequestDeadline == 0 {
		opts.RequestDeadline = DefaultRequestDeadline
	}
	if opts.RequestDeadline < 0 {
		return nil, fmt.Errorf("request deadline %v is negative", opts.RequestDeadline)
	}
	if err := CheckTrustedProxies(opts.TrustedProxies); err != nil {
		return nil, err
	}
	spec, err := LoadSpec()
	if err != nil {
		return nil, err
	}
	registerDecoders.Do(func() {
		// The contract serves Markdown (the methodology); kin-openapi needs to
		// know it is text to validate such a response.
		openapi3filter.RegisterBodyDecoder("text/markdown", openapi3filter.PlainBodyDecoder)
	})
	if opts.AttestationKeys != nil {
		if _, err := attest.ParseKeySet(opts.AttestationKeys); err != nil {
			return nil, fmt.Errorf("attestation key set: %w", err)
		}
	}
	s := &Server{opts: opts, spec: spec, log: opts.Logger}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = defaultMaxBodyBytes
	}
	s.opts.MaxBodyBytes = opts.MaxBodyBytes
	if opts.Reader != nil {
		s.rd = deadlineReader{Reader: opts.Reader, d: opts.RequestDeadline}
	}
	s.ops = indexOperations(spec)
	s.textParams()
	s.apiRoots = apiRootsOf(s.ops)
	if s.site, err = newSite(); err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s.metrics = newMetrics(reg)
	if opts.ManifestCacheBytes == 0 {
		opts.ManifestCacheBytes = defaultManifestCacheBytes
	}
	s.manifests = newManifestCache(opts.ManifestCacheBytes, reg)
	if opts.ClientInFlight == 0 {
		opts.ClientInFlight = defaultClientInFlight
	}
	s.cost = newCostLimiter(opts.ClientInFlight, reg)
	s.router = s.routes(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return s, nil
}

// CheckTrustedProxies reports the first entry that is not a CIDR prefix
// (chi's ClientIPFromXFF would panic on it), so a command can refuse a bad
// flag before it starts anything.
func CheckTrustedProxies(prefixes []string) error {
	for _, p := range prefixes {
		if _, err := netip.ParsePrefix(p); err != nil {
			return fmt.Errorf("trusted proxy %q is not a CIDR prefix such as 10.0.0.0/8 or 127.0.0.1/32", p)
		}
	}
	return nil
}

// LoadSpec parses and validates the embedded openapi.yaml.
func LoadSpec() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(attestari.OpenAPI)
	if err != nil {
		return nil, err
	}
	if err := spec.Validate(context.Background()); err != nil {
		return nil, err
	}
	return spec, nil
}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.router.ServeHTTP(w, r)
}

// Router exposes the chi router (tests walk it to compare with the contract).
func (s *Server) Router() chi.Router { return s.router }

func (s *Server) routes(metricsHandler http.Handler) chi.Router {
	r := chi.NewRouter()
	r.Use(joinScopedNames)
	r.Use(middleware.RequestID)
	if len(s.opts.TrustedProxies) > 0 {
		r.Use(middleware.ClientIPFromXFF(s.opts.TrustedProxies...))
	} else {
		r.Use(middleware.ClientIPFromRemoteAddr)
	}
	r.Use(s.accessLog)
	r.Use(s.recoverer)
	r.Use(securityHeaders)
	r.Use(compressWhenAsked(middleware.Compress(compressLevel)))
	r.Use(httprate.LimitBy(s.opts.RequestsPerMinute, time.Minute, clientKey,
		// Retry-After on a 429 is what a client needs; the X-RateLimit-*
		// headers on every answer would only weigh on the hot path.
		httprate.WithResponseHeaders(httprate.ResponseHeaders{RetryAfter: "Retry-After"}),
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, &Problem{Status: http.StatusTooManyRequests, Detail: "rate limit exceeded; retry after the number of seconds in Retry-After"})
		})))
	// HEAD is served wherever GET is: chi routes it to the GET handler and
	// net/http drops the body (no HEAD route is registered, so the router
	// still equals the contract's GET operations).
	r.Use(middleware.GetHead)
	r.Use(s.checkInput)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)
	r.Group(func(r chi.Router) {
		r.Use(s.validateRequest)
		r.Get("/healthz", s.handle(s.healthz))
		r.Get("/readyz", s.handle(s.readyz))
		r.Method(http.MethodGet, "/metrics", metricsHandler)
		r.Get("/methodology", s.handle(s.methodology))
		r.Get("/methodology/{version}", s.handle(s.methodologyVersion))
		// The manifests count against the client's bound only when they
		// read the database (serveManifest); the rest always do.
		r.Get("/manifest/{name}/{version}", s.handle(s.getManifest))
		r.Get("/manifest", s.handle(s.getManifestByPurl))
		r.Get(api.AttestationKeysPath, s.handle(s.getAttestationKeys))
		r.Group(func(r chi.Router) {
			r.Use(s.limitCost)
			r.Get("/gate_map.json", s.handle(s.getGateMap))
			r.Post("/lookup", s.handle(s.postLookup))
			r.Get("/diff/{name}/{from}/{to}", s.handle(s.getVersionDiff))
			r.Get("/packages", s.handle(s.listPackages))
			r.Get("/packages/{registry}/{name}/{version}", s.handle(s.getPackage))
			r.Get("/findings/{id}", s.handle(s.getFinding))
			r.Get("/evidence/{sha256}", s.handle(s.getEvidence))
			r.Get("/runs", s.handle(s.listRuns))
			r.Get("/pass", s.handle(s.getPass))
			r.Get("/runs/{id}/diff", s.handle(s.getRunDiff))
			r.Get("/changes", s.handle(s.listChanges))
			r.Get("/attestations/{name}/{version}", s.handle(s.getAttestation))
			r.Get("/attestations", s.handle(s.getAttestationByPurl))
		})
	})
	// The website: HTML pages outside the contract (SiteRoutes).
	r.Group(func(r chi.Router) {
		r.Use(pageHeaders)
		r.Use(s.limitPageCost)
		s.siteRoutes(r)
	})
	return r
}

// handler is an HTTP handler that returns its error for render to write.
type handler func(w http.ResponseWriter, r *http.Request) error

func (s *Server) handle(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			render(w, r, s.log, err)
		}
	}
}

// compressWhenAsked applies the compressor only to requests that accept an
// encoding, so a client that asks for none does not pay for its wrapper.
func compressWhenAsked(compress func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		c := compress(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Accept-Encoding") == "" {
				next.ServeHTTP(w, r)
				return
			}
			c.ServeHTTP(w, r)
		})
	}
}

// pageHeaders are the headers of HTML pages: a CSP that forbids inline
// scripts and styles and framing, and no referrer.
func pageHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Content-Security-Policy"] = hdrCSP
		h["X-Frame-Options"] = hdrDeny
		h["Referrer-Policy"] = hdrNoReferrer
		next.ServeHTTP(w, r)
	})
}

// joinScopedNames lets npm scoped names arrive unencoded: /manifest/@scope/name/1.0.0
// is routed as /manifest/@scope%2Fname/1.0.0, so one route serves both forms.
func joinScopedNames(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := r.URL.EscapedPath()
		if strings.Contains(raw, "/@") {
			segs := strings.Split(raw, "/")
			out := make([]string, 0, len(segs))
			for i := 0; i < len(segs); i++ {
				if strings.HasPrefix(segs[i], "@") && !strings.Contains(strings.ToLower(segs[i]), "%2f") && i+1 < len(segs) && segs[i+1] != "" {
					out = append(out, segs[i]+"%2F"+segs[i+1])
					i++
					continue
				}
				out = append(out, segs[i])
			}
			joined := strings.Join(out, "/")
			if joined != raw {
				if err := r.URL.UnmarshalBinary([]byte(joined + queryPart(r))); err == nil {
					r.RequestURI = r.URL.RequestURI()
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func queryPart(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return "?" + r.URL.RawQuery
}

var (
	hdrNosniff    = []string{"nosniff"}
	hdrNoReferrer = []string{"no-referrer"}
	hdrCSP        = []string{"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"}
	hdrDeny       = []string{"DENY"}
	hdrAnyOrigin  = []string{"*"}
)

// securityHeaders go on every answer: no content sniffing, and CORS for
// reads. The headers that only mean something to a browser rendering a page
// (CSP, frame-ancestors, referrer policy) are pageHeaders', so the gateways'
// hot path does not carry them.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The keys are canonical already: assigning them skips Header.Set's
		// canonicalisation on every request. The value slices are shared and
		// never modified.
		h := w.Header()
		h["X-Content-Type-Options"] = hdrNosniff
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
			h["Access-Control-Allow-Origin"] = hdrAnyOrigin
		}
		next.ServeHTTP(w, r)
	})
}
