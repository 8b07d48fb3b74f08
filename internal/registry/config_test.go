package registry_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/registry"
)

// fakeTool puts an executable named name on a fresh PATH that prints out
// (or fails when out is empty), so the config lookups can be tested without
// the real package managers.
func fakeTool(t *testing.T, dir, name, out string) {
	t.Helper()
	script := "#!/bin/sh\nexit 1\n"
	if out != "" {
		script = "#!/bin/sh\nprintf '%s\\n' '" + out + "'\n"
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultNPMRegistry(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("PATH", dir)

	t.Setenv(registry.EnvNPMRegistry, "http://registry.example.test/npm/")
	if got, err := registry.DefaultNPMRegistry(ctx); err != nil || got != "http://registry.example.test/npm" {
		t.Errorf("env: %q %v", got, err)
	}
	t.Setenv(registry.EnvNPMRegistry, "not a url")
	if _, err := registry.DefaultNPMRegistry(ctx); !errors.Is(err, registry.ErrNotConfigured) {
		t.Errorf("bad env: %v", err)
	}

	t.Setenv(registry.EnvNPMRegistry, "")
	if _, err := registry.DefaultNPMRegistry(ctx); !errors.Is(err, registry.ErrNotConfigured) {
		t.Errorf("no npm on PATH: %v", err)
	}
	fakeTool(t, dir, "npm", "https://mirror.example.test/")
	if got, err := registry.DefaultNPMRegistry(ctx); err != nil || got != "https://mirror.example.test" {
		t.Errorf("npm config: %q %v", got, err)
	}
	fakeTool(t, dir, "npm", "undefined")
	if _, err := registry.DefaultNPMRegistry(ctx); !errors.Is(err, registry.ErrNotConfigured) {
		t.Errorf("npm prints undefined: %v", err)
	}
}

func TestDefaultPyPIURL(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	t.Setenv("PIP_INDEX_URL", "")

	t.Setenv(registry.EnvPyPIURL, "https://index.example.test/")
	if got, err := registry.DefaultPyPIURL(ctx); err != nil || got != "https://index.example.test" {
		t.Errorf("env: %q %v", got, err)
	}
	t.Setenv(registry.EnvPyPIURL, "")

	if _, err := registry.DefaultPyPIURL(ctx); !errors.Is(err, registry.ErrNotConfigured) {
		t.Errorf("nothing configured: %v", err)
	}

	cases := map[string]string{
		"https://index.example.test/simple":          "https://index.example.test",
		"https://index.example.test/simple/":         "https://index.example.test",
		"https://u:p@index.example.test/pypi/simple": "https://u:p@index.example.test/pypi",
	}
	for index, want := range cases {
		t.Setenv("PIP_INDEX_URL", index)
		if got, err := registry.DefaultPyPIURL(ctx); err != nil || got != want {
			t.Errorf("PIP_INDEX_URL=%s: %q %v, want %q", index, got, err, want)
		}
	}
	for _, index := range []string{"https://index.example.test/repository/pypi-proxy/", "file:///srv/simple"} {
		t.Setenv("PIP_INDEX_URL", index)
		if _, err := registry.DefaultPyPIURL(ctx); !errors.Is(err, registry.ErrNotConfigured) {
			t.Errorf("PIP_INDEX_URL=%s: %v, want ErrNotConfigured", index, err)
		}
	}

	t.Setenv("PIP_INDEX_URL", "")
	fakeTool(t, dir, "pip", "")
	fakeTool(t, dir, "pip3", "https://pip3.example.test/simple/")
	if got, err := registry.DefaultPyPIURL(ctx); err != nil || got != "https://pip3.example.test" {
		t.Errorf("pip config: %q %v", got, err)
	}
}
