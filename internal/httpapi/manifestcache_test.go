package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

// countingReader counts the database reads of manifests.
type countingReader struct {
	Reader
	manifests atomic.Int64
}

func (c *countingReader) Manifest(ctx context.Context, registry, name, version, cursor string) (*api.Manifest, error) {
	c.manifests.Add(1)
	return c.Reader.Manifest(ctx, registry, name, version, cursor)
}

// answer is what a client can tell apart: status, the headers that matter
// and the body.
func answer(ts *testServer, path string, hdr ...string) string {
	ts.t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	var res *http.Response
	if req.Header.Get("Accept-Encoding") != "" {
		// A compressed body is compared as bytes; the contract check decodes JSON.
		rec := httptest.NewRecorder()
		ts.ServeHTTP(rec, req)
		res = rec.Result()
	} else {
		res = ts.do(req)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", res.StatusCode)
	for _, h := range []string{"Content-Type", "Etag", "Cache-Control", "Vary", "Content-Encoding"} {
		fmt.Fprintf(&b, "%s: %s\n", h, res.Header.Get(h))
	}
	var body strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		body.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String() + body.String()
}

// TestManifestCacheAnswersAsTheDatabaseDoes: with the cache live, the first
// and every later answer for an address are byte for byte the answer of a
// server without a cache, and only the first reads the database.
func TestManifestCacheAnswersAsTheDatabaseDoes(t *testing.T) {
	t.Parallel()
	plain, url := seeded(t)
	st, err := store.Open(context.Background(), url, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	cr := &countingReader{Reader: st}
	cached := newTestServer(t, cr)
	cached.PublicationsChanged(true)
	paths := [][]string{
		{"/manifest/@acme/files/1.0.0"},
		{"/manifest/@acme%2Ffiles/1.0.0"},
		{"/manifest/@acme/files/1.0.0?registry=npm"},
		{"/manifest/minified-server/2.0.0"},
		{"/manifest?purl=pkg:npm/%40acme/files@1.1.0"},
		{"/manifest/@acme/files/1.1.0", "Accept-Encoding", "gzip"},
		{"/manifest/twin/1.0.0?registry=pypi"},
	}
	for _, p := range paths {
		want := answer(plain, p[0], p[1:]...)
		before := cr.manifests.Load()
		first := answer(cached, p[0], p[1:]...)
		afterFirst := cr.manifests.Load()
		second := answer(cached, p[0], p[1:]...)
		if first != want || second != want {
			t.Fatalf("%s:\nwithout cache:\n%s\nfirst:\n%s\nsecond:\n%s", p[0], want, first, second)
		}
		// The encoded slash names the address the line before read.
		wantFirst := before + 1
		if strings.Contains(p[0], "%2F") {
			wantFirst = before
		}
		if afterFirst != wantFirst || cr.manifests.Load() != afterFirst {
			t.Fatalf("%s: database reads %d → %d → %d; want %d, then none", p[0], before, afterFirst, cr.manifests.Load(), wantFirst-before)
		}
	}
	// Conditional requests are answered from the cache too.
	res, _ := plain.get("/manifest/@acme/files/1.0.0")
	before := cr.manifests.Load()
	if got := answer(cached, "/manifest/@acme/files/1.0.0", "If-None-Match", res.Header.Get("ETag")); !strings.HasPrefix(got, "304\n") || cr.manifests.Load() != before {
		t.Fatalf("If-None-Match from the cache: %s (reads %d → %d)", got, before, cr.manifests.Load())
	}
	// Errors are never kept: each is read again.
	for _, p := range []string{"/manifest/@acme/files/9.9.9", "/manifest/twin/1.0.0", "/manifest/nobody/1.0.0"} {
		want := answer(plain, p)
		before := cr.manifests.Load()
		if a, b := answer(cached, p), answer(cached, p); a != want || b != want || cr.manifests.Load() != before+2 {
			t.Fatalf("%s: %q / %q want %q; reads %d → %d", p, a, b, want, before, cr.manifests.Load())
		}
	}
}

// TestManifestCacheUnusedUnlessLive: a server never told it may cache, or
// told to stop, reads the database for every request.
func TestManifestCacheUnusedUnlessLive(t *testing.T) {
	t.Parallel()
	_, url := seeded(t)
	st, err := store.Open(context.Background(), url, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	cr := &countingReader{Reader: st}
	ts := newTestServer(t, cr)
	for range 3 {
		answer(ts, "/manifest/@acme/files/1.0.0")
	}
	ts.PublicationsChanged(true)
	for range 3 {
		answer(ts, "/manifest/@acme/files/1.0.0")
	}
	ts.PublicationsChanged(false)
	for range 3 {
		answer(ts, "/manifest/@acme/files/1.0.0")
	}
	if n := cr.manifests.Load(); n != 3+1+3 {
		t.Fatalf("database reads %d; want 3 (not live), 1 (live), 3 (stopped)", n)
	}
	off, err := New(Options{Reader: cr, RequestsPerMinute: 100000, ManifestCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	off.PublicationsChanged(true)
	offTS := &testServer{Server: off, t: t}
	for range 2 {
		answer(offTS, "/manifest/@acme/files/1.0.0")
	}
	if n := cr.manifests.Load(); n != 9 {
		t.Fatalf("a disabled cache kept an answer: reads %d, want 9", n)
	}
}

// TestManifestCacheFollowsLoads wires the cache as attestari-api does, to
// the store's notifications, and loads publications while it serves: each
// load is seen, both a row that changed and a version that appeared.
func TestManifestCacheFollowsLoads(t *testing.T) {
	t.Parallel()
	ts, url := seeded(t)
	st, err := store.Open(context.Background(), url, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	live := make(chan bool, 64)
	go func() {
		_ = st.WatchPublications(ctx, func(l bool) {
			ts.PublicationsChanged(l)
			live <- l
		})
	}()
	if !<-live {
		t.Fatal("the watcher did not start listening")
	}
	const path = "/manifest/@acme/files/1.1.0"
	first := answer(ts, path)
	if !strings.Contains(first, `"grade":"A"`) || answer(ts, path) != first {
		t.Fatalf("before: %s", first)
	}
	if got := answer(ts, "/manifest/@acme/files/1.2.0"); !strings.HasPrefix(got, "404\n") {
		t.Fatalf("1.2.0 before it is published: %s", got)
	}
	p3 := storetest.Publication("pub-3", "run-3", t0.Add(14*24*time.Hour))
	p3.Header.Supersedes = "pub-2"
	p3.Packages = append(p3.Packages,
		storetest.Package("npm", "@acme/files", "1.1.0", "graded", "C", nil,
			storetest.Tool("read_file", "readable", "Reads a file.", "json", readFileSchema)),
		storetest.Package("npm", "@acme/files", "1.2.0", "graded", "B", nil,
			storetest.Tool("read_file", "readable", "Reads a file.", "json", readFileSchema)))
	if err := st.LoadPublication(ctx, p3); err != nil {
		t.Fatal(err)
	}
	select {
	case l := <-live:
		if !l {
			t.Fatal("the watcher stopped")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the load was not heard")
	}
	if got := answer(ts, path); !strings.Contains(got, `"grade":"C"`) {
		t.Fatalf("after the load, the changed row: %s", got)
	}
	if got := answer(ts, "/manifest/@acme/files/1.2.0"); !strings.HasPrefix(got, "200\n") {
		t.Fatalf("after the load, the new version: %s", got)
	}
}

// fixed returns a read of m that counts into n and runs during before it
// answers (nil: nothing).
func fixed(m *api.Manifest, n *atomic.Int64, during func()) func(context.Context) (*api.Manifest, error) {
	return func(context.Context) (*api.Manifest, error) {
		n.Add(1)
		if during != nil {
			during()
		}
		return m, nil
	}
}

func always() bool { return true }
func nothing()     {}

// TestManifestCacheDropsAFillThatRacedALoad: an answer read before a change
// and stored after it would be stale; it is served once and not kept.
func TestManifestCacheDropsAFillThatRacedALoad(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newManifestCache(1<<20, prometheusRegistry())
	c.changed(true)
	k := manifestKey{"npm", "x", "1.0.0", ""}
	var reads atomic.Int64
	// A publication lands while the database is read.
	old, err := c.load(ctx, k, always, nothing, fixed(&api.Manifest{Name: "x", Version: "old"}, &reads, func() { c.changed(true) }))
	if err != nil || !strings.Contains(string(old.body), `"old"`) {
		t.Fatalf("%+v %v", old, err)
	}
	e, err := c.load(ctx, k, always, nothing, fixed(&api.Manifest{Name: "x", Version: "new"}, &reads, nil))
	if sum := sha256.Sum256(e.body); err != nil || e.etag != `"`+hex.EncodeToString(sum[:])+`"` || !strings.Contains(string(e.body), `"new"`) {
		t.Fatalf("a fill from before the change was kept: %+v %v", e, err)
	}
	got, err := c.load(ctx, k, always, nothing, fixed(&api.Manifest{Name: "x", Version: "newer"}, &reads, nil))
	if err != nil || got != e || reads.Load() != 2 {
		t.Fatalf("a fill with the current generation was not kept (reads %d)", reads.Load())
	}
}

// TestManifestCacheStaysWithinItsBound: however many versions are asked
// for, the bodies held stay under the configured bytes.
func TestManifestCacheStaysWithinItsBound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const limit = 64 << 10
	c := newManifestCache(limit, prometheusRegistry())
	c.changed(true)
	desc := strings.Repeat("d", 900)
	var reads atomic.Int64
	for i := range 2000 {
		k := manifestKey{"npm", fmt.Sprintf("pkg-%d", i), "1.0.0", ""}
		if _, err := c.load(ctx, k, always, nothing, fixed(&api.Manifest{Name: k.name + desc}, &reads, nil)); err != nil {
			t.Fatal(err)
		}
		c.mu.RLock()
		n, held := c.bytes, 0
		for _, e := range c.entries {
			held += len(e.body)
		}
		c.mu.RUnlock()
		if n != held || n > limit {
			t.Fatalf("after %d fills: counted %d, held %d, limit %d", i+1, n, held, limit)
		}
	}
	if len(c.entries) == 0 {
		t.Fatal("nothing kept")
	}
	// One body larger than a sixteenth of the room is served, never kept.
	k := manifestKey{"npm", "huge", "1.0.0", ""}
	before := reads.Load()
	for range 2 {
		if e, err := c.load(ctx, k, always, nothing, fixed(&api.Manifest{Name: strings.Repeat("h", limit/8)}, &reads, nil)); err != nil || len(e.body) < limit/8 {
			t.Fatal(err)
		}
	}
	if reads.Load() != before+2 {
		t.Fatal("an oversized body was kept")
	}
}

func prometheusRegistry() *prometheus.Registry { return prometheus.NewRegistry() }

// TestManifestCacheUnderConcurrentChanges: readers filling and hitting while
// publications land keep the byte count true (run with -race to check the
// locking too).
func TestManifestCacheUnderConcurrentChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newManifestCache(32<<10, prometheusRegistry())
	c.changed(true)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var reads atomic.Int64
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				k := manifestKey{"npm", fmt.Sprintf("p%d", i%200), "1.0.0", ""}
				if _, err := c.load(ctx, k, always, nothing, fixed(&api.Manifest{Name: k.name + strings.Repeat("x", (i+w)%300)}, &reads, nil)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := range 200 {
		c.changed(i%10 != 9) // now and then the watcher loses its connection
		time.Sleep(time.Millisecond)
	}
	close(done)
	wg.Wait()
	c.mu.RLock()
	defer c.mu.RUnlock()
	held := 0
	for _, e := range c.entries {
		held += len(e.body)
	}
	if held != c.bytes || c.bytes > c.limit || len(c.inflight) != 0 {
		t.Fatalf("counted %d bytes, held %d, limit %d, reads in flight %d", c.bytes, held, c.limit, len(c.inflight))
	}
}

// waiting is the number of requests waiting on the read of k in flight.
func waiting(c *manifestCache, k manifestKey) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f := c.inflight[k]; f != nil {
		return f.waiters
	}
	return 0
}

// waitFor polls cond until it holds (the test's own deadline bounds it).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for !cond() {
		if t.Context().Err() != nil {
			t.Fatal("gave up waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestManifestCacheSharesOneRead: forty requests for one page the cache
// does not hold cost one read, and all get its answer; only the reader
// takes a slot of its client's bound.
func TestManifestCacheSharesOneRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := prometheusRegistry()
	c := newManifestCache(1<<20, reg)
	c.changed(true)
	k := manifestKey{"npm", "big", "1.0.0", ""}
	var reads, slots atomic.Int64
	gate := make(chan struct{})
	read := fixed(&api.Manifest{Name: "big"}, &reads, func() { <-gate })
	const n = 40
	got := make([]*cachedManifest, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := c.load(ctx, k, func() bool { slots.Add(1); return true }, nothing, read)
			if err != nil {
				t.Error(err)
			}
			got[i] = e
		}()
	}
	// Every request but the reader waits on the read before it answers.
	waitFor(t, func() bool { return waiting(c, k) == n-1 })
	close(gate)
	wg.Wait()
	if reads.Load() != 1 || slots.Load() != 1 {
		t.Fatalf("reads %d, slots taken %d; want 1 and 1", reads.Load(), slots.Load())
	}
	for i := range got {
		if got[i] == nil || got[i] != got[0] {
			t.Fatalf("request %d got %p, the first %p", i, got[i], got[0])
		}
	}
}

// TestManifestCacheWaitersOutliveTheReader: a read that fails for its own
// request's reasons (its client left, or is over its bound) is not handed
// to the requests waiting on it; they read for themselves.
func TestManifestCacheWaitersOutliveTheReader(t *testing.T) {
	t.Parallel()
	c := newManifestCache(1<<20, prometheusRegistry())
	c.changed(true)
	k := manifestKey{"npm", "big", "1.0.0", ""}
	var reads atomic.Int64
	gate := make(chan struct{})
	leaderCtx, leave := context.WithCancel(context.Background())
	leaderDone := make(chan error, 1)
	go func() {
		_, err := c.load(leaderCtx, k, always, nothing, func(ctx context.Context) (*api.Manifest, error) {
			reads.Add(1)
			<-gate
			return nil, ctx.Err()
		})
		leaderDone <- err
	}()
	waitFor(t, func() bool { return reads.Load() == 1 })
	waiter := make(chan *cachedManifest, 1)
	go func() {
		e, err := c.load(context.Background(), k, always, nothing, fixed(&api.Manifest{Name: "big"}, &reads, nil))
		if err != nil {
			t.Error(err)
		}
		waiter <- e
	}()
	waitFor(t, func() bool { return waiting(c, k) == 1 })
	leave()
	close(gate)
	if err := <-leaderDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("the reader's own answer: %v", err)
	}
	if e := <-waiter; e == nil || !strings.Contains(string(e.body), `"big"`) || reads.Load() != 2 {
		t.Fatalf("the waiter: %+v after %d reads", e, reads.Load())
	}
	// A client over its bound is refused before it reads, and nobody
	// waits on its refusal.
	busy := manifestKey{"npm", "other", "1.0.0", ""}
	if _, err := c.load(context.Background(), busy, func() bool { return false }, nothing, fixed(&api.Manifest{}, &reads, nil)); !errors.Is(err, errClientBusy) || reads.Load() != 2 {
		t.Fatalf("over the bound: %v, reads %d", err, reads.Load())
	}
	if len(c.inflight) != 0 {
		t.Fatalf("reads left in flight: %d", len(c.inflight))
	}
}

// TestManifestCacheGzipIsTheMiddlewares: a cached body served compressed
// is byte for byte what the compression middleware sends for the same
// answer uncached, and is compressed once.
func TestManifestCacheGzipIsTheMiddlewares(t *testing.T) {
	t.Parallel()
	m := benchManifest()
	plain, err := New(Options{Reader: fixedReader{m: m}, RequestsPerMinute: 1 << 20, ManifestCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	cached, err := New(Options{Reader: fixedReader{m: m}, RequestsPerMinute: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	cached.PublicationsChanged(true)
	for _, enc := range []string{"gzip", "deflate, gzip;q=0.5", "br"} {
		var bodies []string
		for _, s := range []*Server{plain, cached, cached} {
			req := httptest.NewRequest(http.MethodGet, "/manifest/lt-server-00001/1.0.0", nil)
			req.Header.Set("Accept-Encoding", enc)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			bodies = append(bodies, rec.Header().Get("Content-Encoding")+"\n"+rec.Body.String())
		}
		if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
			t.Fatalf("Accept-Encoding %q: uncached %q, cached %q then %q", enc, bodies[0], bodies[1], bodies[2])
		}
		if want := map[string]string{"gzip": "gzip", "deflate, gzip;q=0.5": "gzip", "br": ""}[enc]; !strings.HasPrefix(bodies[0], want+"\n") {
			t.Fatalf("Accept-Encoding %q: encoding %q", enc, strings.SplitN(bodies[0], "\n", 2)[0])
		}
	}
}

// TestManifestCacheSurvivesAPanickingRead: a read that panics (the
// recoverer answers its request 500) leaves no read in flight and no slot
// taken: the next request for the page reads and is answered.
func TestManifestCacheSurvivesAPanickingRead(t *testing.T) {
	t.Parallel()
	c := newManifestCache(1<<20, prometheusRegistry())
	c.changed(true)
	k := manifestKey{"npm", "p", "1.0.0", ""}
	var slots atomic.Int64
	acquire := func() bool { slots.Add(1); return true }
	release := func() { slots.Add(-1) }
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the read's panic was swallowed")
			}
		}()
		_, _ = c.load(context.Background(), k, acquire, release, func(context.Context) (*api.Manifest, error) { panic("boom") })
	}()
	var reads atomic.Int64
	e, err := c.load(context.Background(), k, acquire, release, fixed(&api.Manifest{Name: "p"}, &reads, nil))
	if err != nil || e == nil || reads.Load() != 1 || slots.Load() != 0 || len(c.inflight) != 0 {
		t.Fatalf("after a panicking read: %v, reads %d, slots held %d, in flight %d", err, reads.Load(), slots.Load(), len(c.inflight))
	}
}
