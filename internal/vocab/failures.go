package vocab

import (
	"context"
	"errors"
)

// Stages of a package as summary.json records them; each check's stage is
// its check id.
const (
	StageFetch   = "fetch"
	StageSurface = "surface"
	StageGate    = "gate"
	// StagePipeline is a failure outside any stage: a bug in the pipeline.
	StagePipeline = "pipeline"
)

// Failure kinds of a package stage (the kind of a failure row in
// summary.json). A fetch failure's kind is the fetch's record outcome
// (Record*: not_found, integrity_mismatch, no_integrity, too_large,
// http_error, network_error, malformed, invalid_request, canceled); the rest
// are these.
const (
	FailureRegistryNotConfigured = "registry_not_configured"
	FailureNoMatchingVersion     = "no_matching_version"
	FailureInvalidSpecifier      = "invalid_specifier"
	FailureUnsupportedSpecifier  = "unsupported_specifier"
	FailureNoDistribution        = "no_distribution"
	FailureEvidenceStore         = "evidence_store"
	FailureCorruptBlob           = "corrupt_blob"
	FailureExtractorUnavailable  = "extractor_unavailable"
	FailureExtractorError        = "extractor_error"
	// FailureExtractorCrashed: the extraction process died (a fatal runtime
	// error such as a stack overflow, a signal, an exit without a result).
	FailureExtractorCrashed = "extractor_crashed"
	// FailureExtractorAbandoned: the extraction was started the maximum
	// number of times and the worker never finished the package, so a resume
	// records this instead of starting it again.
	FailureExtractorAbandoned = "extractor_abandoned"
	// FailureExtractorStalled: the extraction process passed the wall
	// backstop (a multiple of the CPU budget) without passing the CPU
	// budget: it was starved or stalled on the run's machine, which says
	// nothing about the package, so it is a failure of the run (a queued
	// run retries it), not a refusal (methodology 2.3.11 §5.2).
	FailureExtractorStalled = "extractor_stalled"
	FailureCheckError       = "check_error"
	FailurePanic            = "panic"
	FailureInternal         = "internal"

	// FailureJobDiscarded: a queued run's examine job failed or was killed
	// outside the package's stages on every one of its attempts, and River
	// discarded it; the queue's sweep records this row (stage pipeline) in
	// place of the result no attempt wrote.
	FailureJobDiscarded = "job_discarded"
)

// Failure kinds of a read, in the pattern of pkgsite's internal/derrors: one
// table that the store (which returns these errors, wrapping the cause), the
// HTTP API (which answers each with its status, its fixed message and, when
// the same request may succeed later, Retry-After) and the API's Go client
// (which turns a status back into the kind, so errors.Is holds on both sides
// of the wire) all read. Classify with errors.Is, never by the text.
var (
	// ErrNotFound reports that nothing is published at an address.
	ErrNotFound = errors.New("not published")
	// ErrBadCursor reports a pagination cursor the service did not issue.
	ErrBadCursor = errors.New("cursor is not one this service issued")
	// ErrUnavailable reports that the service could not reach its database
	// or lost the connection: the same request may succeed later.
	ErrUnavailable = errors.New("database unavailable")
	// ErrTimeout reports that the database did not answer in time: a
	// statement ran past the server's statement_timeout, or the request's
	// deadline passed while it waited.
	ErrTimeout = errors.New("database did not answer in time")
)

// FailureKind is one row of the failure table.
type FailureKind struct {
	// Name is the kind's stable name.
	Name string
	// Err is the sentinel errors.Is classifies by.
	Err error
	// Status is the HTTP status the API answers with.
	Status int
	// Transient: the same request may succeed later, so the answer carries
	// Retry-After and the cause is logged.
	Transient bool
}

// Failures is the table, most specific first.
var Failures = []FailureKind{
	{Name: "not_found", Err: ErrNotFound, Status: 404},
	{Name: "bad_cursor", Err: ErrBadCursor, Status: 400},
	{Name: "unavailable", Err: ErrUnavailable, Status: 503, Transient: true},
	{Name: "timeout", Err: ErrTimeout, Status: 504, Transient: true},
}

// FailureOf returns the kind err is of. A deadline that passed is a
// timeout, so a reader other than the store may hand it back as it is.
func FailureOf(err error) (FailureKind, bool) {
	if err == nil {
		return FailureKind{}, false
	}
	for _, k := range Failures {
		if errors.Is(err, k.Err) {
			return k, true
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return FailureOf(ErrTimeout)
	}
	return FailureKind{}, false
}

// FailureForStatus returns the kind an HTTP status answers, for a client
// classifying a response. A 400 is not read as a bad cursor: the API answers
// 400 for many requests it refuses, so only the kinds whose status no other
// answer uses are returned.
func FailureForStatus(status int) (FailureKind, bool) {
	for _, k := range Failures {
		if k.Status == status && k.Err != ErrBadCursor {
			return k, true
		}
	}
	return FailureKind{}, false
}
