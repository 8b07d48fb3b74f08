package httpapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// liveServer serves ts over a real TCP listener configured as
// cmd/attestari-api configures its http.Server (timeouts, header limit, the
// ProblemListener), so net/http's own refusals are part of what is tested.
func liveServer(t *testing.T, h http.Handler, readTimeout time.Duration) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = ProblemListener(srv.Listener)
	srv.Config.ReadHeaderTimeout = 5 * time.Second
	srv.Config.ReadTimeout = readTimeout
	srv.Config.WriteTimeout = 30 * time.Second
	srv.Config.MaxHeaderBytes = 32 << 10
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// rawResult is one answer read off the wire.
type rawResult struct {
	status int
	header http.Header
	body   []byte
}

// sendRaw writes req byte for byte on a fresh connection and reads one
// answer. method is the request's method as the server will see it, so a
// HEAD answer is read without a body.
func sendRaw(t *testing.T, addr, method string, req []byte) rawResult {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	// Write concurrently: the server may answer (431) before it has read all.
	go func() { _, _ = conn.Write(req) }()
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %q: no HTTP answer: %v", method, firstLine(string(req)), err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %q: body: %v", method, firstLine(string(req)), err)
	}
	return rawResult{status: res.StatusCode, header: res.Header, body: body}
}

// malformedCase is one request of TestMalformedRequests.
type malformedCase struct {
	class  string
	method string
	raw    []byte // the whole request, written as is
	want   int    // the status it must get; 0: any that is not 500
	html   bool   // an error must be the website's error page (else problem+json)
}

func rawRequest(method, target string, headers []string, body []byte) []byte {
	var b bytes.Buffer
	b.WriteString(method + " " + target + " HTTP/1.1\r\nHost: attestari.test\r\nConnection: close\r\n")
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if body != nil {
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// badText are text values that are not UTF-8 or hold NUL, as they appear in
// a URL (percent-encoded, or raw bytes net/http passes through).
var badText = []string{"%FF", "%00", "a%00b", "a%C3%28", "%ED%A0%80", "%F8%88%80%80%80", "%C0%AF", "%E2%82", "\xff\xfe"}

// validParam is a valid value (as written in a URL) for each parameter name
// of the contract and of the website.
var validParam = map[string]string{
	"name": "@acme%2Ffiles", "version": "1.0.0", "registry": "npm", "from": "1.0.0", "to": "1.1.0",
	"sha256": strings.Repeat("a", 64), "purl": "pkg:npm/twin@1.0.0", "format": "json", "q": "acme",
	"grade": "A", "verdict": "graded", "reason": "minified_only", "cursor": "abc", "limit": "10", "If-None-Match": `"x"`,
}

func validPathParam(path, name string) string {
	switch {
	case name == "id" && strings.HasPrefix(path, "/finding"):
		return "F-1"
	case name == "id":
		return "run-1"
	case name == "version" && strings.HasPrefix(path, "/methodology"), name == "version" && strings.HasPrefix(path, "/docs"):
		return "2.3.1"
	}
	return validParam[name]
}

// fill writes a path template with valid values, except bad for the
// parameter named badName.
func fill(path, badName, bad string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			k := s[1 : len(s)-1]
			if k == badName {
				segs[i] = bad
			} else {
				segs[i] = validPathParam(path, k)
			}
		}
	}
	return strings.Join(segs, "/")
}

// sitePages are the website's pages with their parameters.
var sitePages = []struct {
	path  string
	query []string
}{
	{"/", []string{"q", "registry", "verdict", "grade", "reason", "cursor"}},
	{"/package/{registry}/{name}", nil},
	{"/package/{registry}/{name}/{version}", nil},
	{"/finding/{id}", nil},
	{"/gate-map", nil},
	{"/docs/methodology", nil},
	{"/docs/methodology/{version}", nil},
}

