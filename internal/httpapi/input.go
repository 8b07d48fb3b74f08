package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
)

// defaultMaxBodyBytes bounds a request body when Options.MaxBodyBytes is 0:
// a POST /lookup of 1,000 items with the longest names the contract allows
// fits in well under this.
const defaultMaxBodyBytes = 1 << 20

// Client-facing details of refused input: fixed strings, or fixed forms
// around a name taken from the contract (never from the request).
const (
	detailTextRule     = " is invalid: it must be UTF-8 text without NUL characters"
	detailPathText     = "the path" + detailTextRule
	detailQueryEscape  = "the query string is not valid percent-encoding of key=value pairs"
	detailQueryText    = "a query parameter" + detailTextRule
	detailBodyText     = "request body is invalid: it is not UTF-8 text"
	detailBodyNUL      = "request body is invalid: a string in it contains a NUL character"
	detailBodyJSON     = "request body is invalid: it is not one JSON document"
	detailBodyUnread   = "the request body could not be read"
	detailBodyTimedOut = "the request body did not arrive within the server's read timeout"
)

// checkInput refuses, before any route or query runs, the input the
// contract cannot mean: text that is not UTF-8 or holds NUL in the path, the
// query, the contract's header parameters or a JSON body, a query that is not
// percent-encoded key=value pairs, and a body over the limit (413) or one that
// cannot be read (408 on the read timeout, never the connection's error
// text, which names both addresses). PostgreSQL refuses such text with an
// error (SQLSTATE 22021) that would otherwise surface as a 500; refusing it
// here covers every route at once, the contract's (whose fast check in
// fastparams.go never reaches kin-openapi for a valid request) and the
// website's. It reads a body whole, so kin-openapi and the handler read the
// same bytes again from memory.
func (s *Server) checkInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !plainText(r.URL.Path) && !validText(r.URL.Path) {
			s.fail(w, r, &Problem{Status: http.StatusBadRequest, Detail: s.pathDetail(r)})
			return
		}
		if q := r.URL.RawQuery; q != "" && !plainQuery(q) {
			if d := s.queryDetail(q); d != "" {
				s.fail(w, r, &Problem{Status: http.StatusBadRequest, Detail: d})
				return
			}
		}
		for _, name := range s.headerParams {
			for _, v := range r.Header[name] {
				if !plainText(v) && !validText(v) {
					s.fail(w, r, &Problem{Status: http.StatusBadRequest, Detail: "parameter " + strconv.Quote(name) + " in header" + detailTextRule})
					return
				}
			}
		}
		if r.Body != nil && r.Body != http.NoBody {
			body, p := s.readBody(w, r)
			if p != nil {
				s.fail(w, r, p)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

// plainText reports the common case cheaply: printable ASCII with no NUL,
// which is valid text, so the hot path skips the UTF-8 decoder.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// validText is the rule every text parameter obeys: UTF-8, no NUL.
func validText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// plainQuery reports a raw query that needs no decoding to be judged: no
// escapes, no ';' (which url.ParseQuery refuses), no byte outside ASCII.
func plainQuery(q string) bool {
	for i := 0; i < len(q); i++ {
		if c := q[i]; c == '%' || c == ';' || c == 0 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// queryDetail is the detail refusing the raw query q, or "" when q is valid.
func (s *Server) queryDetail(q string) string {
	vs, err := url.ParseQuery(q)
	if err != nil {
		return detailQueryEscape
	}
	for k, list := range vs {
		bad := !validText(k)
		for _, v := range list {
			bad = bad || !validText(v)
		}
		if !bad {
			continue
		}
		if s.paramNames[k] {
			return "parameter " + strconv.Quote(k) + " in query" + detailTextRule
		}
		return detailQueryText
	}
	return ""
}

// pathDetail names the path parameter that is not valid text, when the path
// matches a route; it runs only for a path already found invalid.
func (s *Server) pathDetail(r *http.Request) string {
	rctx := chi.NewRouteContext()
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if !s.router.Match(rctx, method, path) {
		return detailPathText
	}
	for i, k := range rctx.URLParams.Keys {
		v, err := url.PathUnescape(rctx.URLParams.Values[i])
		if err == nil && validText(v) {
			continue
		}
		if s.paramNames[k] {
			return "parameter " + strconv.Quote(k) + " in path" + detailTextRule
		}
	}
	return detailPathText
}

// readBody reads r's body whole, bounded by the server's limit, and checks
// it: UTF-8, and for a JSON body one JSON document none of whose strings
// (keys included) holds NUL. A JSON string can carry NUL only as the escape
// \u0000, so the check is on decoded tokens, not bytes. The decoder's Token
// walk is iterative; its nesting stack is bounded by the body limit.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *Problem) {
	limit := s.opts.MaxBodyBytes
	tooLarge := &Problem{Status: http.StatusRequestEntityTooLarge, Detail: "request body is larger than " + strconv.FormatInt(limit, 10) + " bytes"}
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tl *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tl):
			return nil, tooLarge
		case errors.As(err, &ne) && ne.Timeout():
			return nil, &Problem{Status: http.StatusRequestTimeout, Detail: detailBodyTimedOut}
		}
		s.log.InfoContext(r.Context(), "request body unreadable", "path", r.URL.Path, "error", err.Error())
		return nil, &Problem{Status: http.StatusBadRequest, Detail: detailBodyUnread}
	}
	if len(body) == 0 {
		return body, nil
	}
	if !utf8.Valid(body) {
		return nil, &Problem{Status: http.StatusBadRequest, Detail: detailBodyText}
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		// Not JSON: the contract refuses the media type itself.
		return body, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	depth, done := 0, false
	for {
		tok, err := dec.Token()
		if err == io.EOF && done {
			return body, nil
		}
		if err != nil || done {
			return nil, &Problem{Status: http.StatusBadRequest, Detail: detailBodyJSON}
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if strings.IndexByte(t, 0) >= 0 {
				return nil, &Problem{Status: http.StatusBadRequest, Detail: detailBodyNUL}
			}
		}
		done = depth == 0
	}
}

// textParams collects what checkInput needs from the contract: every
// parameter name (for messages: a name is echoed only when the contract or
// the website declares it) and the header parameters (the only headers whose
// values a handler reads as text).
func (s *Server) textParams() {
	s.paramNames = map[string]bool{}
	seenHeader := map[string]bool{}
	for _, o := range s.ops {
		for _, ref := range append(append(openapi3.Parameters{}, o.pathItem.Parameters...), o.op.Parameters...) {
			p := ref.Value
			if p == nil {
				continue
			}
			s.paramNames[p.Name] = true
			if h := http.CanonicalHeaderKey(p.Name); p.In == "header" && !seenHeader[h] {
				seenHeader[h] = true
				s.headerParams = append(s.headerParams, h)
			}
		}
	}
	// The website's own query parameters (gradesPage) and path parameters.
	for _, k := range []string{"q", "registry", "verdict", "grade", "reason", "cursor", "name", "version"} {
		s.paramNames[k] = true
	}
}
