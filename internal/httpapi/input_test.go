package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/vocab"
)

// noReads is a Reader that fails the test on any read: text the contract
// refuses must be answered before a query is even attempted.
type noReads struct {
	Reader // nil: a method not overridden below would panic, which the recoverer turns into a 500 the test refuses
	t      *testing.T
}

func (n noReads) read(what string) error {
	n.t.Errorf("%s reached the reader", what)
	return vocab.ErrNotFound
}
func (n noReads) ListPackages(context.Context, api.PackageFilter) (*api.PackageList, error) {
	return nil, n.read("ListPackages")
}
func (n noReads) VersionDiff(context.Context, string, string, string, string) (*api.VersionDiff, error) {
	return nil, n.read("VersionDiff")
}
func (n noReads) Lookup(context.Context, []api.PackageKey) ([]api.LookupItem, error) {
	return nil, n.read("Lookup")
}
func (n noReads) Manifest(context.Context, string, string, string, string) (*api.Manifest, error) {
	return nil, n.read("Manifest")
}
func (n noReads) Package(context.Context, string, string, string) (*api.PackageDetail, error) {
	return nil, n.read("Package")
}
func (n noReads) GateMap(context.Context, string) (*api.GateMap, error) {
	return nil, n.read("GateMap")
}

func TestTextInputIsRefusedBeforeAnyRead(t *testing.T) {
	ts := newTestServer(t, noReads{t: t})
	lookup := func(body string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/lookup", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return r
	}
	withHeader := func(r *http.Request, k, v string) *http.Request { r.Header.Set(k, v); return r }
	get := func(target string) *http.Request { return httptest.NewRequest(http.MethodGet, target, nil) }
	for _, c := range []struct {
		req    *http.Request
		status int
		detail string // what the fixed message says ("" for an HTML page)
	}{
		{get("/packages?q=%FF"), 400, `parameter "q" in query is invalid`},
		{get("/packages?q=a%00b"), 400, `parameter "q" in query is invalid`},
		{get("/packages?registry=npm&q=%C3%28"), 400, `parameter "q" in query is invalid`},
		{get("/packages?zz%FF=1"), 400, "a query parameter is invalid"},
		{get("/packages?q=%zz"), 400, detailQueryEscape},
		{get("/diff/twin/1.0%FF/2.0"), 400, `parameter "from" in path is invalid`},
		{get("/diff/twin/1.0/%00"), 400, `parameter "to" in path is invalid`},
		{get("/manifest/@acme/files%ED%A0%80/1.0.0"), 400, `parameter "name" in path is invalid`},
		{get("/no%FFpe"), 400, detailPathText},
		{withHeader(get("/manifest/twin/1.0.0"), "If-None-Match", "\"\xff\""), 400, `parameter "If-None-Match" in header is invalid`},
		{lookup(`{"items":[{"registry":"npm","name":"a\u0000","version":"1"}]}`), 400, detailBodyNUL},
		{lookup(`{"items":[{"registry":"npm","name":"a","version":"1\u0000"}]}`), 400, detailBodyNUL},
		{lookup("{\"items\":[{\"registry\":\"npm\",\"name\":\"\xff\",\"version\":\"1\"}]}"), 400, detailBodyText},
		{lookup(`{"items":[]} {}`), 400, detailBodyJSON},
		{lookup(`{"items":[` + strings.Repeat(" ", defaultMaxBodyBytes) + `]}`), 413, "request body is larger than 1048576 bytes"},
		{get("/?q=%FF"), 400, ""},
		{get("/package/npm/a%00/1.0.0"), 400, ""},
	} {
		res := ts.do(c.req)
		body, _ := io.ReadAll(res.Body)
		what := c.req.Method + " " + c.req.URL.String()
		if res.StatusCode != c.status {
			t.Errorf("%s: %d, want %d: %s", what, res.StatusCode, c.status, body)
			continue
		}
		if c.detail == "" {
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("UTF-8 text without NUL")) {
				t.Errorf("%s: want the HTML error page saying why: %s", what, body)
			}
			continue
		}
		var p Problem
		if err := json.Unmarshal(body, &p); err != nil || res.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(p.Detail, c.detail) {
			t.Errorf("%s: detail %q, want %q", what, p.Detail, c.detail)
		}
	}
}

