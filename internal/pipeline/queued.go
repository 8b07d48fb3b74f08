package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// A queued run (internal/queue, `attestari run --queue` and `attestari
// worker`) is this package's run with two hooks, so that the single process
// and the workers run the same code:
//
//   - Dispatch is Run whose waves are handed to an Enqueue instead of being
//     examined here. The run directory is prepared exactly as Run prepares
//     it (header, candidates copy, stamps, lock); a wave whose packages all
//     have their file moves on to the next wave, and a run whose every wave
//     is done is assembled with the same assembleFiles and writeSeven. A
//     worker that finishes a wave calls Dispatch on the run directory it
//     seeded from the queue's rows (SeedRunDir): that is the resume rule,
//     so the waves, the hops and the seven files are what Run computes.
//   - Examiner runs examinePackage, the one function the single process
//     runs for a package, under a header the run recorded, and hands back
//     the package file's bytes: exactly what savePackageFile writes.

// QueuedPackage is one package of a queued run: a candidate of the file
// (hop 0) or a delegation target at the version its specifier resolved to.
type QueuedPackage struct {
	Candidate Candidate `json:"candidate"`
	Hop       int       `json:"hop"`
}

// FileName is the name of the package's file under packages/.
func (p QueuedPackage) FileName() string { return packageFileName(p.Candidate) }

// Key names the package for an operator: registry:name@spec.
func (p QueuedPackage) Key() string {
	return p.Candidate.Registry + ":" + p.Candidate.Name + "@" + p.Candidate.Spec()
}

// QueuedRun is what Dispatch hands its Enqueue with a wave: the run's
// header and the bytes of its two files as they are on disk.
type QueuedRun struct {
	Header rundir.Header
	// HeaderJSON is run.json and Candidates candidates.json, byte for byte.
	HeaderJSON []byte
	Candidates []byte
	Dir        string
}

// Enqueue receives a wave's packages that have no file yet, in the order
// Run would examine them. An error stops Dispatch.
type Enqueue func(ctx context.Context, run QueuedRun, wave int, pkgs []QueuedPackage) error

// Attempts counts the extractions of a package started without the package
// being saved (the role of packages/<h>.attempts in a run directory), for a
// worker whose run directory is not where the next attempt will run.
type Attempts interface {
	// Start returns how many attempts were started before and, below
	// MaxExtractAttempts, counts this one; name is the package file's name.
	Start(ctx context.Context, name string) (int, error)
	// Clear forgets the attempts of a package that was saved, or whose
	// extraction this process saw end.
	Clear(ctx context.Context, name string) error
}

// DispatchResult says what Dispatch did: the run was assembled
// (Run.Status is finished), or a wave was handed over.
type DispatchResult struct {
	Run *RunResult
	// Wave is the wave handed over and Queued how many of its packages
	// had no file; both zero when the run was assembled.
	Wave, Queued int
}

// Dispatch prepares the run as Run does (a new run from o.CandidatesPath,
// or with o.Resume an existing directory, refused as Run refuses a resume
// with other inputs or versions), then walks its waves: the first wave that
// has packages without a file is handed to enqueue and Dispatch returns;
// when every wave is done the seven files are assembled and the header
// says finished.
func Dispatch(ctx context.Context, o Options, enqueue Enqueue) (*DispatchResult, error) {
	if enqueue == nil {
		return nil, errors.New("pipeline: Dispatch needs an Enqueue")
	}
	r, unlock, err := prepare(o)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r.enqueue = enqueue
	out := &DispatchResult{}
	r.enqueued = out
	res, err := r.run(ctx)
	out.Run = res
	if err != nil {
		return out, err
	}
	return out, nil
}

// dispatch hands a wave to the Enqueue hook (called by run in place of
// examine). The header stays running: the run goes on elsewhere.
func (r *runner) dispatch(ctx context.Context, res *RunResult, todo []job) (*RunResult, error) {
	hb, err := os.ReadFile(filepath.Join(r.dir, rundir.HeaderFile))
	if err != nil {
		return r.failed(res, fmt.Errorf("pipeline: %w", err))
	}
	cb, err := os.ReadFile(filepath.Join(r.dir, CandidatesCopy))
	if err != nil {
		return r.failed(res, fmt.Errorf("pipeline: %w", err))
	}
	pkgs := make([]QueuedPackage, 0, len(todo))
	for _, j := range todo {
		pkgs = append(pkgs, QueuedPackage{Candidate: j.c, Hop: j.hop})
	}
	wave := todo[0].hop
	if err := r.enqueue(ctx, QueuedRun{Header: r.header, HeaderJSON: hb, Candidates: cb, Dir: r.dir}, wave, pkgs); err != nil {
		return res, err
	}
	res.Status = r.header.Status
	res.Header = r.header
	if r.enqueued != nil {
		r.enqueued.Wave, r.enqueued.Queued = wave, len(pkgs)
	}
	return res, nil
}

// Examiner examines single packages of a run under the run's header, with
// the stages Run uses (examinePackage behind examineProtected).
type Examiner struct {
	r *runner
}

// NewExaminer builds the examiner of the run whose header is h. It refuses
// (ErrResumeMismatch) when o would examine under other versions, checks,
// analyzer or code than the header records: a run records one set of them.
// attempts counts extraction attempts; nil keeps no count.
func NewExaminer(o Options, h rundir.Header, attempts Attempts) (*Examiner, error) {
	r, err := newRunner(o)
	if err != nil {
		return nil, err
	}
	if diffs := stampDiffs(h, r.stamps()); len(diffs) > 0 {
		return nil, fmt.Errorf("%w: run %s: %s", ErrResumeMismatch, h.RunID, joinDiffs(diffs))
	}
	r.header = h
	r.attempts = attempts
	return &Examiner{r: r}, nil
}

