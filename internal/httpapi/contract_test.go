package httpapi

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/go-chi/chi/v5"

	"github.com/attestari/attestari/api/attest"
)

// pendingOperations are in the contract and not yet served: each arrives with
// the issue that implements it, never as a stub.
var pendingOperations = map[string]string{}

func TestRoutesEqualContract(t *testing.T) {
	s := newTestServer(t, nil)
	served := map[string]bool{}
	err := chi.Walk(s.Router(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if route != "/" {
			route = strings.TrimSuffix(route, "/")
		}
		served[method+" "+route] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range SiteRoutes {
		if !served[r] {
			t.Errorf("site route %s is not served", r)
		}
		delete(served, r)
	}
	var missing, extra []string
	for _, op := range s.Operations() {
		_, pending := pendingOperations[op]
		if served[op] && pending {
			t.Errorf("%s is served: remove it from pendingOperations", op)
		}
		if !served[op] && !pending {
			missing = append(missing, op)
		}
	}
	ops := map[string]bool{}
	for _, op := range s.Operations() {
		ops[op] = true
	}
	for r := range served {
		if !ops[r] {
			extra = append(extra, r)
		}
	}
	for op := range pendingOperations {
		if !ops[op] {
			t.Errorf("pending operation %s is not in the contract", op)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Fatalf("router and contract differ:\n in the contract, not served: %v\n served, not in the contract: %v", missing, extra)
	}
}

// testServer wraps a Server so every response a test receives is validated
// against the contract; a response the contract does not allow fails the test.
type testServer struct {
	*Server
	t testing.TB
}

func newTestServer(t testing.TB, reader Reader) *testServer {
	t.Helper()
	s, err := New(Options{Reader: reader, RequestsPerMinute: 100000, AttestationKeys: testKeySet(t)})
	if err != nil {
		t.Fatal(err)
	}
	return &testServer{Server: s, t: t}
}

// testSigningKey is the key the tests' publications are signed with: its
// seed is fixed, so every test server serves the same key set.
func testSigningKey(t testing.TB) *attest.PrivateKey {
	seed := sha256.Sum256([]byte("attestari httpapi test signing key"))
	k, err := attest.NewPrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func testKeySet(t testing.TB) []byte {
	b, err := (&attest.KeySet{Keys: []attest.PublicKey{attest.NewPublicKey(testSigningKey(t).Public(), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// do serves req and validates the response against the contract.
func (ts *testServer) do(req *http.Request) *http.Response {
	ts.t.Helper()
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	res := rec.Result()
	body, _ := io.ReadAll(res.Body)
	res.Body = io.NopCloser(bytes.NewReader(body))
	ts.validateResponse(req, res, body)
	return res
}

func (ts *testServer) get(path string) (*http.Response, string) {
	ts.t.Helper()
	res := ts.do(httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func (ts *testServer) validateResponse(req *http.Request, res *http.Response, body []byte) {
	ts.t.Helper()
	pattern := routePattern(ts.router, rewrittenCopy(req))
	op := ts.ops[req.Method+" "+pattern]
	if op == nil && isSiteRoute(req.Method+" "+pattern) {
		return
	}
	if op == nil {
		// Unknown paths answer 404 problem+json; check at least that shape.
		if res.Header.Get("Content-Type") != "application/problem+json" {
			ts.t.Errorf("%s %s: unrouted response is not problem+json", req.Method, req.URL)
		}
		return
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req,
			Route:   &routers.Route{Spec: ts.spec, Path: op.path, PathItem: op.pathItem, Method: op.method, Operation: op.op},
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true},
		},
		Status:  res.StatusCode,
		Header:  res.Header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		ts.t.Errorf("%s %s: response %d violates the contract: %v\nbody: %s", req.Method, req.URL, res.StatusCode, err, firstLine(string(body)))
	}
}

func rewrittenCopy(req *http.Request) *http.Request {
	r := req.Clone(context.Background())
	joinScopedNames(http.HandlerFunc(func(w http.ResponseWriter, rr *http.Request) { r = rr })).ServeHTTP(httptest.NewRecorder(), r)
	return r
}

func isSiteRoute(r string) bool {
	for _, s := range SiteRoutes {
		if s == r {
			return true
		}
	}
	return false
}
