// Package artifact owns reading a published package's archive — an npm
// tarball, a PyPI sdist (.tar.gz or .zip) or a wheel — into an in-memory
// fs.FS, and classifying each member: its language, whether it is a minified
// bundle and whether it is vendored third-party code (methodology §3, §5).
//
// Archives are hostile input. Nothing is ever written to disk; every limit
// (total uncompressed bytes, member count, member size, compression ratio)
// is enforced while bytes flow, never trusted from a header; links, devices,
// traversal, absolute, duplicate and non-UTF-8 names are never followed and
// each is recorded. Reading never fails with a lost error: an archive that
// cannot be read to the end within the limits is an Artifact whose Outcome
// is archive_unreadable and whose Reason says exactly why.
//
// The package must not parse source (internal/surface does), fetch anything,
// or touch the evidence store: it reads bytes it is given.
package artifact

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
)

// Format names an archive flavour. It decides which leading path component
// is stripped, as the installer does.
type Format string

const (
	// FormatUnknown is what DetectFormat returns for bytes that are neither
	// a gzip'd or plain tar nor a zip. Reading it is archive_unreadable.
	FormatUnknown Format = ""
	// FormatNpmTarball is an npm .tgz. npm installs it with the first path
	// component ("package/" by convention) stripped, so that is the FS root.
	FormatNpmTarball Format = "npm_tarball"
	// FormatSdistTar is a PyPI source distribution as .tar.gz (or plain
	// .tar). Its common "name-version/" directory is stripped.
	FormatSdistTar Format = "sdist_tar"
	// FormatSdistZip is a PyPI source distribution as .zip; the common
	// "name-version/" directory is stripped.
	FormatSdistZip Format = "sdist_zip"
	// FormatWheel is a PyPI wheel (.whl, a zip). Its members sit at the
	// root of site-packages, so nothing is stripped.
	FormatWheel Format = "wheel"
)

// Outcome values: OutcomeOK, or vocab.OutcomeArchiveUnreadable, the
// methodology's surface outcome of that name (§5), so the pipeline copies it
// through unchanged.
const OutcomeOK = "ok"

// Cause values classify an archive_unreadable outcome for metrics and tests;
// Reason carries the human-readable detail.
const (
	CauseUnknownFormat    = "unknown_format"
	CauseInvalid          = "invalid_archive" // bad magic, header, checksum, central directory
	CauseTruncated        = "truncated"       // the stream ended early
	CauseTotalBytes       = "total_bytes_limit"
	CauseMemberCount      = "member_count_limit"
	CauseMemberBytes      = "member_size_limit"
	CauseCompressionRatio = "compression_ratio_limit"
)

// Skip reasons: why a member is not in the FS. Each is recorded on
// Artifact.Skipped; none ends the read.
const (
	SkipPathTraversal      = "path_traversal"       // a ".." element: never followed
	SkipAbsolutePath       = "absolute_path"        // leading "/" or a drive letter
	SkipSymlink            = "symlink"              // never followed; Target records where it points
	SkipHardlink           = "hardlink"             // never followed; Target records what it names
	SkipDevice             = "device"               // character or block device
	SkipFIFO               = "fifo"                 // named pipe
	SkipSocket             = "socket"               // zip external attributes can claim one
	SkipDuplicateName      = "duplicate_name"       // an earlier member of the same path; the last one is kept, as installers overwrite
	SkipNonUTF8Name        = "non_utf8_name"        // the name is not valid UTF-8
	SkipInvalidName        = "invalid_name"         // NUL byte, or empty after cleaning
	SkipBackslashName      = "backslash_in_name"    // a Windows separator; its meaning differs by installer
	SkipOutsidePackageRoot = "outside_package_root" // an npm member with no leading directory: npm does not install it
	SkipPathConflict       = "path_conflict"        // a file where a directory is needed, or the reverse
	SkipSparse             = "sparse_file"          // a GNU sparse file expands to bytes the stream does not carry
	SkipUnsupportedType    = "unsupported_type"     // any other tar entry type
)

// Limits bound what reading one archive may cost. A zero field takes its
// default; DefaultLimits documents them.
type Limits struct {
	// MaxTotalBytes bounds the uncompressed bytes read: the whole tar
	// stream, or the sum of zip members. Default 256 MiB.
	MaxTotalBytes int64
	// MaxMembers bounds the entries of any kind (files, directories,
	// links). Default 20,000.
	MaxMembers int
	// MaxMemberBytes bounds one member's size. Default 32 MiB.
	MaxMemberBytes int64
	// MaxRatio bounds uncompressed bytes over the archive's size in bytes,
	// checked once RatioFloorBytes have been read, so that small archives
	// of highly repetitive text are not refused. Default 200.
	MaxRatio int64
	// RatioFloorBytes is where the ratio check starts. Default 4 MiB.
	RatioFloorBytes int64
}

