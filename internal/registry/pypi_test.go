package registry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/vocab"
)

var (
	sdist = []byte("synthetic sdist bytes")
	wheel = []byte("PK synthetic wheel bytes")
)

func addPyPI(e *env) {
	opts := fakeregistry.PyPIOptions{
		Author: "Alice", AuthorEmail: "alice@example.test", HomePage: "https://example.test/home",
		ProjectURLs: map[string]string{"Source": "https://example.test/src"},
		Owners:      []string{"alice"},
		Publisher:   &fakeregistry.PyPIPublisher{Kind: "CI", Repository: "acme/mcp", Workflow: "release.yml"},
	}
	e.fake.AddPyPI("Acme_MCP.Server", "1.0.0", []fakeregistry.PyPIFile{
		{Filename: "acme_mcp_server-1.0.0.tar.gz", Content: sdist},
		{Filename: "acme_mcp_server-1.0.0-py3-none-any.whl", Content: wheel},
	}, opts)
	e.fake.AddPyPI("Acme_MCP.Server", "1.1.0", []fakeregistry.PyPIFile{
		{Filename: "acme_mcp_server-1.1.0.tar.gz", Content: sdist},
	}, fakeregistry.PyPIOptions{Yanked: true, YankedReason: "broken"})
	e.fake.AddPyPI("Acme_MCP.Server", "2.0b1", []fakeregistry.PyPIFile{
		{Filename: "acme_mcp_server-2.0b1.tar.gz", Content: sdist},
	}, fakeregistry.PyPIOptions{})
}

