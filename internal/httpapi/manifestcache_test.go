package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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

func (c *countingReader) Manifest(ctx context.Context, registry, name, version string) (*api.Manifest, error) {
	c.manifests.Add(1)
	return c.Reader.Manifest(ctx, registry, name, version)
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

// TestManifestCacheDropsAFillThatRacedALoad: an answer read before a change
// and stored after it would be stale; it is served once and not kept.
func TestManifestCacheDropsAFillThatRacedALoad(t *testing.T) {
	t.Parallel()
	c := newManifestCache(1<<20, prometheusRegistry())
	c.changed(true)
	k := manifestKey{"npm", "x", "1.0.0"}
	_, gen, ok := c.get(k)
	if ok {
		t.Fatal("empty cache hit")
	}
	c.changed(true) // a publication landed while the database was read
	if _, err := c.put(k, gen, &api.Manifest{Name: "x", Version: "old"}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.get(k); ok {
		t.Fatal("a fill from before the change was kept")
	}
	_, gen, _ = c.get(k)
	e, err := c.put(k, gen, &api.Manifest{Name: "x", Version: "new"})
	if sum := sha256.Sum256(e.body); err != nil || e.etag != `"`+hex.EncodeToString(sum[:])+`"` || !strings.Contains(string(e.body), `"new"`) {
		t.Fatalf("%+v %v", e, err)
	}
	if got, _, ok := c.get(k); !ok || got != e {
		t.Fatal("a fill with the current generation was not kept")
	}
}

// TestManifestCacheStaysWithinItsBound: however many versions are asked
// for, the bodies held stay under the configured bytes.
func TestManifestCacheStaysWithinItsBound(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	c := newManifestCache(limit, prometheusRegistry())
	c.changed(true)
	desc := strings.Repeat("d", 900)
	for i := range 2000 {
		k := manifestKey{"npm", fmt.Sprintf("pkg-%d", i), "1.0.0"}
		_, gen, _ := c.get(k)
		if _, err := c.put(k, gen, &api.Manifest{Name: k.name + desc}); err != nil {
			t.Fatal(err)
		}
		c.mu.RLock()
		n, held := c.bytes, 0
		for _, e := range c.entries {
			held += len(e.body)
		}
		c.mu.RUnlock()
		if n != held || n > limit {
			t.Fatalf("after %d puts: counted %d, held %d, limit %d", i+1, n, held, limit)
		}
	}
	if len(c.entries) == 0 {
		t.Fatal("nothing kept")
	}
	// One body larger than a sixteenth of the room is served, never kept.
	k := manifestKey{"npm", "huge", "1.0.0"}
	_, gen, _ := c.get(k)
	if _, err := c.put(k, gen, &api.Manifest{Name: strings.Repeat("h", limit/8)}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.get(k); ok {
		t.Fatal("an oversized body was kept")
	}
}

func prometheusRegistry() *prometheus.Registry { return prometheus.NewRegistry() }

// TestManifestCacheUnderConcurrentChanges: readers filling and hitting while
// publications land keep the byte count true (run with -race to check the
// locking too).
func TestManifestCacheUnderConcurrentChanges(t *testing.T) {
	t.Parallel()
	c := newManifestCache(32<<10, prometheusRegistry())
	c.changed(true)
	done := make(chan struct{})
	var wg sync.WaitGroup
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
				k := manifestKey{"npm", fmt.Sprintf("p%d-%d", w, i%200), "1.0.0"}
				if _, gen, ok := c.get(k); !ok {
					if _, err := c.put(k, gen, &api.Manifest{Name: k.name + strings.Repeat("x", i%300)}); err != nil {
						t.Error(err)
						return
					}
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
	if held != c.bytes || c.bytes > c.limit {
		t.Fatalf("counted %d bytes, held %d, limit %d", c.bytes, held, c.limit)
	}
}
