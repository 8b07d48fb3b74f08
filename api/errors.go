package api

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound reports that nothing is published at an address. The server's
// store returns it (or an error that wraps it); the Client returns it for a 404.
var ErrNotFound = errors.New("not published")

// ErrUnavailable reports that the service could not answer now (the
// database did not answer in time): a 503 with Retry-After, worth another
// try later. The server's store returns it (wrapped); the Client returns it
// for a 503.
var ErrUnavailable = errors.New("service unavailable; retry later")

// ErrBadCursor reports a pagination cursor the service did not issue.
var ErrBadCursor = errors.New("cursor is not one this service issued")

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