func TestNormalizePyPIName(t *testing.T) {
	for in, want := range map[string]string{
		"Acme_MCP.Server": "acme-mcp-server", "a--b__c..d": "a-b-c-d", "simple": "simple", "Foo-._Bar": "foo-bar",
	} {
		if got := registry.NormalizePyPIName(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "-lead", "trail.", "a/b", "../x", "sp ace"} {
		if registry.ValidPyPIName(bad) {
			t.Errorf("%q valid", bad)
		}
	}
}

func TestPyPIRelease(t *testing.T) {
	e := newEnv(t)
	addPyPI(e)
	r, err := e.pypi.Release(context.Background(), "acme-mcp-server", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Requests()[0].Path; got != "/pypi/acme-mcp-server/1.0.0/json" {
		t.Errorf("path = %q", got)
	}
	if r.Info.Author != "Alice" || r.Info.AuthorEmail != "alice@example.test" || r.Info.HomePage != "https://example.test/home" ||
		r.Info.ProjectURLs["Source"] != "https://example.test/src" || r.Info.Version != "1.0.0" || r.Info.Maintainer != "" {
		t.Errorf("info = %+v", r.Info)
	}
	if len(r.Files) != 2 {
		t.Fatalf("files = %+v", r.Files)
	}
	sd, wh := r.Files[0], r.Files[1]
	if sd.PackageType != "sdist" || wh.PackageType != "bdist_wheel" || sd.SHA256() != vocab.SHA256Hex(sdist) ||
		sd.Size != int64(len(sdist)) || !sd.UploadTime.Equal(fakeregistry.Epoch) {
		t.Errorf("files = %+v", r.Files)
	}
	if r.Ownership == nil || len(r.Ownership.Roles) != 1 || r.Ownership.Roles[0].User != "alice" {
		t.Errorf("ownership = %+v", r.Ownership)
	}
	if !bytes.Equal(r.Response.Body, rawGet(t, e.srv, "/pypi/acme-mcp-server/1.0.0/json", "")) ||
		r.Response.Record.Kind != vocab.KindPyPIJSON {
		t.Error("raw body or kind wrong")
	}

	a, err := e.pypi.Download(context.Background(), wh.URL, wh.SHA256())
	if err != nil || !bytes.Equal(a.Response.Body, wheel) || a.Algorithm != "sha256" || a.Response.Record.Kind != vocab.KindPyPIFile {
		t.Errorf("download: %v %+v", err, a.Response.Record)
	}
}

func TestPyPIProjectAndResolve(t *testing.T) {
	e := newEnv(t)
	addPyPI(e)
	p, err := e.pypi.Project(context.Background(), "ACME.mcp_server")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.fake.Requests()[0].Path; got != "/pypi/acme-mcp-server/json" {
		t.Errorf("path = %q", got)
	}
	if len(p.Releases) != 3 || p.Info.Version != "1.0.0" {
		t.Errorf("releases = %d, info.version = %q", len(p.Releases), p.Info.Version)
	}
	cases := map[string]string{
		"":          "1.0.0", // 1.1.0 is yanked, 2.0b1 a pre-release
		">=1":       "1.0.0",
		"==1.1.0":   "1.1.0", // a pin may select a yanked release (PEP 592)
		">=2.0b1":   "2.0b1",
		"~=1.0":     "1.0.0",
		"==1.0.0":   "1.0.0",
		"!=1.0.0":   "",
		">=1.0,<99": "1.0.0",
	}
	for spec, want := range cases {
		r, err := registry.ResolvePyPI(p, spec)
		if want == "" {
			if !errors.Is(err, registry.ErrNoMatch) {
				t.Errorf("%q: %+v %v, want ErrNoMatch", spec, r, err)
			}
			continue
		}
		if err != nil || r.Version != want {
			t.Errorf("%q: %+v %v, want %s", spec, r, err, want)
		}
	}
}

func TestPyPISimpleAndProvenance(t *testing.T) {
	e := newEnv(t)
	addPyPI(e)
	ctx := context.Background()
	s, err := e.pypi.Simple(ctx, "Acme_MCP.Server")
	if err != nil {
		t.Fatal(err)
	}
	reqs := e.fake.Requests()
	if reqs[0].Path != "/simple/acme-mcp-server/" || reqs[0].Accept != registry.SimpleContentType {
		t.Errorf("request = %+v", reqs[0])
	}
	if s.Name != "acme-mcp-server" || s.APIVersion != "1.3" || !reflect.DeepEqual(s.Versions, []string{"1.0.0", "1.1.0", "2.0b1"}) {
		t.Errorf("simple = %q %q %v", s.Name, s.APIVersion, s.Versions)
	}
	var withProv, yanked int
	for _, f := range s.Files {
		if f.ProvenanceURL != "" {
			withProv++
		}
		if f.Yanked {
			yanked++
			if f.YankedReason != "broken" {
				t.Errorf("yanked reason = %q", f.YankedReason)
			}
		}
		if f.Hashes["sha256"] == "" || f.URL == "" {
			t.Errorf("file = %+v", f)
		}
	}
	if withProv != 2 || yanked != 1 || len(s.Files) != 4 {
		t.Errorf("files=%d withProv=%d yanked=%d", len(s.Files), withProv, yanked)
	}

	p, err := e.pypi.Provenance(ctx, "acme-mcp-server", "1.0.0", "acme_mcp_server-1.0.0-py3-none-any.whl")
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != 1 || len(p.Bundles) != 1 || p.Bundles[0].Publisher.Kind != "CI" ||
		p.Bundles[0].Publisher.Repository != "acme/mcp" || p.Bundles[0].Publisher.Workflow != "release.yml" ||
		len(p.Bundles[0].Attestations) != 1 || p.Response.Record.Kind != vocab.KindPyPIProvenance {
		t.Errorf("provenance = %+v", p)
	}
	var pub map[string]any
	if err := json.Unmarshal(p.Bundles[0].Publisher.Raw, &pub); err != nil || pub["workflow"] != "release.yml" {
		t.Errorf("publisher raw = %s", p.Bundles[0].Publisher.Raw)
	}
	// The simple index's provenance URL and the integrity endpoint agree.
	for _, f := range s.Files {
		if f.Filename == "acme_mcp_server-1.0.0-py3-none-any.whl" && f.ProvenanceURL != e.srv.URL+"/integrity/acme-mcp-server/1.0.0/acme_mcp_server-1.0.0-py3-none-any.whl/provenance" {
			t.Errorf("provenance URL = %q", f.ProvenanceURL)
		}
	}

	p, err = e.pypi.Provenance(ctx, "acme-mcp-server", "2.0b1", "acme_mcp_server-2.0b1.tar.gz")
	if !errors.Is(err, registry.ErrNotFound) || p.Response.Record.Outcome != vocab.RecordNotFound {
		t.Errorf("no provenance: %v %+v", err, p.Response.Record)
	}
	if _, err := e.pypi.Provenance(ctx, "acme-mcp-server", "1.0.0", "../../x"); !errors.Is(err, registry.ErrInvalidRequest) {
		t.Errorf("traversal filename: %v", err)
	}
}

func TestPyPIDownloadRefused(t *testing.T) {
	e := newEnv(t)
	e.fake.AddPyPI("bad", "1.0", []fakeregistry.PyPIFile{{Filename: "bad-1.0.tar.gz", Content: sdist, WrongDigest: true}}, fakeregistry.PyPIOptions{})
	ctx := context.Background()
	r, err := e.pypi.Release(ctx, "bad", "1.0")
	if err != nil {
		t.Fatal(err)
	}
	f := r.Files[0]
	a, err := e.pypi.Download(ctx, f.URL, f.SHA256())
	var ie *registry.IntegrityError
	if !errors.As(err, &ie) || ie.Algorithm != "sha256" || a.Response.Body != nil ||
		a.Response.Record.Outcome != vocab.RecordIntegrityMismatch || a.Response.Record.SHA256 != vocab.SHA256Hex(sdist) {
		t.Errorf("wrong digest: %v %+v", err, a.Response.Record)
	}
	a, err = e.pypi.Download(ctx, f.URL, "")
	if !errors.As(err, &ie) || a.Response.Record.Outcome != vocab.RecordNoIntegrity {
		t.Errorf("no digest: %v %+v", err, a.Response.Record)
	}
	// A relative file URL resolves against the base.
	a, err = e.pypi.Download(ctx, fakeregistry.PyPIFilePath("bad", "1.0", "bad-1.0.tar.gz"), vocab.SHA256Hex(sdist))
	if err != nil || !bytes.Equal(a.Response.Body, sdist) {
		t.Errorf("relative URL: %v", err)
	}
}

func TestPyPINotFoundAndRetries(t *testing.T) {
	e := newEnv(t)
	addPyPI(e)
	ctx := context.Background()
	r, err := e.pypi.Release(ctx, "acme-mcp-server", "9.9")
	if !errors.Is(err, registry.ErrNotFound) || r.Response.Record.Outcome != vocab.RecordNotFound {
		t.Errorf("missing release: %v %+v", err, r.Response.Record)
	}
	if _, err := e.pypi.Project(ctx, "nothing-here"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("missing project: %v", err)
	}
	e.fake.Inject(fakeregistry.PyPISimplePath("acme-mcp-server"), fakeregistry.Fault{Status: 429, RetryAfter: "3"}, fakeregistry.Fault{Status: 500})
	if _, err := e.pypi.Simple(ctx, "acme-mcp-server"); err != nil {
		t.Fatal(err)
	}
	if got := e.sleep.Waits(); len(got) != 2 || got[0].Seconds() != 3 {
		t.Errorf("waits = %v", got)
	}
	if _, err := e.pypi.Release(ctx, "../etc", "1"); !errors.Is(err, registry.ErrInvalidName) {
		t.Errorf("invalid name: %v", err)
	}
}

func TestPyPISimpleHTMLIsMalformed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html></html>"))
	}))
	defer srv.Close()
	c, _ := registry.NewPyPI(srv.URL, testOptions(&sleeper{}))
	s, err := c.Simple(context.Background(), "x")
	if !errors.Is(err, registry.ErrMalformed) || s.Response.Record.Outcome != vocab.RecordMalformed {
		t.Errorf("err = %v record = %+v", err, s.Response.Record)
	}
}

