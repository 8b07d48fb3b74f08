package registry_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/vocab"
)

var tgz = []byte("\x1f\x8b synthetic tarball bytes for tests")

func TestPackumentScopedNameAndFields(t *testing.T) {
	e := newEnv(t)
	pub := fakeregistry.Person{Name: "alice", Email: "alice@example.test"}
	e.fake.AddNPM("@acme/mcp-server", "1.0.0", tgz, fakeregistry.NPMOptions{
		Publisher: &pub, Repository: "git+https://example.test/acme/mcp.git", Provenance: true,
	})
	e.fake.AddNPM("@acme/mcp-server", "1.1.0-beta.1", tgz, fakeregistry.NPMOptions{Tags: []string{"next"}})

	p, err := e.npm.Packument(context.Background(), "@acme/mcp-server")
	if err != nil {
		t.Fatal(err)
	}
	// The scope's slash travels encoded, as the npm client sends it.
	reqs := e.fake.Requests()
	if got := reqs[len(reqs)-1].RequestURI; got != "/@acme%2fmcp-server" {
		t.Errorf("request URI = %q, want /@acme%%2fmcp-server", got)
	}
	if p.Name != "@acme/mcp-server" || p.DistTags["latest"] != "1.0.0" || p.DistTags["next"] != "1.1.0-beta.1" {
		t.Errorf("name/tags = %q %v", p.Name, p.DistTags)
	}
	v := p.Versions["1.0.0"]
	if v == nil || v.NPMUser == nil || v.NPMUser.Name != "alice" || v.NPMUser.Email != "alice@example.test" {
		t.Fatalf("version 1.0.0 _npmUser = %+v", v)
	}
	if v.Repository == nil || v.Repository.URL != "git+https://example.test/acme/mcp.git" {
		t.Errorf("repository = %+v", v.Repository)
	}
	if v.Dist.Integrity != fakeregistry.SRI(tgz) || v.Dist.Shasum != fakeregistry.SHA1Hex(tgz) {
		t.Errorf("dist = %+v", v.Dist)
	}
	if v.Dist.Attestations == nil || v.Dist.Attestations.Provenance == nil ||
		v.Dist.Attestations.Provenance.PredicateType != fakeregistry.SLSAProvenanceV1 {
		t.Errorf("dist.attestations = %+v", v.Dist.Attestations)
	}
	if len(p.Maintainers) != 1 || p.Maintainers[0].Name != "alice" {
		t.Errorf("maintainers = %+v", p.Maintainers)
	}
	if !p.Time["1.0.0"].Equal(fakeregistry.Epoch) || p.Time["created"].IsZero() {
		t.Errorf("time = %v", p.Time)
	}
	if got := p.VersionList(); !reflect.DeepEqual(got, []string{"1.0.0", "1.1.0-beta.1"}) {
		t.Errorf("VersionList = %v", got)
	}

	// Raw bytes beside the parsed form, exactly as served.
	want := rawGet(t, e.srv, "/@acme%2fmcp-server", "application/json")
	if !bytes.Equal(p.Response.Body, want) {
		t.Error("Response.Body differs from the bytes served")
	}
	sum := sha256.Sum256(want)
	rec := p.Response.Record
	if rec.SHA256 != hex.EncodeToString(sum[:]) || rec.Kind != vocab.KindNPMPackument ||
		rec.Status != 200 || rec.Outcome != vocab.RecordOK || !rec.FetchedAt.Equal(fixedNow) ||
		rec.URL != e.srv.URL+"/@acme%2fmcp-server" {
		t.Errorf("record = %+v", rec)
	}
	if !strings.Contains(string(v.Raw), `"_npmUser"`) {
		t.Errorf("version Raw = %s", v.Raw)
	}
}

func TestUserAgent(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("pkg", "1.0.0", tgz, fakeregistry.NPMOptions{})
	if _, err := e.npm.Packument(context.Background(), "pkg"); err != nil {
		t.Fatal(err)
	}
	got := e.fake.Requests()[0].UserAgent
	if got != "attestari/1.2.3-test (+supply-chain examination)" {
		t.Errorf("User-Agent = %q", got)
	}
	if registry.UserAgent("") != "attestari/dev (+supply-chain examination)" {
		t.Errorf("default UA = %q", registry.UserAgent(""))
	}
}

