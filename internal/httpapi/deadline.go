package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/attestari/attestari/api"
)

// DefaultRequestDeadline bounds the database work of one request when
// Options.RequestDeadline is zero. It is longer than the store's default
// statement_timeout (5 s), so a statement the server cancels is reported as
// that, and shorter than cmd/attestari-api's write timeout less its read
// timeout, so the answer is written before the server gives up on the
// connection.
const DefaultRequestDeadline = 10 * time.Second

// Why a deadline on the database reads and not a timer on every request.
// Only the database can keep a handler waiting: the rest of a request is
// computation, and writing to a slow client is bounded by the server's
// write timeout. A statement_timeout cannot end a wait for a server that
// does not run (frozen, or its host unreachable with the TCP connection
// still open), and waiting for a pooled connection is no statement at all:
// only a deadline on the context does. Putting it at the Reader boundary
// means GET /manifest answered from the cache, the gateways' hot path, sets
// no timer at all; a timer context on every request cost that path 5
// allocations (592 B) and about a tenth of its CPU in
// BenchmarkManifestServiceCached (docs/reliability.md, section 6).

// deadlineReader gives every Reader call its own deadline. Each JSON
// handler makes one call; the website's pages, which make two, bound both
// with one deadline for the page (pageDeadline).
//
// Every Reader method must be overridden here, or it runs without a
// deadline: TestEveryReaderMethodHasADeadline checks it.
type deadlineReader struct {
	Reader
	d time.Duration
}

func (r deadlineReader) Manifest(ctx context.Context, registry, name, version, cursor string) (*api.Manifest, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Manifest(ctx, registry, name, version, cursor)
}

func (r deadlineReader) Lookup(ctx context.Context, keys []api.PackageKey) ([]api.LookupItem, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Lookup(ctx, keys)
}

func (r deadlineReader) VersionDiff(ctx context.Context, registry, name, from, to string) (*api.VersionDiff, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.VersionDiff(ctx, registry, name, from, to)
}

func (r deadlineReader) ListPackages(ctx context.Context, f api.PackageFilter) (*api.PackageList, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.ListPackages(ctx, f)
}

func (r deadlineReader) Package(ctx context.Context, registry, name, version string) (*api.PackageDetail, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Package(ctx, registry, name, version)
}

func (r deadlineReader) History(ctx context.Context, registry, name string) ([]api.VersionHistoryEntry, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.History(ctx, registry, name)
}

func (r deadlineReader) GateMap(ctx context.Context, methodologyVersion string) (*api.GateMap, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.GateMap(ctx, methodologyVersion)
}

func (r deadlineReader) Finding(ctx context.Context, id string) (*api.FindingDetail, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Finding(ctx, id)
}

func (r deadlineReader) Evidence(ctx context.Context, sha256 string) (*api.Blob, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Evidence(ctx, sha256)
}

func (r deadlineReader) ListRuns(ctx context.Context, cursor string, limit int) (*api.RunList, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.ListRuns(ctx, cursor, limit)
}

func (r deadlineReader) RunDiff(ctx context.Context, runID string) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.RunDiff(ctx, runID)
}

func (r deadlineReader) Changes(ctx context.Context, cursor string, limit int) (*api.ChangeList, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Changes(ctx, cursor, limit)
}

func (r deadlineReader) Attestation(ctx context.Context, registry, name, version string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Attestation(ctx, registry, name, version)
}

func (r deadlineReader) LatestPass(ctx context.Context) (*api.Pass, error) {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.LatestPass(ctx)
}

// Ping has its own, shorter bound in readyz; it is here so that every
// method of Reader is, and the check above holds without exceptions.
func (r deadlineReader) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.d)
	defer cancel()
	return r.Reader.Ping(ctx)
}

// pageDeadline bounds all the reads of one website page by one deadline.
// Pages are not the gateways' hot path, and rendering one costs far more
// than a timer.
func (s *Server) pageDeadline(r *http.Request) (*http.Request, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestDeadline)
	return r.WithContext(ctx), cancel
}
