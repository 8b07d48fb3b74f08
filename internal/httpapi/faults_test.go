package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/pgcluster"
	"github.com/attestari/attestari/internal/store"
)

// The drills of database faults: a private cluster (dbtest.Private) really
// stopped, restarted and frozen under the API served over real HTTP with
// server timeouts as cmd/attestari-api sets them. Each request of a drill
// goes to every class of data endpoint: the gateways' manifest (by path and
// by purl) and lookup, the JSON readers, and the website's pages.

// drillDeadline is the request deadline of the drills: short, so a freeze
// drill takes seconds, far below the server's write timeout, and long
// enough that on a loaded machine an ordinary request (a fresh connection
// and five queries for a package) does not reach it: at 1 s, the first
// requests after SIGCONT sometimes did, with the load average at 20.
const drillDeadline = 3 * time.Second

type target struct {
	method, path, body string
	page               bool // a website page: HTML, outside the contract
}

type drill struct {
	t       *testing.T
	c       *pgcluster.Cluster
	ts      *testServer
	base    string
	client  *http.Client
	targets []target
}

func newDrill(t *testing.T) *drill {
	t.Helper()
	c := dbtest.Private(t)
	ctx := context.Background()
	st, err := store.Open(ctx, c.URL, store.Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	for _, p := range seedPublications() {
		if err := st.LoadPublication(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// The drills send every target at once from one loopback client: the
	// per-client bound (cost.go, tested on its own) is lifted so that each
	// request meets the fault rather than the bound.
	s, err := New(Options{Reader: st, RequestsPerMinute: 1 << 20, RequestDeadline: drillDeadline, ClientInFlight: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.MaxBytesHandler(s, 1<<20))
	srv.Config.ReadHeaderTimeout = 5 * time.Second
	srv.Config.ReadTimeout = 10 * time.Second
	srv.Config.WriteTimeout = 30 * time.Second
	srv.Start()
	t.Cleanup(srv.Close)
	d := &drill{t: t, c: c, ts: &testServer{Server: s, t: t}, base: srv.URL,
		// Far longer than the deadline: a request the server does not
		// answer shows as this client's timeout, a failure of the drill.
		client: &http.Client{Timeout: 25 * time.Second}}
	d.targets = []target{
		{"GET", "/manifest/@acme/files/1.0.0", "", false},
		{"GET", "/manifest?purl=pkg:npm/%40acme/files@1.1.0", "", false},
		{"POST", "/lookup", `{"items":[{"registry":"npm","name":"@acme/files","version":"1.0.0"}]}`, false},
		{"GET", "/diff/@acme/files/1.0.0/1.1.0", "", false},
		{"GET", "/packages", "", false},
		{"GET", "/packages/npm/@acme/files/1.0.0", "", false},
		{"GET", "/gate_map.json", "", false},
		{"GET", "/findings/F-1", "", false},
		{"GET", "/runs", "", false},
		{"GET", "/runs/run-2/diff", "", false},
		{"GET", "/", "", true},
		{"GET", "/package/npm/@acme/files/1.0.0", "", true},
		{"GET", "/gate-map", "", true},
	}
	res := d.fetch(target{"GET", "/findings/F-1", "", false})
	var f api.FindingDetail
	if res.err != nil || res.status != 200 || json.Unmarshal(res.body, &f) != nil {
		t.Fatalf("seeded finding: %+v", res)
	}
	d.targets = append(d.targets, target{"GET", "/evidence/" + f.Finding.Evidence.SHA256, "", false})
	return d
}

type reply struct {
	target  target
	status  int
	header  http.Header
	body    []byte
	err     error // no HTTP answer at all
	elapsed time.Duration
}

// fetch sends one request over HTTP and validates an API answer against
// the contract.
func (d *drill) fetch(tg target) reply {
	var body io.Reader
	if tg.body != "" {
		body = strings.NewReader(tg.body)
	}
	req, err := http.NewRequest(tg.method, d.base+tg.path, body)
	if err != nil {
		d.t.Fatal(err)
	}
	if tg.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	res, err := d.client.Do(req)
	a := reply{target: tg, err: err}
	if err != nil {
		a.elapsed = time.Since(start)
		return a
	}
	a.body, a.err = io.ReadAll(res.Body)
	res.Body.Close()
	a.elapsed = time.Since(start)
	a.status, a.header = res.StatusCode, res.Header
	if !tg.page {
		vreq := httptest.NewRequest(tg.method, tg.path, strings.NewReader(tg.body))
		if tg.body != "" {
			vreq.Header.Set("Content-Type", "application/json")
		}
		res.Body = io.NopCloser(bytes.NewReader(a.body))
		d.ts.validateResponse(vreq, res, a.body)
	}
	return a
}

// all sends every target n times at once and returns the answers.
func (d *drill) all(n int) []reply {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var out []reply
	for range n {
		for _, tg := range d.targets {
			wg.Go(func() {
				a := d.fetch(tg)
				mu.Lock()
				out = append(out, a)
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	return out
}

// expectFault checks that a answered status as the fault it is: problem+json
// for the API, the HTML error page for the website, both with Retry-After.
func (d *drill) expectFault(a reply, status int) {
	d.t.Helper()
	if a.err != nil {
		d.t.Errorf("%s %s: no reply: %v", a.target.method, a.target.path, a.err)
		return
	}
	if a.status != status {
		d.t.Errorf("%s %s: want %d, got %d: %.200s", a.target.method, a.target.path, status, a.status, a.body)
		return
	}
	if n, err := strconv.Atoi(a.header.Get("Retry-After")); err != nil || n <= 0 {
		d.t.Errorf("%s %s: %d without a Retry-After in seconds: %q", a.target.method, a.target.path, status, a.header.Get("Retry-After"))
	}
	ct := a.header.Get("Content-Type")
	if a.target.page {
		if !strings.HasPrefix(ct, "text/html") || !bytes.Contains(a.body, []byte("try again")) {
			d.t.Errorf("%s: the website answers its HTML error page, got %q: %.200s", a.target.path, ct, a.body)
		}
		return
	}
	var p Problem
	if ct != "application/problem+json" || json.Unmarshal(a.body, &p) != nil || p.Status != status {
		d.t.Errorf("%s %s: want problem+json with status %d, got %q: %.200s", a.target.method, a.target.path, status, ct, a.body)
	}
	for _, leak := range []string{"SQLSTATE", "127.0.0.1", "dial", "FATAL", "pgx", "postgres"} {
		if bytes.Contains(a.body, []byte(leak)) {
			d.t.Errorf("%s %s: the body names the cause (%q): %s", a.target.method, a.target.path, leak, a.body)
		}
	}
}

func (d *drill) expectOK(answers []reply, when string) {
	d.t.Helper()
	for _, a := range answers {
		if a.err != nil || a.status != http.StatusOK {
			d.t.Errorf("%s: %s %s: want 200, got %d %v: %.200s", when, a.target.method, a.target.path, a.status, a.err, a.body)
		}
	}
}

func slowest(answers []reply) time.Duration {
	var m time.Duration
	for _, a := range answers {
		m = max(m, a.elapsed)
	}
	return m
}

func statuses(answers []reply) map[int]int {
	out := map[int]int{}
	for _, a := range answers {
		out[a.status]++
	}
	return out
}

// TestDrillOutage: with PostgreSQL stopped, every data endpoint answers 503
// with Retry-After (problem+json, or the website's HTML error page) and
// /readyz answers 503; when it is started again, every endpoint answers 200
// with no restart of the API.
func TestDrillOutage(t *testing.T) {
	t.Parallel()
	d := newDrill(t)
	d.expectOK(d.all(2), "before the outage")
	if err := d.c.Down(context.Background()); err != nil {
		t.Fatal(err)
	}
	during := d.all(2)
	for _, a := range during {
		d.expectFault(a, http.StatusServiceUnavailable)
	}
	d.expectFault(d.fetch(target{"GET", "/readyz", "", false}), http.StatusServiceUnavailable)
	t.Logf("outage: %d requests, statuses %v, slowest %v", len(during), statuses(during), slowest(during))
	if err := d.c.Up(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := d.all(1)
	d.expectOK(after, "after the outage")
	t.Logf("after the outage: %d requests, statuses %v", len(after), statuses(after))
}

// TestDrillRestart: after a restart with no request in between, the first
// requests, sent at once to every endpoint, all succeed: the pooled
// connections the restart killed cost no client an error.
func TestDrillRestart(t *testing.T) {
	t.Parallel()
	d := newDrill(t)
	d.expectOK(d.all(3), "before the restart")
	ctx := context.Background()
	if err := d.c.Down(ctx); err != nil {
		t.Fatal(err)
	}
	if err := d.c.Up(ctx); err != nil {
		t.Fatal(err)
	}
	first := d.all(2)
	d.expectOK(first, "first requests after the restart")
	t.Logf("after the restart: %d requests, statuses %v", len(first), statuses(first))
}

// TestDrillFreeze: with PostgreSQL frozen (SIGSTOP: sockets open, nothing
// answers, no statement_timeout fires), every request in flight is answered
// 504 with Retry-After by the request deadline, none is left without an
// answer, and /readyz answers 503; after SIGCONT every endpoint answers 200.
func TestDrillFreeze(t *testing.T) {
	t.Parallel()
	d := newDrill(t)
	d.expectOK(d.all(2), "before the freeze")
	if err := d.c.Freeze(); err != nil {
		t.Fatal(err)
	}
	// Thawed here as well as by the cluster's cleanup, so a failing check
	// below cannot leave it frozen.
	defer d.c.Thaw()
	during := d.all(3)
	for _, a := range during {
		d.expectFault(a, http.StatusGatewayTimeout)
	}
	d.expectFault(d.fetch(target{"GET", "/readyz", "", false}), http.StatusServiceUnavailable)
	t.Logf("freeze: %d requests in flight, statuses %v, slowest %v (deadline %v)", len(during), statuses(during), slowest(during), drillDeadline)
	if err := d.c.Thaw(); err != nil {
		t.Fatal(err)
	}
	after := d.all(1)
	d.expectOK(after, "after SIGCONT")
	t.Logf("after SIGCONT: %d requests, statuses %v", len(after), statuses(after))
}
