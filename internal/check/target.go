package check

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/pipeline"
)

// InputError is a mistake in what was asked: a target that does not exist,
// is not a package, or names no version. `attestari check` exits 3 on it.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErr(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// resolved is a target made concrete: the candidate the pipeline examines
// and, for a local target, the artifact the stand-in registry serves.
type resolved struct {
	Target   Target
	Registry string
	Name     string
	Version  string
	// Data, Filename and Format are set for a local target.
	Data     []byte
	Filename string
	Format   artifact.Format
	// Manifest is package.json's members, for the stand-in version manifest.
	Manifest map[string]any
}

func (r *resolved) local() bool { return r.Data != nil }

// maxDirBytes bounds what a directory target may pack: the archive reader's
// own limit on uncompressed bytes would refuse more.
var maxDirBytes = artifact.DefaultLimits().MaxTotalBytes

// ParseRegistrySpec reads npm:NAME@VERSION or pypi:NAME==VERSION.
func ParseRegistrySpec(spec string) (registry, name, version string, ok bool, err error) {
	if s, found := strings.CutPrefix(spec, "npm:"); found {
		at := strings.LastIndex(s, "@")
		if at <= 0 || at == len(s)-1 {
			return "", "", "", true, inputErr("%q: expected npm:NAME@VERSION, e.g. npm:@scope/server@1.2.3", spec)
		}
		return pipeline.RegistryNPM, s[:at], s[at+1:], true, nil
	}
	if s, found := strings.CutPrefix(spec, "pypi:"); found {
		name, version, cut := strings.Cut(s, "==")
		if !cut || name == "" || version == "" {
			return "", "", "", true, inputErr("%q: expected pypi:NAME==VERSION, e.g. pypi:mcp-server-x==1.2.3", spec)
		}
		return pipeline.RegistryPyPI, name, version, true, nil
	}
	return "", "", "", false, nil
}

// resolveTarget reads spec: a registry spec, a directory, or a file.
func resolveTarget(ctx context.Context, spec string) (*resolved, error) {
	reg, name, version, isSpec, err := ParseRegistrySpec(spec)
	if err != nil {
		return nil, err
	}
	if isSpec {
		return &resolved{Target: Target{Spec: spec, Kind: TargetRegistry, Registry: reg, Name: name, Version: version}, Registry: reg, Name: name, Version: version}, nil
	}
	fi, err := os.Stat(spec)
	if err != nil {
		return nil, inputErr("%s: no such file or directory; give an npm pack tarball (.tgz), a wheel (.whl), an sdist (.tar.gz, .zip), a package directory, npm:NAME@VERSION or pypi:NAME==VERSION", spec)
	}
	if fi.IsDir() {
		return resolveDir(spec)
	}
	if fi.Size() > maxDirBytes {
		return nil, inputErr("%s is %d bytes, more than the archive reader accepts (%d)", spec, fi.Size(), maxDirBytes)
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		return nil, inputErr("%s: %v", spec, err)
	}
	return resolveFile(ctx, spec, filepath.Base(spec), data)
}

func resolveFile(ctx context.Context, spec, filename string, data []byte) (*resolved, error) {
	format := artifact.DetectFormat(filename, data)
	if format == artifact.FormatUnknown {
		return nil, inputErr("%s is not an npm tarball, wheel or sdist (recognised by its name and content); run `npm pack` or `python -m build` and check the file it writes", spec)
	}
	a, err := artifact.Read(ctx, data, format, artifact.Limits{})
	if err != nil {
		return nil, err
	}
	r := &resolved{Data: data, Filename: filename, Format: format}
	switch format {
	case artifact.FormatNpmTarball:
		r.Registry, r.Target.Kind = pipeline.RegistryNPM, TargetTarball
	case artifact.FormatWheel:
		r.Registry, r.Target.Kind = pipeline.RegistryPyPI, TargetWheel
	default:
		r.Registry, r.Target.Kind = pipeline.RegistryPyPI, TargetSdist
	}
	if a.Outcome != artifact.OutcomeOK {
		// The pass would examine it and record archive_unreadable; so does
		// the check, but it needs a name to give it.
		return nil, inputErr("%s cannot be read as an archive (%s: %s), and so names no package; the pass would record archive_unreadable for it", spec, a.Cause, a.Reason)
	}
	switch r.Registry {
	case pipeline.RegistryNPM:
		pj, ok := a.Bytes("package.json")
		if !ok {
			return nil, inputErr("%s has no package/package.json; an npm pack tarball always has one", spec)
		}
		if err := r.readPackageJSON(spec, pj); err != nil {
			return nil, err
		}
	default:
		meta := pythonMetadata(a)
		if meta == nil {
			return nil, inputErr("%s has no PKG-INFO or *.dist-info/METADATA naming the project and its version", spec)
		}
		r.Name, r.Version = header(meta, "Name"), header(meta, "Version")
		if r.Name == "" || r.Version == "" {
			return nil, inputErr("%s: its metadata names no Name or no Version", spec)
		}
	}
	r.Target = Target{Spec: spec, Kind: r.Target.Kind, Registry: r.Registry, Name: r.Name, Version: r.Version}
	return r, nil
}

