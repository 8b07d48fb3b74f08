// Package fakehost is an in-memory code host that speaks the subset of the
// GitHub REST API package repohost reads, for tests and the offline demo:
// mount Fake on an httptest.Server and point repohost at its URL.
//
// Callers register repositories, accounts and branch tips; the fake renders
// them in the host's wire format. It can be told to misbehave on a path
// (Inject: a status a number of times, a rate limit with a reset time) and
// to demand a token. It records every request it sees.
//
// It is not a _test.go file because other packages' tests use it. It must
// not import package repohost (whose tests import this one) and must never
// be wired into a production path.
//
// Routes (GET):
//
//	/repos/{owner}/{name}                 repository
//	/users/{login}                        account (user or organisation)
//	/repos/{owner}/{name}/commits/{ref}   commit with commit.verification
package fakehost

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Repo is a repository as the fake serves it.
type Repo struct {
	Owner, Name   string
	OwnerType     string // "User" (default) or "Organization"
	CreatedAt     time.Time
	Archived      bool
	DefaultBranch string // "main" when empty
	Parent        string // "owner/name" of the fork parent, if a fork
}

// Account is a user or an organisation.
type Account struct {
	Login     string
	Type      string // "User" (default) or "Organization"
	CreatedAt time.Time
}

// Commit is the tip of a branch.
type Commit struct {
	SHA       string
	Verified  bool
	Reason    string // "unsigned" when empty and not Verified, "valid" when Verified
	Signature string // armored signature text; empty means unsigned
	// OmitVerification drops commit.verification from the answer.
	OmitVerification bool
}

// Fault is a misbehaviour on one path, for Times requests (1 when zero,
// negative for every request).
type Fault struct {
	Status int
	// RateLimited adds X-RateLimit-Remaining: 0 and X-RateLimit-Reset at
	// Reset (epoch seconds), so a 403 reads as a primary rate limit.
	RateLimited bool
	Reset       time.Time
	RetryAfter  string
	Times       int
}

// Request is one request the fake saw.
type Request struct {
	Path          string
	Authorization string
	Accept        string
}

// Fake is the server. The zero value is not usable; call New.
type Fake struct {
	mu       sync.Mutex
	repos    map[string]Repo    // lower-case "owner/name"
	accounts map[string]Account // lower-case login
	commits  map[string]Commit  // lower-case "owner/name" + "@" + ref
	faults   map[string][]Fault
	token    string
	requests []Request
	// BaseURL is used to build html_url members; set it to the web base
	// the tests treat as this host's (any string works).
	WebBase string
}

// New returns an empty fake.
func New() *Fake {
	return &Fake{repos: map[string]Repo{}, accounts: map[string]Account{}, commits: map[string]Commit{}, faults: map[string][]Fault{}}
}

// AddRepo registers a repository; its owner account is registered too if
// absent, created a year before the repository.
func (f *Fake) AddRepo(r Repo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.DefaultBranch == "" {
		r.DefaultBranch = "main"
	}
	if r.OwnerType == "" {
		r.OwnerType = "User"
	}
	f.repos[strings.ToLower(r.Owner+"/"+r.Name)] = r
	if _, ok := f.accounts[strings.ToLower(r.Owner)]; !ok {
		f.accounts[strings.ToLower(r.Owner)] = Account{Login: r.Owner, Type: r.OwnerType, CreatedAt: r.CreatedAt.AddDate(-1, 0, 0)}
	}
}

// AddAccount registers or replaces an account.
func (f *Fake) AddAccount(a Account) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if a.Type == "" {
		a.Type = "User"
	}
	f.accounts[strings.ToLower(a.Login)] = a
}

// SetCommit sets the tip of owner/name at ref.
func (f *Fake) SetCommit(owner, name, ref string, c Commit) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commits[strings.ToLower(owner+"/"+name)+"@"+ref] = c
}

// RequireToken makes every request without "Authorization: Bearer tok"
// answer 401.
func (f *Fake) RequireToken(tok string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.token = tok
}

// Inject queues a fault on a path (e.g. "/repos/o/n").
func (f *Fake) Inject(path string, ft Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults[path] = append(f.faults[path], ft)
}

// Requests returns what the fake has seen.
func (f *Fake) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.requests...)
}

func (f *Fake) fault(path string) (Fault, bool) {
	q := f.faults[path]
	if len(q) == 0 {
		return Fault{}, false
	}
	ft := q[0]
	switch {
	case ft.Times < 0:
	case ft.Times <= 1:
		f.faults[path] = q[1:]
	default:
		q[0].Times--
	}
	return ft, true
}

func rfc(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// ServeHTTP implements http.Handler.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path := r.URL.EscapedPath()
	f.requests = append(f.requests, Request{Path: path, Authorization: r.Header.Get("Authorization"), Accept: r.Header.Get("Accept")})
	if r.Method != http.MethodGet {
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		return
	}
	if f.token != "" && r.Header.Get("Authorization") != "Bearer "+f.token {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "Bad credentials"})
		return
	}
	if ft, ok := f.fault(path); ok {
		if ft.RateLimited {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(ft.Reset.Unix(), 10))
		}
		if ft.RetryAfter != "" {
			w.Header().Set("Retry-After", ft.RetryAfter)
		}
		writeJSON(w, ft.Status, map[string]any{"message": http.StatusText(ft.Status)})
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	notFound := func() { writeJSON(w, http.StatusNotFound, map[string]any{"message": "Not Found"}) }
	switch {
	case len(parts) == 3 && parts[0] == "repos":
		repo, ok := f.repos[strings.ToLower(parts[1]+"/"+parts[2])]
		if !ok {
			notFound()
			return
		}
		doc := map[string]any{
			"id": 1, "name": repo.Name, "full_name": repo.Owner + "/" + repo.Name,
			"html_url":   f.WebBase + "/" + repo.Owner + "/" + repo.Name,
			"owner":      map[string]any{"login": repo.Owner, "type": repo.OwnerType},
			"created_at": rfc(repo.CreatedAt), "pushed_at": rfc(repo.CreatedAt),
			"archived": repo.Archived, "fork": repo.Parent != "", "default_branch": repo.DefaultBranch,
		}
		if repo.Parent != "" {
			doc["parent"] = map[string]any{"full_name": repo.Parent}
		}
		writeJSON(w, http.StatusOK, doc)
	case len(parts) == 2 && parts[0] == "users":
		a, ok := f.accounts[strings.ToLower(parts[1])]
		if !ok {
			notFound()
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"login": a.Login, "id": 2, "type": a.Type, "created_at": rfc(a.CreatedAt)})
	case len(parts) >= 5 && parts[0] == "repos" && parts[3] == "commits":
		ref := strings.Join(parts[4:], "/")
		c, ok := f.commits[strings.ToLower(parts[1]+"/"+parts[2])+"@"+ref]
		if !ok {
			notFound()
			return
		}
		commit := map[string]any{"message": "tip"}
		if !c.OmitVerification {
			reason := c.Reason
			if reason == "" {
				reason = "unsigned"
				if c.Verified {
					reason = "valid"
				}
			}
			var sig any
			if c.Signature != "" {
				sig = c.Signature
			}
			commit["verification"] = map[string]any{"verified": c.Verified, "reason": reason, "signature": sig, "payload": nil, "verified_at": nil}
		}
		writeJSON(w, http.StatusOK, map[string]any{"sha": c.SHA, "commit": commit})
	default:
		notFound()
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
