package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/attestari/attestari/api"
)

// Caching of current rows. A package version's attested tools never change
// (the artifact and the extractor are fixed), but the row served for it does:
// its grade after an appeal, its stamps with every newer publication. So a
// cache keeps it a few minutes and then revalidates; the ETag (a hash of the
// body) answers 304 only while the body is the same.
const cacheShort = "public, max-age=300"

// cacheImmutable is for content-addressed answers (evidence by SHA-256, a
// methodology snapshot): the address names the bytes, which never change.
const cacheImmutable = "public, max-age=31536000, immutable"

var (
	hdrCacheShort   = []string{cacheShort}
	hdrVaryEncoding = []string{"Accept-Encoding"}
)

// etagMatches implements If-None-Match for strong tags: "*" or any listed tag
// equal to etag (a weak W/ prefix on the client's side is ignored, as
// RFC 9110 §13.1.2 has If-None-Match use the weak comparison).
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

func (s *Server) getManifest(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q := r.URL.Query()
	return s.serveManifest(w, r, manifestKey{q.Get("registry"), param(ctx, "name"), param(ctx, "version"), q.Get("cursor")}, true)
}

// serveManifest answers GET /manifest for k (one page of a version's
// manifest) from the cache when it may, else from the database, counted
// against the client's bound on database-bound requests.
func (s *Server) serveManifest(w http.ResponseWriter, r *http.Request, k manifestKey, conditional bool) error {
	e, ok := s.manifests.hit(k)
	if !ok {
		var err error
		if e, err = s.loadManifest(r, k); err != nil {
			return err
		}
	}
	// Canonical keys assigned directly: this is the gateways' hot path.
	h := w.Header()
	h["Etag"] = []string{e.etag}
	h["Cache-Control"] = hdrCacheShort
	h["Vary"] = hdrVaryEncoding
	if e.next != "" {
		h["Link"] = []string{nextPageLink(r, e.next)}
	}
	if conditional && etagMatches(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h["Content-Type"] = hdrJSON
	body := e.body
	if acceptsGzip(r) {
		if gz := e.gzipped(); gz != nil {
			h["Content-Encoding"] = hdrGzip
			body = gz
		}
	}
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// loadManifest reads k through the cache's shared reads, counted against
// the client's bound on database-bound requests.
func (s *Server) loadManifest(r *http.Request, k manifestKey) (*cachedManifest, error) {
	rd, err := s.reader()
	if err != nil {
		return nil, err
	}
	client := ""
	return s.manifests.load(r.Context(), k,
		func() bool { client = costKey(r); return s.cost.acquire(client) },
		func() { s.cost.release(client) },
		func(ctx context.Context) (*api.Manifest, error) {
			m, err := rd.Manifest(ctx, k.registry, k.name, k.version, k.cursor)
			return m, readError(err)
		})
}

var hdrGzip = []string{"gzip"}

// acceptsGzip is the compression middleware's own test for choosing gzip
// (a listed coding that contains "gzip", which is the whole header
// containing it, in any case), so a cached compressed body goes exactly to
// the requests the middleware would have compressed.
func acceptsGzip(r *http.Request) bool {
	h := r.Header.Get("Accept-Encoding")
	return h != "" && strings.Contains(strings.ToLower(h), "gzip")
}

// nextPageLink is the RFC 8288 Link to the next page: the request's own
// address with the cursor replaced, so it keeps the form the client used
// (a path or a purl, a registry or none).
func nextPageLink(r *http.Request, cursor string) string {
	q := r.URL.Query()
	q.Set("cursor", cursor)
	return "<" + r.URL.EscapedPath() + "?" + q.Encode() + `>; rel="next"`
}

func (s *Server) getManifestByPurl(w http.ResponseWriter, r *http.Request) error {
	k, err := api.ParsePURL(r.URL.Query().Get("purl"))
	if err != nil {
		return &Problem{Status: http.StatusBadRequest, Detail: "parameter \"purl\" in query is invalid: " + strings.TrimPrefix(err.Error(), api.ErrBadPURL.Error()+": ")}
	}
	return s.serveManifest(w, r, manifestKey{k.Registry, k.Name, k.Version, r.URL.Query().Get("cursor")}, false)
}

func (s *Server) postLookup(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	var req api.LookupRequest
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&req); err != nil {
		// The contract validated the body already; this is a defect or a race.
		return &Problem{Status: http.StatusBadRequest, Detail: "request body is not a lookup request"}
	}
	if len(req.Items) == 0 || len(req.Items) > api.MaxLookupItems {
		return &Problem{Status: http.StatusBadRequest, Detail: "items must hold 1 to 1000 package versions"}
	}
	items, err := rd.Lookup(r.Context(), req.Items)
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, api.LookupResponse{Items: items})
}

func (s *Server) getVersionDiff(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	ctx := r.Context()
	d, err := rd.VersionDiff(ctx, r.URL.Query().Get("registry"), param(ctx, "name"), param(ctx, "from"), param(ctx, "to"))
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", cacheShort)
	return writeJSON(w, http.StatusOK, d)
}
