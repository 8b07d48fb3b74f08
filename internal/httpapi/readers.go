package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/methodology"
)

func (s *Server) listPackages(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit")) // validated by the contract; 0 is the default
	list, err := rd.ListPackages(r.Context(), api.PackageFilter{
		Registry: q.Get("registry"), Grade: q.Get("grade"), Verdict: q.Get("verdict"), Reason: q.Get("reason"),
		Query: q.Get("q"), Cursor: q.Get("cursor"), Limit: limit,
	})
	if err != nil {
		return readError(err)
	}
	if reason := q.Get("reason"); reason != "" && list.Counts.ByReason[reason] == 0 {
		gm, err := rd.GateMap(r.Context(), methodology.Version)
		if err != nil {
			return readError(err)
		}
		if _, known := gm.Lookup(reason); !known {
			// Neither a code of the gate map in force nor one a published
			// version still carries: a typo, not an empty result. The
			// grades page answers the same.
			return &Problem{Status: http.StatusBadRequest, Detail: detailReasonUnknown}
		}
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	return writeJSON(w, http.StatusOK, list)
}

func (s *Server) getPackage(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	ctx := r.Context()
	d, err := rd.Package(ctx, param(ctx, "registry"), param(ctx, "name"), param(ctx, "version"))
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", cacheShort)
	return writeJSON(w, http.StatusOK, d)
}

func (s *Server) getGateMap(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	gm, err := rd.GateMap(r.Context(), methodology.Version)
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", cacheShort)
	return writeJSON(w, http.StatusOK, gm)
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	runs, err := rd.ListRuns(r.Context(), q.Get("cursor"), limit)
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	return writeJSON(w, http.StatusOK, runs)
}

func (s *Server) getRunDiff(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	d, err := rd.RunDiff(r.Context(), param(r.Context(), "id"))
	if err != nil {
		return readError(err)
	}
	w.Header().Set("Cache-Control", cacheShort)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(append(d, '\n'))
	return err
}

// listChanges answers GET /changes: one page of the change feed after the
// cursor. A page is cacheable for a minute, and its strong ETag (a hash of
// the body) lets a poller revalidate for the cost of a 304.
func (s *Server) listChanges(w http.ResponseWriter, r *http.Request) error {
	rd, err := s.reader()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	list, err := rd.Changes(r.Context(), q.Get("since"), limit)
	if err != nil {
		return readError(err)
	}
	body, err := json.Marshal(list)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	w.Header().Set("Cache-Control", "public, max-age=60")
	w.Header().Set("ETag", etag)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(append(body, '\n'))
	return err
}
