// Package fakeregistry is an in-memory registry that speaks the npm and PyPI
// wire formats, for tests and the offline demo: mount Fake on an
// httptest.Server (or any listener) and point the registry clients at it.
//
// It serves synthetic packages that callers register (AddNPM, AddPyPI),
// computing every digest itself (SRI sha512 integrity, sha1 shasum, sha256),
// and it can be told to misbehave on a given path (Inject): answer 5xx or 429
// with Retry-After a number of times, answer 404, cut a body short, or publish
// a wrong digest. It records every request it sees.
//
// It is not a _test.go file because other packages' tests and the demo binary
// use it. It must not import the registry client package (the client's own
// tests import this one) and must never be wired into a production path.
//
// Routes (all GET, at the root of the server):
//
//	npm   /{name}                                   packument (scoped: /@scope%2fname)
//	      /{name}/{version}                         version manifest
//	      /{name}/-/{basename}-{version}.tgz        tarball
//	      /-/npm/v1/attestations/{name}@{version}   attestations
//	      /-/v1/search?text=&size=&from=            search (paged, with downloads.monthly, for a query set with SetSearch)
//	      /downloads/point/{from}:{to}/{name}       the downloads API (SetDownloads)
//	PyPI  /simple/                                         the index root: PEP 691 JSON, or PEP 503 HTML
//	      /pypi/{name}/json, /pypi/{name}/{version}/json   JSON API
//	      /simple/{name}/                                  PEP 691 JSON (HTML without the JSON Accept)
//	      /integrity/{name}/{version}/{filename}/provenance PEP 740 provenance
//	      /files/{name}/{version}/{filename}                distribution files
//
// Absolute URLs in documents (tarballs, files) are built from the request's
// Host, so the fake needs no configuration to know where it is mounted.
package fakeregistry

import (
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Epoch is the fixed time synthetic packages are published at when the
// caller gives none; each later addition is one minute later, so output is
// reproducible byte for byte.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Person is a maintainer or publisher.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

// Fault is one kind of misbehaviour on one path. Faults queued on a path are
// applied in order, each for Times requests (1 when zero; negative means
// every request from then on).
type Fault struct {
	// Status, when non-zero, is answered instead of the real response
	// (500, 503, 429, 404, 410, ...).
	Status int
	// RetryAfter, when set, is sent as the Retry-After header.
	RetryAfter string
	// Truncate sends the real response with its full Content-Length but
	// only the first half of the body, then drops the connection.
	Truncate bool
	// Times is how many requests this fault applies to.
	Times int
}

// Request is one request the fake saw.
type Request struct {
	Method     string
	Path       string // decoded path
	RequestURI string // as sent, so tests can see %2f
	UserAgent  string
	Accept     string
}

// Fake is the registry. The zero value is not usable; call New.
type Fake struct {
	mu       sync.Mutex
	npm      map[string]*npmPackage  // by name
	pypi     map[string]*pypiProject // by PEP 503 normalised name
	faults   map[string][]*Fault     // by decoded path
	requests []Request
	seq      int
	// search and downloads are what SetSearch and SetDownloads serve
	// (selection.go).
	search    map[string][]SearchResult
	downloads map[string]int64
}

// New returns an empty fake registry.
func New() *Fake {
	return &Fake{
		npm:    map[string]*npmPackage{},
		pypi:   map[string]*pypiProject{},
		faults: map[string][]*Fault{},
	}
}

// Inject queues faults on a path (as returned by the *Path helpers, or any
// decoded request path).
func (f *Fake) Inject(path string, faults ...Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ft := range faults {
		ft := ft
		if ft.Times == 0 {
			ft.Times = 1
		}
		f.faults[path] = append(f.faults[path], &ft)
	}
}

// ClearFaults drops every queued fault.
func (f *Fake) ClearFaults() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = map[string][]*Fault{}
}

// Requests returns a copy of the requests seen so far.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

// Count returns how many requests were made for a decoded path.
func (f *Fake) Count(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.requests {
		if r.Path == path {
			n++
		}
	}
	return n
}

// nextTime hands out reproducible publication times.
func (f *Fake) nextTime(t time.Time) time.Time {
	f.seq++
	if !t.IsZero() {
		return t.UTC()
	}
	return Epoch.Add(time.Duration(f.seq-1) * time.Minute)
}

// takeFault pops the fault that applies to this request, if any.
func (f *Fake) takeFault(path string) *Fault {
	q := f.faults[path]
	for len(q) > 0 {
		ft := q[0]
		if ft.Times == 0 {
			q = q[1:]
			continue
		}
		if ft.Times > 0 {
			ft.Times--
		}
		f.faults[path] = q
		c := *ft
		return &c
	}
	delete(f.faults, path)
	return nil
}

// ServeHTTP routes to the PyPI or npm handlers. A PyPI route wins only when
// the project it names is registered, so an npm package called "simple" or
// "pypi" still works.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests = append(f.requests, Request{
		Method: r.Method, Path: r.URL.Path, RequestURI: r.RequestURI,
		UserAgent: r.UserAgent(), Accept: r.Header.Get("Accept"),
	})
	fault := f.takeFault(r.URL.Path)
	f.mu.Unlock()

	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if fault != nil && fault.Status != 0 {
		if fault.RetryAfter != "" {
			w.Header().Set("Retry-After", fault.RetryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(fault.Status)
		_, _ = w.Write([]byte(`{"error":"injected fault"}`))
		return
	}

	status, ctype, body := f.route(r)
	if fault != nil && fault.RetryAfter != "" {
		w.Header().Set("Retry-After", fault.RetryAfter)
	}
	w.Header().Set("Content-Type", ctype)
	if fault != nil && fault.Truncate && status == http.StatusOK {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		_, _ = w.Write(body[:len(body)/2])
		// Returning now makes the server close the connection short of
		// the declared length: the client sees an unexpected EOF.
		return
	}
	w.WriteHeader(status)
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
	}
}

func (f *Fake) route(r *http.Request) (int, string, []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path := r.URL.Path
	switch {
	case path == PyPIIndexPath:
		return f.simpleRoot(r)
	case strings.HasPrefix(path, "/downloads/point/"):
		return f.downloadsPoint(path)
	case path == NPMSearchPath:
		if status, ctype, body, ok := f.searchPaged(r.URL.Query()); ok {
			return status, ctype, body
		}
	}
	if strings.HasPrefix(path, "/pypi/") || strings.HasPrefix(path, "/simple/") ||
		strings.HasPrefix(path, "/integrity/") || strings.HasPrefix(path, "/files/") {
		if status, ctype, body, ok := f.servePyPI(r); ok {
			return status, ctype, body
		}
	}
	return f.serveNPM(r)
}

func notFound() (int, string, []byte) {
	return http.StatusNotFound, "application/json", []byte(`{"error":"Not found"}`)
}

func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// SRI is the sha512 integrity string npm publishes for b.
func SRI(b []byte) string {
	s := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(s[:])
}

// SHA1Hex is npm's dist.shasum for b.
func SHA1Hex(b []byte) string {
	s := sha1.Sum(b)
	return hex.EncodeToString(s[:])
}
