package httpapi

import (
	"mime"
	"net/http"
	"strings"
)

func (s *Server) getFinding(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	f, err := rd.Finding(r.Context(), param(r.Context(), "id"))
	if err != nil {
		return readError(err)
	}
	// An appeal can change the status: a short cache only.
	w.Header().Set("Cache-Control", "public, max-age=60")
	return writeJSON(w, http.StatusOK, f)
}

// servedType maps a blob's recorded content type to one the contract lists.
// Anything textual is served as text/plain, so no blob is ever interpreted as
// a page or a script by a browser (nosniff and the CSP hold the rest).
func servedType(recorded string) string {
	mt, _, err := mime.ParseMediaType(recorded)
	switch {
	case err != nil:
		return "application/octet-stream"
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return "application/json"
	case strings.HasPrefix(mt, "text/") || mt == "application/javascript" || mt == "application/x-python-code":
		return "text/plain; charset=utf-8"
	}
	return "application/octet-stream"
}

func (s *Server) getEvidence(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	sha := param(r.Context(), "sha256")
	b, err := rd.Evidence(r.Context(), sha)
	if err != nil {
		return readError(err)
	}
	h := w.Header()
	etag := `"` + b.SHA256 + `"`
	h.Set("ETag", etag)
	h.Set("Cache-Control", cacheImmutable)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", servedType(b.ContentType))
	// The bytes are a third party's: should a browser open them, they run
	// nothing and load nothing.
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Content-Disposition", "inline; filename=\""+b.SHA256+"\"")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b.Body)
	return err
}
