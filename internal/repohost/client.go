package repohost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/httpretry"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/vocab"
)

// Environment variables that configure the host. Nothing else in the
// project names a code host.
const (
	EnvAPIURL    = "ATTESTARI_GITHUB_API_URL"
	EnvToken     = "ATTESTARI_GITHUB_TOKEN"
	EnvWebHost   = "ATTESTARI_GITHUB_WEB_HOST"
	EnvShorthand = "ATTESTARI_GITHUB_SHORTHAND"
)

// ErrNotConfigured: no API base URL in the configuration.
var ErrNotConfigured = errors.New("repohost: API base URL not configured")

// ErrNotServed: the repository is on a host this client does not serve.
var ErrNotServed = errors.New("repohost: repository is not on the configured host")

// Config says which host to talk to.
type Config struct {
	// APIURL is the REST API base (the public service's API host, or an
	// Enterprise server's https://host/api/v3).
	APIURL string
	// Token is sent as a bearer token when set; it never reaches a Record.
	Token string
	// WebHost is the host repository URLs name (as in package metadata).
	// Empty derives it from APIURL: a host "api.X" serves X; any other host
	// serves itself (the Enterprise layout).
	WebHost string
	// Shorthand says whether "github:owner/repo" and the bare "owner/repo"
	// name repositories on this host. ConfigFromEnv sets it when APIURL has
	// the public service's layout (an "api." host with no path), or from
	// $ATTESTARI_GITHUB_SHORTHAND.
	Shorthand bool
}

// ConfigFromEnv reads $ATTESTARI_GITHUB_API_URL, $ATTESTARI_GITHUB_TOKEN,
// $ATTESTARI_GITHUB_WEB_HOST and $ATTESTARI_GITHUB_SHORTHAND. An unset API
// URL is ErrNotConfigured: the caller then records every repository as not
// looked up, which the provenance check reads as an input it lacks.
func ConfigFromEnv() (Config, error) {
	c := Config{
		APIURL:  strings.TrimSpace(os.Getenv(EnvAPIURL)),
		Token:   strings.TrimSpace(os.Getenv(EnvToken)),
		WebHost: strings.TrimSpace(os.Getenv(EnvWebHost)),
	}
	if c.APIURL == "" {
		return c, fmt.Errorf("repohost.ConfigFromEnv: %w: $%s is unset", ErrNotConfigured, EnvAPIURL)
	}
	u, err := url.Parse(c.APIURL)
	if err != nil {
		return c, fmt.Errorf("repohost.ConfigFromEnv: %w: $%s: %v", ErrNotConfigured, EnvAPIURL, err)
	}
	c.Shorthand = strings.HasPrefix(strings.ToLower(u.Hostname()), "api.") && strings.Trim(u.Path, "/") == ""
	if v := strings.TrimSpace(os.Getenv(EnvShorthand)); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("repohost.ConfigFromEnv: $%s=%q: %w", EnvShorthand, v, err)
		}
		c.Shorthand = b
	}
	return c, nil
}

// Defaults for Options fields left zero.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultOverallTimeout = 2 * time.Minute
	DefaultMaxAttempts    = httpretry.DefaultMaxAttempts // 4
	DefaultBaseBackoff    = httpretry.DefaultBaseBackoff // 500 ms
	DefaultMaxBackoff     = 20 * time.Second
	DefaultMaxRetryAfter  = httpretry.DefaultMaxRetryAfter // 60 s
	DefaultMaxBodyBytes   = 4 << 20
)

// Options tunes timeouts and retries, as registry.Options does; the zero
// value is usable. Now, Sleep and Jitter let tests run backoff instantly.
type Options struct {
	Version        string
	HTTPClient     *http.Client
	RequestTimeout time.Duration
	OverallTimeout time.Duration
	MaxAttempts    int
	BaseBackoff    time.Duration
	MaxBackoff     time.Duration
	MaxRetryAfter  time.Duration
	MaxBodyBytes   int64
	Now            func() time.Time
	Sleep          func(ctx context.Context, d time.Duration) error
	Jitter         func() float64
}

// withDefaults fills the fields whose defaults are this package's own (and
// Now, which it reads itself); the rest are httpretry's, which equal the
// constants above.
func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.RequestTimeout, DefaultRequestTimeout)
	def(&o.OverallTimeout, DefaultOverallTimeout)
	def(&o.MaxBackoff, DefaultMaxBackoff)
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Client talks to one host's REST API.
type Client struct {
	base      string
	token     string
	webHost   string
	shorthand bool
	o         Options
	http      *httpretry.Client
}

