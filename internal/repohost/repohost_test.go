package repohost_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/repohost/fakehost"
	"github.com/attestari/attestari/internal/vocab"
)

// webHost is the web host the tests treat the fake as serving; it is a
// reserved example name, not a real service.
const webHost = "code.example"

func TestParseRepositoryURL(t *testing.T) {
	cases := []struct {
		in   string
		want repohost.Ref
		err  bool
	}{
		{in: "git+https://code.example/acme/tool.git", want: repohost.Ref{Host: "code.example", Owner: "acme", Name: "tool"}},
		{in: "https://Code.Example/acme/tool/tree/main/packages/x", want: repohost.Ref{Host: "code.example", Owner: "acme", Name: "tool"}},
		{in: "git://code.example/acme/tool.git#v1.2.3", want: repohost.Ref{Host: "code.example", Owner: "acme", Name: "tool"}},
		{in: "ssh://git@code.example/acme/tool.git", want: repohost.Ref{Host: "code.example", Owner: "acme", Name: "tool"}},
		{in: "git+ssh://git@code.example:acme/tool.git", want: repohost.Ref{Host: "code.example", Owner: "acme", Name: "tool"}},
		{in: "git@code.example:acme/tool.git", want: repohost.Ref{Host: "code.example", Owner: "acme", Name: "tool"}},
		{in: "github:acme/tool", want: repohost.Ref{Owner: "acme", Name: "tool", Shorthand: "github"}},
		{in: "gitlab:acme/tool", want: repohost.Ref{Owner: "acme", Name: "tool", Shorthand: "gitlab"}},
		{in: "acme/tool", want: repohost.Ref{Owner: "acme", Name: "tool", Shorthand: "github"}},
		{in: "https://code.example:8443/acme/tool", want: repohost.Ref{Host: "code.example:8443", Owner: "acme", Name: "tool"}},
		{in: "", err: true},
		{in: "https://code.example/", err: true},
		{in: "https://code.example/acme", err: true},
		{in: "file:///tmp/acme/tool", err: true},
		{in: "javascript:alert(1)", err: true},
		{in: "https://code.example/acme/..", err: true},
		{in: "a/b/c", err: true},
		{in: "github:acme/tool/extra", err: true},
	}
	for _, c := range cases {
		got, err := repohost.ParseRepositoryURL(c.in)
		if c.err {
			if !errors.Is(err, repohost.ErrNotARepository) {
				t.Errorf("%q: err = %v, want ErrNotARepository", c.in, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func FuzzParseRepositoryURL(f *testing.F) {
	for _, s := range []string{"git+https://h.example/o/r.git", "git@h.example:o/r", "github:o/r", "o/r", "ssh://x@h.example/o/r", "%", "https://[::1]/o/r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := repohost.ParseRepositoryURL(s)
		if err != nil {
			if !errors.Is(err, repohost.ErrNotARepository) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if r.Owner == "" || r.Name == "" || strings.ContainsAny(r.Owner+r.Name, "/\\?#%") {
			t.Fatalf("%q parsed to %+v", s, r)
		}
	})
}

type env struct {
	fake  *fakehost.Fake
	srv   *httptest.Server
	c     *repohost.Client
	now   time.Time
	slept []time.Duration
}

func newEnv(t *testing.T, token string) *env {
	t.Helper()
	e := &env{fake: fakehost.New(), now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	e.fake.WebBase = "https://" + webHost
	e.srv = httptest.NewServer(e.fake)
	t.Cleanup(e.srv.Close)
	c, err := repohost.New(repohost.Config{APIURL: e.srv.URL, Token: token, WebHost: webHost, Shorthand: true}, repohost.Options{
		Now:    func() time.Time { return e.now },
		Sleep:  func(ctx context.Context, d time.Duration) error { e.slept = append(e.slept, d); return ctx.Err() },
		Jitter: func() float64 { return 0.5 },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.c = c
	return e
}

func TestLookupReadsRepositoryOwnerAndCommit(t *testing.T) {
	e := newEnv(t, "s3cret")
	e.fake.RequireToken("s3cret")
	created := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	e.fake.AddRepo(fakehost.Repo{Owner: "acme", Name: "tool", CreatedAt: created, DefaultBranch: "trunk", Archived: true, Parent: "up/tool"})
	e.fake.AddAccount(fakehost.Account{Login: "acme", Type: "Organization", CreatedAt: created.AddDate(0, -2, 0)})
	e.fake.SetCommit("acme", "tool", "trunk", fakehost.Commit{SHA: "abc123", Verified: false})

	ref, _ := repohost.ParseRepositoryURL("github:acme/tool")
	l, err := e.c.Lookup(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if l.Ref.Host != webHost {
		t.Errorf("shorthand not resolved: %+v", l.Ref)
	}
	r := l.Repository
	if !r.Response.Ok() || r.FullName != "acme/tool" || r.OwnerLogin != "acme" || r.DefaultBranch != "trunk" || !r.Archived || !r.Fork || r.ParentFullName != "up/tool" || !r.CreatedAt.Equal(created) {
		t.Errorf("repository = %+v", r)
	}
	if l.Owner == nil || l.Owner.Type != "Organization" || !l.Owner.CreatedAt.Equal(created.AddDate(0, -2, 0)) {
		t.Errorf("owner = %+v", l.Owner)
	}
	if l.Commit == nil || l.Commit.SHA != "abc123" || l.Commit.Verified || l.Commit.Signed || l.Commit.Reason != "unsigned" || !l.Commit.HasVerification {
		t.Errorf("commit = %+v", l.Commit)
	}
	resps := l.Responses()
	if len(resps) != 3 || resps[0].Record.Kind != vocab.KindRepository || resps[1].Record.Kind != vocab.KindRepositoryOwner || resps[2].Record.Kind != vocab.KindRepositoryCommit {
		t.Fatalf("responses = %+v", resps)
	}
	for _, rs := range resps {
		if rs.Record.SHA256 == "" || rs.Body == nil || strings.Contains(rs.Record.URL+rs.Record.Error, "s3cret") {
			t.Errorf("record %+v", rs.Record)
		}
	}
	for _, q := range e.fake.Requests() {
		if q.Authorization != "Bearer s3cret" || !strings.Contains(q.Accept, "json") {
			t.Errorf("request %+v", q)
		}
	}
}

func TestSignedCommit(t *testing.T) {
	e := newEnv(t, "")
	e.fake.AddRepo(fakehost.Repo{Owner: "o", Name: "r", CreatedAt: e.now})
	e.fake.SetCommit("o", "r", "main", fakehost.Commit{SHA: "1", Verified: false, Reason: "unknown_key", Signature: "-----BEGIN PGP SIGNATURE-----"})
	c, err := e.c.LatestCommit(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"}, "main")
	if err != nil || !c.Signed || c.Verified || c.Reason != "unknown_key" {
		t.Fatalf("commit = %+v, %v", c, err)
	}
}

func TestNotFoundIsAnOutcome(t *testing.T) {
	e := newEnv(t, "")
	l, err := e.c.Lookup(context.Background(), repohost.Ref{Host: webHost, Owner: "gone", Name: "away"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Repository.Response.Record.Outcome != vocab.RecordNotFound || l.Repository.Response.Record.Status != 404 || l.Owner != nil || l.Commit != nil {
		t.Fatalf("lookup = %+v", l.Repository.Response.Record)
	}
	if len(l.Responses()) != 1 {
		t.Fatal("a failed repository fetch must not be followed by owner or commit fetches")
	}
}

func TestRetriesTransientFailures(t *testing.T) {
	e := newEnv(t, "")
	e.fake.AddRepo(fakehost.Repo{Owner: "o", Name: "r", CreatedAt: e.now})
	e.fake.Inject("/repos/o/r", fakehost.Fault{Status: 502, Times: 2})
	r, err := e.c.Repository(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"})
	if err != nil || !r.Response.Ok() {
		t.Fatalf("%v %+v", err, r.Response.Record)
	}
	if len(e.slept) != 2 {
		t.Fatalf("slept %v, want two backoffs", e.slept)
	}
}

func TestRateLimitBeyondCapIsRecordedNotWaited(t *testing.T) {
	e := newEnv(t, "")
	e.fake.AddRepo(fakehost.Repo{Owner: "o", Name: "r", CreatedAt: e.now})
	e.fake.Inject("/repos/o/r", fakehost.Fault{Status: 403, RateLimited: true, Reset: e.now.Add(2 * time.Hour), Times: -1})
	r, err := e.c.Repository(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"})
	if err == nil || r.Response.Record.Outcome != vocab.RecordHTTPError || r.Response.Record.Status != 403 {
		t.Fatalf("%v %+v", err, r.Response.Record)
	}
	if len(e.slept) != 0 {
		t.Fatalf("waited %v for a reset beyond the cap", e.slept)
	}
}

func TestRateLimitWithinCapIsWaited(t *testing.T) {
	e := newEnv(t, "")
	e.fake.AddRepo(fakehost.Repo{Owner: "o", Name: "r", CreatedAt: e.now})
	e.fake.Inject("/repos/o/r", fakehost.Fault{Status: 429, RetryAfter: "7"})
	r, err := e.c.Repository(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"})
	if err != nil || !r.Response.Ok() || len(e.slept) != 1 || e.slept[0] != 7*time.Second {
		t.Fatalf("%v %+v slept %v", err, r.Response.Record, e.slept)
	}
}

func TestPlain403IsNotRetried(t *testing.T) {
	e := newEnv(t, "")
	e.fake.Inject("/repos/o/r", fakehost.Fault{Status: 403, Times: -1})
	r, _ := e.c.Repository(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"})
	if r.Response.Record.Outcome != vocab.RecordHTTPError || len(e.slept) != 0 || len(e.fake.Requests()) != 1 {
		t.Fatalf("%+v slept %v", r.Response.Record, e.slept)
	}
}

func TestUnreachableHostIsAnOutcome(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, err := repohost.New(repohost.Config{APIURL: url, WebHost: webHost}, repohost.Options{
		MaxAttempts: 2, Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.Lookup(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Repository.Response.Record.Outcome != vocab.RecordNetworkError || l.Repository.Response.Body != nil {
		t.Fatalf("%+v", l.Repository.Response.Record)
	}
}

func TestOtherHostIsNotQueried(t *testing.T) {
	e := newEnv(t, "")
	for _, raw := range []string{"https://elsewhere.example/o/r", "gitlab:o/r"} {
		ref, err := repohost.ParseRepositoryURL(raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := e.c.Resolve(ref); ok {
			t.Fatalf("%s resolved as served", raw)
		}
		l, err := e.c.Lookup(context.Background(), ref)
		if err != nil || l.Repository.Response.Record.Outcome != vocab.RecordInvalidRequest {
			t.Fatalf("%s: %v %+v", raw, err, l.Repository.Response.Record)
		}
	}
	if n := len(e.fake.Requests()); n != 0 {
		t.Fatalf("%d requests to the host for repositories it does not serve", n)
	}
}

func TestMalformedBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>")) }))
	defer srv.Close()
	c, _ := repohost.New(repohost.Config{APIURL: srv.URL, WebHost: webHost}, repohost.Options{})
	r, err := c.Repository(context.Background(), repohost.Ref{Host: webHost, Owner: "o", Name: "r"})
	if !errors.Is(err, registry.ErrMalformed) || r.Response.Record.Outcome != vocab.RecordMalformed || r.Response.Record.SHA256 == "" {
		t.Fatalf("%v %+v", err, r.Response.Record)
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv(repohost.EnvAPIURL, "")
	if _, err := repohost.ConfigFromEnv(); !errors.Is(err, repohost.ErrNotConfigured) {
		t.Fatalf("unset: %v", err)
	}
	t.Setenv(repohost.EnvAPIURL, "https://api.code.example")
	t.Setenv(repohost.EnvToken, "tok")
	cfg, err := repohost.ConfigFromEnv()
	if err != nil || !cfg.Shorthand || cfg.Token != "tok" {
		t.Fatalf("%+v %v", cfg, err)
	}
	c, _ := repohost.New(cfg, repohost.Options{})
	if c.WebHost() != "code.example" {
		t.Fatalf("web host %q", c.WebHost())
	}
	t.Setenv(repohost.EnvAPIURL, "https://ghe.example/api/v3")
	cfg, _ = repohost.ConfigFromEnv()
	c, _ = repohost.New(cfg, repohost.Options{})
	if cfg.Shorthand || c.WebHost() != "ghe.example" {
		t.Fatalf("enterprise layout: %+v %q", cfg, c.WebHost())
	}
	if _, err := repohost.New(repohost.Config{APIURL: "ftp://x"}, repohost.Options{}); !errors.Is(err, repohost.ErrNotConfigured) {
		t.Fatalf("bad URL accepted: %v", err)
	}
}