// DefaultLimits returns the documented defaults. They are generous for real
// MCP server packages (the largest npm tarballs of the corpus unpack to tens
// of MiB) and small enough that a bomb is stopped in well under a second.
func DefaultLimits() Limits {
	return Limits{
		MaxTotalBytes:   256 << 20,
		MaxMembers:      20_000,
		MaxMemberBytes:  32 << 20,
		MaxRatio:        200,
		RatioFloorBytes: 4 << 20,
	}
}

func (l Limits) withDefaults() (Limits, error) {
	d := DefaultLimits()
	if l.MaxTotalBytes < 0 || l.MaxMembers < 0 || l.MaxMemberBytes < 0 || l.MaxRatio < 0 || l.RatioFloorBytes < 0 {
		return l, fmt.Errorf("artifact: negative limit in %+v", l)
	}
	if l.MaxTotalBytes == 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	if l.MaxMembers == 0 {
		l.MaxMembers = d.MaxMembers
	}
	if l.MaxMemberBytes == 0 {
		l.MaxMemberBytes = d.MaxMemberBytes
	}
	if l.MaxRatio == 0 {
		l.MaxRatio = d.MaxRatio
	}
	if l.RatioFloorBytes == 0 {
		l.RatioFloorBytes = d.RatioFloorBytes
	}
	return l, nil
}

// Member is one regular file of the archive that is readable through
// Artifact.FS at Path.
type Member struct {
	// Path is the member's path in FS: slash-separated, cleaned, with the
	// installer's leading directory stripped.
	Path string `json:"path"`
	// Name is the member's name exactly as the archive spells it.
	Name   string      `json:"name"`
	Size   int64       `json:"size"`
	SHA256 string      `json:"sha256"`
	Mode   fs.FileMode `json:"mode"` // permission bits only
	Classification
}

// SkippedMember is an archive entry that is not in the FS, and why.
type SkippedMember struct {
	// Name is the entry's name as the archive spells it; a name that is
	// not valid UTF-8 is given Go-quoted (strconv.Quote) so it survives JSON.
	Name   string `json:"name"`
	Reason string `json:"reason"`
	// Target is where a symlink points or what a hardlink names, recorded
	// and never followed.
	Target string `json:"target,omitempty"`
}

// Artifact is the result of reading an archive. Outcome is OutcomeOK or
// OutcomeArchiveUnreadable; when unreadable, FS is empty and Members is nil,
// because nothing from an archive that could not be read to its end within
// the limits is examined.
type Artifact struct {
	Format  Format          `json:"format"`
	FS      fs.FS           `json:"-"`
	Members []Member        `json:"members"` // sorted by Path
	Skipped []SkippedMember `json:"skipped"` // in archive order
	Outcome string          `json:"outcome"`
	Cause   string          `json:"cause,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	// Entries is the number of archive entries seen and UncompressedBytes
	// the uncompressed bytes read, both counted against the limits.
	Entries           int   `json:"entries"`
	UncompressedBytes int64 `json:"uncompressed_bytes"`

	files *memFS
}

// Bytes returns the stored bytes of the member at path without copying.
// The caller must not modify them; fs.ReadFile on FS returns a copy instead.
func (a *Artifact) Bytes(path string) ([]byte, bool) {
	if a.files == nil {
		return nil, false
	}
	f, ok := a.files.files[path]
	if !ok {
		return nil, false
	}
	return f.data, true
}

// Member returns the member at path.
func (a *Artifact) Member(path string) (Member, bool) {
	if a.files == nil {
		return Member{}, false
	}
	f, ok := a.files.files[path]
	if !ok {
		return Member{}, false
	}
	return a.Members[f.index], true
}

// unreadableError carries an archive_unreadable outcome out of the readers.
type unreadableError struct {
	cause  string
	reason string
}

func (e *unreadableError) Error() string { return e.cause + ": " + e.reason }

func unreadable(cause, format string, args ...any) *unreadableError {
	return &unreadableError{cause: cause, reason: fmt.Sprintf(format, args...)}
}

// Read reads an archive held in data. The returned error is non-nil only
// for a caller's mistake (negative limits) or a cancelled ctx; everything
// the archive itself can cause is recorded on the Artifact.
func Read(ctx context.Context, data []byte, format Format, limits Limits) (*Artifact, error) {
	lim, err := limits.withDefaults()
	if err != nil {
		return nil, err
	}
	b := newBuilder(format, lim, int64(len(data)))
	switch format {
	case FormatNpmTarball, FormatSdistTar:
		err = readTar(ctx, data, b)
	case FormatSdistZip, FormatWheel:
		err = readZip(ctx, data, b)
	default:
		err = unreadable(CauseUnknownFormat, "unrecognised archive format %q", string(format))
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, fmt.Errorf("artifact: read %s: %w", format, ctxErr)
	}
	var ue *unreadableError
	if errors.As(err, &ue) {
		return b.fail(ue), nil
	}
	if err != nil {
		// The readers turn every archive error into an unreadableError;
		// anything else is a bug, still recorded rather than lost.
		return b.fail(unreadable(CauseInvalid, "%v", err)), nil
	}
	return b.finish(), nil
}