func TestVersionManifest(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("@s/p", "2.0.0", tgz, fakeregistry.NPMOptions{Dependencies: map[string]string{"other": "^1.0.0"}})
	d, err := e.npm.Version(context.Background(), "@s/p", "2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if d.Manifest.Version != "2.0.0" || d.Manifest.Dist.Integrity != fakeregistry.SRI(tgz) {
		t.Errorf("manifest = %+v", d.Manifest)
	}
	if d.Response.Record.Kind != vocab.KindNPMVersion {
		t.Errorf("kind = %q", d.Response.Record.Kind)
	}
	if got := e.fake.Requests()[0].RequestURI; got != "/@s%2fp/2.0.0" {
		t.Errorf("request URI = %q", got)
	}
}

func TestTarballVerifiedSHA512(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("@s/p", "1.0.0", tgz, fakeregistry.NPMOptions{})
	p, err := e.npm.Packument(context.Background(), "@s/p")
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.npm.Tarball(context.Background(), p.Versions["1.0.0"])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Response.Body, tgz) || a.Algorithm != "sha512" ||
		a.Response.Record.Outcome != vocab.RecordOK || a.Response.Record.Kind != vocab.KindNPMTarball {
		t.Errorf("artifact = %q %+v", a.Algorithm, a.Response.Record)
	}
}

func TestTarballIntegrityMismatchRefused(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("pkg", "1.0.0", tgz, fakeregistry.NPMOptions{WrongIntegrity: true})
	p, err := e.npm.Packument(context.Background(), "pkg")
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.npm.Tarball(context.Background(), p.Versions["1.0.0"])
	var ie *registry.IntegrityError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want *IntegrityError", err)
	}
	if ie.Algorithm != "sha512" || ie.Expected == ie.Actual || ie.Reason == "" {
		t.Errorf("integrity error = %+v", ie)
	}
	rec := a.Response.Record
	if a.Response.Body != nil || rec.Outcome != vocab.RecordIntegrityMismatch || rec.Error == "" {
		t.Errorf("refused artifact: body %d bytes, record %+v", len(a.Response.Body), rec)
	}
	sum := sha256.Sum256(tgz)
	if rec.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("record keeps the received bytes' hash: %q", rec.SHA256)
	}
	// A mismatch is final: no retry.
	if n := e.fake.Count(fakeregistry.NPMTarballPath("pkg", "1.0.0")); n != 1 {
		t.Errorf("tarball fetched %d times", n)
	}
}

