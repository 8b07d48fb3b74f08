// Package checks holds the checks that run against a package's surface and
// records: undetermined_tool_surface, publisher_provenance and
// model_directed_text, the declared checks that do not run, and the
// exfiltration context tags. The verifier the model check applies lives in
// the leaf package internal/verify; the names below keep its exported names
// reachable here, so callers of the checks need not import both.
package checks

import (
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/verify"
)

// VerifierVersion is verify.VerifierVersion.
const VerifierVersion = verify.VerifierVersion

// ErrRejected is verify.ErrRejected.
var ErrRejected = verify.ErrRejected

// Rejection reasons: verify's.
const (
	RejectEmptyQuote      = verify.RejectEmptyQuote
	RejectNoEntry         = verify.RejectNoEntry
	RejectNotInText       = verify.RejectNotInText
	RejectAcrossHole      = verify.RejectAcrossHole
	RejectOutsideSpans    = verify.RejectOutsideSpans
	RejectSpansDisordered = verify.RejectSpansDisordered
	RejectSourceMismatch  = verify.RejectSourceMismatch
	RejectSplitsCharacter = verify.RejectSplitsCharacter
	RejectSourceMissing   = verify.RejectSourceMissing
	RejectNotAtExcerpt    = verify.RejectNotAtExcerpt
)

type (
	// RejectError is verify.RejectError.
	RejectError = verify.RejectError
	// Verified is verify.Verified.
	Verified = verify.Verified
)

// VerifyQuote is verify.VerifyQuote.
func VerifyQuote(surface *rundir.Surface, fileBytes func(path string) ([]byte, error), kind, entryName, file, quote string) (Verified, error) {
	return verify.VerifyQuote(surface, fileBytes, kind, entryName, file, quote)
}

// VerifyExcerpt is verify.VerifyExcerpt.
func VerifyExcerpt(surface *rundir.Surface, fileBytes func(path string) ([]byte, error), kind, entryName, file string, excerpt []byte, lineStart, lineEnd int) (Verified, error) {
	return verify.VerifyExcerpt(surface, fileBytes, kind, entryName, file, excerpt, lineStart, lineEnd)
}

// LineRange is verify.LineRange.
func LineRange(b []byte, first, last int) (int, int) { return verify.LineRange(b, first, last) }

// reject is verify.Reject.
func reject(reason, format string, args ...any) *RejectError {
	return verify.Reject(reason, format, args...)
}

// lineOf is verify.LineOf.
func lineOf(b []byte, off int) int { return verify.LineOf(b, off) }
