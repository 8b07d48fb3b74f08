// Package extractor adapts package surface (the syntax-tree extractor) to
// the pipeline's Extractor interface: it hands the extractor the archive
// reader's in-memory FS and classified members, so the extractor reads
// exactly the bytes the archive reader verified and never the disk.
//
// Two ways in: Surface extracts in the calling process (tests, the corpus
// evaluation); Child returns the pipeline.ChildExtractor that `attestari run`,
// `cycle` and `surface` use, whose child process calls ServeChild, so a
// package whose extraction dies or passes its memory budget ends only that
// process (docs/reliability.md §2, §4).
//
// It is a package of its own so that package pipeline does not import
// tree-sitter: the pipeline's tests run with a stand-in extractor, and the
// CLI wires this one in. It must hold no logic beyond the conversion.
package extractor

import (
	"context"
	"io"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
	"github.com/attestari/attestari/internal/vocab"
)

// Surface is the pipeline.Extractor of this build.
type Surface struct {
	// Options are the extraction budget and bounds; zero fields take
	// package surface's defaults.
	Options surface.Options
}

var _ pipeline.Extractor = Surface{}

// Version is EXTRACTOR_VERSION.
func (Surface) Version() string { return surface.ExtractorVersion }

// Extract reads the surface. Package surface records every limit it meets
// in the row it returns, so there is no error to report.
func (e Surface) Extract(ctx context.Context, in pipeline.ExtractInput) (rundir.Surface, error) {
	return surface.Extract(ctx, in.Package, in.Artifact.FS, MemberInfos(in.Artifact), e.Options), nil
}

// MemberInfos converts the archive reader's classified members into the
// extractor's member descriptions.
func MemberInfos(a *artifact.Artifact) []surface.MemberInfo {
	out := make([]surface.MemberInfo, 0, len(a.Members))
	for _, m := range a.Members {
		mi := surface.MemberInfo{Path: m.Path, SHA256: m.SHA256, Size: m.Size, Minified: m.Minified, Vendored: m.Vendored}
		if m.Vendored {
			mi.VendoredLibrary = m.VendoredLibrary
			mi.VendoredReason = "vendor-style path segment " + m.VendorSegment
		}
		for _, r := range m.VendoredRegions {
			mi.VendoredRegions = append(mi.VendoredRegions, surface.VendoredRegion{
				Library: r.Library, StartLine: r.StartLine, EndLine: r.EndLine,
				Reason: "bundler module comment (" + r.Marker + "): " + r.Module,
			})
		}
		out = append(out, mi)
	}
	return out
}

// FromArchive reads one artifact's bytes the way a run does (the archive
// reader, then the extractor) and returns its surface row; an archive the
// reader refuses is the same archive_unreadable row a run records. The CLI's
// `attestari surface` and the corpus evaluation read single artifacts with it.
func FromArchive(ctx context.Context, pkg rundir.PackageRef, data []byte, format artifact.Format, opts surface.Options) rundir.Surface {
	sha := vocab.SHA256Hex(data)
	a, err := pipeline.ReadArtifact(ctx, data, format, artifact.Limits{})
	if err != nil {
		a = &artifact.Artifact{Outcome: vocab.OutcomeArchiveUnreadable, Cause: "read", Reason: err.Error()}
	}
	if a.Outcome != artifact.OutcomeOK {
		return *pipeline.UnreadableSurface(pkg, sha, surface.ExtractorVersion, a)
	}
	s := surface.Extract(ctx, pkg, a.FS, MemberInfos(a), opts)
	s.ArtifactSHA256 = sha
	return s
}

// Child is the extractor of this build run in a child process: path (the
// running binary) started with args (its hidden subcommand that calls
// ServeChild), under the default budget of pipeline.ChildExtractor.
func Child(path string, args ...string) *pipeline.ChildExtractor {
	return &pipeline.ChildExtractor{Path: path, Args: args, ExtractorVersion: surface.ExtractorVersion}
}

// ServeChild is the child's side: one request from stdin, its surface row
// on stdout, extracted under the budget the parent sent. The extractor's
// own estimate of bytes held still stops it early; the parent's measurement
// of the process's resident memory is the bound.
func ServeChild(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	return pipeline.ServeChild(ctx, stdin, stdout, func(ctx context.Context, in pipeline.ExtractInput, b pipeline.ChildBudget) (rundir.Surface, error) {
		return surface.Extract(ctx, in.Package, in.Artifact.FS, MemberInfos(in.Artifact), childOptions(b)), nil
	})
}
