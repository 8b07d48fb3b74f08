package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5/middleware"
)

// Problem is an error a client may see: an RFC 9457 body with a fixed,
// client-safe detail. Anything that is not a *Problem renders as a 500 whose
// cause goes only to the log.
type Problem struct {
	Status        int      `json:"status"`
	Type          string   `json:"type"`
	Title         string   `json:"title"`
	Detail        string   `json:"detail,omitempty"`
	Instance      string   `json:"instance,omitempty"`
	KnownVersions []string `json:"known_versions,omitempty"`
	Registries    []string `json:"registries,omitempty"`
	RetryAfter    int      `json:"-"`
	// cause is why a fault answered as this problem (a 503 or 504 from
	// the database), for the log only.
	cause error
}

func (p *Problem) Error() string { return strconv.Itoa(p.Status) + " " + p.Detail }

// render writes err as problem+json. It is the only writer of error bodies.
func render(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var p *Problem
	if !errors.As(err, &p) {
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path,
			"request_id", middleware.GetReqID(r.Context()), "error", err.Error())
		p = &Problem{Status: http.StatusInternalServerError, Detail: "internal error; the request id in the log identifies it"}
	}
	logCause(r, log, p)
	out := *p
	if out.Type == "" {
		out.Type = "about:blank"
	}
	if out.Title == "" {
		out.Title = http.StatusText(out.Status)
	}
	if out.Instance == "" {
		out.Instance = r.URL.Path
	}
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	if out.Status == http.StatusTooManyRequests && h.Get("Retry-After") == "" {
		h.Set("Retry-After", "60")
	}
	if out.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(out.RetryAfter))
	}
	w.WriteHeader(out.Status)
	_ = json.NewEncoder(w).Encode(out)
}

// writeJSON writes v with status 200 unless the handler set another.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header()["Content-Type"] = hdrJSON
	w.WriteHeader(status)
	if _, err = w.Write(b); err != nil {
		return err
	}
	_, err = w.Write(newline)
	return err
}

var (
	hdrJSON = []string{"application/json"}
	newline = []byte{'\n'}
)

// logCause writes why a fault became p, when it did: the client sees only
// p's fixed detail.
func logCause(r *http.Request, log *slog.Logger, p *Problem) {
	if p.cause != nil {
		log.WarnContext(r.Context(), "database fault", "method", r.Method, "path", r.URL.Path, "status", p.Status,
			"request_id", middleware.GetReqID(r.Context()), "error", p.cause.Error())
	}
}