// New returns a client for cfg.
func New(cfg Config, opts Options) (*Client, error) {
	raw := strings.TrimSpace(cfg.APIURL)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("repohost.New: %w: API URL is not an absolute http(s) URL without query or credentials", ErrNotConfigured)
	}
	web := strings.ToLower(strings.TrimSpace(cfg.WebHost))
	if web == "" {
		h := strings.ToLower(u.Host)
		web = strings.TrimPrefix(h, "api.")
	}
	o := opts.withDefaults()
	hc := httpretry.New(httpretry.Options{
		Policy: httpretry.Policy{
			MaxAttempts:   o.MaxAttempts,
			BaseBackoff:   o.BaseBackoff,
			MaxBackoff:    o.MaxBackoff,
			Jitter:        o.Jitter,
			MaxRetryAfter: o.MaxRetryAfter,
			// A rate-limit window longer than we wait for is recorded now.
			GiveUpBeyondCap: true,
			Sleep:           o.Sleep,
		},
		HTTPClient:     o.HTTPClient,
		UserAgent:      registry.UserAgent(o.Version),
		RequestTimeout: o.RequestTimeout,
		OverallTimeout: o.OverallTimeout,
		MaxBodyBytes:   o.MaxBodyBytes,
		ErrTooLarge:    registry.ErrTooLarge,
		Now:            o.Now,
		Classify:       classifyStatus,
	})
	return &Client{base: strings.TrimRight(raw, "/"), token: cfg.Token, webHost: web, shorthand: cfg.Shorthand,
		o: o, http: hc}, nil
}

// WebHost is the host whose repositories this client looks up.
func (c *Client) WebHost() string { return c.webHost }

// Resolve fills a shorthand ref's host when the shorthand names this host,
// and reports whether the ref is served by this client.
func (c *Client) Resolve(r Ref) (Ref, bool) {
	if r.Host == "" && r.Shorthand == ShorthandDefault && c.shorthand {
		r.Host = c.webHost
	}
	return r, r.Host != "" && strings.EqualFold(r.Host, c.webHost)
}

// Repository is GET /repos/{owner}/{name}.
type Repository struct {
	Response       registry.Response
	FullName       string
	HTMLURL        string
	OwnerLogin     string
	OwnerType      string
	CreatedAt      time.Time
	PushedAt       time.Time
	Archived       bool
	Fork           bool
	ParentFullName string
	DefaultBranch  string
}

// Account is GET /users/{login}: a user or an organisation.
type Account struct {
	Response  registry.Response
	Login     string
	Type      string
	CreatedAt time.Time
}

// Commit is GET /repos/{owner}/{name}/commits/{ref}, reduced to its
// signature verdict.
type Commit struct {
	Response registry.Response
	SHA      string
	// Verified is the host's verdict; Reason its reason code (e.g.
	// "unsigned", "valid", "unknown_key"); Signed whether the commit
	// carries a signature at all.
	Verified bool
	Reason   string
	Signed   bool
	// HasVerification is false when the host's answer carries no
	// commit.verification object (then nothing is known about signing).
	HasVerification bool
}

