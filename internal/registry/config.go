package registry

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Environment variables that name the registries. Nothing else in the
// project names a registry host.
const (
	EnvNPMRegistry = "ATTESTARI_NPM_REGISTRY"
	EnvPyPIURL     = "ATTESTARI_PYPI_URL"
)

// configCommandTimeout bounds asking a package manager for its configuration.
const configCommandTimeout = 30 * time.Second

// runConfig runs a package manager's config query and returns its trimmed
// output. Values such as "undefined" mean "not set".
func runConfig(ctx context.Context, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, configCommandTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(out))
	switch v {
	case "undefined", "null", "None":
		return "", nil
	}
	return v, nil
}

// DefaultNPMRegistry returns the npm registry base URL: $ATTESTARI_NPM_REGISTRY
// if set, else what `npm config get registry` prints (so the examination
// reads the registry this machine's npm client installs from). It fails with
// ErrNotConfigured when neither yields an http(s) URL.
func DefaultNPMRegistry(ctx context.Context) (string, error) {
	if v := strings.TrimSpace(os.Getenv(EnvNPMRegistry)); v != "" {
		b, err := normalizeBase(v)
		if err != nil {
			return "", fmt.Errorf("$%s: %w", EnvNPMRegistry, err)
		}
		return b, nil
	}
	v, err := runConfig(ctx, "npm", "config", "get", "registry")
	if err != nil {
		return "", fmt.Errorf("%w: $%s is unset and `npm config get registry` failed: %v",
			ErrNotConfigured, EnvNPMRegistry, err)
	}
	if v == "" {
		return "", fmt.Errorf("%w: $%s is unset and npm has no registry configured",
			ErrNotConfigured, EnvNPMRegistry)
	}
	b, err := normalizeBase(v)
	if err != nil {
		return "", fmt.Errorf("npm's configured registry: %w", err)
	}
	return b, nil
}

// DefaultPyPIURL returns the PyPI base URL (the root under which /pypi/,
// /simple/ and /integrity/ live):
//
//  1. $ATTESTARI_PYPI_URL, taken as the base itself;
//  2. else pip's index URL — $PIP_INDEX_URL, else `pip config get
//     global.index-url` — when it has the standard layout, an index whose
//     path ends in /simple: the base is that URL without /simple (so
//     ".../simple/" gives "..."). The JSON and integrity APIs are assumed to
//     sit beside it, as they do on the public index and on mirrors that copy
//     its layout.
//
// Any other index layout cannot be trusted to serve the JSON API at a
// derivable place, so it is ErrNotConfigured and $ATTESTARI_PYPI_URL must be
// set. A password in the index URL is kept (it is the operator's) but
// redacted from every Record.
func DefaultPyPIURL(ctx context.Context) (string, error) {
	if v := strings.TrimSpace(os.Getenv(EnvPyPIURL)); v != "" {
		b, err := normalizeBase(v)
		if err != nil {
			return "", fmt.Errorf("$%s: %w", EnvPyPIURL, err)
		}
		return b, nil
	}
	index := strings.TrimSpace(os.Getenv("PIP_INDEX_URL"))
	if index == "" {
		var errs []error
		for _, pip := range []string{"pip", "pip3"} {
			v, err := runConfig(ctx, pip, "config", "get", "global.index-url")
			if err == nil && v != "" {
				index = v
				break
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", pip, err))
			}
		}
		if index == "" {
			// One line: the reasons are joined with "; ", never with the
			// newlines errors.Join puts between them (a log line would show
			// them as a literal \n).
			var why []string
			for _, e := range errs {
				why = append(why, e.Error())
			}
			if len(why) == 0 {
				why = append(why, "no global.index-url set")
			}
			return "", fmt.Errorf("%w: $%s is unset and pip names no index-url (%s)",
				ErrNotConfigured, EnvPyPIURL, strings.Join(why, "; "))
		}
	}
	b, err := pypiBaseFromIndex(index)
	if err != nil {
		return "", err
	}
	return b, nil
}

// pypiBaseFromIndex derives the base from a standard-layout simple index URL.
func pypiBaseFromIndex(index string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(index))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w: pip index URL %q is not an http(s) URL; set $%s", ErrNotConfigured, redactURL(index), EnvPyPIURL)
	}
	p := strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(p, "/simple") && p != "simple" {
		return "", fmt.Errorf("%w: pip index URL %q does not end in /simple, so the JSON API's place cannot be derived; set $%s",
			ErrNotConfigured, redactURL(index), EnvPyPIURL)
	}
	u.Path = strings.TrimSuffix(p, "simple")
	u.RawPath = ""
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimRight(u.String(), "/"), nil
}
