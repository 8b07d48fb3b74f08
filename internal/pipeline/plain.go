package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
func plainNotFound(reg, name string, err error, suggest string) error {
	if errors.Is(err, registry.ErrNotFound) {
		msg := fmt.Sprintf("no package %s on the %s registry: check the name in the candidates file", name, registryName(reg))
		if suggest != "" {
			msg = fmt.Sprintf("no package %s on the %s registry; did you mean %s?", name, registryName(reg), suggest)
		}
		return &plainError{msg: msg, err: err}
	}
	var se *registry.StatusError
	switch {
	case errors.As(err, &se):
		return &plainError{msg: fmt.Sprintf("the %s registry answered HTTP %d for %s (after %d attempt(s)); it may have the package: run again later, or --resume", registryName(reg), se.Status, name, se.Attempts), err: err}
	case errors.Is(err, registry.ErrTooLarge):
		return &plainError{msg: fmt.Sprintf("the %s registry's document for %s is larger than the limit", registryName(reg), name), err: err}
	case errors.Is(err, registry.ErrMalformed):
		return &plainError{msg: fmt.Sprintf("the %s registry's document for %s could not be read (malformed)", registryName(reg), name), err: err}
	case errors.Is(err, context.Canceled):
		return &plainError{msg: fmt.Sprintf("fetching %s was cancelled", name), err: err}
	}
	return &plainError{msg: fmt.Sprintf("the %s registry could not be reached for %s (a network error; the detail is in the debug log)", registryName(reg), name), err: err}
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

// npmSearcher is the optional part of an npm client that can search
// (*registry.NPM has it); without it no name is suggested.
type npmSearcher interface {
	Search(ctx context.Context, text string, size int) ([]string, error)
}

// suggestTimeout bounds the one search a missing name costs.
const suggestTimeout = 5 * time.Second

// suggestNPM asks the registry's search for names near a name it does not
// have and returns the nearest within a small edit distance, or "". It is a
// hint for the operator's message only: nothing is recorded or decided on it.
func suggestNPM(ctx context.Context, c NPMClient, name string, err error) string {
	s, ok := c.(npmSearcher)
	if !ok || !errors.Is(err, registry.ErrNotFound) {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, suggestTimeout)
	defer cancel()
	text := name
	if i := strings.IndexByte(name, '/'); strings.HasPrefix(name, "@") && i > 0 {
		text = name[:i] + " " + name[i+1:]
	}
	names, serr := s.Search(ctx, strings.NewReplacer("-", " ", "_", " ").Replace(text), 20)
	if serr != nil {
		return ""
	}
	return nearestName(name, names)
}

// nearestName is the name of names nearest to want by edit distance, if it
// is within max(2, len(want)/6) edits and is not want itself; ties go to the
// lexically first.
func nearestName(want string, names []string) string {
	limit := max(2, len(want)/6)
	best, bestD := "", limit+1
	for _, n := range names {
		if n == want || len(n) > 2*len(want)+8 {
			continue
		}
		d := editDistance(want, n, limit)
		if d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	if bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b in bytes, or limit+1
// once it is certain to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// plainArtifact names the package and version whose artifact could not be
// taken, and why: a digest that does not match what the registry published
// is said so; any other failure keeps the client's words after the name.
func plainArtifact(name, version string, err error) error {
	var ie *registry.IntegrityError
	if errors.As(err, &ie) {
		msg := fmt.Sprintf("the artifact of %s@%s was refused: %s", name, version, ie.Reason)
		if ie.Algorithm != "" {
			msg += fmt.Sprintf(" (%s published %s, received %s)", ie.Algorithm, ie.Expected, ie.Actual)
		}
		return &plainError{msg: msg, err: err}
	}
	return &plainError{msg: fmt.Sprintf("the artifact of %s@%s could not be fetched: %v", name, version, err), err: err}
}