func TestTarballSHA1FallbackOnlyWithoutIntegrity(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("legacy", "0.1.0", tgz, fakeregistry.NPMOptions{OmitIntegrity: true})
	e.fake.AddNPM("legacy-bad", "0.1.0", tgz, fakeregistry.NPMOptions{OmitIntegrity: true, WrongIntegrity: true})
	e.fake.AddNPM("nohash", "0.1.0", tgz, fakeregistry.NPMOptions{OmitIntegrity: true, OmitShasum: true})
	// Integrity present but shasum wrong: the shasum is never consulted.
	e.fake.AddNPM("garbage", "0.1.0", tgz, fakeregistry.NPMOptions{Integrity: "md5-AAAA"})
	ctx := context.Background()
	get := func(name string) (*registry.Artifact, error) {
		p, err := e.npm.Packument(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return e.npm.Tarball(ctx, p.Versions["0.1.0"])
	}

	a, err := get("legacy")
	if err != nil || a.Algorithm != "sha1" || a.Response.Record.Outcome != vocab.RecordOKSHA1Only || !a.Response.Ok() {
		t.Errorf("legacy: %v %q %+v", err, a.Algorithm, a.Response.Record)
	}
	var ie *registry.IntegrityError
	a, err = get("legacy-bad")
	if !errors.As(err, &ie) || ie.Algorithm != "sha1" || a.Response.Record.Outcome != vocab.RecordIntegrityMismatch {
		t.Errorf("legacy-bad: %v %+v", err, a.Response.Record)
	}
	a, err = get("nohash")
	if !errors.As(err, &ie) || a.Response.Record.Outcome != vocab.RecordNoIntegrity || a.Response.Body != nil {
		t.Errorf("nohash: %v %+v", err, a.Response.Record)
	}
	a, err = get("garbage")
	if !errors.As(err, &ie) || a.Response.Record.Outcome != vocab.RecordNoIntegrity {
		t.Errorf("garbage integrity: %v %+v", err, a.Response.Record)
	}
}

func TestAttestationsRaw(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("@s/p", "1.0.0", tgz, fakeregistry.NPMOptions{Provenance: true})
	e.fake.AddNPM("@s/p", "1.0.1", tgz, fakeregistry.NPMOptions{})
	ctx := context.Background()
	a, err := e.npm.Attestations(ctx, "@s/p", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if got := a.PredicateTypes(); !reflect.DeepEqual(got, []string{fakeregistry.SLSAProvenanceV1}) {
		t.Errorf("predicate types = %v", got)
	}
	if !bytes.Equal(a.Response.Body, rawGet(t, e.srv, "/-/npm/v1/attestations/@s%2fp@1.0.0", "")) {
		t.Error("attestations body differs from the bytes served")
	}
	if got := e.fake.Requests()[0].RequestURI; got != "/-/npm/v1/attestations/@s%2fp@1.0.0" {
		t.Errorf("request URI = %q", got)
	}
	// No attestations: a recorded not-found outcome.
	a, err = e.npm.Attestations(ctx, "@s/p", "1.0.1")
	if !errors.Is(err, registry.ErrNotFound) || a.Response.Record.Outcome != vocab.RecordNotFound ||
		a.Response.Record.Kind != vocab.KindNPMAttestations {
		t.Errorf("no attestations: %v %+v", err, a.Response.Record)
	}
}

func TestNotFoundAndGone(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("gone", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject(fakeregistry.NPMPackumentPath("gone"), fakeregistry.Fault{Status: 410})
	ctx := context.Background()
	for _, name := range []string{"missing", "gone"} {
		p, err := e.npm.Packument(ctx, name)
		if !errors.Is(err, registry.ErrNotFound) {
			t.Errorf("%s: err = %v, want ErrNotFound", name, err)
		}
		var se *registry.StatusError
		if !errors.As(err, &se) || se.Attempts != 1 {
			t.Errorf("%s: status error = %+v", name, se)
		}
		if p == nil || p.Response.Record.Outcome != vocab.RecordNotFound || p.Response.Record.Error == "" {
			t.Errorf("%s: record = %+v", name, p.Response.Record)
		}
	}
	if w := e.sleep.Waits(); len(w) != 0 {
		t.Errorf("not-found was retried: waits %v", w)
	}
}

func TestRetry5xxWithBackoff(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("flaky", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject(fakeregistry.NPMPackumentPath("flaky"),
		fakeregistry.Fault{Status: 500, Times: 2}, fakeregistry.Fault{Status: 503})
	p, err := e.npm.Packument(context.Background(), "flaky")
	if err != nil {
		t.Fatal(err)
	}
	// Full jitter at 0.5 over 100ms·2^(n-1).
	want := []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}
	if got := e.sleep.Waits(); !reflect.DeepEqual(got, want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
	if p.Response.Record.Outcome != vocab.RecordOK || p.Response.Record.Status != 200 {
		t.Errorf("record = %+v", p.Response.Record)
	}
}

func TestRetriesExhausted(t *testing.T) {
	e := newEnv(t, func(o *registry.Options) { o.MaxAttempts = 3 })
	e.fake.AddNPM("down", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject(fakeregistry.NPMPackumentPath("down"), fakeregistry.Fault{Status: 502, Times: -1})
	p, err := e.npm.Packument(context.Background(), "down")
	var se *registry.StatusError
	if !errors.As(err, &se) || se.Status != 502 || se.Attempts != 3 || errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if got := e.fake.Count("/down"); got != 3 {
		t.Errorf("attempts = %d", got)
	}
	if got := len(e.sleep.Waits()); got != 2 {
		t.Errorf("waits = %d", got)
	}
	if p.Response.Record.Outcome != vocab.RecordHTTPError || p.Response.Record.Status != 502 {
		t.Errorf("record = %+v", p.Response.Record)
	}
}

func TestBackoffCapped(t *testing.T) {
	e := newEnv(t, func(o *registry.Options) { o.MaxAttempts = 7 })
	e.fake.AddNPM("down", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject("/down", fakeregistry.Fault{Status: 500, Times: -1})
	_, _ = e.npm.Packument(context.Background(), "down")
	// 100ms·2^(n-1) reaches the 1s cap at n=5; jitter halves it.
	want := []time.Duration{50, 100, 200, 400, 500, 500}
	got := e.sleep.Waits()
	if len(got) != len(want) {
		t.Fatalf("waits = %v", got)
	}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Errorf("wait %d = %v, want %v", i, got[i], want[i]*time.Millisecond)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		name, header string
		want         time.Duration
	}{
		{"seconds", "7", 7 * time.Second},
		{"http date", fixedNow.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{"capped", "3600", 2 * time.Minute},
		{"past date falls back to backoff", fixedNow.Add(-time.Hour).Format(http.TimeFormat), 50 * time.Millisecond},
		{"garbage falls back to backoff", "soon", 50 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, func(o *registry.Options) { o.MaxRetryAfter = 2 * time.Minute })
			e.fake.AddNPM("busy", "1.0.0", tgz, fakeregistry.NPMOptions{})
			e.fake.Inject("/busy", fakeregistry.Fault{Status: 429, RetryAfter: c.header})
			if _, err := e.npm.Packument(context.Background(), "busy"); err != nil {
				t.Fatal(err)
			}
			if got := e.sleep.Waits(); len(got) != 1 || got[0] != c.want {
				t.Errorf("waits = %v, want [%v]", got, c.want)
			}
		})
	}
}

func TestRetryAfterBeyondOverallDeadlineStops(t *testing.T) {
	e := newEnv(t, func(o *registry.Options) { o.OverallTimeout = time.Second })
	e.fake.AddNPM("busy", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject("/busy", fakeregistry.Fault{Status: 429, RetryAfter: "30"})
	p, err := e.npm.Packument(context.Background(), "busy")
	var se *registry.StatusError
	if !errors.As(err, &se) || se.Status != 429 {
		t.Fatalf("err = %v", err)
	}
	if w := e.sleep.Waits(); len(w) != 0 {
		t.Errorf("waited %v past the overall deadline", w)
	}
	if p.Response.Record.Outcome != vocab.RecordHTTPError {
		t.Errorf("record = %+v", p.Response.Record)
	}
}

func TestTruncatedBodyRetried(t *testing.T) {
	e := newEnv(t)
	e.fake.AddNPM("pkg", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject(fakeregistry.NPMTarballPath("pkg", "1.0.0"), fakeregistry.Fault{Truncate: true})
	p, err := e.npm.Packument(context.Background(), "pkg")
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.npm.Tarball(context.Background(), p.Versions["1.0.0"])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Response.Body, tgz) || len(e.sleep.Waits()) != 1 {
		t.Errorf("body %d bytes after waits %v", len(a.Response.Body), e.sleep.Waits())
	}
}

func TestTruncatedEveryTimeIsNetworkError(t *testing.T) {
	e := newEnv(t, func(o *registry.Options) { o.MaxAttempts = 2 })
	e.fake.AddNPM("pkg", "1.0.0", tgz, fakeregistry.NPMOptions{})
	e.fake.Inject("/pkg", fakeregistry.Fault{Truncate: true, Times: -1})
	p, err := e.npm.Packument(context.Background(), "pkg")
	if err == nil || p.Response.Record.Outcome != vocab.RecordNetworkError || p.Response.Body != nil {
		t.Errorf("err = %v, record = %+v", err, p.Response.Record)
	}
}

func TestNetworkErrorRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	s := &sleeper{}
	o := testOptions(s)
	o.MaxAttempts = 3
	c, err := registry.NewNPM(url, o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Packument(context.Background(), "pkg")
	if err == nil || p.Response.Record.Outcome != vocab.RecordNetworkError || p.Response.Record.Status != 0 {
		t.Errorf("err = %v record = %+v", err, p.Response.Record)
	}
	if len(s.Waits()) != 2 {
		t.Errorf("waits = %v", s.Waits())
	}
}

func TestPerRequestTimeoutRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			<-r.Context().Done() // hang until the client gives up
			return
		}
		_, _ = w.Write([]byte(`{"name":"pkg"}`))
	}))
	defer srv.Close()
	s := &sleeper{}
	o := testOptions(s)
	o.RequestTimeout = 50 * time.Millisecond
	c, _ := registry.NewNPM(srv.URL, o)
	p, err := c.Packument(context.Background(), "pkg")
	if err != nil || p.Name != "pkg" || len(s.Waits()) != 1 {
		t.Errorf("err = %v name = %q waits = %v", err, p.Name, s.Waits())
	}
}

