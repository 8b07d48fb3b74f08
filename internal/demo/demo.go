// Package demo builds the built-in demo set: synthetic MCP packages under
// testdata/demo/packages, packed into npm tarballs at start (deterministic
// bytes: fixed times, sorted members) and served by the in-process fake
// registry, with a candidates file naming them. It lets `make run` run a
// whole cycle with no network. It holds no examination logic.
package demo

import (
	"archive/tar"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/attestari/attestari/internal/artifact"

	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/vocab"
)

// Package is one demo package as listed in demo.json.
type Package struct {
	Dir      string `json:"dir"`
	Expect   string `json:"expect"`
	Truncate bool   `json:"truncate,omitempty"`
	Name     string `json:"-"`
	Version  string `json:"-"`
}

type manifest struct {
	Note     string    `json:"note"`
	Packages []Package `json:"packages"`
}

// epoch is the modification time of every member, so tarballs are byte-identical across builds.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Load reads demo.json under root (testdata/demo) and each package's name and version.
func Load(root string) ([]Package, error) {
	b, err := os.ReadFile(filepath.Join(root, "demo.json"))
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("demo: demo.json: %w", err)
	}
	for i := range m.Packages {
		p := &m.Packages[i]
		pj, err := os.ReadFile(filepath.Join(root, "packages", p.Dir, "package.json"))
		if err != nil {
			return nil, fmt.Errorf("demo: %s: %w", p.Dir, err)
		}
		var meta struct{ Name, Version string }
		if err := json.Unmarshal(pj, &meta); err != nil || meta.Name == "" || meta.Version == "" {
			return nil, fmt.Errorf("demo: %s/package.json needs a name and a version (%v)", p.Dir, err)
		}
		p.Name, p.Version = meta.Name, meta.Version
	}
	return m.Packages, nil
}

// Tarball packs dir as npm does: every file under package/, gzip'd.
func Tarball(dir string) ([]byte, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return artifact.PackTarGz(dir, files, "package", tar.FormatUSTAR, epoch)
}

// Registry builds every demo package and registers it on a new fake registry.
// A package marked truncate is served with its tarball cut in half, whose
// integrity the registry publishes as is: the archive itself is unreadable.
func Registry(root string) (*fakeregistry.Fake, []Package, error) {
	pkgs, err := Load(root)
	if err != nil {
		return nil, nil, err
	}
	fake := fakeregistry.New()
	for _, p := range pkgs {
		tgz, err := Tarball(filepath.Join(root, "packages", p.Dir))
		if err != nil {
			return nil, nil, fmt.Errorf("demo: pack %s: %w", p.Dir, err)
		}
		if p.Truncate {
			tgz = tgz[:len(tgz)/2]
		}
		fake.AddNPM(p.Name, p.Version, tgz, fakeregistry.NPMOptions{})
	}
	return fake, pkgs, nil
}

// Candidates is the candidates file of the demo set (schema attestari.candidates/v1).
func Candidates(pkgs []Package) ([]byte, error) {
	type cand struct {
		Registry string `json:"registry"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Rank     int    `json:"rank"`
	}
	var cs []cand
	for i, p := range pkgs {
		cs = append(cs, cand{Registry: vocab.RegistryNPM, Name: p.Name, Version: p.Version, Rank: i + 1})
	}
	doc := map[string]any{
		"schema": "attestari.candidates/v1",
		"selection": map[string]any{
			"queries":      []any{},
			"ranking_rule": "the built-in demo set, in the order of testdata/demo/demo.json",
			"page_size":    0,
			"window":       nil,
			"fetched_at":   []any{},
			"datasets":     []any{},
		},
		"candidates": cs,
		"excluded":   []any{},
	}
	return json.MarshalIndent(doc, "", "  ")
}
