package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/attestari/attestari/api"
)

// getAttestation answers GET /attestations/{name}/{version}: the signed
// attestation of the version a lookup serves, byte for byte as published
// (docs/attestations.md), with a strong ETag of its bytes.
func (s *Server) getAttestation(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	return s.serveAttestation(w, r, r.URL.Query().Get("registry"), param(ctx, "name"), param(ctx, "version"))
}

// getAttestationByPurl answers GET /attestations?purl=.
func (s *Server) getAttestationByPurl(w http.ResponseWriter, r *http.Request) error {
	k, err := api.ParsePURL(r.URL.Query().Get("purl"))
	if err != nil {
		return &Problem{Status: http.StatusBadRequest, Detail: "parameter \"purl\" in query is invalid: " + strings.TrimPrefix(err.Error(), api.ErrBadPURL.Error()+": ")}
	}
	return s.serveAttestation(w, r, k.Registry, k.Name, k.Version)
}

func (s *Server) serveAttestation(w http.ResponseWriter, r *http.Request, registry, name, version string) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	env, err := rd.Attestation(r.Context(), registry, name, version)
	if err != nil {
		return readError(err)
	}
	sum := sha256.Sum256(env)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	w.Header().Set("Cache-Control", cacheShort)
	w.Header().Set("ETag", etag)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.Header()["Content-Type"] = hdrJSON
	_, err = w.Write(env)
	return err
}

// getAttestationKeys answers the well-known key set path with the key set
// the operator configured, as configured.
func (s *Server) getAttestationKeys(w http.ResponseWriter, r *http.Request) error {
	if s.opts.AttestationKeys == nil {
		return &Problem{Status: http.StatusNotFound, Detail: detailNoKeys}
	}
	w.Header().Set("Cache-Control", cacheShort)
	w.Header()["Content-Type"] = hdrJSON
	_, err := w.Write(s.opts.AttestationKeys)
	return err
}
