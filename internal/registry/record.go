package registry

import (
	"errors"
	"fmt"
	"time"

	"github.com/attestari/attestari/internal/pep440"
)

// Record kinds: what a fetched document is. They are the `kind` of a row in
// records.json, so they are part of the run files' vocabulary.
const (
	KindNPMPackument    = "npm_packument"
	KindNPMVersion      = "npm_version"
	KindNPMTarball      = "npm_tarball"
	KindNPMAttestations = "npm_attestations"
	KindPyPIJSON        = "pypi_json"
	KindPyPISimple      = "pypi_simple"
	KindPyPIProvenance  = "pypi_provenance"
	KindPyPIFile        = "pypi_file"
)

// Record outcomes. Exactly one is set on every Record.
const (
	// OutcomeOK: the response was received whole and, for an artifact,
	// verified against a published SHA-2 digest.
	OutcomeOK = "ok"
	// OutcomeOKSHA1Only: an npm tarball whose packument published no SRI
	// integrity, verified against the legacy sha1 shasum instead. The bytes
	// are usable, and the weaker check is on the record.
	OutcomeOKSHA1Only = "ok_sha1_only"
	// OutcomeNotFound: the registry answered 404 or 410.
	OutcomeNotFound = "not_found"
	// OutcomeIntegrityMismatch: the bytes do not match the published digest;
	// the artifact is refused.
	OutcomeIntegrityMismatch = "integrity_mismatch"
	// OutcomeNoIntegrity: nothing usable was published to verify the
	// artifact against (no digest, or one that cannot be parsed); the
	// artifact is refused.
	OutcomeNoIntegrity = "no_integrity"
	// OutcomeTooLarge: the body passed the configured size cap.
	OutcomeTooLarge = "too_large"
	// OutcomeHTTPError: any other non-2xx status, or 5xx/429 after the
	// retries ran out.
	OutcomeHTTPError = "http_error"
	// OutcomeNetworkError: the transport failed (after retries).
	OutcomeNetworkError = "network_error"
	// OutcomeMalformed: a 2xx body that is not the document it should be.
	OutcomeMalformed = "malformed"
	// OutcomeInvalidRequest: nothing was fetched because the name, version
	// or URL asked for is not valid.
	OutcomeInvalidRequest = "invalid_request"
	// OutcomeCanceled: the caller's context ended the fetch.
	OutcomeCanceled = "canceled"
)

// Record is one fetch, as indexed in records.json. SHA256 is the hex SHA-256
// of the bytes received (set whenever a whole 2xx body was read, including a
// refused artifact, so the refusal can be cited); URL has any password
// redacted.
type Record struct {
	Kind      string    `json:"kind"`
	URL       string    `json:"url"`
	Status    int       `json:"status"`
	SHA256    string    `json:"sha256,omitempty"`
	FetchedAt time.Time `json:"fetched_at"`
	Outcome   string    `json:"outcome"`
	Error     string    `json:"error,omitempty"`
}

// Sentinel errors; classify with errors.Is.
var (
	// ErrNotFound: the registry answered 404 or 410.
	ErrNotFound = errors.New("registry: not found")
	// ErrTooLarge: a body passed the configured size cap.
	ErrTooLarge = errors.New("registry: response too large")
	// ErrMalformed: a 2xx body that does not parse as the expected document.
	ErrMalformed = errors.New("registry: malformed response")
	// ErrInvalidName: a package name that is not valid for the registry
	// (and would otherwise be spliced into a URL).
	ErrInvalidName = errors.New("registry: invalid package name")
	// ErrInvalidRequest: a version, filename or URL that cannot be requested.
	ErrInvalidRequest = errors.New("registry: invalid request")
	// ErrNoMatch: no published version satisfies the specifier.
	ErrNoMatch = errors.New("registry: no version matches specifier")
	// ErrInvalidSpecifier: the specifier does not parse.
	ErrInvalidSpecifier = pep440.ErrInvalidSpecifier
	// ErrUnsupportedSpecifier: a valid specifier this package does not
	// resolve against a registry (git, file, URL, alias, workspace, ...).
	ErrUnsupportedSpecifier = pep440.ErrUnsupportedSpecifier
	// ErrNotConfigured: no base URL could be found in the environment or the
	// package manager's configuration.
	ErrNotConfigured = errors.New("registry: base URL not configured")
)

// StatusError is a non-2xx answer that is not "not found". Status 404 and 410
// also produce a StatusError, which matches ErrNotFound under errors.Is.
type StatusError struct {
	Kind     string
	URL      string
	Status   int
	Attempts int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d after %d attempt(s)", e.Status, e.Attempts)
}

// Is makes a 404 or 410 match ErrNotFound.
func (e *StatusError) Is(target error) bool {
	return target == ErrNotFound && (e.Status == 404 || e.Status == 410)
}

// IntegrityError refuses an artifact: the bytes received do not match the
// digest the registry published for them, or no usable digest was published.
// Reason is a short fixed phrase fit for a run file.
type IntegrityError struct {
	URL       string
	Algorithm string // sha512, sha384, sha256, sha1; empty when nothing was published
	Expected  string // as published (base64 for SRI, hex for shasum/sha256)
	Actual    string // the same encoding, computed over the bytes received
	Reason    string
}

func (e *IntegrityError) Error() string {
	if e.Algorithm == "" {
		return fmt.Sprintf("registry: artifact %s refused: %s", e.URL, e.Reason)
	}
	return fmt.Sprintf("registry: artifact %s refused: %s (%s expected %s, got %s)",
		e.URL, e.Reason, e.Algorithm, e.Expected, e.Actual)
}

// Response is one fetched document: the exact bytes beside the Record that
// indexes them. Body is nil when nothing whole was received, and nil for a
// refused artifact so that unverified bytes cannot be used by mistake.
type Response struct {
	Record Record
	Body   []byte
	// ContentType is the response's Content-Type header, for callers that
	// store it beside the blob.
	ContentType string
}

// Ok reports whether the fetch produced usable bytes.
func (r *Response) Ok() bool {
	return r.Record.Outcome == OutcomeOK || r.Record.Outcome == OutcomeOKSHA1Only
}