func TestPyPIHostileJSON(t *testing.T) {
	body := `{"info":{"name":["x"],"author":null,"project_urls":{"a":1,"b":"https://example.test"},"yanked":"yes"},
		"urls":[{"filename":"x.tar.gz","digests":{"sha256":5},"size":-3,"upload_time":"garbage"},"not an object"],
		"releases":{"1.0":[{"filename":7}],"2.0":"nope"}}`
	// One request at a time: the test changes body between requests.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	c, _ := registry.NewPyPI(srv.URL, testOptions(&sleeper{}))
	p, err := c.Project(context.Background(), "x")
	if err != nil {
		t.Fatalf("project: %v", err)
	}
	// releases."2.0" is not a list: that release is dropped, the rest kept.
	if len(p.Releases) != 1 || len(p.Releases["1.0"]) != 1 || p.Info.ProjectURLs["b"] != "https://example.test" {
		t.Errorf("project = %+v", p)
	}
	if p.Info.Yanked || p.Info.Author != "" {
		t.Errorf("info = %+v", p.Info)
	}
	for _, bad := range []string{`[]`, `{"info":null}`, `{"urls":[]}`, `nope`} {
		body = bad
		_, err := c.Project(context.Background(), "x")
		if !errors.Is(err, registry.ErrMalformed) {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
	body = `{"info":{"name":["x"],"project_urls":{"a":1,"b":"https://example.test"}},
		"urls":[{"filename":"x.tar.gz","digests":{"sha256":5},"size":-3,"upload_time":"garbage"},"not an object"]}`
	r, err := c.Release(context.Background(), "x", "1.0")
	if err != nil {
		t.Fatalf("release: %v", err)
	}
	if r.Info.Name != "" || r.Info.ProjectURLs["b"] != "https://example.test" || len(r.Files) != 1 ||
		r.Files[0].SHA256() != "" || r.Files[0].Size != 0 || !r.Files[0].UploadTime.IsZero() {
		t.Errorf("release = %+v", r)
	}
}
