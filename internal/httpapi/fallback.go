package httpapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
)

// Which format an error takes. The rule, in order (docs/reliability.md §7):
//
//  1. A website path — one whose first segment is a website route's
//     ("/", /package…, /gate-map…, /docs…, /static…) — answers the HTML
//     error page.
//  2. A path whose first segment is one of the contract's (/manifest,
//     /packages, /lookup, …) answers problem+json, whatever Accept says:
//     an API client must be able to parse every answer it gets.
//  3. Any other path answers the HTML error page when Accept names
//     text/html (what a browser sends when it navigates), else problem+json.
//
// A request net/http itself refuses before it is parsed (a malformed request
// line or header, a bad percent-escape in the path, headers over the limit)
// has no trustworthy path or Accept header: ProblemListener turns the
// server's plain-text answer into problem+json.
func (s *Server) wantsHTML(r *http.Request) bool {
	first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	switch {
	case siteRoots[first]:
		return true
	case s.apiRoots[first]:
		return false
	}
	return acceptsHTML(r.Header.Get("Accept"))
}

// siteRoots are the first path segments of SiteRoutes ("" for "/").
var siteRoots = func() map[string]bool {
	out := map[string]bool{}
	for _, rt := range SiteRoutes {
		_, path, _ := strings.Cut(rt, " ")
		first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		out[first] = true
	}
	return out
}()

// acceptsHTML reports whether an Accept header names text/html (or XHTML)
// with a non-zero quality.
func acceptsHTML(accept string) bool {
	if accept == "" {
		return false
	}
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || (mt != "text/html" && mt != "application/xhtml+xml") {
			continue
		}
		if q, err := strconv.ParseFloat(params["q"], 64); err == nil && q == 0 {
			continue
		}
		return true
	}
	return false
}

// apiRootsOf lists the first path segment of every operation of the contract.
func apiRootsOf(ops map[string]*operation) map[string]bool {
	out := map[string]bool{}
	for _, o := range ops {
		first, _, _ := strings.Cut(strings.TrimPrefix(o.path, "/"), "/")
		out[first] = true
	}
	return out
}

// fail writes err in the format the request's path and Accept header call
// for: problem+json through render, or the website's error page.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if s.wantsHTML(r) {
		s.errorPage(w, r, err)
		return
	}
	render(w, r, s.log, err)
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if s.wantsHTML(r) {
		s.errorPage(w, r, &Problem{Status: http.StatusNotFound, Title: "Page not found", Detail: "There is no page at this address."})
		return
	}
	render(w, r, s.log, &Problem{Status: http.StatusNotFound, Detail: "no such endpoint; the contract (openapi.yaml) lists every path"})
}

// methodNotAllowed answers 405 with the Allow header chi's own handler would
// have set (a custom handler replaces it): the methods the path is served for.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	var allow []string
	if s.router.Match(chi.NewRouteContext(), http.MethodGet, path) {
		allow = append(allow, http.MethodGet, http.MethodHead)
	}
	if s.router.Match(chi.NewRouteContext(), http.MethodPost, path) {
		allow = append(allow, http.MethodPost)
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
	}
	if s.wantsHTML(r) {
		s.errorPage(w, r, &Problem{Status: http.StatusMethodNotAllowed, Title: "Method not allowed", Detail: "This website is read-only: pages answer GET and HEAD."})
		return
	}
	render(w, r, s.log, &Problem{Status: http.StatusMethodNotAllowed, Detail: "this API is read-only: the Allow header lists the methods this path answers"})
}

// ProblemListener wraps the listener an http.Server serves, so the answers
// net/http writes itself, before any handler runs — 400 for a malformed
// request line or header (a bad percent-escape in the path among them), 431
// for headers over MaxHeaderBytes, 501 for an unknown transfer encoding, 505
// for an unsupported HTTP version, 417 for an Expect other than
// 100-continue — reach the client as problem+json with the same status
// instead of text/plain. Everything else passes through untouched.
//
// net/http writes those answers straight to the connection in one Write, in
// a shape no handler's answer has (its header block is exactly
// serverErrorHeaders; a handler's answer always carries Date, and net/http
// sorts header names, so Connection never follows Content-Type last). The
// tests pin that shape for the Go release in go.mod: if a release changes
// it, TestMalformedRequests (class "malformed request line or header") fails
// rather than letting text/plain through unnoticed.
func ProblemListener(ln net.Listener) net.Listener { return problemListener{ln} }

type problemListener struct{ net.Listener }

func (l problemListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &problemConn{Conn: c}, nil
}

type problemConn struct{ net.Conn }

func (c *problemConn) Write(p []byte) (int, error) {
	out, ok := rewriteServerError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite keeps net/http's half-close (closeWriteAndWait after a 431)
// working through the wrapper.
func (c *problemConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

const serverErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// serverErrorDetail is the fixed detail of each status net/http answers by
// itself. Go's own text is not echoed: it is not part of our contract.
var serverErrorDetail = map[int]string{
	http.StatusBadRequest:                  "the request line or a header is malformed (for example a bad percent-escape in the path, a header without a colon, or no Host header)",
	http.StatusRequestHeaderFieldsTooLarge: "the request line and headers are larger than this server accepts",
	http.StatusNotImplemented:              "the request's transfer encoding is not supported",
	http.StatusHTTPVersionNotSupported:     "the request's HTTP version is not supported; use HTTP/1.1",
	http.StatusExpectationFailed:           "the only Expect this server supports is 100-continue",
}

// rewriteServerError recognises one of net/http's own error answers in p
// and returns its problem+json replacement.
func rewriteServerError(p []byte) ([]byte, bool) {
	const prefix = "HTTP/1.1 "
	if len(p) < len(prefix)+4 || string(p[:len(prefix)]) != prefix || p[len(prefix)+3] != ' ' {
		return nil, false
	}
	code, err := strconv.Atoi(string(p[len(prefix) : len(prefix)+3]))
	if err != nil || code < 400 {
		return nil, false
	}
	head := p
	if len(head) > 256 {
		head = head[:256]
	}
	end := bytes.Index(head, []byte("\r\n"))
	switch {
	case end < 0:
		return nil, false
	case bytes.HasPrefix(p[end:], []byte(serverErrorHeaders)):
	case code == http.StatusExpectationFailed:
		// sendExpectationFailed answers through the ordinary writer, with no
		// body; no handler here ever answers 417.
	default:
		return nil, false
	}
	detail, ok := serverErrorDetail[code]
	if !ok {
		detail = strings.ToLower(http.StatusText(code))
	}
	body, _ := json.Marshal(Problem{Status: code, Type: "about:blank", Title: http.StatusText(code), Detail: detail})
	body = append(body, '\n')
	var b bytes.Buffer
	b.WriteString(prefix + strconv.Itoa(code) + " " + http.StatusText(code) + "\r\n")
	b.WriteString("Content-Type: application/problem+json\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	b.Write(body)
	return b.Bytes(), true
}
