package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// asset is one embedded static file, read once at start-up.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// loadAssets reads every regular file under dir of fsys (the embedded web
// assets, a tree the build controls) into memory.
func loadAssets(fsys fs.FS, dir string) (map[string]*asset, error) {
	out := map[string]*asset{}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = "application/octet-stream"
		}
		sum := sha256.Sum256(b)
		out[strings.TrimPrefix(p, dir+"/")] = &asset{body: b, contentType: ct, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
		return nil
	})
	return out, err
}

// staticAsset serves /static/<file> from the embedded assets. Only a file
// that exists is served: a directory (/static/ itself included) has no
// listing, and anything else is the website's 404 page, never net/http's
// text/plain one. Ranges are not served (the assets are small): a Range
// header is ignored and the whole file answers 200, which RFC 9110 allows.
func (s *Server) staticAsset(w http.ResponseWriter, r *http.Request) {
	a, ok := s.site.assets[strings.TrimPrefix(r.URL.Path, "/static/")]
	if !ok {
		s.notFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("ETag", a.etag)
	if etagMatches(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", a.contentType)
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(a.body)
}