func joinDiffs(d []string) string {
	var b bytes.Buffer
	for i, s := range d {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(s)
	}
	return b.String()
}

// Examined is one package examined: its file's name and bytes (what Run
// writes under packages/), and what a queue needs to decide about a retry.
type Examined struct {
	FileName string
	Data     []byte
	Key      string
	Failures []rundir.Failure
	// Transient: a registry or the evidence store failed in a way the
	// same request may not fail later (transient).
	Transient bool
}

// Examine runs one package's stages. It returns an error only when the
// package's rows cannot be encoded, or ctx ended while it ran: then the
// rows may carry the cancellation as if it were the registry's answer, and
// must not be saved.
func (e *Examiner) Examine(ctx context.Context, p QueuedPackage) (*Examined, error) {
	pf := e.r.examineProtected(ctx, job{c: p.Candidate, hop: p.Hop})
	if err := ctx.Err(); err != nil {
		e.r.clearAttempts(context.WithoutCancel(ctx), p.Candidate)
		return nil, fmt.Errorf("pipeline: %s abandoned: %w", p.Key(), err)
	}
	b, err := rundir.Marshal(pf)
	if err != nil {
		return nil, fmt.Errorf("pipeline: encode %s: %w", pf.Package.Key(), err)
	}
	return &Examined{FileName: packageFileName(p.Candidate), Data: b, Key: pf.Package.Key(),
		Failures: pf.Summary.Failures, Transient: transient(pf)}, nil
}

// Saved forgets the extraction attempts of a package whose file was saved,
// or whose examination this process saw end.
func (e *Examiner) Saved(ctx context.Context, p QueuedPackage) {
	e.r.clearAttempts(ctx, p.Candidate)
}

// transient says whether a package's failure may not recur: the transport
// failed after the client's retries (network_error), the registry answered
// 5xx or 429 after them (http_error with such a status on its record), the
// evidence store could not store a blob, or the machine starved the
// extraction past its wall backstop (extractor_stalled). Any other failure is the
// registry's or the artifact's answer, and is kept.
func transient(pf *packageFile) bool {
	for _, f := range pf.Summary.Failures {
		switch f.Kind {
		case vocab.RecordNetworkError, vocab.FailureEvidenceStore, vocab.FailureExtractorStalled:
			return true
		case vocab.RecordHTTPError:
			for _, rec := range pf.Records {
				if rec.Outcome == vocab.RecordHTTPError && (rec.Status >= 500 || rec.Status == 429) {
					return true
				}
			}
		}
	}
	return false
}

var packageFileNameRe = regexp.MustCompile(`^[0-9a-f]{32}\.json$`)

// SeedRunDir makes Home/runs/<id> the directory of a queued run on this
// machine: run.json and candidates.json from the queue's header row when
// the directory is new (an existing one keeps its own, and Dispatch's
// resume rule checks them), and packages/<name> for every finished package
// the queue holds that the directory lacks. A package file already there
// with other bytes is an error: one package has one result.
func SeedRunDir(home, id string, headerJSON, candidates []byte, pkgs func(yield func(name string, data []byte) error) error) (string, error) {
	if !runIDRe.MatchString(id) {
		return "", fmt.Errorf("pipeline: run id %q: letters, digits, '.', '_', '-' only", id)
	}
	dir := filepath.Join(home, "runs", id)
	if err := os.MkdirAll(filepath.Join(dir, PackagesDir), 0o755); err != nil {
		return "", fmt.Errorf("pipeline: %w", err)
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{rundir.HeaderFile, headerJSON}, {CandidatesCopy, candidates}} {
		path := filepath.Join(dir, f.name)
		if _, err := os.Stat(path); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("pipeline: %w", err)
		}
		if err := rundir.WriteFileAtomic(path, f.b); err != nil {
			return "", fmt.Errorf("pipeline: %w", err)
		}
	}
	err := pkgs(func(name string, data []byte) error {
		if !packageFileNameRe.MatchString(name) {
			return fmt.Errorf("pipeline: %q is not a package file name", name)
		}
		path := filepath.Join(dir, PackagesDir, name)
		have, err := os.ReadFile(path)
		switch {
		case err == nil && bytes.Equal(have, data):
			return nil
		case err == nil:
			return fmt.Errorf("pipeline: %s holds other bytes than the queue's result for it", path)
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("pipeline: %w", err)
		}
		return rundir.WriteFileAtomic(path, data)
	})
	if err != nil {
		return "", err
	}
	return dir, nil
}

// Stamps is the header o would write for a new run: the versions, checks,
// analyzer and code in force (what a resume and NewExaminer compare).
func Stamps(o Options) (rundir.Header, error) {
	r, err := newRunner(o)
	if err != nil {
		return rundir.Header{}, err
	}
	return r.stamps(), nil
}

// StampKey is a short digest of what stampDiffs compares: two headers with
// the same key are examined the same way, so a queue named after it is
// drained only by workers built like the run.
func StampKey(h rundir.Header) string {
	var b bytes.Buffer
	for _, f := range []string{h.MethodologyVersion, h.MethodologySHA256, h.ExtractorVersion, h.VerifierVersion,
		joinComma(h.Checks), h.AnalyzerModel, h.PromptSHA256, h.CodeCommit, fmt.Sprint(h.CodeDirty)} {
		b.WriteString(f)
		b.WriteByte(0)
	}
	return vocab.SHA256Hex(b.Bytes())[:16]
}

func joinComma(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}