// Repository fetches a repository's document.
func (c *Client) Repository(ctx context.Context, r Ref) (*Repository, error) {
	out := &Repository{}
	r, ok := c.Resolve(r)
	if !ok {
		out.Response = c.invalid(vocab.KindRepository, fmt.Errorf("%w: %s", ErrNotServed, r))
		return out, fmt.Errorf("repohost.Repository(%s): %w", r, ErrNotServed)
	}
	resp, err := c.get(ctx, vocab.KindRepository, c.base+"/repos/"+url.PathEscape(r.Owner)+"/"+url.PathEscape(r.Name))
	out.Response = *resp
	if err != nil {
		return out, fmt.Errorf("repohost.Repository(%s): %w", r, err)
	}
	var doc struct {
		FullName      any `json:"full_name"`
		HTMLURL       any `json:"html_url"`
		CreatedAt     any `json:"created_at"`
		PushedAt      any `json:"pushed_at"`
		Archived      any `json:"archived"`
		Fork          any `json:"fork"`
		DefaultBranch any `json:"default_branch"`
		Owner         *struct {
			Login any `json:"login"`
			Type  any `json:"type"`
		} `json:"owner"`
		Parent *struct {
			FullName any `json:"full_name"`
		} `json:"parent"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		return out, c.malformed(&out.Response, "repository", r.String(), err)
	}
	out.FullName, out.HTMLURL, out.DefaultBranch = str(doc.FullName), str(doc.HTMLURL), str(doc.DefaultBranch)
	out.CreatedAt, out.PushedAt = ts(doc.CreatedAt), ts(doc.PushedAt)
	out.Archived, out.Fork = doc.Archived == true, doc.Fork == true
	if doc.Owner != nil {
		out.OwnerLogin, out.OwnerType = str(doc.Owner.Login), str(doc.Owner.Type)
	}
	if doc.Parent != nil {
		out.ParentFullName = str(doc.Parent.FullName)
	}
	return out, nil
}

// Account fetches an account's document.
func (c *Client) Account(ctx context.Context, login string) (*Account, error) {
	out := &Account{}
	if !ownerRe.MatchString(login) {
		out.Response = c.invalid(vocab.KindRepositoryOwner, fmt.Errorf("account %q is not a valid login", login))
		return out, fmt.Errorf("repohost.Account(%q): %w", login, registry.ErrInvalidRequest)
	}
	resp, err := c.get(ctx, vocab.KindRepositoryOwner, c.base+"/users/"+url.PathEscape(login))
	out.Response = *resp
	if err != nil {
		return out, fmt.Errorf("repohost.Account(%s): %w", login, err)
	}
	var doc struct {
		Login     any `json:"login"`
		Type      any `json:"type"`
		CreatedAt any `json:"created_at"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		return out, c.malformed(&out.Response, "account", login, err)
	}
	out.Login, out.Type, out.CreatedAt = str(doc.Login), str(doc.Type), ts(doc.CreatedAt)
	return out, nil
}

// LatestCommit fetches the commit at the tip of branch.
func (c *Client) LatestCommit(ctx context.Context, r Ref, branch string) (*Commit, error) {
	out := &Commit{}
	r, ok := c.Resolve(r)
	if !ok || branch == "" || strings.ContainsAny(branch, "\x00\r\n") || len(branch) > 255 {
		err := fmt.Errorf("%w: %s at branch %q", registry.ErrInvalidRequest, r, branch)
		if !ok {
			err = fmt.Errorf("%w: %s", ErrNotServed, r)
		}
		out.Response = c.invalid(vocab.KindRepositoryCommit, err)
		return out, fmt.Errorf("repohost.LatestCommit: %w", err)
	}
	resp, err := c.get(ctx, vocab.KindRepositoryCommit, c.base+"/repos/"+url.PathEscape(r.Owner)+"/"+url.PathEscape(r.Name)+"/commits/"+url.PathEscape(branch))
	out.Response = *resp
	if err != nil {
		return out, fmt.Errorf("repohost.LatestCommit(%s@%s): %w", r, branch, err)
	}
	var doc struct {
		SHA    any `json:"sha"`
		Commit *struct {
			Verification *struct {
				Verified  any `json:"verified"`
				Reason    any `json:"reason"`
				Signature any `json:"signature"`
			} `json:"verification"`
		} `json:"commit"`
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		return out, c.malformed(&out.Response, "commit", r.String(), err)
	}
	out.SHA = str(doc.SHA)
	if doc.Commit != nil && doc.Commit.Verification != nil {
		v := doc.Commit.Verification
		out.HasVerification = true
		out.Verified, out.Reason = v.Verified == true, str(v.Reason)
		out.Signed = str(v.Signature) != "" || (out.Reason != "" && out.Reason != "unsigned")
	}
	return out, nil
}

// Lookup is everything the provenance check reads about one repository:
// the repository, its owner's account and the tip of its default branch.
// A part that could not be fetched has its outcome on its Response; a part
// that was not asked for (because an earlier one failed) is nil.
type Lookup struct {
	Ref        Ref
	Repository *Repository
	Owner      *Account
	Commit     *Commit
}

// Responses lists the fetched documents in order, for storing as blobs and
// indexing in records.json.
func (l *Lookup) Responses() []registry.Response {
	var out []registry.Response
	if l.Repository != nil {
		out = append(out, l.Repository.Response)
	}
	if l.Owner != nil {
		out = append(out, l.Owner.Response)
	}
	if l.Commit != nil {
		out = append(out, l.Commit.Response)
	}
	return out
}

