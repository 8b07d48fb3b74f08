package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
// under and is dropped if the generation moved (see put).
type manifestCache struct {
	live  atomic.Bool
	limit int // bytes of bodies held at most

	mu      sync.RWMutex
	gen     uint64
	entries map[manifestKey]*cachedManifest
	bytes   int

	hits, misses, bypass prometheus.Counter
}

type manifestKey struct{ registry, name, version string }

type cachedManifest struct {
	// etag is the SHA-256 of body: a strong validator changes with every
	// byte a client receives. The manifest hash cannot serve: a version's
	// grade (after an appeal) and stamps (with a newer publication) change
	// while its attested tools, and so its manifest hash, do not, and a
	// cache revalidating with the manifest hash would keep the old grade.
	etag string
	body []byte // the JSON body exactly as writeJSON would write it, newline included
}

// defaultManifestCacheBytes bounds the cache when Options does not: a
// manifest is typically 1–20 KB, so this holds tens of thousands.
const defaultManifestCacheBytes = 64 << 20

func newManifestCache(limit int, reg prometheus.Registerer) *manifestCache {
	c := &manifestCache{limit: limit, entries: map[manifestKey]*cachedManifest{}}
	v := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "attestari_manifest_cache_total",
		Help: "GET /manifest answers by cache outcome: hit, miss (read from the database, then kept when it may be), bypass (cache off or not live).",
	}, []string{"result"})
	reg.MustRegister(v)
	c.hits, c.misses, c.bypass = v.WithLabelValues("hit"), v.WithLabelValues("miss"), v.WithLabelValues("bypass")
	return c
}

// get returns the cached answer for k, and the generation a fill for k must
// carry. ok is false when the cache is not live or holds nothing for k.
func (c *manifestCache) get(k manifestKey) (m *cachedManifest, gen uint64, ok bool) {
	if c == nil || c.limit <= 0 || !c.live.Load() {
		if c != nil {
			c.bypass.Inc()
		}
		return nil, 0, false
	}
	c.mu.RLock()
	m, ok = c.entries[k]
	gen = c.gen
	c.mu.RUnlock()
	if ok {
		c.hits.Inc()
	} else {
		c.misses.Inc()
	}
	return m, gen, ok
}

// put encodes m and keeps it under k if nothing changed since gen was read.
// It returns the entry to write either way.
func (c *manifestCache) put(k manifestKey, gen uint64, m *api.Manifest) (*cachedManifest, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	body := append(b, '\n')
	sum := sha256.Sum256(body)
	e := &cachedManifest{etag: `"` + hex.EncodeToString(sum[:]) + `"`, body: body}
	if c == nil || c.limit <= 0 || !c.live.Load() || len(e.body) > c.limit/16 {
		return e, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
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

// changed empties the cache and sets whether it may be used.
func (c *manifestCache) changed(live bool) {
	c.mu.Lock()
	c.gen++
	clear(c.entries)
	c.bytes = 0
	c.live.Store(live)
	c.mu.Unlock()
}

// PublicationsChanged tells the server that the set of published rows may
// have changed (a publication was loaded) and whether it will keep being
// told: live true means the caller listens for every change from now on,
// so answers may be cached until the next call; false stops caching.
// cmd/attestari-api wires it to store.WatchPublications.
func (s *Server) PublicationsChanged(live bool) { s.manifests.changed(live) }