func TestCanceledContextNotRetried(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, err := e.npm.Packument(ctx, "pkg")
	if !errors.Is(err, context.Canceled) || p.Response.Record.Outcome != vocab.RecordCanceled {
		t.Errorf("err = %v record = %+v", err, p.Response.Record)
	}
	if len(e.sleep.Waits()) != 0 {
		t.Errorf("waits = %v", e.sleep.Waits())
	}
}

func TestSizeCap(t *testing.T) {
	e := newEnv(t, func(o *registry.Options) { o.MaxArtifactBytes = 10 })
	e.fake.AddNPM("big", "1.0.0", tgz, fakeregistry.NPMOptions{})
	p, err := e.npm.Packument(context.Background(), "big")
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.npm.Tarball(context.Background(), p.Versions["1.0.0"])
	if !errors.Is(err, registry.ErrTooLarge) || a.Response.Record.Outcome != vocab.RecordTooLarge || a.Response.Body != nil {
		t.Errorf("err = %v record = %+v", err, a.Response.Record)
	}
	if len(e.sleep.Waits()) != 0 {
		t.Error("too-large was retried")
	}
}

func TestSizeCapWithoutContentLength(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush() // chunked: no Content-Length
		_, _ = w.Write(bytes.Repeat([]byte("x"), 4096))
	}))
	defer srv.Close()
	o := testOptions(&sleeper{})
	o.MaxDocumentBytes = 100
	c, _ := registry.NewNPM(srv.URL, o)
	_, err := c.Packument(context.Background(), "pkg")
	if !errors.Is(err, registry.ErrTooLarge) {
		t.Errorf("err = %v", err)
	}
}