func malformedCases(s *Server) []malformedCase {
	var cs []malformedCase
	add := func(c malformedCase) { cs = append(cs, c) }
	var keys []string
	for k := range s.ops {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	// Invalid UTF-8 and NUL in every text parameter of every operation.
	for _, k := range keys {
		op := s.ops[k]
		var body []byte
		var hdrs []string
		if op.op.RequestBody != nil {
			body = []byte(`{"items":[{"registry":"npm","name":"twin","version":"1.0.0"}]}`)
			hdrs = []string{"Content-Type: application/json"}
		}
		var required []string
		for _, ref := range append(refs(op.pathItem.Parameters), refs(op.op.Parameters)...) {
			if ref.in == "query" && ref.required {
				required = append(required, ref.name+"="+validParam[ref.name])
			}
		}
		for _, ref := range append(refs(op.pathItem.Parameters), refs(op.op.Parameters)...) {
			for _, bad := range badText {
				target := fill(op.path, "", "")
				h := hdrs
				switch ref.in {
				case "path":
					target = fill(op.path, ref.name, bad)
					if len(required) > 0 {
						target += "?" + strings.Join(required, "&")
					}
				case "query":
					q := []string{ref.name + "=" + bad}
					for _, r := range required {
						if !strings.HasPrefix(r, ref.name+"=") {
							q = append(q, r)
						}
					}
					target += "?" + strings.Join(q, "&")
				case "header":
					if len(required) > 0 {
						target += "?" + strings.Join(required, "&")
					}
					v, err := url.PathUnescape(bad)
					if err != nil {
						panic(err)
					}
					h = append(slices.Clone(hdrs), ref.name+": "+v)
				}
				add(malformedCase{class: "utf8/nul: " + ref.in + " parameter", method: op.method, raw: rawRequest(strings.ToUpper(op.method), target, h, body), want: 400})
			}
		}
	}
	for _, pg := range sitePages {
		params := slices.Clone(pg.query)
		for _, seg := range strings.Split(pg.path, "/") {
			if strings.HasPrefix(seg, "{") {
				params = append(params, "path:"+strings.Trim(seg, "{}"))
			}
		}
		for _, p := range params {
			for _, bad := range badText {
				target := ""
				if name, ok := strings.CutPrefix(p, "path:"); ok {
					target = fill(pg.path, name, bad)
				} else {
					target = fill(pg.path, "", "") + "?" + p + "=" + bad
				}
				add(malformedCase{class: "utf8/nul: website parameter", method: "GET", raw: rawRequest("GET", target, nil, nil), want: 400, html: true})
			}
		}
	}
	// JSON body strings of POST /lookup.
	for _, field := range []string{"registry", "name", "version"} {
		for _, bad := range []struct {
			v    string
			want int
		}{{`\u0000`, 400}, {`a\u0000b`, 400}, {"\xff", 400}, {"a\xc3\x28", 400}, {"\xed\xa0\x80", 400}, {`\ud800`, 0}} {
			item := map[string]string{"registry": `"npm"`, "name": `"twin"`, "version": `"1.0.0"`}
			item[field] = `"` + bad.v + `"`
			body := []byte(`{"items":[{"registry":` + item["registry"] + `,"name":` + item["name"] + `,"version":` + item["version"] + `}]}`)
			add(malformedCase{class: "utf8/nul: JSON body string", method: "POST", raw: rawRequest("POST", "/lookup", []string{"Content-Type: application/json"}, body), want: bad.want})
		}
	}
	add(malformedCase{class: "utf8/nul: JSON body string", method: "POST", raw: rawRequest("POST", "/lookup", []string{"Content-Type: application/json"},
		[]byte(`{"items":[{"registry":"npm","na\u0000me":"twin","version":"1.0.0"}]}`)), want: 400})

	// Percent-escape errors.
	for _, target := range []string{"/manifest/%zz/1.0.0", "/manifest/a%/1.0.0", "/manifest/x/1.0.%2", "/%", "/packages/npm/%G0/1",
		"/findings/%", "/evidence/%%", "/package/npm/a%zz/1", "/static/%", "/docs/methodology/%x"} {
		add(malformedCase{class: "percent-escape: path", method: "GET", raw: rawRequest("GET", target, nil, nil), want: 400})
	}
	for _, c := range []struct {
		target string
		html   bool
	}{{"/packages?q=%zz", false}, {"/packages?q=%", false}, {"/packages?q=a%2", false}, {"/packages?%zz=1", false},
		{"/packages?q=a;b", false}, {"/manifest/twin/1.0.0?registry=%zz", false}, {"/manifest?purl=pkg:npm/x%", false},
		{"/?q=%zz", true}, {"/?q=%", true}, {"/gate-map?x=%G1", true}, {"/package/npm/twin/1.0.0?%", true}} {
		add(malformedCase{class: "percent-escape: query", method: "GET", raw: rawRequest("GET", c.target, nil, nil), want: 400, html: c.html})
	}

	// Bodies over the limit.
	big := bytes.Repeat([]byte(" "), 1<<20+1)
	add(malformedCase{class: "oversized body", method: "POST", raw: rawRequest("POST", "/lookup", []string{"Content-Type: application/json"}, big), want: 413})
	add(malformedCase{class: "oversized body", method: "POST", raw: rawRequest("POST", "/lookup", []string{"Content-Type: application/json"}, bytes.Repeat([]byte("["), 2<<20)), want: 413})
	add(malformedCase{class: "oversized body", method: "POST", raw: []byte("POST /lookup HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n{"), want: 413})
	chunked := "POST /lookup HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
	for range 3 {
		chunked += fmt.Sprintf("%x\r\n%s\r\n", 512<<10, strings.Repeat(" ", 512<<10))
	}
	add(malformedCase{class: "oversized body", method: "POST", raw: []byte(chunked + "0\r\n\r\n"), want: 413})
	add(malformedCase{class: "oversized body", method: "GET", raw: rawRequest("GET", "/packages", nil, big), want: 413})
	add(malformedCase{class: "oversized body", method: "GET", raw: rawRequest("GET", "/", nil, big), want: 413, html: true})
	atLimit := []byte(`{"items":[{"registry":"npm","name":"twin","version":"1.0.0"}]}`)
	atLimit = append(atLimit, bytes.Repeat([]byte(" "), 1<<20-len(atLimit))...)
	add(malformedCase{class: "oversized body", method: "POST", raw: rawRequest("POST", "/lookup", []string{"Content-Type: application/json"}, atLimit), want: 200})

	// Bad JSON, and bodies the contract refuses.
	item := `{"registry":"npm","name":"twin","version":"1.0.0"}`
	many := `{"items":[` + strings.TrimSuffix(strings.Repeat(item+",", 1001), ",") + `]}`
	for _, b := range []string{"", "{", "[]", "null", "{}", `{"items":[]}`, `{"items":[{}]}`, `{"items":"x"}`, `{"items":[` + item + `]}{}`,
		`{"items":[` + item + `]} x`, strings.Repeat("[", 100000), strings.Repeat(`{"a":`, 50000), `{"items":[1e999999]}`, many,
		`{"items":[{"registry":"maven","name":"x","version":"1"}]}`, `{"items":[{"registry":"npm","name":"","version":"1"}]}`, "\xef\xbb\xbf{}"} {
		add(malformedCase{class: "bad JSON", method: "POST", raw: rawRequest("POST", "/lookup", []string{"Content-Type: application/json"}, []byte(b)), want: 400})
	}
	for _, ct := range []string{"", "Content-Type: text/plain", "Content-Type: application/x-www-form-urlencoded", "Content-Type: ;;"} {
		var h []string
		if ct != "" {
			h = []string{ct}
		}
		add(malformedCase{class: "bad JSON", method: "POST", raw: rawRequest("POST", "/lookup", h, []byte(`{"items":[`+item+`]}`)), want: 400})
	}

	// Wrong methods on every path.
	var paths []string
	for _, k := range keys {
		paths = append(paths, fill(s.ops[k].path, "", ""))
	}
	for _, p := range paths {
		for _, m := range []string{"PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO", "POST", "GET"} {
			if (m == "GET" && p != "/lookup") || (m == "POST" && p == "/lookup") {
				continue
			}
			add(malformedCase{class: "wrong method", method: m, raw: rawRequest(m, p, nil, nil), want: 405})
		}
	}
	for _, pg := range sitePages {
		for _, m := range []string{"POST", "PUT", "DELETE"} {
			add(malformedCase{class: "wrong method", method: m, raw: rawRequest(m, fill(pg.path, "", ""), nil, nil), want: 405, html: true})
		}
	}
	add(malformedCase{class: "wrong method", method: "POST", raw: rawRequest("POST", "/static/style.css", nil, nil), want: 405, html: true})

	// Unknown paths, in both formats.
	for _, p := range []string{"/nope", "/manifest/onlyname", "/packages/npm", "/packages/npm/x", "/api/v1/manifest", "/gate_map.json/x",
		"/runs/run-1", "/evidence", "/findings", "/.env", "/favicon.ico", "/robots.txt", "/metrics/x", "/healthz/"} {
		html := map[string]bool{"/.env": true, "/favicon.ico": true, "/robots.txt": true, "/nope": true, "/api/v1/manifest": true}[p]
		add(malformedCase{class: "unknown path", method: "GET", raw: rawRequest("GET", p, []string{"Accept: text/html,application/xhtml+xml,*/*;q=0.8"}, nil), want: 404, html: html})
		add(malformedCase{class: "unknown path", method: "GET", raw: rawRequest("GET", p, []string{"Accept: application/json"}, nil), want: 404})
	}
	for _, p := range []string{"/package", "/package/npm", "/package/npm/twin/1.0.0/x", "/finding", "/docs", "/docs/nope", "/gate-map/x", "/package/maven/x/1"} {
		add(malformedCase{class: "unknown path", method: "GET", raw: rawRequest("GET", p, []string{"Accept: application/json"}, nil), want: 404, html: true})
	}

	// Headers over the limit, and malformed request lines and headers, which
	// net/http refuses itself.
	long := strings.Repeat("a", 40<<10)
	add(malformedCase{class: "oversized headers", method: "GET", raw: rawRequest("GET", "/packages", []string{"X-Big: " + long}, nil), want: 431})
	var many200 []string
	for i := range 300 {
		many200 = append(many200, fmt.Sprintf("X-H%d: %s", i, strings.Repeat("b", 150)))
	}
	add(malformedCase{class: "oversized headers", method: "GET", raw: rawRequest("GET", "/packages", many200, nil), want: 431})
	add(malformedCase{class: "oversized headers", method: "GET", raw: rawRequest("GET", "/packages?q="+long, nil, nil), want: 431})
	add(malformedCase{class: "oversized headers", method: "GET", raw: rawRequest("GET", "/manifest/twin/1.0.0?registry=npm", []string{"If-None-Match: " + strings.Repeat("x", 300)}, nil), want: 400})
	add(malformedCase{class: "oversized headers", method: "GET", raw: rawRequest("GET", "/packages", []string{"X-Big: " + strings.Repeat("a", 20<<10)}, nil), want: 200})
	for _, c := range []struct {
		raw  string
		want int
	}{
		{"GET\r\n\r\n", 400}, {"GET / HTTP/9.9\r\nHost: a\r\n\r\n", 505}, {"GET / FOO/1.1\r\nHost: a\r\n\r\n", 400},
		{"GET / HTTP/1.1\r\n\r\n", 400}, {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
		{"GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400}, {"GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n", 400},
		{"GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n", 400}, {"GET / HTTP/1.1\r\nHost: a\r\n folded: x\r\n\r\n", 400},
		{"POST /lookup HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", 400},
		{"POST /lookup HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400},
		{"POST /lookup HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400},
		{"POST /lookup HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501},
		{"GET /packages HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\n\r\n", 417},
		{"GET /pack\x00ages HTTP/1.1\r\nHost: a\r\n\r\n", 400}, {"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400},
		{"GET http://[::1 HTTP/1.1\r\nHost: a\r\n\r\n", 400}, {"GET packages HTTP/1.1\r\nHost: a\r\n\r\n", 400},
		{"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400},
		{"GET /healthz HTTP/1.0\r\n\r\n", 200},
	} {
		add(malformedCase{class: "malformed request line or header", method: "GET", raw: []byte(c.raw), want: c.want})
	}

	// Static paths.
	for _, c := range []struct {
		target string
		hdr    []string
		want   int
	}{
		{"/static", nil, 404}, {"/static/", nil, 404}, {"/static/nope.css", nil, 404}, {"/static/style.css/", nil, 404},
		{"/static//style.css", nil, 404}, {"/static/../go.mod", nil, 404}, {"/static/%2e%2e/go.mod", nil, 404},
		{"/static/%2e%2e%2fgo.mod", nil, 404}, {"/static/templates/layout.html", nil, 404}, {"/static/./style.css", nil, 404},
		{"/static/style.css", nil, 200}, {"/static/style.css?v=1", nil, 200}, {"/static/style.css", []string{"Range: bytes=999999-"}, 200},
		{"/static/STYLE.CSS", nil, 404}, {"/static/style.css%00", nil, 400},
	} {
		add(malformedCase{class: "static path", method: "GET", raw: rawRequest("GET", c.target, c.hdr, nil), want: c.want, html: true})
	}
	return cs
}

// openapiParamRef is the part of a contract parameter the cases need.
type openapiParamRef struct {
	name, in string
	required bool
}

func refs(ps openapi3.Parameters) []*openapiParamRef {
	var out []*openapiParamRef
	for _, r := range ps {
		if r.Value != nil {
			out = append(out, &openapiParamRef{name: r.Value.Name, in: r.Value.In, required: r.Value.Required})
		}
	}
	return out
}

// TestMalformedRequests sends a large, systematic set of malformed requests
// to a real server over the real router and a real database, and holds every
// answer to three rules: none is a 500, each has the status its case names,
// and every error body is problem+json (status, title and type set, status
// equal to the answer's) or the website's error page, in the format the
// documented rule picks; no body names an address, a stack or SQL. It also
// sends GET and HEAD to every GET operation of the contract and every
// website page: HEAD answers the same status and headers with no body. The
// tally by class and status is logged (-v) for docs/reliability.md §7.
func TestMalformedRequests(t *testing.T) {
	t.Parallel()
	ts, _ := seeded(t)
	addr := liveServer(t, ts.Server, 10*time.Second)
	tally := map[string]map[int]int{}
	count := func(class string, status int) {
		if tally[class] == nil {
			tally[class] = map[int]int{}
		}
		tally[class][status]++
	}
	for _, c := range malformedCases(ts.Server) {
		res := sendRaw(t, addr, c.method, c.raw)
		what := c.class + ": " + strconv.Quote(firstLine(string(c.raw)))
		count(c.class, res.status)
		if res.status == http.StatusInternalServerError {
			t.Errorf("%s: 500: %s", what, res.body)
			continue
		}
		if c.want != 0 && res.status != c.want {
			t.Errorf("%s: status %d, want %d: %s", what, res.status, c.want, firstLine(string(res.body)))
		}
		checkAnswer(t, what, res, c.html, c.method == http.MethodHead)
	}
	for _, pair := range headPairs(ts.Server) {
		get := sendRaw(t, addr, "GET", rawRequest("GET", pair.target, nil, nil))
		head := sendRaw(t, addr, "HEAD", rawRequest("HEAD", pair.target, nil, nil))
		count("HEAD where GET is", head.status)
		what := "HEAD " + pair.target
		if head.status != get.status {
			t.Errorf("%s: status %d, GET %d", what, head.status, get.status)
		}
		if len(head.body) != 0 {
			t.Errorf("%s: a body of %d bytes", what, len(head.body))
		}
		if get.status < 400 && len(get.body) == 0 {
			t.Errorf("GET %s: no body to compare with", pair.target)
		}
		for k := range mergeKeys(get.header, head.header) {
			if k == "Date" || k == "X-Request-Id" {
				continue
			}
			if k == "Content-Length" && head.header.Get(k) == "" {
				// net/http computes it for a GET whose body it buffered
				// whole; a HEAD handler's body is discarded as written.
				continue
			}
			if g, h := get.header.Values(k), head.header.Values(k); !slices.Equal(g, h) {
				t.Errorf("%s: header %s is %q, GET has %q", what, k, h, g)
			}
		}
		checkAnswer(t, what, head, pair.html, true)
	}
	var classes []string
	total := 0
	for c := range tally {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	var b strings.Builder
	b.WriteString("| class | requests | answers by status |\n| --- | ---: | --- |\n")
	for _, c := range classes {
		var codes []int
		n := 0
		for code, k := range tally[c] {
			codes = append(codes, code)
			n += k
		}
		sort.Ints(codes)
		var parts []string
		for _, code := range codes {
			parts = append(parts, fmt.Sprintf("%d × %d", code, tally[c][code]))
		}
		total += n
		fmt.Fprintf(&b, "| %s | %d | %s |\n", c, n, strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "| all | %d | |\n", total)
	t.Logf("malformed requests by class and status:\n%s", b.String())
}

// checkAnswer holds one answer to the format rules.
func checkAnswer(t *testing.T, what string, res rawResult, html, head bool) {
	t.Helper()
	for _, leak := range []string{"127.0.0.1", "tcp ", "goroutine", "SQLSTATE", "panic", ".go:"} {
		if bytes.Contains(res.body, []byte(leak)) {
			t.Errorf("%s: the body names %q: %s", what, leak, res.body)
		}
	}
	if res.status < 400 {
		return
	}
	ct := res.header.Get("Content-Type")
	if html {
		if !strings.HasPrefix(ct, "text/html") {
			t.Errorf("%s: %d is %q, want the HTML error page", what, res.status, ct)
			return
		}
		if res.header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s: the error page has no CSP", what)
		}
		if !head && (!bytes.Contains(res.body, []byte("<h1>")) || !bytes.Contains(res.body, []byte("Back to the grades"))) {
			t.Errorf("%s: not the error page: %.200s", what, res.body)
		}
		return
	}
	if ct != "application/problem+json" {
		t.Errorf("%s: %d is %q, want problem+json: %.200s", what, res.status, ct, res.body)
		return
	}
	if head {
		return
	}
	var p struct {
		Status      int
		Title, Type string
	}
	if err := json.Unmarshal(res.body, &p); err != nil || p.Status != res.status || p.Title == "" || p.Type == "" {
		t.Errorf("%s: not a problem for %d (%v): %s", what, res.status, err, res.body)
	}
}

func mergeKeys(a, b http.Header) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

type headPair struct {
	target string
	html   bool
}

// headPairs is one valid request for every GET operation of the contract
// (their answers over the seeded data) and for every website page.
func headPairs(s *Server) []headPair {
	var out []headPair
	for k, op := range s.ops {
		if op.method != http.MethodGet {
			continue
		}
		target := fill(op.path, "", "")
		for _, ref := range refs(op.op.Parameters) {
			if ref.in == "query" && ref.required {
				target += "?" + ref.name + "=" + validParam[ref.name]
			}
		}
		_ = k
		out = append(out, headPair{target: target})
	}
	for _, pg := range sitePages {
		out = append(out, headPair{target: fill(pg.path, "", ""), html: true})
	}
	out = append(out, headPair{target: "/?q=acme", html: true}, headPair{target: "/static/style.css", html: true},
		headPair{target: "/package/npm/@acme%2Ffiles/9.9.9", html: true}, headPair{target: "/nope"}, headPair{target: "/packages?limit=0"})
	sort.Slice(out, func(i, j int) bool { return out[i].target < out[j].target })
	return out
}