func (r *resolved) readPackageJSON(spec string, b []byte) error {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return inputErr("%s: package.json is not JSON: %v", spec, err)
	}
	name, _ := m["name"].(string)
	version, _ := m["version"].(string)
	if name == "" || version == "" {
		return inputErr("%s: package.json needs a name and a version, as npm publish does", spec)
	}
	r.Name, r.Version, r.Manifest = name, version, m
	return nil
}

func pythonMetadata(a *artifact.Artifact) []byte {
	if b, ok := a.Bytes("PKG-INFO"); ok {
		return b
	}
	for _, m := range a.Members {
		if strings.HasSuffix(m.Path, ".dist-info/METADATA") && strings.Count(m.Path, "/") == 1 {
			b, _ := a.Bytes(m.Path)
			return b
		}
	}
	return nil
}

// header reads an RFC 822 style header of the core metadata, up to the
// first blank line (the body is the description).
func header(meta []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(meta))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), key) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// skippedDirs are never packed from a directory target: npm pack and the
// Python builds leave them out.
var skippedDirs = map[string]bool{".git": true, "node_modules": true, "__pycache__": true, ".venv": true}

var tomlString = regexp.MustCompile(`^\s*(name|version)\s*=\s*"([^"\\]*)"\s*(#.*)?$`)

// resolveDir packs a directory laid out like an unpacked package: an npm
// package (package.json) as npm pack would (under package/), a Python one
// (PKG-INFO, or pyproject.toml whose [project] states name and version as
// literals) as an sdist under NAME-VERSION/.
func resolveDir(dir string) (*resolved, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		r := &resolved{Registry: pipeline.RegistryNPM, Format: artifact.FormatNpmTarball}
		if err := r.readPackageJSON(dir, b); err != nil {
			return nil, err
		}
		data, err := packDir(dir, "package")
		if err != nil {
			return nil, err
		}
		r.Data, r.Filename = data, npmFilename(r.Name, r.Version)
		r.Target = Target{Spec: dir, Kind: TargetDirectory, Registry: r.Registry, Name: r.Name, Version: r.Version}
		return r, nil
	}
	name, version := "", ""
	if b, err := os.ReadFile(filepath.Join(dir, "PKG-INFO")); err == nil {
		name, version = header(b, "Name"), header(b, "Version")
	} else if b, err := os.ReadFile(filepath.Join(dir, "pyproject.toml")); err == nil {
		name, version = pyprojectNameVersion(b)
	} else {
		return nil, inputErr("%s has no package.json, PKG-INFO or pyproject.toml: it is not laid out like a package", dir)
	}
	if name == "" || version == "" {
		return nil, inputErr("%s: the project's name and version are not stated as literals (PKG-INFO, or [project] name and version in pyproject.toml); build an sdist with `python -m build --sdist` and check that file", dir)
	}
	data, err := packDir(dir, name+"-"+version)
	if err != nil {
		return nil, err
	}
	return &resolved{Registry: pipeline.RegistryPyPI, Name: name, Version: version, Data: data, Filename: name + "-" + version + ".tar.gz", Format: artifact.FormatSdistTar,
		Target: Target{Spec: dir, Kind: TargetDirectory, Registry: pipeline.RegistryPyPI, Name: name, Version: version}}, nil
}

func pyprojectNameVersion(b []byte) (name, version string) {
	inProject := false
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			inProject = t == "[project]"
			continue
		}
		if !inProject {
			continue
		}
		if m := tomlString.FindStringSubmatch(line); m != nil {
			if m[1] == "name" {
				name = m[2]
			} else {
				version = m[2]
			}
		}
	}
	return name, version
}

func npmFilename(name, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "-") + "-" + version + ".tgz"
}

// epoch is every packed member's time, so a directory packs to the same bytes.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var errTooLarge = errors.New("too large")

// packDir packs the regular files under dir into a gzip'd tar under prefix/,
// sorted, with fixed times; links are left out (the archive reader records
// and never follows them), and so are skippedDirs.
func packDir(dir, prefix string) ([]byte, error) {
	var files []string
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if total += fi.Size(); total > maxDirBytes {
			return errTooLarge
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if errors.Is(err, errTooLarge) {
		return nil, inputErr("%s holds more than %d bytes of files; pack it (npm pack, python -m build) and check the archive", dir, maxDirBytes)
	}
	if err != nil {
		return nil, inputErr("%s: %v", dir, err)
	}
	sort.Strings(files)
	b, err := artifact.PackTarGz(dir, files, prefix, tar.FormatPAX, epoch)
	if err != nil {
		return nil, inputErr("%s: %v", dir, err)
	}
	return b, nil
}