func TestInvalidNamesNeverRequested(t *testing.T) {
	e := newEnv(t)
	for _, name := range []string{"", "../etc/passwd", "a/b", "@scope", "@/x", "with space", ".hidden", "_under", "@s/p/q", strings.Repeat("a", 215)} {
		p, err := e.npm.Packument(context.Background(), name)
		if !errors.Is(err, registry.ErrInvalidName) || p.Response.Record.Outcome != vocab.RecordInvalidRequest {
			t.Errorf("%q: err = %v record = %+v", name, err, p.Response.Record)
		}
	}
	if _, err := e.npm.Version(context.Background(), "ok", "../x"); !errors.Is(err, registry.ErrInvalidRequest) {
		t.Errorf("bad version: %v", err)
	}
	if n := len(e.fake.Requests()); n != 0 {
		t.Errorf("%d requests sent for invalid names", n)
	}
}

func TestMalformedAndHostilePackuments(t *testing.T) {
	bodies := map[string]string{
		"/notjson": `<html>`,
		"/array":   `[1,2]`,
		"/hostile": `{"name":7,"dist-tags":{"latest":"1.0.0","x":3},"maintainers":"Bob <bob@example.test> (https://example.test)",
			"repository":"owner/repo","time":{"created":"2020-01-01T00:00:00.000Z","1.0.0":5,"bad":"yesterday","unpublished":{"time":"x"}},
			"versions":{"1.0.0":{"name":"hostile","version":"1.0.0","_npmUser":"Eve <eve@example.test>","maintainers":[{"name":1},"Al"],
			"repository":{"url":["x"]},"dist":{"tarball":"t.tgz","integrity":"sha512-x","fileCount":"many"},"deprecated":true},
			"2.0.0":"not an object"}}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(b))
	}))
	defer srv.Close()
	c, _ := registry.NewNPM(srv.URL, testOptions(&sleeper{}))
	ctx := context.Background()
	for _, name := range []string{"notjson", "array"} {
		p, err := c.Packument(ctx, name)
		if !errors.Is(err, registry.ErrMalformed) || p.Response.Record.Outcome != vocab.RecordMalformed {
			t.Errorf("%s: err = %v record = %+v", name, err, p.Response.Record)
		}
		if string(p.Response.Body) != bodies["/"+name] {
			t.Errorf("%s: malformed body not kept for the record", name)
		}
	}
	p, err := c.Packument(ctx, "hostile")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Unpublished || len(p.Problems) == 0 || p.DistTags["latest"] != "1.0.0" {
		t.Errorf("unpublished=%v problems=%v tags=%v", p.Unpublished, p.Problems, p.DistTags)
	}
	if len(p.Maintainers) != 1 || p.Maintainers[0] != (registry.Person{Name: "Bob", Email: "bob@example.test", URL: "https://example.test"}) {
		t.Errorf("maintainers = %+v", p.Maintainers)
	}
	if p.Repository == nil || p.Repository.URL != "owner/repo" {
		t.Errorf("repository = %+v", p.Repository)
	}
	v := p.Versions["1.0.0"]
	if v == nil || v.NPMUser == nil || v.NPMUser.Email != "eve@example.test" || v.Deprecated != "true" {
		t.Fatalf("version = %+v", v)
	}
	if v.Dist.Integrity != "sha512-x" || v.Dist.Tarball != "t.tgz" {
		t.Errorf("dist salvaged = %+v", v.Dist)
	}
	if len(v.Maintainers) != 2 || v.Maintainers[1].Name != "Al" {
		t.Errorf("version maintainers = %+v", v.Maintainers)
	}
	if _, ok := p.Versions["2.0.0"]; ok {
		t.Error("a non-object version was kept")
	}
	// A relative tarball URL resolves against the registry.
	a, err := c.Tarball(ctx, v)
	if !errors.Is(err, registry.ErrNotFound) || a.Response.Record.URL != srv.URL+"/t.tgz" {
		t.Errorf("relative tarball: %v %+v", err, a.Response.Record)
	}
}

func TestTarballURLMustBeHTTP(t *testing.T) {
	e := newEnv(t)
	for _, u := range []string{"file:///etc/passwd", "ftp://example.test/x.tgz", ""} {
		a, err := e.npm.Tarball(context.Background(), &registry.VersionManifest{Name: "x", Version: "1", Dist: registry.Dist{Tarball: u}})
		if err == nil || a.Response.Record.Outcome == vocab.RecordOK {
			t.Errorf("%q: err = %v record = %+v", u, err, a.Response.Record)
		}
	}
	if _, err := e.npm.Tarball(context.Background(), nil); err == nil {
		t.Error("nil manifest accepted")
	}
}

func TestBaseURLWithPathAndCredentialsRedacted(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.RequestURI
		http.NotFound(w, r)
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "http://user:secret@", 1) + "/proxy/npm/"
	c, err := registry.NewNPM(base, testOptions(&sleeper{}))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Packument(context.Background(), "@a/b")
	if got != "/proxy/npm/@a%2fb" {
		t.Errorf("request URI = %q", got)
	}
	if strings.Contains(p.Response.Record.URL, "secret") || strings.Contains(p.Response.Record.Error, "secret") {
		t.Errorf("password leaked into record: %+v", p.Response.Record)
	}
	if _, err := registry.NewNPM("not a url", registry.Options{}); !errors.Is(err, registry.ErrNotConfigured) {
		t.Errorf("bad base: %v", err)
	}
}