// Lookup fetches the repository, then its owner and latest default-branch
// commit. It returns an error only when ctx ended; every HTTP outcome is on
// the Responses. A ref this client does not serve yields a Lookup whose
// Repository records the refusal (outcome invalid_request) and nothing else.
func (c *Client) Lookup(ctx context.Context, r Ref) (*Lookup, error) {
	l := &Lookup{Ref: r}
	if rr, ok := c.Resolve(r); ok {
		l.Ref = rr
	}
	repo, err := c.Repository(ctx, r)
	l.Repository = repo
	if ctx.Err() != nil {
		return l, fmt.Errorf("repohost.Lookup(%s): %w", r, ctx.Err())
	}
	if err != nil {
		return l, nil
	}
	if repo.OwnerLogin != "" {
		l.Owner, _ = c.Account(ctx, repo.OwnerLogin)
	}
	if repo.DefaultBranch != "" {
		l.Commit, _ = c.LatestCommit(ctx, l.Ref, repo.DefaultBranch)
	}
	if ctx.Err() != nil {
		return l, fmt.Errorf("repohost.Lookup(%s): %w", r, ctx.Err())
	}
	return l, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func ts(v any) time.Time {
	t, err := time.Parse(time.RFC3339, str(v))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func (c *Client) invalid(kind string, err error) registry.Response {
	return registry.Response{Record: registry.Record{Kind: kind, FetchedAt: c.o.Now().UTC(),
		Outcome: vocab.RecordInvalidRequest, Error: err.Error()}}
}

func (c *Client) malformed(r *registry.Response, what, subject string, err error) error {
	err = fmt.Errorf("%w: %s %s: %v", registry.ErrMalformed, what, subject, err)
	r.Record.Outcome, r.Record.Error = vocab.RecordMalformed, err.Error()
	return err
}

// get fetches rawURL with bounded retries; the Record always says what
// happened, and err is nil exactly when the outcome is ok.
func (c *Client) get(ctx context.Context, kind, rawURL string) (*registry.Response, error) {
	h := http.Header{}
	h.Set("Accept", "application/vnd.github+json")
	h.Set("X-GitHub-Api-Version", "2022-11-28")
	if c.token != "" {
		h.Set("Authorization", "Bearer "+c.token)
	}
	r, err := c.http.Do(ctx, httpretry.Request{URL: rawURL, Header: h})
	resp := &registry.Response{Record: registry.Record{Kind: kind, URL: rawURL, Status: r.Status, FetchedAt: r.Received.UTC()}}
	if err == nil {
		resp.Body, resp.ContentType = r.Body, r.ContentType
		resp.Record.SHA256 = vocab.SHA256Hex(r.Body)
		resp.Record.Outcome = vocab.RecordOK
		return resp, nil
	}
	if se, ok := err.(*httpretry.StatusError); ok {
		err = &registry.StatusError{Kind: "repohost", URL: rawURL, Status: se.Status, Attempts: se.Attempts}
	}
	err = fmt.Errorf("repohost: GET %s (%s): %w", rawURL, kind, err)
	resp.Record.Outcome, resp.Record.Error = registry.OutcomeOf(err), err.Error()
	return resp, err
}

// classifyStatus retries a rate limit (429, or a 403 that says it is one)
// after the wait the host names, and a 5xx but 501 after the backoff: this
// host's 5xx carry no Retry-After worth reading.
func classifyStatus(res *http.Response, now time.Time) (bool, time.Duration) {
	switch {
	case res.StatusCode == http.StatusTooManyRequests || (res.StatusCode == http.StatusForbidden && rateLimited(res.Header)):
		return true, rateLimitWait(res.Header, now)
	case res.StatusCode >= 500 && res.StatusCode != http.StatusNotImplemented:
		return true, 0
	}
	return false, 0
}

// rateLimited tells a primary rate limit (remaining 0) or a secondary one
// (Retry-After) from a 403 that is a refusal.
func rateLimited(h http.Header) bool {
	return h.Get("X-RateLimit-Remaining") == "0" || h.Get("Retry-After") != ""
}

// rateLimitWait reads Retry-After (seconds) or X-RateLimit-Reset (epoch
// seconds). Zero means "use the backoff".
func rateLimitWait(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if s, err := strconv.ParseInt(v, 10, 64); err == nil && s > 0 && s < math.MaxInt32 {
			return time.Duration(s) * time.Second
		}
	}
	if v := strings.TrimSpace(h.Get("X-RateLimit-Reset")); v != "" {
		if s, err := strconv.ParseInt(v, 10, 64); err == nil {
			if d := time.Unix(s, 0).Sub(now); d > 0 {
				return d
			}
		}
	}
	return 0
}
