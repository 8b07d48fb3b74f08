// Package methodology owns the methodology's identity: the version in force
// (METHODOLOGY_VERSION in the reference, Version here), the embedded document
// and its SHA-256, the published snapshots, and the version table that says
// which extractor versions each methodology version describes.
//
// Every decision row cites Version and SHA256, and the policy consults
// ExtractorAllowed before deciding anything (methodology §5.2, §9, §21).
// This package states no decision rule and reads no run file: the rules are
// in internal/policy. It must stay free of I/O beyond the embedded files, so
// that anything may import it.
package methodology

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/attestari/attestari"
	"github.com/attestari/attestari/internal/vocab"
)

// Version is the methodology version in force. It must equal the version on
// the first line of docs/methodology.md; a test fails when they differ, which
// is what keeps the policy from being shipped beside a document it does not
// match.
const Version = "2.3.21"

// versionLinePrefix starts the first line of every methodology document.
const versionLinePrefix = "methodology_version: "

// VersionPair is one row of the version table: a methodology version and an
// extractor version it describes.
type VersionPair struct {
	Methodology string `json:"methodology_version"`
	Extractor   string `json:"extractor_version"`
}

// versionTable lists every allowed (methodology, extractor) pair. A pair not
// listed is refused: a surface read by an extractor the document does not
// describe is not decided under it (reason code version_pair_not_allowed).
// Adding a row is a methodology change (§21).
var versionTable = []VersionPair{
	{Methodology: "2.3.1", Extractor: "syntax-tree-3"},
	{Methodology: "2.3.2", Extractor: "syntax-tree-4"},
	{Methodology: "2.3.3", Extractor: "syntax-tree-5"},
	{Methodology: "2.3.4", Extractor: "syntax-tree-6"},
	{Methodology: "2.3.5", Extractor: "syntax-tree-7"},
	{Methodology: "2.3.6", Extractor: "syntax-tree-8"},
	{Methodology: "2.3.7", Extractor: "syntax-tree-9"},
	{Methodology: "2.3.8", Extractor: "syntax-tree-10"},
	{Methodology: "2.3.9", Extractor: "syntax-tree-11"},
	{Methodology: "2.3.10", Extractor: "syntax-tree-12"},
	{Methodology: "2.3.11", Extractor: "syntax-tree-13"},
	{Methodology: "2.3.12", Extractor: "syntax-tree-14"},
	{Methodology: "2.3.13", Extractor: "syntax-tree-15"},
	{Methodology: "2.3.14", Extractor: "syntax-tree-16"},
	{Methodology: "2.3.15", Extractor: "syntax-tree-17"},
	{Methodology: "2.3.16", Extractor: "syntax-tree-18"},
	{Methodology: "2.3.17", Extractor: "syntax-tree-19"},
	{Methodology: "2.3.18", Extractor: "syntax-tree-20"},
	{Methodology: "2.3.19", Extractor: "syntax-tree-21"},
	{Methodology: "2.3.20", Extractor: "syntax-tree-22"},
	{Methodology: "2.3.21", Extractor: "syntax-tree-23"},
}

// VersionTable returns a copy of the version table, in its fixed order, for
// run headers, the gate map's neighbours and the website.
func VersionTable() []VersionPair {
	return slices.Clone(versionTable)
}

// ExtractorAllowed reports whether surfaces read by extractorVersion may be
// decided under methodologyVersion. Comparison is exact: no normalisation of
// case or whitespace, because a version string on a row is an identity.
func ExtractorAllowed(methodologyVersion, extractorVersion string) bool {
	for _, p := range versionTable {
		if p.Methodology == methodologyVersion && p.Extractor == extractorVersion {
			return true
		}
	}
	return false
}

// SnapshotFile is one published snapshot of the methodology document.
type SnapshotFile struct {
	Version string // from the file name, docs/methodology/<Version>.md
	SHA256  string // lowercase hex of Bytes
	Bytes   []byte // the document exactly as published; callers get a copy
}

// ErrNoVersionLine reports that a document's first line is not a
// methodology_version line carrying a MAJOR.MINOR.PATCH version.
var ErrNoVersionLine = errors.New("methodology: first line is not a methodology_version line")