// TestBodyReadTimeoutSaysNoAddress: a body that stops arriving is refused
// with 408 and a fixed message. Before, kin-openapi's read error reached the
// client whole: "read tcp 127.0.0.1:…->127.0.0.1:…: i/o timeout".
func TestBodyReadTimeoutSaysNoAddress(t *testing.T) {
	addr := liveServer(t, newTestServer(t, noReads{t: t}).Server, 300*time.Millisecond)
	res := sendRaw(t, addr, "POST", []byte("POST /lookup HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"items\":"))
	if res.status != http.StatusRequestTimeout || res.header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("%d %s: %s", res.status, res.header.Get("Content-Type"), res.body)
	}
	var p Problem
	if err := json.Unmarshal(res.body, &p); err != nil || p.Detail != detailBodyTimedOut {
		t.Fatalf("detail %q (%v)", p.Detail, err)
	}
	checkAnswer(t, "body read timeout", res, false, false)
}

// TestErrorFormatRule: the documented rule (fallback.go) picks the format of
// every error the router itself writes: 404, 405 (with Allow) and /static.
func TestErrorFormatRule(t *testing.T) {
	ts := newTestServer(t, nil)
	for _, c := range []struct {
		method, target, accept string
		status                 int
		html                   bool
		allow                  string
	}{
		{"GET", "/nope", "", 404, false, ""},
		{"GET", "/nope", "application/json", 404, false, ""},
		{"GET", "/nope", "text/html,application/xhtml+xml,*/*;q=0.8", 404, true, ""},
		{"GET", "/nope", "text/html;q=0, application/json", 404, false, ""},
		{"GET", "/packages/npm", "text/html", 404, false, ""},
		{"GET", "/manifest/a", "text/html", 404, false, ""},
		{"GET", "/package/npm", "application/json", 404, true, ""},
		{"GET", "/docs/nope", "", 404, true, ""},
		{"GET", "/static", "", 404, true, ""},
		{"GET", "/static/", "", 404, true, ""},
		{"GET", "/static/nope.css", "application/json", 404, true, ""},
		{"POST", "/", "", 405, true, "GET, HEAD"},
		{"DELETE", "/gate-map", "", 405, true, "GET, HEAD"},
		{"POST", "/manifest/a/1.0.0", "text/html", 405, false, "GET, HEAD"},
		{"GET", "/lookup", "", 405, false, "POST"},
		{"HEAD", "/lookup", "", 405, false, "POST"},
		{"PUT", "/static/style.css", "", 405, true, "GET, HEAD"},
	} {
		req := httptest.NewRequest(c.method, c.target, nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		rec := httptest.NewRecorder()
		ts.ServeHTTP(rec, req)
		what := c.method + " " + c.target + " Accept: " + c.accept
		ct := rec.Header().Get("Content-Type")
		if rec.Code != c.status {
			t.Errorf("%s: %d, want %d", what, rec.Code, c.status)
		}
		if c.html != strings.HasPrefix(ct, "text/html") || (!c.html && ct != "application/problem+json") {
			t.Errorf("%s: Content-Type %q, want HTML %v", what, ct, c.html)
		}
		if got := rec.Header().Get("Allow"); got != c.allow {
			t.Errorf("%s: Allow %q, want %q", what, got, c.allow)
		}
		if strings.Contains(rec.Body.String(), `<a href="style.css">`) {
			t.Errorf("%s: a directory listing", what)
		}
	}
}

func TestStaticAssetRevalidates(t *testing.T) {
	ts := newTestServer(t, nil)
	res, _ := ts.get("/static/style.css")
	etag := res.Header.Get("ETag")
	if res.StatusCode != 200 || etag == "" || res.Header.Get("Cache-Control") == "" {
		t.Fatalf("%d, ETag %q", res.StatusCode, etag)
	}
	req := httptest.NewRequest(http.MethodGet, "/static/style.css", nil)
	req.Header.Set("If-None-Match", etag)
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Fatalf("If-None-Match: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

// FuzzInputCheck: whatever path, query and body arrive, checkInput either
// refuses them with a 4xx problem or passes on a request whose path and
// query are UTF-8 without NUL and whose body the next handler reads whole.
func FuzzInputCheck(f *testing.F) {
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("/packages", "q=acme", []byte(nil), false)
	f.Add("/packages", "q=%FF", []byte(nil), false)
	f.Add("/diff/a/\x00/1", "", []byte(nil), false)
	f.Add("/", "q=a%00b&registry=npm", []byte(nil), false)
	f.Add("/lookup", "", []byte(`{"items":[{"registry":"npm","name":"a\u0000","version":"1"}]}`), true)
	f.Add("/lookup", "", []byte("{\"items\":[{\"name\":\"\xff\"}]}"), true)
	f.Add("/lookup", "", []byte(`{"items":[]}{}`), true)
	f.Add("/lookup", "", []byte(strings.Repeat("[", 5000)), true)
	f.Add("/packages", "a;b=%zz", []byte{}, false)
	f.Fuzz(func(t *testing.T, path, query string, body []byte, isJSON bool) {
		r := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: path, RawQuery: query}, Header: http.Header{},
			Body: http.NoBody, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, RemoteAddr: "192.0.2.1:1"}
		r = r.WithContext(context.Background())
		if body != nil {
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		}
		if isJSON {
			r.Header.Set("Content-Type", "application/json")
		}
		reached := false
		h := s.checkInput(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reached = true
			if !validText(r.URL.Path) {
				t.Errorf("path %q passed", r.URL.Path)
			}
			q, err := url.ParseQuery(r.URL.RawQuery)
			if err != nil {
				t.Errorf("query %q passed: %v", r.URL.RawQuery, err)
			}
			for k, vs := range q {
				for _, v := range append(vs, k) {
					if !validText(v) {
						t.Errorf("query text %q passed", v)
					}
				}
			}
			if got, _ := io.ReadAll(r.Body); !bytes.Equal(got, body) {
				t.Errorf("the handler read %d bytes of %d", len(got), len(body))
			}
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if !reached && (rec.Code < 400 || rec.Code >= 500) {
			t.Fatalf("refused with %d: %s", rec.Code, rec.Body)
		}
	})
}

// TestProblemListenerLeavesHandlersAlone: a handler's own text/plain error
// with Connection: close, the closest a handler's answer comes to net/http's
// own shape, passes the listener untouched; net/http's own is rewritten.
func TestProblemListenerLeavesHandlersAlone(t *testing.T) {
	addr := liveServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		http.Error(w, "handler text", http.StatusBadRequest)
	}), 5*time.Second)
	res := sendRaw(t, addr, "GET", rawRequest("GET", "/x", nil, nil))
	if res.status != 400 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") || string(res.body) != "handler text\n" {
		t.Fatalf("a handler's answer was changed: %d %q %q", res.status, res.header.Get("Content-Type"), res.body)
	}
	res = sendRaw(t, addr, "GET", []byte("GET /x HTTP/1.1\r\n\r\n")) // no Host: net/http's own 400
	if res.status != 400 || res.header.Get("Content-Type") != "application/problem+json" || !bytes.Contains(res.body, []byte(`"detail":"the request line or a header is malformed`)) {
		t.Fatalf("net/http's own 400 was not rewritten: %d %q %s", res.status, res.header.Get("Content-Type"), res.body)
	}
}
