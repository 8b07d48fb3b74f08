package gate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
)

// Unknown says what happens when the package has no attestation, or its
// attestation is of a refused (not graded) version.
type Unknown string

// Unknown modes.
const (
	// UnknownBlock refuses to start the server.
	UnknownBlock Unknown = "block"
	// UnknownWarn starts it, logging a warning at start and on every list.
	UnknownWarn Unknown = "warn"
	// UnknownAllow starts it, logging at info level.
	UnknownAllow Unknown = "allow"
)

// ParseUnknown reads an --unknown value.
func ParseUnknown(s string) (Unknown, error) {
	switch u := Unknown(s); u {
	case UnknownBlock, UnknownWarn, UnknownAllow:
		return u, nil
	}
	return "", fmt.Errorf("unknown %q is not one of block, warn, allow", s)
}

// Target names the package version a command runs.
type Target struct {
	Registry, Name, Version string
}

var (
	npmSpec  = regexp.MustCompile(`^((?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*)@([0-9A-Za-z][0-9A-Za-z.+_-]*)$`)
	pypiSpec = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9A-Za-z][0-9A-Za-z.+!_-]*)$`)
	exactVer = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+)*([-+.][0-9A-Za-z.+-]+)?$`)
)

// ErrNoTarget: the command does not name one exact package version.
var ErrNoTarget = errors.New("the command does not name an exact package version (npx NAME@VERSION, uvx NAME==VERSION); give --registry, --package and --version")

// TargetFromCommand reads the package version from the command a client
// configuration would run: `npx [-y] NAME@VERSION ...` (also `npm exec`,
// `pnpm dlx`, `bunx`) for npm; `uvx NAME==VERSION`, `uvx --from
// NAME==VERSION ...` or `pipx run NAME==VERSION` for PyPI. The version must be
// exact: a range or a tag (latest) names no one artifact to pin.
func TargetFromCommand(argv []string) (Target, error) {
	if len(argv) == 0 {
		return Target{}, ErrNoTarget
	}
	tool := filepath.Base(argv[0])
	rest := argv[1:]
	var registry string
	switch {
	case tool == "npx" || tool == "bunx":
		registry = api.RegistryNPM
	case (tool == "npm" && len(rest) > 0 && rest[0] == "exec") || (tool == "pnpm" && len(rest) > 0 && rest[0] == "dlx"):
		registry, rest = api.RegistryNPM, rest[1:]
	case tool == "uvx":
		registry = api.RegistryPyPI
	case tool == "pipx" && len(rest) > 0 && rest[0] == "run":
		registry, rest = api.RegistryPyPI, rest[1:]
	default:
		return Target{}, ErrNoTarget
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if registry == api.RegistryPyPI && (a == "--from") && i+1 < len(rest) {
			i++
			a = rest[i]
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		if registry == api.RegistryNPM {
			if m := npmSpec.FindStringSubmatch(a); m != nil && exactVer.MatchString(m[2]) {
				return Target{Registry: registry, Name: m[1], Version: strings.TrimPrefix(m[2], "v")}, nil
			}
		} else if m := pypiSpec.FindStringSubmatch(a); m != nil {
			return Target{Registry: registry, Name: m[1], Version: m[2]}, nil
		}
		// The first argument that is not an option is the package: if it
		// names no exact version, nothing can be pinned.
		return Target{}, ErrNoTarget
	}
	return Target{}, ErrNoTarget
}

// ErrRefusedToStart: the gate will not start the server (a failed
// verification, or a refused or unknown package under --unknown block).
var ErrRefusedToStart = errors.New("attestari-gate refused to start the server")

// Setup fetches and verifies the attestation of t before the first message,
// and returns the proxy's configuration, or an error wrapping
// ErrRefusedToStart. keys nil means the key set is fetched from the API.
func Setup(ctx context.Context, c *api.Client, keys *attest.KeySet, t Target, policy Policy, unknown Unknown, log *slog.Logger) (Config, error) {
	refuse := func(why string, args ...any) (Config, error) {
		log.Error("refused to start", append([]any{"decision", "blocked", "why", why, "registry", t.Registry, "package", t.Name, "version", t.Version}, args...)...)
		return Config{}, fmt.Errorf("%w: %s", ErrRefusedToStart, why)
	}
	env, err := c.Attestation(ctx, t.Registry, t.Name, t.Version)
	if errors.Is(err, api.ErrNotFound) {
		if unknown == UnknownBlock {
			return refuse("no attestation is published for this version (--unknown block)")
		}
		lvl := slog.LevelWarn
		if unknown == UnknownAllow {
			lvl = slog.LevelInfo
		}
		log.Log(ctx, lvl, "no attestation: the server runs unchecked", "decision", string(unknown), "registry", t.Registry, "package", t.Name, "version", t.Version)
		return Config{Policy: policy, UnattestedLevel: lvl, Log: log}, nil
	}
	if err != nil {
		// Not "unknown": the service could not say. Fail closed.
		return refuse("the attestation could not be fetched", "error", err.Error())
	}
	if keys == nil {
		kb, err := c.AttestationKeys(ctx)
		if err != nil {
			return refuse("the key set could not be fetched", "error", err.Error())
		}
		if keys, err = attest.ParseKeySet(kb); err != nil {
			return refuse("the key set is not valid", "error", err.Error())
		}
	}
	v, err := attest.Verify(ctx, env, keys)
	if err != nil {
		return refuse("the attestation does not verify", "error", err.Error())
	}
	p := v.Statement.Predicate
	if p.Package.Registry != t.Registry || p.Package.Name != t.Name || p.Package.Version != t.Version {
		return refuse("the attestation is of another package version", "attested", p.Package.PURL)
	}
	if p.Verdict != api.VerdictGraded {
		codes := make([]string, len(p.Reasons))
		for i, r := range p.Reasons {
			codes[i] = r.Code
		}
		if unknown == UnknownBlock {
			return refuse("the version was not graded (--unknown block)", "verdict", p.Verdict, "reasons", strings.Join(codes, ","))
		}
		log.Warn("the version was not graded: its manifest pins what was examined, it is not an endorsement",
			"decision", string(unknown), "verdict", p.Verdict, "reasons", strings.Join(codes, ","))
	}
	grade := ""
	if p.Grade != nil {
		grade = *p.Grade
	}
	log.Info("attestation verified", "decision", "pinned", "registry", t.Registry, "package", t.Name, "version", t.Version,
		"verdict", p.Verdict, "grade", grade, "key", v.Key.KeyID, "methodology", p.Methodology.Version, "tools", len(p.Manifest.Tools), "policy", string(policy))
	return Config{Statement: v.Statement, Policy: policy, Log: log}, nil
}

// ReadKeySet reads a pinned key set file.
func ReadKeySet(path string) (*attest.KeySet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ks, err := attest.ParseKeySet(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ks, nil
}
