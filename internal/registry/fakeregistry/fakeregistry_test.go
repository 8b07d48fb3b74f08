package fakeregistry_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/registry/fakeregistry"
)

func get(t *testing.T, srv *httptest.Server, path, accept string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

func TestFaultQueue(t *testing.T) {
	f := fakeregistry.New()
	f.AddNPM("p", "1.0.0", []byte("t"), fakeregistry.NPMOptions{})
	srv := httptest.NewServer(f)
	defer srv.Close()
	f.Inject("/p", fakeregistry.Fault{Status: 500, Times: 2}, fakeregistry.Fault{Status: 429, RetryAfter: "4"})
	var got []int
	for range 4 {
		s, h, _ := get(t, srv, "/p", "")
		got = append(got, s)
		if s == 429 && h.Get("Retry-After") != "4" {
			t.Errorf("Retry-After = %q", h.Get("Retry-After"))
		}
	}
	if want := []int{500, 500, 429, 200}; !equal(got, want) {
		t.Errorf("statuses = %v, want %v", got, want)
	}
	f.Inject("/p", fakeregistry.Fault{Status: 503, Times: -1})
	for range 3 {
		if s, _, _ := get(t, srv, "/p", ""); s != 503 {
			t.Errorf("persistent fault: %d", s)
		}
	}
	f.ClearFaults()
	if s, _, _ := get(t, srv, "/p", ""); s != 200 {
		t.Errorf("after clear: %d", s)
	}
	if f.Count("/p") != 8 {
		t.Errorf("count = %d", f.Count("/p"))
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNPMAndPyPINamesDoNotCollide(t *testing.T) {
	f := fakeregistry.New()
	f.AddNPM("simple", "1.0.0", []byte("npm"), fakeregistry.NPMOptions{})
	f.AddPyPI("simple", "1.0", []fakeregistry.PyPIFile{{Filename: "simple-1.0.tar.gz", Content: []byte("py")}}, fakeregistry.PyPIOptions{})
	srv := httptest.NewServer(f)
	defer srv.Close()
	if s, _, b := get(t, srv, "/simple", ""); s != 200 || !strings.Contains(string(b), `"dist-tags"`) {
		t.Errorf("npm packument: %d %s", s, b)
	}
	if s, _, b := get(t, srv, "/simple/1.0.0", ""); s != 200 || !strings.Contains(string(b), `"_npmUser"`) {
		t.Errorf("npm version: %d %s", s, b)
	}
	s, h, b := get(t, srv, "/simple/simple/", "application/vnd.pypi.simple.v1+json")
	if s != 200 || h.Get("Content-Type") != "application/vnd.pypi.simple.v1+json" || !strings.Contains(string(b), `"files"`) {
		t.Errorf("simple JSON: %d %s", s, b)
	}
	s, h, b = get(t, srv, "/simple/simple/", "")
	if s != 200 || h.Get("Content-Type") != "text/html" || !strings.Contains(string(b), "simple-1.0.tar.gz") {
		t.Errorf("simple HTML: %d %s", s, b)
	}
}

func TestNPMDocumentsAreDeterministic(t *testing.T) {
	build := func() []byte {
		f := fakeregistry.New()
		f.AddNPM("@a/b", "1.0.0", []byte("one"), fakeregistry.NPMOptions{Provenance: true, Repository: "git+https://example.test/r.git"})
		f.AddNPM("@a/b", "1.1.0", []byte("two"), fakeregistry.NPMOptions{})
		srv := httptest.NewServer(f)
		defer srv.Close()
		_, _, b := get(t, srv, "/@a%2fb", "")
		return []byte(strings.ReplaceAll(string(b), srv.URL, "BASE"))
	}
	a, b := build(), build()
	if string(a) != string(b) {
		t.Error("two identical fakes served different packuments")
	}
	var doc struct {
		DistTags map[string]string `json:"dist-tags"`
		Versions map[string]struct {
			Dist struct {
				Tarball   string `json:"tarball"`
				Integrity string `json:"integrity"`
			} `json:"dist"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(a, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.DistTags["latest"] != "1.1.0" || doc.Versions["1.0.0"].Dist.Tarball != "BASE/@a/b/-/b-1.0.0.tgz" ||
		doc.Versions["1.0.0"].Dist.Integrity != fakeregistry.SRI([]byte("one")) {
		t.Errorf("packument = %s", a)
	}
}
