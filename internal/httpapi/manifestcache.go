package httpapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/attestari/attestari/api"
	"github.com/prometheus/client_golang/prometheus"
)

// manifestCache holds encoded GET /manifest answers so the gateways' hot
// path does not go to the database for a row it has already served.
//
// What it may serve is exactly what the database would answer now, so it is
// only consulted while something tells it, reliably, when the published set
// changes: the server's owner calls PublicationsChanged(true) once it
// listens for the loader's notifications (and on every notification), and
// PublicationsChanged(false) when it stops listening. A cache nobody
// watches for is never used: a server without a watcher reads the database
// on every request, as before.
//
// A read that started before a change must not store what it read after
// the change was announced: each fill carries the generation it began
// under and is dropped if the generation moved (see fill).
//
// Concurrent requests for an address the cache does not hold share one
// read (load): the first reads, the others wait for its answer, so forty
// requests for one large page cost one query, not forty.
//
// Entries are pages (api.ManifestPageTools, api.ManifestPageBytes), so an
// entry is small whatever a package registers; one larger than a
// sixteenth of the bound (a single enormous tool) is served but not kept.
// A kept entry is also kept gzip-compressed, made once on the first request
// that accepts gzip, so a client asking for it compressed does not cost a
// compression per request.
type manifestCache struct {
	live  atomic.Bool
	limit int // bytes of bodies held at most

	mu       sync.RWMutex
	gen      uint64
	entries  map[manifestKey]*cachedManifest
	inflight map[manifestKey]*manifestRead
	bytes    int

	hits, misses, bypass, shared prometheus.Counter
}

// manifestKey is an address: a version, and the cursor of one of its pages
// ("" for the first).
type manifestKey struct{ registry, name, version, cursor string }

type cachedManifest struct {
	// etag is the SHA-256 of body: a strong validator changes with every
	// byte a client receives. The manifest hash cannot serve: a version's
	// grade (after an appeal) and stamps (with a newer publication) change
	// while its attested tools, and so its manifest hash, do not, and a
	// cache revalidating with the manifest hash would keep the old grade.
	etag string
	body []byte // the JSON body exactly as writeJSON would write it, newline included
	next string // the next page's cursor, "" on the last page

	gzOnce sync.Once
	gz     []byte // body gzip-compressed as the compression middleware would, once asked for
}

// manifestRead is one read that concurrent requests for a key share.
type manifestRead struct {
	done    chan struct{}
	e       *cachedManifest
	err     error
	waiters int // requests waiting on it, under manifestCache.mu
}

// compressLevel is the compression middleware's level; a cached gzip body
// is made at the same level, so it is the bytes the middleware would send.
const compressLevel = 5

// defaultManifestCacheBytes bounds the cache when Options does not: a
// manifest page is typically 1–20 KB, and at most a few hundred, so this
// holds thousands.
const defaultManifestCacheBytes = 64 << 20

func newManifestCache(limit int, reg prometheus.Registerer) *manifestCache {
	c := &manifestCache{limit: limit, entries: map[manifestKey]*cachedManifest{}, inflight: map[manifestKey]*manifestRead{}}
	v := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "attestari_manifest_cache_total",
		Help: "GET /manifest answers by cache outcome: hit, miss (read from the database, then kept when it may be), shared (waited for another request's read of the same page), bypass (cache off or not live).",
	}, []string{"result"})
	reg.MustRegister(v)
	c.hits, c.misses, c.bypass, c.shared = v.WithLabelValues("hit"), v.WithLabelValues("miss"), v.WithLabelValues("bypass"), v.WithLabelValues("shared")
	return c
}

// encode is the entry of m: its body as writeJSON writes it, and its tag.
func encode(m *api.Manifest) (*cachedManifest, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	body := append(b, '\n')
	sum := sha256.Sum256(body)
	e := &cachedManifest{etag: `"` + hex.EncodeToString(sum[:]) + `"`, body: body}
	if m.NextCursor != nil {
		e.next = *m.NextCursor
	}
	return e, nil
}

// hit returns the cached answer for k when the cache is live and holds one:
// the hot path, which allocates nothing.
func (c *manifestCache) hit(k manifestKey) (*cachedManifest, bool) {
	if c == nil || c.limit <= 0 || !c.live.Load() {
		return nil, false
	}
	c.mu.RLock()
	e, ok := c.entries[k]
	c.mu.RUnlock()
	if ok {
		c.hits.Inc()
	}
	return e, ok
}

