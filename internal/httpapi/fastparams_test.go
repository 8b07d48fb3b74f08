package httpapi

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"testing"
)

// fastOps lists the operations the fast check compiled, in a fixed order.
func fastOps(t testing.TB, s *Server) []*operation {
	var keys []string
	for k, op := range s.ops {
		if op.fast.ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	out := make([]*operation, len(keys))
	for i, k := range keys {
		out[i] = s.ops[k]
	}
	if len(out) < 10 {
		t.Fatalf("only %d operations compiled to the fast check", len(out))
	}
	return out
}

// request builds a request for op whose parameters take the values vs in
// turn; an empty value leaves the parameter out.
func request(op *operation, vs []string) (*http.Request, map[string]string) {
	req := httptest.NewRequest(op.method, "/", nil)
	path := map[string]string{}
	q := url.Values{}
	for i, p := range op.fast.params {
		v := vs[i%len(vs)]
		if v == "" {
			continue
		}
		switch p.in {
		case "path":
			path[p.name] = v
		case "query":
			q.Set(p.name, v)
		case "header":
			req.Header.Set(p.name, v)
		}
	}
	req.URL.RawQuery = q.Encode()
	return req, path
}

func TestFastCheckAgreesOnExamples(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := s.ops["GET /manifest/{name}/{version}"]
	if !op.fast.ok {
		t.Fatal("the gateways' hot path does not compile to the fast check")
	}
	for _, c := range []struct {
		name, version, registry string
		fast                    bool
	}{
		{"@scope/name", "1.2.3", "", true},
		{"plain", "1.0.0-rc.1", "npm", true},
		{"plain", "1.0.0", "maven", false},
		{"../etc", "1", "", false},
		{"x", "1 2", "", false},
	} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if c.registry != "" {
			req.URL.RawQuery = "registry=" + c.registry
		}
		path := map[string]string{"name": c.name, "version": c.version}
		got := op.fast.accepts(req, path)
		if got != c.fast {
			t.Errorf("%+v: fast check says %v", c, got)
		}
		if got && s.validateByContract(req, op, path) != nil {
			t.Errorf("%+v: accepted by the fast check, refused by the contract", c)
		}
	}
	if s.ops["POST /lookup"].fast.ok {
		t.Error("an operation with a body must go to kin-openapi")
	}
}

// FuzzFastCheckIsSound: whatever the fast check accepts, kin-openapi accepts.
func FuzzFastCheckIsSound(f *testing.F) {
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	ops := fastOps(f, s)
	f.Add(uint8(0), "@scope/name", "1.2.3", "npm", "50")
	f.Add(uint8(3), "abc", "200", "zz", "")
	f.Add(uint8(7), "a_b", "F", "graded", "1")
	f.Add(uint8(9), "-1", "0", "2.3.1", "markdown")
	// The shapes that reached PostgreSQL as 500s (issue 13): NUL and
	// invalid UTF-8 in parameters without a pattern.
	f.Add(uint8(1), "a\x00b", "\xff", "\xc3\x28", "\x00")
	f.Add(uint8(4), "\xed\xa0\x80", "1.0\x00", "q\xff", "")
	f.Fuzz(func(t *testing.T, i uint8, a, b, c, d string) {
		op := ops[int(i)%len(ops)]
		if len(op.fast.params) == 0 {
			return
		}
		req, path := request(op, []string{a, b, c, d})
		if op.fast.accepts(req, path) {
			if err := s.validateByContract(req, op, path); err != nil {
				t.Fatalf("%s %s: the fast check accepted %q, the contract refuses: %v", op.method, op.path, []string{a, b, c, d}, err)
			}
		}
	})
}
