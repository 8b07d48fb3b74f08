package pipeline

import (
	"errors"
	"fmt"

	"github.com/Masterminds/semver/v3"

	"github.com/attestari/attestari/internal/registry"
)

// plainError is the message an operator reads first: the package, what is
// wrong, and what the registry does have. The client's error (its function,
// the URL, the attempts) stays in the chain for errors.Is/As and the debug
// log, never first on a failure row.
type plainError struct {
	msg string
	err error
}

func (e *plainError) Error() string { return e.msg }
func (e *plainError) Unwrap() error { return e.err }

// registryName is a registry as an operator names it.
func registryName(reg string) string {
	if l, ok := registryLabels[reg]; ok {
		return l[0]
	}
	return reg
}

// plainNotFound says that the registry has no such package (404 or 410);
// other failures of the document fetch keep the client's own message, with
// the package named in front.
func plainNotFound(reg, name string, err error) error {
	if errors.Is(err, registry.ErrNotFound) {
		return &plainError{msg: fmt.Sprintf("no package %s on the %s registry: check the name in the candidates file", name, registryName(reg)), err: err}
	}
	return &plainError{msg: fmt.Sprintf("%s: %v", name, err), err: err}
}

// plainNoMatch says which version was asked for and which the registry has:
// the newest published version and, on npm, what the latest tag points at.
func plainNoMatch(reg, name, spec string, published []string, latest string, err error) error {
	if !errors.Is(err, registry.ErrNoMatch) {
		return &plainError{msg: fmt.Sprintf("%s %s: %v", name, spec, err), err: err}
	}
	newest := newestVersion(reg, published)
	var msg string
	switch {
	case newest == "":
		msg = fmt.Sprintf("no version %s of %s is published: the registry lists no version of it", spec, name)
	case latest != "" && latest != newest:
		msg = fmt.Sprintf("no version %s of %s is published; the newest is %s (the latest tag points at %s)", spec, name, newest, latest)
	default:
		msg = fmt.Sprintf("no version %s of %s is published; the newest is %s", spec, name, newest)
	}
	return &plainError{msg: msg, err: err}
}

// newestVersion is the highest of the versions that parse under the
// registry's own ordering (SemVer on npm, PEP 440 on PyPI), or "".
func newestVersion(reg string, vs []string) string {
	bestRaw := ""
	if reg == RegistryPyPI {
		var best registry.PEP440Version
		for _, raw := range vs {
			v, err := registry.ParsePEP440(raw)
			if err != nil {
				continue
			}
			if bestRaw == "" || v.Compare(best) > 0 {
				best, bestRaw = v, raw
			}
		}
		return bestRaw
	}
	var best *semver.Version
	for _, raw := range vs {
		v, err := semver.StrictNewVersion(raw)
		if err != nil {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best, bestRaw = v, raw
		}
	}
	return bestRaw
}