// ParseVersionLine returns the version named on the first line of doc, which
// must be exactly "methodology_version: MAJOR.MINOR.PATCH" (a trailing "\r"
// is not accepted: the document's bytes are hashed, so one line ending is
// part of its identity).
func ParseVersionLine(doc []byte) (string, error) {
	first, _, _ := bytes.Cut(doc, []byte("\n"))
	line := string(first)
	v, ok := strings.CutPrefix(line, versionLinePrefix)
	if !ok {
		return "", fmt.Errorf("parse version line %.60q: %w", line, ErrNoVersionLine)
	}
	if _, ok := parseSemver(v); !ok {
		return "", fmt.Errorf("parse version line %.60q: version %.40q is not MAJOR.MINOR.PATCH: %w", line, v, ErrNoVersionLine)
	}
	return v, nil
}

// parseSemver parses MAJOR.MINOR.PATCH with decimal components and no leading
// zeros (other than "0" itself), the only form the document uses.
func parseSemver(v string) ([3]int, bool) {
	var out [3]int
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		if p == "" || len(p) > 9 || (len(p) > 1 && p[0] == '0') {
			return out, false
		}
		for _, c := range p {
			if c < '0' || c > '9' {
				return out, false
			}
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

// compareVersions orders MAJOR.MINOR.PATCH strings numerically; it assumes
// both parse, which loadSnapshots guarantees.
func compareVersions(a, b string) int {
	x, _ := parseSemver(a)
	y, _ := parseSemver(b)
	for i := range x {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

type loaded struct {
	document  []byte
	sha256    string
	snapshots []SnapshotFile
}

// load reads the embedded files once. The files are compiled into the binary
// by //go:embed, so a failure here is a build defect, not an input error.
var load = sync.OnceValue(func() loaded {
	doc, err := attestari.MethodologyFS.ReadFile(attestari.MethodologyPath)
	if err != nil {
		panic(fmt.Sprintf("methodology: embedded document missing (build defect): %v", err))
	}
	snaps, err := loadSnapshots(attestari.MethodologyFS, attestari.MethodologySnapshotDir)
	if err != nil {
		panic(fmt.Sprintf("methodology: embedded snapshots unreadable (build defect): %v", err))
	}
	return loaded{document: doc, sha256: vocab.SHA256Hex(doc), snapshots: snaps}
})

// loadSnapshots reads every <version>.md in dir, in ascending version order.
// Files whose name is not a version are ignored here; the package's tests
// fail on them, so they never reach a release.
func loadSnapshots(fsys fs.FS, dir string) ([]SnapshotFile, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read snapshot folder %s: %w", dir, err)
	}
	var out []SnapshotFile
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		v, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok {
			continue
		}
		if _, ok := parseSemver(v); !ok {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read snapshot %s: %w", e.Name(), err)
		}
		out = append(out, SnapshotFile{Version: v, SHA256: vocab.SHA256Hex(b), Bytes: b})
	}
	slices.SortFunc(out, func(a, b SnapshotFile) int { return compareVersions(a.Version, b.Version) })
	return out, nil
}

// Document returns a copy of the bytes of docs/methodology.md, the document
// in force. The copy keeps a caller's mutation from changing what SHA256
// describes.
func Document() []byte {
	return bytes.Clone(load().document)
}

// SHA256 returns the lowercase hex SHA-256 of the document in force: the
// methodology_sha256 every decision row carries.
func SHA256() string {
	return load().sha256
}

// Snapshots returns every published snapshot, oldest version first. Each
// carries its own copy of the bytes.
func Snapshots() []SnapshotFile {
	src := load().snapshots
	out := make([]SnapshotFile, len(src))
	for i, s := range src {
		out[i] = SnapshotFile{Version: s.Version, SHA256: s.SHA256, Bytes: bytes.Clone(s.Bytes)}
	}
	return out
}

// Snapshot returns the published snapshot of version, if there is one.
func Snapshot(version string) (SnapshotFile, bool) {
	for _, s := range load().snapshots {
		if s.Version == version {
			return SnapshotFile{Version: s.Version, SHA256: s.SHA256, Bytes: bytes.Clone(s.Bytes)}, true
		}
	}
	return SnapshotFile{}, false
}
