package httpapi

import (
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
	return s.serveManifest(w, r, manifestKey{r.URL.Query().Get("registry"), param(ctx, "name"), param(ctx, "version")}, true)
}

// serveManifest answers GET /manifest for k from the cache when it may, else
// from the database (keeping the answer for the next request).
func (s *Server) serveManifest(w http.ResponseWriter, r *http.Request, k manifestKey, conditional bool) error {
	e, gen, ok := s.manifests.get(k)
	if !ok {
		rd, err := s.reader()
		if err != nil {
			return err
		}
		m, err := rd.Manifest(r.Context(), k.registry, k.name, k.version)
		if err != nil {
			return readError(err)
		}
		if e, err = s.manifests.put(k, gen, m); err != nil {
			return err
		}
	}
	// Canonical keys assigned directly: this is the gateways' hot path.
	h := w.Header()
	h["Etag"] = []string{e.etag}
	h["Cache-Control"] = hdrCacheShort
	h["Vary"] = hdrVaryEncoding
	if conditional && etagMatches(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h["Content-Type"] = hdrJSON
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(e.body)
	return err
}

func (s *Server) getManifestByPurl(w http.ResponseWriter, r *http.Request) error {
	k, err := api.ParsePURL(r.URL.Query().Get("purl"))
	if err != nil {
		return &Problem{Status: http.StatusBadRequest, Detail: "parameter \"purl\" in query is invalid: " + strings.TrimPrefix(err.Error(), api.ErrBadPURL.Error()+": ")}
	}
	return s.serveManifest(w, r, manifestKey{k.Registry, k.Name, k.Version}, false)
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
