package api

import (
	"fmt"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// The failure kinds of a read (internal/vocab's table, which the server's
// store, its HTTP answers and this package's Client all classify by). The
// names are kept here because a gateway imports this package and cannot
// import internal/vocab.
var (
	// ErrNotFound reports that nothing is published at an address. The
	// server's store returns it (or an error that wraps it); the Client
	// returns it for a 404.
	ErrNotFound = vocab.ErrNotFound
	// ErrUnavailable reports that the service could not reach its database
	// or lost the connection: the same request may succeed later. The
	// server's store returns it (wrapping the cause) and the API answers 503
	// with Retry-After; the Client returns it for a 503.
	ErrUnavailable = vocab.ErrUnavailable
	// ErrTimeout reports that the database did not answer in time: a
	// statement ran past the server's statement_timeout, or the request's
	// deadline passed while it waited. The API answers 504 with Retry-After;
	// the Client returns it for a 504.
	ErrTimeout = vocab.ErrTimeout
	// ErrBadCursor reports a pagination cursor the service did not issue.
	ErrBadCursor = vocab.ErrBadCursor
)

// VersionNotFoundError is a 404 for a package whose name is known but whose
// requested version is not published; KnownVersions lists those that are.
type VersionNotFoundError struct {
	Registry      string
	Name          string
	Version       string
	KnownVersions []string
}

func (e *VersionNotFoundError) Error() string {
	if len(e.KnownVersions) == 0 {
		return fmt.Sprintf("%s@%s is not published", e.Name, e.Version)
	}
	return fmt.Sprintf("%s@%s is not published; published versions: %s", e.Name, e.Version, strings.Join(e.KnownVersions, ", "))
}

// Is makes errors.Is(err, ErrNotFound) hold.
func (e *VersionNotFoundError) Is(target error) bool { return target == ErrNotFound }

// AmbiguousNameError is a 409: the name is published on more than one
// registry and the request did not say which.
type AmbiguousNameError struct {
	Name       string
	Registries []string
}

func (e *AmbiguousNameError) Error() string {
	return fmt.Sprintf("%s is published on %s: name the registry", e.Name, strings.Join(e.Registries, " and "))
}
