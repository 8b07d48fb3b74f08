package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Names inside a run directory besides rundir's files.
const (
	// CandidatesCopy is the candidates file as the run read it, so a resumed
	// run reads exactly the same list whatever happened to the original.
	CandidatesCopy = "candidates.json"
	// PackagesDir holds one file per finished package.
	PackagesDir = "packages"
	lockFile    = ".lock"
)

// packageFileSchema versions the per-package files.
const packageFileSchema = "attestari.package/v1"

// packageFile is one finished package: every row it contributes to the
// seven files. It is written atomically when the package finishes and is
// what a resumed run carries over.
type packageFile struct {
	Schema      string                `json:"schema"`
	Candidate   Candidate             `json:"candidate"`
	Package     rundir.PackageRef     `json:"package"`
	Resolution  *resolution           `json:"resolution,omitempty"`
	Records     []rundir.Record       `json:"records"`
	Surface     *rundir.Surface       `json:"surface"`
	Results     []rundir.Result       `json:"results"`
	Findings    []rundir.Finding      `json:"findings"`
	NotAnalyzed []rundir.NotAnalyzed  `json:"not_analyzed"`
	Gradeable   rundir.Gradeable      `json:"gradeable"`
	Summary     rundir.PackageSummary `json:"summary"`
}

// resolution is how the candidate's version or range became a version.
type resolution struct {
	Specifier string `json:"specifier"`
	Version   string `json:"version"`
	How       string `json:"how"`
}

// packageFileName names a candidate's file by the hash of its identity:
// names and ranges may hold any character, and a file name must not.
func packageFileName(c Candidate) string {
	return vocab.SHA256Hex([]byte(c.identity()))[:32] + ".json"
}

var runIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// RunDir returns the directory a run id or run path names under home.
func RunDir(home, runOrPath string) (string, error) {
	if strings.ContainsAny(runOrPath, `/\`) || runOrPath == "." || runOrPath == ".." {
		return filepath.Clean(runOrPath), nil
	}
	if !runIDRe.MatchString(runOrPath) {
		return "", fmt.Errorf("pipeline: %q is not a run id (letters, digits, '.', '_', '-') nor a path", runOrPath)
	}
	return filepath.Join(home, "runs", runOrPath), nil
}

type runner struct {
	o         Options
	dir       string
	header    rundir.Header
	cands     *Candidates
	blobs     Blobs
	checks    []Check
	limits    artifact.Limits
	log       *slog.Logger
	progress  Progress
	now       func() time.Time
	extractor Extractor
	// unconfiguredWarned holds one sync.Once per registry whose client is
	// nil, so its warning is logged once a run (notConfigured).
	unconfiguredWarned sync.Map
	// attempts, when set, counts extraction attempts somewhere other than
	// the run directory's markers (a queue worker's, queued.go).
	attempts Attempts
	// enqueue, when set, receives each wave's unfinished packages instead
	// of examining them here (queued.go).
	enqueue  Enqueue
	enqueued *DispatchResult
}

// Run examines every candidate of a candidates file, or continues a run,
// and writes the run directory. It returns an error only when the run as a
// whole cannot go on (bad candidates file, unwritable directory, resume
// mismatch, cancellation); a package that fails is a row in summary.json.
// On cancellation the header says cancelled and the error wraps
// ErrCancelled; packages in flight are abandoned and redone on resume.
func Run(ctx context.Context, o Options) (*RunResult, error) {
	r, unlock, err := prepare(o)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r.removeStaleTemps(ctx)
	return r.run(ctx)
}

// staleTempRemover is the part of *evidence.Store that cleans up after
// writers a kill interrupted.
type staleTempRemover interface {
	RemoveStaleTemps(ctx context.Context, minAge time.Duration, now time.Time) (int, error)
}

// removeStaleTemps clears the temporary files killed writers left in the
// evidence store (evidence.RemoveStaleTemps: old, and no live writer's). A
// failure to clean up is logged and never stops the run.
func (r *runner) removeStaleTemps(ctx context.Context) {
	c, ok := r.blobs.(staleTempRemover)
	if !ok {
		return
	}
	n, err := c.RemoveStaleTemps(ctx, evidence.StaleTempAge, r.now())
	if err != nil {
		r.log.Warn("evidence store: stale temporary files not removed", "err", err)
	}
	if n > 0 {
		r.log.Info("evidence store: removed temporary files of interrupted writes", "count", n)
	}
}

func prepare(o Options) (*runner, func(), error) {
	r, err := newRunner(o)
	if err != nil {
		return nil, nil, err
	}
	return r.open()
}

// newRunner checks Options and fills in their defaults: everything a run
// needs before it touches a run directory.
func newRunner(o Options) (*runner, error) {
	if o.Home == "" {
		o.Home = "var"
	}
	// A nil *registry.PyPI stored in the interface is not a nil interface;
	// treat it as the absent client it is, not as one to call.
	if isNil(o.NPM) {
		o.NPM = nil
	}
	if isNil(o.PyPI) {
		o.PyPI = nil
	}
	if isNil(o.Evidence) {
		o.Evidence = nil
	}
	if isNil(o.Extractor) {
		o.Extractor = nil
	}
	if isNil(o.Progress) {
		o.Progress = nil
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Concurrency <= 0 {
		o.Concurrency = runtime.NumCPU()
	}
	r := &runner{o: o, now: o.Now, extractor: o.Extractor}
	r.log = o.Logger
	if r.log == nil {
		r.log = slog.Default()
	}
	r.progress = o.Progress
	if r.progress == nil {
		r.progress = nopProgress{}
	}
	r.checks = o.Checks
	if r.checks == nil {
		r.checks = DefaultChecks()
	}
	ids := map[string]bool{}
	for _, c := range r.checks {
		if c == nil || !runIDRe.MatchString(c.ID()) || ids[c.ID()] {
			return nil, fmt.Errorf("pipeline: invalid or duplicate check in Options.Checks")
		}
		ids[c.ID()] = true
	}
	r.limits = o.ArtifactLimits
	r.blobs = o.Evidence
	if r.blobs == nil {
		s, err := evidence.Open(filepath.Join(o.Home, "evidence"))
		if err != nil {
			return nil, fmt.Errorf("pipeline: %w", err)
		}
		r.blobs = s
	}
	return r, nil
}

// open creates the run directory of a new run, or opens the one to resume,
// and takes its lock.
func (r *runner) open() (*runner, func(), error) {
	o := r.o
	want := r.stamps()
	if o.Resume != "" {
		dir, err := RunDir(o.Home, o.Resume)
		if err != nil {
			return nil, nil, err
		}
		r.dir = dir
		unlock, err := lockRun(dir)
		if err != nil {
			return nil, nil, err
		}
		if err := r.loadForResume(want); err != nil {
			unlock()
			return nil, nil, err
		}
		return r, unlock, nil
	}

	if o.CandidatesPath == "" {
		return nil, nil, errors.New("pipeline: no candidates file given")
	}
	cands, sum, err := LoadCandidates(o.CandidatesPath)
	if err != nil {
		return nil, nil, err
	}
	raw, err := os.ReadFile(o.CandidatesPath)
	if err != nil {
		return nil, nil, fmt.Errorf("pipeline: %w", err)
	}
	if vocab.SHA256Hex(raw) != sum {
		return nil, nil, fmt.Errorf("pipeline: candidates file %s changed while it was read", o.CandidatesPath)
	}
	r.cands = cands
	id := o.RunID
	if id == "" {
		id = NewRunID(o.Now(), []byte(sum))
	}
	if !runIDRe.MatchString(id) {
		return nil, nil, fmt.Errorf("pipeline: run id %q: letters, digits, '.', '_', '-' only", id)
	}
	r.dir = filepath.Join(o.Home, "runs", id)
	if err := os.MkdirAll(filepath.Dir(r.dir), 0o755); err != nil {
		return nil, nil, fmt.Errorf("pipeline: %w", err)
	}
	if err := os.Mkdir(r.dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, nil, fmt.Errorf("%w: %s", ErrRunExists, r.dir)
		}
		return nil, nil, fmt.Errorf("pipeline: %w", err)
	}
	unlock, err := lockRun(r.dir)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*runner, func(), error) { unlock(); return nil, nil, err }
	if err := os.Mkdir(filepath.Join(r.dir, PackagesDir), 0o755); err != nil {
		return fail(fmt.Errorf("pipeline: %w", err))
	}
	if err := rundir.WriteFileAtomic(filepath.Join(r.dir, CandidatesCopy), raw); err != nil {
		return fail(fmt.Errorf("pipeline: %w", err))
	}
	inputs := []rundir.InputFile{{Path: o.CandidatesPath, SHA256: sum}}
	for _, p := range o.InputFiles {
		b, err := os.ReadFile(p)
		if err != nil {
			return fail(fmt.Errorf("pipeline: input file: %w", err))
		}
		inputs = append(inputs, rundir.InputFile{Path: p, SHA256: vocab.SHA256Hex(b)})
	}
	h := want
	h.RunID = id
	h.StartedAt = o.Now().UTC()
	h.Status = rundir.StatusRunning
	h.CandidatesFile = o.CandidatesPath
	h.CandidatesSHA256 = sum
	h.Inputs = inputs
	r.header = h
	if err := r.writeHeader(); err != nil {
		return fail(err)
	}
	return r, unlock, nil
}

// stamps is the header as this code would write it: the versions in force.
func (r *runner) stamps() rundir.Header {
	h := rundir.Header{
		MethodologyVersion: methodology.Version,
		MethodologySHA256:  methodology.SHA256(),
		VerifierVersion:    checks.VerifierVersion,
		CodeCommit:         r.o.CodeCommit,
		CodeDirty:          r.o.CodeDirty,
		AnalyzerModel:      r.o.AnalyzerModel,
		PromptVersion:      r.o.PromptVersion,
		PromptLayout:       r.o.PromptLayout,
		PromptSHA256:       r.o.PromptSHA256,
		Checks:             []string{},
		Inputs:             []rundir.InputFile{},
		DecideInputs:       r.o.DecideInputs,
	}
	if r.extractor != nil {
		h.ExtractorVersion = r.extractor.Version()
	}
	for _, c := range r.checks {
		h.Checks = append(h.Checks, c.ID())
	}
	return h
}

// loadForResume reads the header and the candidates copy of r.dir and checks
// that this call would continue the run under the same inputs and versions:
// a run whose packages were examined under two versions would record one.
func (r *runner) loadForResume(want rundir.Header) error {
	var h rundir.Header
	if _, err := rundir.ReadJSON(r.dir, rundir.HeaderFile, &h); err != nil {
		return fmt.Errorf("pipeline: resume %s: %w", r.dir, err)
	}
	raw, err := os.ReadFile(filepath.Join(r.dir, CandidatesCopy))
	if err != nil {
		return fmt.Errorf("pipeline: resume %s: %w", r.dir, err)
	}
	var diffs []string
	if got := vocab.SHA256Hex(raw); got != h.CandidatesSHA256 {
		diffs = append(diffs, fmt.Sprintf("the run's copy of the candidates file hashes to %s, the header records %s", got, h.CandidatesSHA256))
	}
	if r.o.CandidatesPath != "" {
		b, err := os.ReadFile(r.o.CandidatesPath)
		if err != nil {
			return fmt.Errorf("pipeline: resume: %w", err)
		}
		if vocab.SHA256Hex(b) != h.CandidatesSHA256 {
			diffs = append(diffs, fmt.Sprintf("candidates file %s is not the one the run started with", r.o.CandidatesPath))
		}
	}
	diffs = append(diffs, stampDiffs(h, want)...)
	if len(diffs) > 0 {
		return fmt.Errorf("%w: run %s: %s", ErrResumeMismatch, h.RunID, strings.Join(diffs, "; "))
	}
	cands, err := ParseCandidates(raw)
	if err != nil {
		return fmt.Errorf("pipeline: resume %s: %w", r.dir, err)
	}
	if err := os.MkdirAll(filepath.Join(r.dir, PackagesDir), 0o755); err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	// A process killed mid-write leaves its temporary file; holding the
	// lock, nothing else can be writing one now.
	for _, d := range []string{r.dir, filepath.Join(r.dir, PackagesDir)} {
		if stale, err := filepath.Glob(filepath.Join(d, ".tmp-*")); err == nil {
			for _, f := range stale {
				_ = os.Remove(f)
			}
		}
	}
	r.cands = cands
	h.Status = rundir.StatusRunning
	h.FinishedAt = nil
	r.header = h
	return r.writeHeader()
}

// stampDiffs lists how the versions, checks, analyzer and code a header
// records differ from want's: one run records one set of them.
func stampDiffs(h, want rundir.Header) []string {
	var diffs []string
	cmp := func(what, was, now string) {
		if was != now {
			diffs = append(diffs, fmt.Sprintf("%s was %q, is %q", what, was, now))
		}
	}
	cmp("methodology version", h.MethodologyVersion, want.MethodologyVersion)
	cmp("methodology sha256", h.MethodologySHA256, want.MethodologySHA256)
	cmp("extractor version", h.ExtractorVersion, want.ExtractorVersion)
	cmp("verifier version", h.VerifierVersion, want.VerifierVersion)
	cmp("checks", strings.Join(h.Checks, ","), strings.Join(want.Checks, ","))
	cmp("analyzer", h.AnalyzerModel, want.AnalyzerModel)
	cmp("prompt sha256", h.PromptSHA256, want.PromptSHA256)
	cmp("code commit", h.CodeCommit, want.CodeCommit)
	cmp("code dirty", fmt.Sprint(h.CodeDirty), fmt.Sprint(want.CodeDirty))
	return diffs
}

func (r *runner) writeHeader() error {
	if err := rundir.WriteJSON(r.dir, rundir.HeaderFile, r.header); err != nil {
		return fmt.Errorf("pipeline: write header: %w", err)
	}
	return nil
}

// loadPackageFile reads a finished package's file; ok is false when there
// is none or it is not a finished package of this job (then the package is
// examined again).
func (r *runner) loadPackageFile(j job) (*packageFile, bool) {
	c := j.c
	path := filepath.Join(r.dir, PackagesDir, packageFileName(c))
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		r.log.Warn("per-package file unreadable; examining the package again", "file", path, "err", err)
		return nil, false
	}
	var pf packageFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pf); err != nil || pf.Schema != packageFileSchema ||
		pf.Candidate.identity() != c.identity() || pf.Package.Registry != c.Registry || pf.Package.Name != c.Name ||
		pf.Summary.Package != pf.Package || pf.Gradeable.Package != pf.Package ||
		pf.Summary.Hop != j.hop || (pf.Summary.JoinedBy == rundir.JoinedByDelegation) != j.joined() {
		r.log.Warn("per-package file does not match its candidate; examining the package again", "file", path, "err", err)
		return nil, false
	}
	return &pf, true
}

// attemptsPath is the marker counting the extractions of a package started
// without the package being saved.
func (r *runner) attemptsPath(c Candidate) string {
	return filepath.Join(r.dir, PackagesDir, strings.TrimSuffix(packageFileName(c), ".json")+".attempts")
}

// startAttempt returns how many extractions of c were started before
// without finishing and, below MaxExtractAttempts, counts this one.
func (r *runner) startAttempt(ctx context.Context, c Candidate) (int, error) {
	if r.attempts != nil {
		return r.attempts.Start(ctx, packageFileName(c))
	}
	path := r.attemptsPath(c)
	n := 0
	if b, err := os.ReadFile(path); err == nil {
		// A marker that does not read as a count was torn by a kill
		// mid-write; it still says an attempt was made.
		if v, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil && v > 0 {
			n = v
		} else {
			n = 1
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("pipeline: read %s: %w", path, err)
	}
	if n >= MaxExtractAttempts {
		return n, nil
	}
	if err := rundir.WriteFileAtomic(path, []byte(strconv.Itoa(n+1)+"\n")); err != nil {
		return 0, fmt.Errorf("pipeline: count the extraction attempt: %w", err)
	}
	return n, nil
}

func (r *runner) clearAttempts(ctx context.Context, c Candidate) {
	if r.attempts != nil {
		if err := r.attempts.Clear(ctx, packageFileName(c)); err != nil {
			r.log.Warn("extraction attempt count not cleared", "package", c.Name, "err", err)
		}
		return
	}
	if err := os.Remove(r.attemptsPath(c)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.log.Warn("extraction attempt marker not removed", "file", r.attemptsPath(c), "err", err)
	}
}

func (r *runner) savePackageFile(pf *packageFile) error {
	b, err := rundir.Marshal(pf)
	if err != nil {
		return fmt.Errorf("pipeline: encode %s: %w", pf.Package.Key(), err)
	}
	path := filepath.Join(r.dir, PackagesDir, packageFileName(pf.Candidate))
	if err := rundir.WriteFileAtomic(path, b); err != nil {
		return fmt.Errorf("pipeline: save %s: %w", pf.Package.Key(), err)
	}
	return nil
}

// run examines the candidates, then the delegation targets they resolved
// to, wave after wave (delegation.go), and assembles the seven files. Every
// wave is computed from the per-package files of the waves before it, so a
// resumed run carries over exactly what an interrupted one finished.
func (r *runner) run(ctx context.Context) (*RunResult, error) {
	res := &RunResult{RunID: r.header.RunID, Dir: r.dir}
	wave := make([]job, 0, len(r.cands.Candidates))
	for _, c := range r.cands.Candidates {
		wave = append(wave, job{c: c})
	}
	present := map[string]bool{}
	var all []*packageFile
	for hop := 0; len(wave) > 0; hop++ {
		var todo []job
		carried := 0
		for _, j := range wave {
			if pf, ok := r.loadPackageFile(j); ok {
				if !transient(pf) || r.enqueue != nil {
					carried++
					continue
				}
				// A failure of the run, not the package's answer (a stalled
				// extraction, the network, the evidence store): a local
				// resume examines it again, as a queued run's jobs retry it
				// (queued.go; a queued run's finished files are the queue's
				// and are kept here).
				r.log.Info("examining again a package whose last attempt failed transiently", "package", j.c.Name, "failures", failedKinds(pf))
			}
			todo = append(todo, j)
		}
		res.Packages += len(wave)
		res.Carried += carried
		if hop == 0 {
			r.progress.Start(r.header.RunID, len(wave), carried)
		} else {
			res.Joined += len(wave)
			if jp, ok := r.progress.(JoinProgress); ok {
				jp.Joined(len(wave), carried)
			}
		}

		if len(todo) > 0 && r.enqueue != nil {
			return r.dispatch(ctx, res, todo)
		}
		if runErr := r.examine(ctx, todo, &res.Examined); runErr != nil || ctx.Err() != nil {
			return r.stopped(ctx, res, runErr)
		}
		done := make([]*packageFile, 0, len(wave))
		for _, j := range wave {
			pf, ok := r.loadPackageFile(j)
			if !ok {
				return r.failed(res, fmt.Errorf("pipeline: assemble: package %s:%s@%s has no finished file", j.c.Registry, j.c.Name, j.c.Spec()))
			}
			done = append(done, pf)
			present[pf.Package.Key()] = true
		}
		all = append(all, done...)
		if hop == MaxDelegationHops {
			break
		}
		wave = nextWave(done, present, hop+1)
	}

	files, withFailures := assembleFiles(all)
	if err := writeSeven(r.dir, files); err != nil {
		return r.failed(res, err)
	}
	fin := r.now().UTC()
	r.header.FinishedAt = &fin
	r.header.Status = rundir.StatusFinished
	if err := r.writeHeader(); err != nil {
		return r.failed(res, err)
	}
	res.Status = r.header.Status
	res.WithFailures = withFailures
	res.Header = r.header
	r.progress.Finish(res.Status)
	return res, nil
}

// stopped ends a run that was cancelled (the header says so and the run
// can be resumed) or that could not go on.
func (r *runner) stopped(ctx context.Context, res *RunResult, runErr error) (*RunResult, error) {
	if runErr == nil {
		runErr = ctx.Err()
	}
	if !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded) {
		return r.failed(res, runErr)
	}
	r.header.Status = rundir.StatusCancelled
	res.Status = r.header.Status
	res.Header = r.header
	r.progress.Finish(res.Status)
	if err := r.writeHeader(); err != nil {
		return res, errors.Join(fmt.Errorf("%w: resume with run id %s: %w", ErrCancelled, r.header.RunID, runErr), err)
	}
	return res, fmt.Errorf("%w: resume with run id %s: %w", ErrCancelled, r.header.RunID, runErr)
}

func (r *runner) failed(res *RunResult, cause error) (*RunResult, error) {
	r.header.Status = rundir.StatusFailed
	res.Status = r.header.Status
	res.Header = r.header
	r.progress.Finish(res.Status)
	if err := r.writeHeader(); err != nil {
		return res, errors.Join(cause, err)
	}
	return res, cause
}

// examine runs the packages of todo on Concurrency workers. It stops taking
// packages when ctx ends or a package cannot be saved; a package whose run
// overlapped the end of ctx is abandoned, not saved, because its stages may
// have recorded the cancellation as if it were the registry's answer.
func (r *runner) examine(ctx context.Context, todo []job, examined *int) error {
	jobs := make(chan job)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		stopOnce.Do(func() { close(stop) })
	}
	for i := 0; i < min(r.o.Concurrency, max(len(todo), 1)); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				key := j.c.Registry + ":" + j.c.Name + "@" + j.c.Spec()
				r.progress.PackageStarted(key)
				start := r.now()
				pf := r.examineProtected(ctx, j)
				if ctx.Err() != nil {
					// Abandoned and redone on resume; this process saw the
					// extraction end, so the attempt does not count.
					r.clearAttempts(ctx, j.c)
					continue
				}
				if err := r.savePackageFile(pf); err != nil {
					halt(err)
					continue
				}
				r.clearAttempts(ctx, j.c)
				mu.Lock()
				*examined++
				mu.Unlock()
				r.progress.PackageFinished(pf.Package.Key(), pf.Summary.Failures, r.now().Sub(start))
			}
		}()
	}
feed:
	for _, j := range todo {
		select {
		case <-ctx.Done():
			break feed
		case <-stop:
			break feed
		case jobs <- j:
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// examineProtected is examinePackage with a last line of defence: the stages
// recover their own panics, and a panic in the bookkeeping between them
// still ends as the package's failure row, never as the end of the run.
func (r *runner) examineProtected(ctx context.Context, j job) (pf *packageFile) {
	err := protect(func() error {
		pf = r.examinePackage(ctx, j)
		return nil
	})
	if err == nil {
		return pf
	}
	var pe *panicError
	stack := ""
	if errors.As(err, &pe) {
		stack = pe.stack
	}
	return failedPackageFile(j, rundir.Failure{Stage: vocab.StagePipeline, Kind: vocab.FailurePanic, Message: err.Error(), Stack: stack})
}

// failedPackageFile is the file of a package that failed for good outside
// any stage: no record, no surface, not gradeable, and the one failure row.
func failedPackageFile(j job, f rundir.Failure) *packageFile {
	c := j.c
	ref := rundir.PackageRef{Registry: c.Registry, Name: c.Name, Version: c.Spec()}
	return &packageFile{
		Schema: packageFileSchema, Candidate: c, Package: ref,
		Records: []rundir.Record{}, Results: []rundir.Result{}, Findings: []rundir.Finding{}, NotAnalyzed: []rundir.NotAnalyzed{},
		Gradeable: rundir.Gradeable{Package: ref, OK: false, Reasons: []string{}},
		Summary: rundir.PackageSummary{Package: ref, Stages: []rundir.StageTiming{},
			Failures: []rundir.Failure{f}, JoinedBy: joinedBy(j), Hop: j.hop},
	}
}

func joinedBy(j job) string {
	if j.joined() {
		return rundir.JoinedByDelegation
	}
	return ""
}

// writeSeven writes the seven files, each atomically.
func writeSeven(dir string, f *rundir.Files) error {
	for _, w := range []struct {
		name string
		v    any
	}{
		{rundir.FindingsFile, f.Findings}, {rundir.ResultsFile, f.Results}, {rundir.GradeableFile, f.Gradeable},
		{rundir.SurfacesFile, f.Surfaces}, {rundir.RecordsFile, f.Records}, {rundir.NotAnalyzedFile, f.NotAnalyzed},
		{rundir.SummaryFile, f.Summary},
	} {
		if err := rundir.WriteJSON(dir, w.name, w.v); err != nil {
			return fmt.Errorf("pipeline: %w", err)
		}
	}
	return nil
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// failedKinds lists the kinds of a finished package's failure rows.
func failedKinds(pf *packageFile) []string {
	var out []string
	for _, f := range pf.Summary.Failures {
		out = append(out, f.Kind)
	}
	return out
}