// load answers k from the cache, else from read, which runs once for all
// the requests for k that arrive while it runs. acquire is called, and
// release after read, only by the request that reads; acquire false is
// the errClientBusy refusal. A read that fails for its own request's
// reasons (its client went away, or is over its bound) is not handed on:
// the requests that waited for it try again themselves.
func (c *manifestCache) load(ctx context.Context, k manifestKey, acquire func() bool, release func(), read func(context.Context) (*api.Manifest, error)) (*cachedManifest, error) {
	if c == nil || c.limit <= 0 || !c.live.Load() {
		if c != nil {
			c.bypass.Inc()
		}
		if !acquire() {
			return nil, errClientBusy
		}
		defer release()
		m, err := read(ctx)
		if err != nil {
			return nil, err
		}
		return encode(m)
	}
	for {
		if e, ok := c.hit(k); ok {
			return e, nil
		}
		c.mu.Lock()
		if e, ok := c.entries[k]; ok {
			c.mu.Unlock()
			c.hits.Inc()
			return e, nil
		}
		if f, ok := c.inflight[k]; ok {
			f.waiters++
			c.mu.Unlock()
			c.shared.Inc()
			select {
			case <-f.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if f.err != nil && (isClientBusy(f.err) || errors.Is(f.err, errReadAbandoned) || errors.Is(f.err, context.Canceled) || errors.Is(f.err, context.DeadlineExceeded)) {
				continue
			}
			return f.e, f.err
		}
		if !acquire() {
			c.mu.Unlock()
			return nil, errClientBusy
		}
		// Until fill returns, the read counts as abandoned: if it panics,
		// the requests waiting on it read for themselves instead of
		// waiting for ever, and later requests start a read of their own.
		f := &manifestRead{done: make(chan struct{}), err: errReadAbandoned}
		c.inflight[k] = f
		gen := c.gen
		c.mu.Unlock()
		c.misses.Inc()
		defer c.finish(k, f)
		f.e, f.err = c.fill(ctx, k, gen, release, read)
		return f.e, f.err
	}
}

// errReadAbandoned is what a shared read that never returned (it panicked)
// hands its waiters, who then try again.
var errReadAbandoned = errors.New("manifest cache: the shared read did not finish")

// finish ends the read f of k: later requests read anew, waiters wake.
func (c *manifestCache) finish(k manifestKey, f *manifestRead) {
	c.mu.Lock()
	if c.inflight[k] == f {
		delete(c.inflight, k)
	}
	c.mu.Unlock()
	close(f.done)
}

// fill reads k and keeps the answer if nothing changed since gen was read.
func (c *manifestCache) fill(ctx context.Context, k manifestKey, gen uint64, release func(), read func(context.Context) (*api.Manifest, error)) (*cachedManifest, error) {
	m, err := func() (*api.Manifest, error) {
		defer release() // even if read panics
		return read(ctx)
	}()
	if err != nil {
		return nil, err
	}
	e, err := encode(m)
	if err != nil {
		return nil, err
	}
	if len(e.body) > c.limit/16 {
		return e, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || !c.live.Load() {
		return e, nil // a publication landed while this was read
	}
	if old, ok := c.entries[k]; ok {
		c.bytes -= len(old.body)
	}
	c.entries[k] = e
	c.bytes += len(e.body)
	// Over the bound: drop entries in map order (effectively at random)
	// until a quarter of the room is free again.
	if c.bytes > c.limit {
		for key, v := range c.entries {
			if c.bytes <= c.limit*3/4 {
				break
			}
			delete(c.entries, key)
			c.bytes -= len(v.body)
		}
	}
	return e, nil
}

// gzipped is the entry's body compressed as the compression middleware
// compresses (gzip, the same level), made once.
func (e *cachedManifest) gzipped() []byte {
	e.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, err := gzip.NewWriterLevel(&b, compressLevel)
		if err != nil {
			return
		}
		if _, err := zw.Write(e.body); err != nil {
			return
		}
		if zw.Close() == nil {
			e.gz = b.Bytes()
		}
	})
	return e.gz
}

// changed empties the cache and sets whether it may be used.
func (c *manifestCache) changed(live bool) {
	c.mu.Lock()
	c.gen++
	clear(c.entries)
	// Reads begun before the change finish for the requests waiting on
	// them; a request arriving from now on reads anew.
	clear(c.inflight)
	c.bytes = 0
	c.live.Store(live)
	c.mu.Unlock()
}

// PublicationsChanged tells the server that the set of published rows may
// have changed (a publication was loaded) and whether it will keep being
// told: live true means the caller listens for every change from now on,
// so answers may be cached until the next call; false stops caching.
// cmd/attestari-api wires it to store.WatchPublications.
func (s *Server) PublicationsChanged(live bool) {
	s.watch.set(live)
	s.manifests.changed(live)
}
