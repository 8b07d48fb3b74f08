// Verification at decision time: excerpts (G6), model findings (G7) and
// capability evidence, each against the artifact's own bytes.

package policy

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/verify"
	"github.com/attestari/attestari/internal/vocab"
)

// verifyExcerpt is G6 for one finding.
func (d *decider) verifyExcerpt(f rundir.Finding) (outcome, detail string, err error) {
	ev := f.Evidence
	if ev.Excerpt == "" {
		return "excerpt_empty", "", nil
	}
	b, err := d.blobs.get(d.ctx, ev.SHA256)
	if err != nil {
		var be blobErr
		if errors.As(err, &be) {
			return be.outcome, ev.SHA256, nil
		}
		return "", "", fmt.Errorf("policy: decide: finding %s: %w", f.ID, err)
	}
	lo, hi := 0, len(b)
	if ev.LineStart != 0 || ev.LineEnd != 0 {
		if ev.LineStart < 1 || ev.LineEnd < ev.LineStart {
			return "lines_invalid", fmt.Sprintf("lines %d..%d", ev.LineStart, ev.LineEnd), nil
		}
		lo, hi = verify.LineRange(b, ev.LineStart, ev.LineEnd)
	}
	ex := []byte(ev.Excerpt)
	if !bytes.Contains(b[lo:hi], ex) {
		if ev.LineStart != 0 && bytes.Contains(b, ex) {
			return "excerpt_not_in_lines", fmt.Sprintf("lines %d..%d", ev.LineStart, ev.LineEnd), nil
		}
		return "excerpt_not_in_blob", "", nil
	}
	return Verified, "", nil
}

// verifyModelFinding is G7 for one model finding: the verifier's own test,
// applied to the finding's excerpt in the member it cites.
func (d *decider) verifyModelFinding(f rundir.Finding, s *rundir.Surface, art *artifactMembers) (reason, detail string, err error) {
	if s == nil {
		return verify.RejectNoEntry, "no surface row to verify against", nil
	}
	ev := f.Evidence
	fileSHA := map[string]string{}
	for _, sf := range s.Files {
		fileSHA[sf.Path] = sf.SHA256
	}
	var ctxErr error
	fileBytes := func(path string) ([]byte, error) {
		sha, known := fileSHA[path]
		if path == ev.Path {
			if known && sha != ev.SHA256 {
				return nil, fmt.Errorf("the finding cites blob %s for %s, the surface read %s", ev.SHA256, path, sha)
			}
			sha = ev.SHA256
		}
		if sha == "" {
			return nil, fmt.Errorf("no stored bytes known for %s", path)
		}
		b, err := d.blobs.get(d.ctx, sha)
		if err == nil {
			return b, nil
		}
		if d.ctx.Err() != nil {
			ctxErr = d.ctx.Err()
			return nil, ctxErr
		}
		if art != nil {
			if mb, why := art.member(path); mb != nil {
				if vocab.SHA256Hex(mb) != sha {
					return nil, fmt.Errorf("%s in the artifact does not hash to %s", path, sha)
				}
				return mb, nil
			} else if why != "" {
				return nil, fmt.Errorf("%s: %v; artifact: %s", path, err, why)
			}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	_, verr := verify.VerifyExcerpt(s, fileBytes, f.SurfaceKind, f.EntryName, ev.Path, []byte(ev.Excerpt), ev.LineStart, ev.LineEnd)
	if ctxErr != nil {
		return "", "", fmt.Errorf("policy: decide: finding %s: %w", f.ID, ctxErr)
	}
	if verr == nil {
		return Verified, "", nil
	}
	var re *verify.RejectError
	if errors.As(verr, &re) {
		return re.Reason, re.Error(), nil
	}
	return "verifier_error", verr.Error(), nil
}

// artifactMembers opens a package's stored artifact at most once, on demand.
type artifactMembers struct {
	d      *decider
	sha    string
	opened bool
	read   func(string) ([]byte, bool)
	why    string
}

// member returns the bytes of path in the artifact, or why it cannot.
func (a *artifactMembers) member(path string) ([]byte, string) {
	if !a.opened {
		a.opened = true
		switch {
		case a.d.opts.OpenArtifact == nil:
			a.why = "no artifact reader configured"
		case a.sha == "":
			a.why = "the surface row names no artifact"
		default:
			data, err := a.d.blobs.get(a.d.ctx, a.sha)
			if err != nil {
				a.why = "artifact blob: " + err.Error()
				break
			}
			r, err := a.d.opts.OpenArtifact(a.d.ctx, data)
			if err != nil {
				a.why = "artifact unreadable: " + err.Error()
				break
			}
			a.read = r
		}
	}
	if a.read == nil {
		return nil, a.why
	}
	b, ok := a.read(path)
	if !ok {
		return nil, ""
	}
	return b, ""
}

// verifyCapabilities verifies each inventory entry byte for byte (§20): the
// file is the blob named by its SHA-256 if stored, else the artifact member.
func (d *decider) verifyCapabilities(s *rundir.Surface, art *artifactMembers) ([]CapabilityRow, error) {
	out := make([]CapabilityRow, 0, len(s.Capabilities))
	for _, c := range s.Capabilities {
		row := CapabilityRow{Capability: c}
		outcome, detail, err := d.verifyCapability(c, art)
		if err != nil {
			return nil, err
		}
		row.Verification, row.VerificationDetail = outcome, detail
		d.capCounts[outcome]++
		out = append(out, row)
	}
	return out, nil
}

func (d *decider) verifyCapability(c rundir.Capability, art *artifactMembers) (string, string, error) {
	b, err := d.blobs.get(d.ctx, c.FileSHA256)
	if err != nil {
		if d.ctx.Err() != nil {
			return "", "", fmt.Errorf("policy: decide: capability %s:%d: %w", c.File, c.Line, d.ctx.Err())
		}
		mb, why := art.member(c.File)
		switch {
		case mb != nil:
			if vocab.SHA256Hex(mb) != c.FileSHA256 {
				return CapFileHashMismatch, fmt.Sprintf("%s in the artifact does not hash to %s", c.File, c.FileSHA256), nil
			}
			b = mb
		case why != "":
			return CapNotVerifiable, "file not stored as a blob; " + why, nil
		default:
			return CapFileNotInArchive, c.File, nil
		}
	}
	if c.Start < 0 || c.End <= c.Start || c.End > len(b) {
		return CapSpanOutOfRange, fmt.Sprintf("%d..%d in %d bytes", c.Start, c.End, len(b)), nil
	}
	if string(b[c.Start:c.End]) != c.Excerpt {
		return CapExcerptMismatch, fmt.Sprintf("bytes %d..%d differ from the excerpt", c.Start, c.End), nil
	}
	if c.Line > 0 {
		if got := bytes.Count(b[:c.Start], []byte{'\n'}) + 1; got != c.Line {
			return CapLineMismatch, fmt.Sprintf("excerpt starts on line %d, entry says %d", got, c.Line), nil
		}
	}
	return CapVerified, "", nil
}
