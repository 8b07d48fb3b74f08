package checks

import (
	"bytes"
	"fmt"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// undetermined_tool_surface (vocab.CheckSurface): can the tool surface be
// determined at all? Its conclusion is the surface outcome the extractor
// recorded; for one outcome, minified_only, it also makes a finding.

// TagMinifiedOnly tags the finding made when registration text exists only
// in minified or obfuscated bundles.
const TagMinifiedOnly = "minified_only"

// minifiedExcerptBytes caps the excerpt cited from a bundle's longest line:
// enough to find it again byte for byte, not the whole bundle.
const minifiedExcerptBytes = 200

// MinifiedOnlyFindings returns the medium finding methodology §5 makes for a
// minified_only surface: for each bundle the outcome cites, its evidence is
// the bundle file (stored whole as a blob), the line that is longest and its
// length. An operator cannot inspect what they install; that, not a gap in
// our reading, is what the finding says. file returns a member's bytes.
func MinifiedOnlyFindings(s *rundir.Surface, file func(path string) ([]byte, error)) ([]rundir.Finding, error) {
	if s == nil || s.Outcome != vocab.OutcomeMinifiedOnly {
		return nil, nil
	}
	sums := map[string]string{}
	for _, f := range s.Files {
		sums[f.Path] = f.SHA256
	}
	var out []rundir.Finding
	seen := map[string]bool{}
	for _, site := range s.OutcomeEvidence {
		if seen[site.File] {
			continue
		}
		seen[site.File] = true
		b, err := file(site.File)
		if err != nil {
			return nil, fmt.Errorf("minified_only: read %s: %w", site.File, err)
		}
		line, start, length := longestLine(b)
		end := start + min(length, minifiedExcerptBytes)
		sha := sums[site.File]
		if sha == "" {
			sha = vocab.SHA256Hex(b)
		}
		out = append(out, rundir.Finding{
			ID:       "uts-" + vocab.SHA256Hex([]byte(s.Package.Key() + "\x00" + vocab.CheckSurface + "\x00" + site.File))[:16],
			Package:  s.Package,
			Check:    vocab.CheckSurface,
			Tag:      TagMinifiedOnly,
			Severity: vocab.SeverityMedium,
			Title:    fmt.Sprintf("registration text exists only in a minified bundle: %s, %d bytes, longest line %d bytes", site.File, len(b), length),
			Evidence: rundir.Evidence{SHA256: sha, Path: site.File, LineStart: line, LineEnd: line, Excerpt: string(b[start:end])},
		})
	}
	return out, nil
}

// longestLine returns the 1-based number, start offset and length of the
// longest line of b (the first of equals), without its line terminator.
func longestLine(b []byte) (line, start, length int) {
	n, off := 1, 0
	line = 1
	for {
		i := bytes.IndexByte(b[off:], '\n')
		end := len(b)
		if i >= 0 {
			end = off + i
		}
		l := end - off
		if l > 0 && b[end-1] == '\r' {
			l--
		}
		if l > length {
			line, start, length = n, off, l
		}
		if i < 0 {
			return line, start, length
		}
		off = end + 1
		n++
	}
}
