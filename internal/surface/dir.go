package surface

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// MaxDirMember is the largest file ExtractDir reads; larger members are
// listed as unresolved rather than read.
const MaxDirMember = 64 << 20

// ExtractDir extracts the surface of a directory laid out like an unpacked
// package (package.json at its root or under one top directory, or a Python
// project). It classifies members itself: hashes, the minified rule and
// vendored path segments. The package reference is read from package.json,
// PKG-INFO or pyproject.toml when present.
func ExtractDir(ctx context.Context, dir string, opts Options) (rundir.Surface, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return rundir.Surface{}, fmt.Errorf("extract %s: %w", dir, err)
	}
	if !st.IsDir() {
		return rundir.Surface{}, fmt.Errorf("extract %s: not a directory", dir)
	}
	fsys := os.DirFS(dir)
	members, err := ClassifyFS(fsys)
	if err != nil {
		return rundir.Surface{}, fmt.Errorf("extract %s: %w", dir, err)
	}
	return Extract(ctx, packageRefOf(fsys), fsys, members, opts), nil
}

// ClassifyFS lists the regular files of fsys as members: SHA-256, size, the
// minified line rule (longest line over 800 bytes or average line over 200
// bytes: candidates the extractor decides on) and vendored path segments.
func ClassifyFS(fsys fs.FS) ([]MemberInfo, error) {
	var out []MemberInfo
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		m := MemberInfo{Path: p, Size: info.Size()}
		if lib, ok := vendoredPath(p); ok {
			m.Vendored, m.VendoredLibrary, m.VendoredReason = true, lib, "vendor-style path segment"
		}
		if info.Size() <= MaxDirMember {
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			m.SHA256 = vocab.SHA256Hex(b)
			if languageOf(p) != "" {
				m.Minified = IsMinified(b)
			}
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

// IsMinified applies the line rule that nominates candidates for §5.2's
// minified rule: a member whose longest line exceeds 800 bytes, or whose
// lines average more than 200 bytes. The extractor decides each candidate
// on its tree (MinifiedFigures.Bundle).
func IsMinified(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	lines, longest, cur := 1, 0, 0
	for _, c := range b {
		if c == '\n' {
			lines++
			cur = 0
			continue
		}
		cur++
		if cur > longest {
			longest = cur
		}
	}
	if b[len(b)-1] == '\n' {
		lines--
	}
	return longest > 800 || len(b)/max(lines, 1) > 200
}

// vendoredPath recognises bundled third-party code by a vendor-style path
// segment and names the library after it.
func vendoredPath(p string) (string, bool) {
	segs := strings.Split(p, "/")
	for i, s := range segs[:len(segs)-1] {
		switch s {
		case "node_modules", "vendor", "vendored", "_vendor", "third_party", "third-party", "bower_components":
			if i+1 < len(segs)-1 {
				lib := segs[i+1]
				if strings.HasPrefix(lib, "@") && i+2 < len(segs)-1 {
					lib += "/" + segs[i+2]
				}
				return lib, true
			}
			return s, true
		}
	}
	return "", false
}

// packageRefOf reads the package's own name and version.
func packageRefOf(fsys fs.FS) rundir.PackageRef {
	for _, p := range []string{"package.json", "package/package.json"} {
		if b, err := fs.ReadFile(fsys, p); err == nil {
			var pj struct{ Name, Version string }
			if json.Unmarshal(b, &pj) == nil && pj.Name != "" {
				return rundir.PackageRef{Registry: "npm", Name: pj.Name, Version: pj.Version}
			}
		}
	}
	for _, p := range []string{"PKG-INFO", "pyproject.toml"} {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			continue
		}
		ref := rundir.PackageRef{Registry: "pypi"}
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if v, ok := cutField(l, "Name:", "name ="); ok && ref.Name == "" {
				ref.Name = v
			}
			if v, ok := cutField(l, "Version:", "version ="); ok && ref.Version == "" {
				ref.Version = v
			}
		}
		if ref.Name != "" {
			return ref
		}
	}
	return rundir.PackageRef{Registry: "npm", Name: path.Base("."), Version: ""}
}

func cutField(l string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if v, ok := strings.CutPrefix(l, p); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`), true
		}
	}
	return "", false
}
