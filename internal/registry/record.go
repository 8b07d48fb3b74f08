package registry

import (
	"errors"
	"fmt"
	"time"

	"github.com/attestari/attestari/internal/pep440"
	"github.com/attestari/attestari/internal/vocab"
)

// A Record's kind (vocab.Kind*) and outcome (vocab.Record*: exactly one is
// set on every Record) are the run files' vocabulary, declared in
// internal/vocab.

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
	return r.Record.Outcome == vocab.RecordOK || r.Record.Outcome == vocab.RecordOKSHA1Only
}
