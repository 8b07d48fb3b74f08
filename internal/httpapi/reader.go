package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/vocab"
)

// Reader is everything the service reads. Package store satisfies it; every
// method returns only what a loaded publication holds. Errors are classified
// with the api package's values: vocab.ErrNotFound (or *api.VersionNotFoundError),
// *api.AmbiguousNameError, vocab.ErrBadCursor, vocab.ErrUnavailable (503) and
// vocab.ErrTimeout or context.DeadlineExceeded (504); anything else is a 500.
type Reader interface {
	Ping(ctx context.Context) error
	Manifest(ctx context.Context, registry, name, version, cursor string) (*api.Manifest, error)
	Lookup(ctx context.Context, keys []api.PackageKey) ([]api.LookupItem, error)
	VersionDiff(ctx context.Context, registry, name, from, to string) (*api.VersionDiff, error)
	ListPackages(ctx context.Context, f api.PackageFilter) (*api.PackageList, error)
	Package(ctx context.Context, registry, name, version string) (*api.PackageDetail, error)
	History(ctx context.Context, registry, name string) ([]api.VersionHistoryEntry, error)
	GateMap(ctx context.Context, methodologyVersion string) (*api.GateMap, error)
	Finding(ctx context.Context, id string) (*api.FindingDetail, error)
	Evidence(ctx context.Context, sha256 string) (*api.Blob, error)
	ListRuns(ctx context.Context, cursor string, limit int) (*api.RunList, error)
	RunDiff(ctx context.Context, runID string) (json.RawMessage, error)
	Changes(ctx context.Context, cursor string, limit int) (*api.ChangeList, error)
	Attestation(ctx context.Context, registry, name, version string) ([]byte, error)
	LatestPass(ctx context.Context) (*api.Pass, error)
}

var errNoDatabase = &Problem{Status: http.StatusServiceUnavailable, Detail: "no database configured", RetryAfter: 5}

// reader returns the configured Reader with its deadline, or a 503 problem
// without one.
func (s *Server) reader() (Reader, error) {
	if s.rd == nil {
		return nil, errNoDatabase
	}
	return s.rd, nil
}

// Client-facing details of read failures: fixed strings, one for each
// failure kind of internal/vocab (failureDetail) and for the two errors
// that carry more than a kind.
const (
	detailNotPublished   = "nothing published at this address"
	detailVersionUnknown = "this version is not published; known_versions lists the versions that are"
	detailAmbiguous      = "the name is published on more than one registry; pass ?registry= with one of registries"
	detailBadCursor      = "the cursor is not one this service issued; start again without it"
	detailNoKeys         = "this service signs no attestations: no key set is configured"
	detailReasonUnknown  = "the reason is not a code of the gate map in force and no published version carries it; GET /gate_map.json lists the codes"
	detailUnavailable    = "the database is not answering; retry after the number of seconds in Retry-After"
	detailTimeout        = "the database did not answer in time; retry after the number of seconds in Retry-After"
)

// failureDetail is the detail of each failure kind's answer.
var failureDetail = map[string]string{
	"not_found":   detailNotPublished,
	"bad_cursor":  detailBadCursor,
	"unavailable": detailUnavailable,
	"timeout":     detailTimeout,
}

// retryAfterFault is the Retry-After of a 503 or 504 for a database fault:
// what a restart or a failover usually takes.
const retryAfterFault = 5

// readError turns a Reader error into the problem a client sees.
func readError(err error) error {
	var amb *api.AmbiguousNameError
	var nf *api.VersionNotFoundError
	switch {
	case errors.As(err, &amb):
		return &Problem{Status: http.StatusConflict, Detail: detailAmbiguous, Registries: amb.Registries}
	case errors.As(err, &nf) && len(nf.KnownVersions) > 0:
		return &Problem{Status: http.StatusNotFound, Detail: detailVersionUnknown, KnownVersions: nf.KnownVersions}
	}
	// The failure table gives the status; a kind that may pass carries
	// Retry-After and its cause goes to the log. A Reader other than the
	// store may hand back a passed deadline as it is: that is a timeout.
	if k, ok := vocab.FailureOf(err); ok {
		p := &Problem{Status: k.Status, Detail: failureDetail[k.Name]}
		if k.Transient {
			p.RetryAfter, p.cause = retryAfterFault, err
		}
		return p
	}
	return err
}
