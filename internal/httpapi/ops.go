package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/attestari/attestari/internal/methodology"
)

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if s.opts.Reader == nil {
		return &Problem{Status: http.StatusServiceUnavailable, Detail: "no database configured"}
	}
	if err := s.opts.Reader.Ping(ctx); err != nil {
		s.log.WarnContext(r.Context(), "readiness check failed", "error", err.Error())
		return &Problem{Status: http.StatusServiceUnavailable, Detail: "the database is not answering", RetryAfter: 5}
	}
	if p := s.watch.unready(); p != nil {
		return p
	}
	return writeJSON(w, http.StatusOK, s.readyBody())
}

type methodologyVersion struct {
	Version           string   `json:"version"`
	SHA256            string   `json:"sha256"`
	URL               string   `json:"url"`
	ExtractorVersions []string `json:"extractor_versions,omitempty"`
}

func extractorsFor(version string) []string {
	var out []string
	for _, p := range methodology.VersionTable() {
		if p.Methodology == version {
			out = append(out, p.Extractor)
		}
	}
	return out
}

func (s *Server) methodology(w http.ResponseWriter, r *http.Request) error {
	var versions []methodologyVersion
	for _, sn := range methodology.Snapshots() {
		versions = append(versions, methodologyVersion{Version: sn.Version, SHA256: sn.SHA256, URL: "/methodology/" + sn.Version, ExtractorVersions: extractorsFor(sn.Version)})
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	return writeJSON(w, http.StatusOK, map[string]any{
		"version": methodology.Version, "sha256": methodology.SHA256(), "current": true, "versions": versions,
	})
}

func (s *Server) methodologyVersion(w http.ResponseWriter, r *http.Request) error {
	v := param(r.Context(), "version")
	sn, ok := methodology.Snapshot(v)
	if !ok {
		return &Problem{Status: http.StatusNotFound, Detail: "no published methodology has that version; GET /methodology lists them"}
	}
	w.Header().Set("Cache-Control", cacheImmutable)
	w.Header().Set("ETag", `"`+sn.SHA256+`"`)
	if r.URL.Query().Get("format") == "markdown" {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		_, err := w.Write(sn.Bytes)
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{
		"version": sn.Version, "sha256": sn.SHA256, "current": sn.Version == methodology.Version,
		"extractor_versions": extractorsFor(sn.Version), "document": string(sn.Bytes),
	})
}
