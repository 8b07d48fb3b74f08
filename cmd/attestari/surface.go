package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
	"github.com/attestari/attestari/internal/vocab"
)

func surfaceCommand() *command {
	var asJSON *bool
	return &command{
		name:    "surface",
		args:    "PATH | npm:NAME@VERSION",
		summary: "Print the tool surface the extractor reads from one artifact (a .tgz, wheel, sdist or unpacked directory).",
		detail: `
PATH may be an npm tarball (.tgz), a PyPI wheel (.whl) or sdist (.tar.gz, .zip), or a directory
laid out like an unpacked package. npm:NAME@VERSION fetches the tarball from the configured npm
registry (ATTESTARI_NPM_REGISTRY, else npm's own configuration) and checks its integrity.

With --json the surface row is printed with stable keys (outcome, extractor_version, tools[],
prompts[], prompt_texts[], resources[], resource_templates[], instructions[],
parameter_descriptions[], sampling, elicitation, vendored[], advertised_tools[], delegates_to,
unresolved[], budget) for other tools to read.`,
		example: "attestari surface ./server-everything-2025.9.12.tgz\nattestari surface --json npm:@modelcontextprotocol/server-memory@2026.8.31 | jq '.tools[].name'",
		flags: func(fs *flag.FlagSet) {
			asJSON = fs.Bool("json", false, "print the surface row as JSON")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"expected one PATH or npm:NAME@VERSION"}
			}
			s, err := readSurface(ctx, fs.Arg(0))
			if err != nil {
				return err
			}
			if *asJSON {
				return writeJSONTo(e.stdout, s)
			}
			return surface.RenderTable(e.stdout, s)
		},
	}
}

func readSurface(ctx context.Context, target string) (rundir.Surface, error) {
	if spec, ok := strings.CutPrefix(target, "npm:"); ok {
		return surfaceFromNPM(ctx, spec)
	}
	fi, err := os.Stat(target)
	if err != nil {
		return rundir.Surface{}, fmt.Errorf("%s: %w (give a .tgz, .whl, .tar.gz, .zip, a directory, or npm:NAME@VERSION)", target, err)
	}
	if fi.IsDir() {
		// One extraction in this process: its CPU clock is the package's.
		return surface.ExtractDir(ctx, target, extractor.InProcessOptions())
	}
	data, err := os.ReadFile(target)
	if err != nil {
		return rundir.Surface{}, err
	}
	format := artifact.DetectFormat(filepath.Base(target), data)
	if format == "" {
		return rundir.Surface{}, fmt.Errorf("%s is not an npm tarball, wheel or sdist (recognised by name and content)", target)
	}
	pkg := rundir.PackageRef{Registry: vocab.RegistryNPM, Name: filepath.Base(target)}
	if format == artifact.FormatWheel || format == artifact.FormatSdistTar || format == artifact.FormatSdistZip {
		pkg.Registry = "pypi"
	}
	return surfaceFromBytes(ctx, pkg, data, format)
}

// surfaceFromBytes extracts in a child process, as a run does, so an
// artifact that kills the extractor ends that process with a reported
// cause, and the memory budget is the one a run enforces.
func surfaceFromBytes(ctx context.Context, pkg rundir.PackageRef, data []byte, format artifact.Format) (rundir.Surface, error) {
	ex, err := childExtractor()
	if err != nil {
		return rundir.Surface{}, err
	}
	s, err := ex.Extract(ctx, pipeline.ExtractInput{Package: pkg, ArtifactSHA256: vocab.SHA256Hex(data), Data: data, Format: format})
	if err != nil {
		return rundir.Surface{}, fmt.Errorf("extract %s: %w", pkg.Name, err)
	}
	return s, nil
}

func surfaceFromNPM(ctx context.Context, spec string) (rundir.Surface, error) {
	at := strings.LastIndex(spec, "@")
	if at <= 0 {
		return rundir.Surface{}, errors.New("expected npm:NAME@VERSION, e.g. npm:@scope/server@1.2.3")
	}
	name, version := spec[:at], spec[at+1:]
	base, err := registry.DefaultNPMRegistry(ctx)
	if err != nil {
		return rundir.Surface{}, err
	}
	c, err := registry.NewNPM(base, registry.Options{Version: buildVersion()})
	if err != nil {
		return rundir.Surface{}, err
	}
	doc, err := c.Version(ctx, name, version)
	if err != nil {
		return rundir.Surface{}, err
	}
	art, err := c.Tarball(ctx, doc.Manifest)
	if err != nil {
		return rundir.Surface{}, err
	}
	pkg := rundir.PackageRef{Registry: vocab.RegistryNPM, Name: name, Version: version}
	return surfaceFromBytes(ctx, pkg, art.Response.Body, artifact.FormatNpmTarball)
}
