package pipeline

import (
	"fmt"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// maxDiscardCause bounds the last error a discarded job's row quotes.
const maxDiscardCause = 500

// DiscardedPackage is the file of a queued package whose examine job River
// discarded: every one of its attempts failed or was killed outside the
// package's stages (a worker that died while fetching or writing, a job
// past its timeout, a result that could not be written), so no attempt
// wrote a result. It is the file the single process writes for a package
// that failed for good outside any stage (the row of a panic between the
// stages): no record, no surface, not gradeable, and one failure row, of
// stage pipeline and kind job_discarded, saying how many attempts ran and
// the last one's error. The run then goes on as for any failure row: the
// package is refused for want of a surface.
func DiscardedPackage(p QueuedPackage, attempts int, lastErr string) (*Examined, error) {
	if len(lastErr) > maxDiscardCause {
		lastErr = strings.ToValidUTF8(lastErr[:maxDiscardCause], "") + "…"
	}
	msg := fmt.Sprintf("the examine job was discarded by the queue after %d attempt(s) without a result (each failed or its worker died outside the package's stages); it is not examined again in this run", attempts)
	if lastErr != "" {
		msg += "; last error: " + lastErr
	}
	f := rundir.Failure{Stage: vocab.StagePipeline, Kind: vocab.FailureJobDiscarded, Message: msg}
	pf := failedPackageFile(job{c: p.Candidate, hop: p.Hop}, f)
	b, err := rundir.Marshal(pf)
	if err != nil {
		return nil, fmt.Errorf("pipeline: encode %s: %w", pf.Package.Key(), err)
	}
	return &Examined{FileName: packageFileName(p.Candidate), Data: b, Key: pf.Package.Key(), Failures: pf.Summary.Failures}, nil
}
