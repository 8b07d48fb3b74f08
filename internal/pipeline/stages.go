package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Stage names and failure kinds as summary.json records them are the
// project's vocabulary (vocab.Stage*, vocab.Failure*; a fetch failure's kind
// is its record outcome, vocab.Record*); a check's stage is its id.

// Stage statuses.
const (
	StageOK      = "ok"
	StageFailed  = "failed"
	StageSkipped = "skipped"
)

// stageError gives a failure its kind.
type stageError struct {
	kind string
	err  error
}

func (e *stageError) Error() string { return e.err.Error() }
func (e *stageError) Unwrap() error { return e.err }

func kinded(kind string, err error) error { return &stageError{kind: kind, err: err} }

// panicError is a panic recovered inside a stage, with its stack.
type panicError struct {
	value any
	stack string
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// protect runs fn, turning a panic into a *panicError.
func protect(fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: cleanStack(debug.Stack())}
		}
	}()
	return fn()
}

var (
	stackOffRe       = regexp.MustCompile(` \+0x[0-9a-f]+$`)
	stackGoroutineRe = regexp.MustCompile(` in goroutine [0-9]+$`)
)

// cleanStack keeps a stack trace's function names and file:line positions
// and drops what differs from one execution to the next (the goroutine
// number, argument values, pc offsets), so that a rerun records the same
// stack for the same panic.
func cleanStack(b []byte) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	var out []string
	for i, l := range lines {
		if i == 0 && strings.HasPrefix(l, "goroutine ") {
			continue
		}
		if strings.HasPrefix(l, "\t") {
			l = stackOffRe.ReplaceAllString(l, "")
		} else if strings.HasPrefix(l, "created by ") {
			l = stackGoroutineRe.ReplaceAllString(l, "")
		} else if j := strings.LastIndexByte(l, '('); j > 0 && strings.HasSuffix(l, ")") {
			l = l[:j] + "(...)"
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// failureKind classifies a stage's error.
func failureKind(err error) string {
	var se *stageError
	var pe *panicError
	var ce *evidence.CorruptBlobError
	switch {
	case errors.As(err, &pe):
		return vocab.FailurePanic
	case errors.As(err, &se):
		return se.kind
	case errors.As(err, &ce):
		return vocab.FailureCorruptBlob
	case errors.Is(err, context.Canceled):
		return vocab.RecordCanceled
	}
	return vocab.FailureInternal
}

// resolveKind classifies a resolution error.
func resolveKind(err error) string {
	switch {
	case errors.Is(err, registry.ErrUnsupportedSpecifier):
		return vocab.FailureUnsupportedSpecifier
	case errors.Is(err, registry.ErrInvalidSpecifier):
		return vocab.FailureInvalidSpecifier
	default:
		return vocab.FailureNoMatchingVersion
	}
}

// fetched is what the fetch stage hands on: verified artifact bytes.
type fetched struct {
	data     []byte
	sha      string
	filename string
	format   artifact.Format
}

// pkgWork is one package's state while its stages run.
type pkgWork struct {
	pf  *packageFile
	got *fetched
	art *artifact.Artifact
}

// stage runs one named stage of a package, recording its timing, and any
// error or panic as a failure row. It reports whether the stage succeeded.
func (r *runner) stage(w *pkgWork, name string, fn func() error) bool {
	start := r.now()
	err := protect(fn)
	t := rundir.StageTiming{Stage: name, Status: StageOK, Ms: r.now().Sub(start).Milliseconds()}
	switch {
	case err == nil:
	case errors.Is(err, ErrSkipped):
		t.Status = StageSkipped
	default:
		t.Status = StageFailed
		f := rundir.Failure{Stage: name, Kind: failureKind(err), Message: err.Error()}
		var pe *panicError
		var ce *ChildCrashError
		switch {
		case errors.As(err, &pe):
			f.Stack = pe.stack
		case errors.As(err, &ce):
			f.Stack = ce.Stack
		}
		var plain *plainError
		if errors.As(err, &plain) {
			// The row carries the plain words; the client's own error (its
			// function, the URL, the attempts) goes to the debug log.
			r.log.Debug("stage failed", "package", w.pf.Package.Key(), "stage", name, "kind", f.Kind, "client_error", plain.err.Error())
		}
		w.pf.Summary.Failures = append(w.pf.Summary.Failures, f)
	}
	w.pf.Summary.Stages = append(w.pf.Summary.Stages, t)
	if sp, ok := r.progress.(StageProgress); ok {
		sp.StageFinished(w.pf.Package.Key(), name, t.Status, r.now().Sub(start))
	}
	return err == nil
}

func skip(w *pkgWork, name string) {
	w.pf.Summary.Stages = append(w.pf.Summary.Stages, rundir.StageTiming{Stage: name, Status: StageSkipped})
}

// examinePackage passes one candidate or delegation target through fetch,
// surface, each check, the gate and, when the surface names a delegation,
// the delegation stage. It always returns the package's rows; what went
// wrong is in them.
func (r *runner) examinePackage(ctx context.Context, j job) *packageFile {
	c := j.c
	w := &pkgWork{pf: &packageFile{
		Schema:    packageFileSchema,
		Candidate: c,
		Package:   rundir.PackageRef{Registry: c.Registry, Name: c.Name, Version: c.Spec()},
	}}
	pf := w.pf
	pf.Summary.JoinedBy, pf.Summary.Hop = joinedBy(j), j.hop

	r.stage(w, vocab.StageFetch, func() error {
		var err error
		w.got, err = r.fetch(ctx, c, w)
		return err
	})
	if r.o.afterFetch != nil {
		r.o.afterFetch(ctx, pf.Package)
	}

	if w.got != nil {
		r.stage(w, vocab.StageSurface, func() error { return r.surfaceStage(ctx, w) })
	} else {
		skip(w, vocab.StageSurface)
	}

	for _, chk := range r.checks {
		id := chk.ID()
		in := CheckInput{
			Package: pf.Package, Surface: pf.Surface, Artifact: w.art,
			Records: append([]rundir.Record(nil), pf.Records...), Blobs: r.blobs,
		}
		if w.got != nil {
			in.ArtifactSHA256 = w.got.sha
		}
		var out CheckOutput
		ok := r.stage(w, id, func() error {
			var err error
			out, err = chk.Run(ctx, in)
			if err != nil && !errors.Is(err, ErrSkipped) {
				var se *stageError
				var pe *panicError
				if !errors.As(err, &se) && !errors.As(err, &pe) {
					err = kinded(vocab.FailureCheckError, err)
				}
			}
			return err
		})
		last := pf.Summary.Stages[len(pf.Summary.Stages)-1]
		switch {
		case ok:
			out.Result.Package, out.Result.Check = pf.Package, id
			pf.Results = append(pf.Results, out.Result)
			for _, f := range out.Findings {
				f.Package, f.Check = pf.Package, id
				pf.Findings = append(pf.Findings, f)
			}
			for _, n := range out.NotAnalyzed {
				n.Package, n.Check = pf.Package, id
				pf.NotAnalyzed = append(pf.NotAnalyzed, n)
			}
			for _, rec := range out.Records {
				rec.Package = pf.Package
				pf.Records = append(pf.Records, rec)
			}
		case last.Status == StageFailed:
			// The check ran and failed: its row says so (G5 check_failed),
			// and whatever it produced before failing is not kept.
			msg := pf.Summary.Failures[len(pf.Summary.Failures)-1].Message
			pf.Results = append(pf.Results, rundir.Result{Package: pf.Package, Check: id, Outcome: vocab.ResultError, Detail: msg})
		}
	}

	pf.Gradeable = rundir.Gradeable{Package: pf.Package, OK: false, Reasons: []string{}}
	r.stage(w, vocab.StageGate, func() error {
		ok, reasons := policy.Gradeability(pf.Results, pf.Surface, pf.Findings)
		if reasons == nil {
			reasons = []string{}
		}
		pf.Gradeable = rundir.Gradeable{Package: pf.Package, OK: ok, Reasons: reasons}
		return nil
	})

	// After the gate, so that nothing the package's own outcome rests on
	// can see the target's documents (methodology §4, rule 6).
	r.delegationStage(ctx, w)

	// Rows made before the version was resolved carry the resolved ref too.
	for i := range pf.Records {
		pf.Records[i].Package = pf.Package
	}
	pf.Summary.Package = pf.Package
	if pf.Summary.Failures == nil {
		pf.Summary.Failures = []rundir.Failure{}
	}
	for _, p := range []*[]rundir.Record{&pf.Records} {
		if *p == nil {
			*p = []rundir.Record{}
		}
	}
	if pf.Results == nil {
		pf.Results = []rundir.Result{}
	}
	if pf.Findings == nil {
		pf.Findings = []rundir.Finding{}
	}
	if pf.NotAnalyzed == nil {
		pf.NotAnalyzed = []rundir.NotAnalyzed{}
	}
	return pf
}

// record stores a response's bytes as a blob (when whole bytes were
// received) and indexes it as a row of records.json.
func (r *runner) record(ctx context.Context, w *pkgWork, resp registry.Response) (string, error) {
	rec, err := storeRecord(ctx, r.blobs, w.pf.Package, resp)
	if err != nil {
		return "", err
	}
	w.pf.Records = append(w.pf.Records, rec)
	return rec.SHA256, nil
}

// storeRecord stores a response's bytes as a blob (when whole bytes were
// received) and returns its records.json row.
func storeRecord(ctx context.Context, blobs Blobs, pkg rundir.PackageRef, resp registry.Response) (rundir.Record, error) {
	rec := rundir.Record{
		Package: pkg, Kind: resp.Record.Kind, URL: resp.Record.URL, Status: resp.Record.Status,
		Outcome: resp.Record.Outcome, Error: resp.Record.Error, FetchedAt: resp.Record.FetchedAt,
	}
	if resp.Body != nil {
		sha, err := blobs.Put(ctx, resp.Body)
		if err != nil {
			return rec, kinded(vocab.FailureEvidenceStore, fmt.Errorf("store %s: %w", resp.Record.Kind, err))
		}
		rec.SHA256, rec.Size = sha, int64(len(resp.Body))
	}
	return rec, nil
}

func (r *runner) fetch(ctx context.Context, c Candidate, w *pkgWork) (*fetched, error) {
	switch c.Registry {
	case RegistryNPM:
		return r.fetchNPM(ctx, c, w)
	case RegistryPyPI:
		return r.fetchPyPI(ctx, c, w)
	}
	return nil, kinded(vocab.FailureInternal, fmt.Errorf("unknown registry %q", c.Registry))
}

// fetchNPM: packument (resolution), version manifest and attestations (as
// records the checks read; their absence is an input, not a failure), then
// the tarball, verified against the packument's integrity.
func (r *runner) fetchNPM(ctx context.Context, c Candidate, w *pkgWork) (*fetched, error) {
	if r.o.NPM == nil {
		return nil, r.notConfigured(RegistryNPM)
	}
	p, err := r.o.NPM.Packument(ctx, c.Name)
	if p != nil {
		if _, serr := r.record(ctx, w, p.Response); serr != nil {
			return nil, serr
		}
	}
	if err != nil {
		return nil, kinded(outcomeOf(p.Response, err), plainNotFound(RegistryNPM, c.Name, err, suggestNPM(ctx, r.o.NPM, c.Name, err)))
	}
	res, err := registry.ResolveVersion(p, c.Spec())
	if err != nil {
		return nil, kinded(resolveKind(err), plainNoMatch(RegistryNPM, c.Name, c.Spec(), slices.Collect(maps.Keys(p.Versions)), p.DistTags["latest"], err))
	}
	w.pf.Package.Version = res.Version
	w.pf.Resolution = &resolution{Specifier: res.Specifier, Version: res.Version, How: res.How}
	m := p.Versions[res.Version]
	if m == nil {
		return nil, kinded(vocab.RecordMalformed, fmt.Errorf("packument lists %s but has no manifest for it", res.Version))
	}
	if vd, _ := r.o.NPM.Version(ctx, c.Name, res.Version); vd != nil {
		if _, err := r.record(ctx, w, vd.Response); err != nil {
			return nil, err
		}
	}
	if at, _ := r.o.NPM.Attestations(ctx, c.Name, res.Version); at != nil {
		if _, err := r.record(ctx, w, at.Response); err != nil {
			return nil, err
		}
	}
	a, err := r.o.NPM.Tarball(ctx, m)
	if a == nil {
		return nil, kinded(vocab.FailureInternal, fmt.Errorf("tarball: client returned nothing: %v", err))
	}
	sha, serr := r.record(ctx, w, a.Response)
	if serr != nil {
		return nil, serr
	}
	if err != nil {
		return nil, kinded(outcomeOf(a.Response, err), plainArtifact(c.Name, res.Version, err))
	}
	return &fetched{data: a.Response.Body, sha: sha, filename: m.Dist.Tarball, format: artifact.FormatNpmTarball}, nil
}

// fetchPyPI: the project document (resolution), the release's document
// (its files), the simple page and the chosen file's provenance (records
// the checks read), then the distribution file, verified by sha256.
func (r *runner) fetchPyPI(ctx context.Context, c Candidate, w *pkgWork) (*fetched, error) {
	if r.o.PyPI == nil {
		return nil, r.notConfigured(RegistryPyPI)
	}
	spec := c.Range
	if c.Version != "" {
		spec = "==" + c.Version
	}
	proj, err := r.o.PyPI.Project(ctx, c.Name)
	if proj != nil {
		if _, serr := r.record(ctx, w, proj.Response); serr != nil {
			return nil, serr
		}
	}
	if err != nil {
		return nil, kinded(outcomeOf(proj.Response, err), plainNotFound(RegistryPyPI, c.Name, err, ""))
	}
	res, err := registry.ResolvePyPI(proj, spec)
	if err != nil {
		return nil, kinded(resolveKind(err), plainNoMatch(RegistryPyPI, c.Name, spec, slices.Collect(maps.Keys(proj.Releases)), "", err))
	}
	w.pf.Package.Version = res.Version
	w.pf.Resolution = &resolution{Specifier: spec, Version: res.Version, How: res.How}
	rel, err := r.o.PyPI.Release(ctx, c.Name, res.Version)
	if rel != nil {
		if _, serr := r.record(ctx, w, rel.Response); serr != nil {
			return nil, serr
		}
	}
	if err != nil {
		return nil, kinded(outcomeOf(rel.Response, err), err)
	}
	if si, _ := r.o.PyPI.Simple(ctx, c.Name); si != nil {
		if _, err := r.record(ctx, w, si.Response); err != nil {
			return nil, err
		}
	}
	file, ok := pickDistribution(rel.Files)
	if !ok {
		return nil, kinded(vocab.FailureNoDistribution, fmt.Errorf("release %s lists no wheel or sdist", res.Version))
	}
	if pv, _ := r.o.PyPI.Provenance(ctx, c.Name, res.Version, file.Filename); pv != nil {
		if _, err := r.record(ctx, w, pv.Response); err != nil {
			return nil, err
		}
	}
	a, err := r.o.PyPI.Download(ctx, file.URL, file.SHA256())
	if a == nil {
		return nil, kinded(vocab.FailureInternal, fmt.Errorf("download: client returned nothing: %v", err))
	}
	sha, serr := r.record(ctx, w, a.Response)
	if serr != nil {
		return nil, serr
	}
	if err != nil {
		return nil, kinded(outcomeOf(a.Response, err), plainArtifact(c.Name, res.Version, err))
	}
	return &fetched{data: a.Response.Body, sha: sha, filename: file.Filename,
		format: artifact.DetectFormat(file.Filename, a.Response.Body)}, nil
}

// outcomeOf is the failure kind of a registry call: the client's own
// classification on the record, or internal when it recorded none.
func outcomeOf(resp registry.Response, err error) string {
	if o := resp.Record.Outcome; o != "" && o != vocab.RecordOK {
		return o
	}
	var ie *registry.IntegrityError
	if errors.As(err, &ie) {
		return vocab.RecordIntegrityMismatch
	}
	return vocab.FailureInternal
}

// pickDistribution chooses the file of a release the run examines: what pip
// installs where it can, and the source otherwise. In order: a pure-Python
// wheel (…-none-any.whl), an sdist, any other wheel; within each class
// unyanked files first, then by file name, so the choice is stable.
func pickDistribution(files []registry.PyPIFile) (registry.PyPIFile, bool) {
	class := func(f registry.PyPIFile) int {
		n := strings.ToLower(f.Filename)
		switch {
		case strings.HasSuffix(n, "-none-any.whl"):
			return 0
		case strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".zip") || strings.HasSuffix(n, ".tgz"):
			return 1
		case strings.HasSuffix(n, ".whl"):
			return 2
		}
		return -1
	}
	var cands []registry.PyPIFile
	for _, f := range files {
		if class(f) >= 0 && f.Filename != "" {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return registry.PyPIFile{}, false
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if class(a) != class(b) {
			return class(a) < class(b)
		}
		if a.Yanked != b.Yanked {
			return !a.Yanked
		}
		return a.Filename < b.Filename
	})
	return cands[0], true
}

// surfaceStage reads the archive and hands it to the extractor. An archive
// that cannot be read is a surface row with outcome archive_unreadable, not
// a failure: the artifact was examined and that is what was found.
func (r *runner) surfaceStage(ctx context.Context, w *pkgWork) error {
	art, err := ReadArtifact(ctx, w.got.data, w.got.format, r.limits)
	if err != nil {
		return kinded(vocab.FailureInternal, err)
	}
	w.art = art
	version := ""
	if r.extractor != nil {
		version = r.extractor.Version()
	}
	if art.Outcome == vocab.OutcomeArchiveUnreadable {
		w.pf.Surface = UnreadableSurface(w.pf.Package, w.got.sha, version, art)
		return nil
	}
	if r.extractor == nil {
		return kinded(vocab.FailureExtractorUnavailable, errors.New("no surface extractor is wired into this build, so the surface was not read"))
	}
	// Counted before the extractor starts and cleared when the package is
	// saved: a marker at MaxExtractAttempts means the worker died that many
	// times while this package was being extracted.
	n, err := r.startAttempt(ctx, w.pf.Candidate)
	if err != nil {
		return kinded(vocab.FailureInternal, err)
	}
	if n >= MaxExtractAttempts {
		return kinded(vocab.FailureExtractorAbandoned, fmt.Errorf("the extraction was started %d times and the worker never finished the package (it was killed while the extraction ran), so it is not started again", n))
	}
	s, err := r.extractor.Extract(ctx, ExtractInput{Package: w.pf.Package, ArtifactSHA256: w.got.sha, Artifact: art,
		Data: w.got.data, Format: w.got.format, Limits: r.limits})
	var ce *ChildCrashError
	var se *stageError
	switch {
	case errors.As(err, &ce):
		return kinded(vocab.FailureExtractorCrashed, err)
	case errors.As(err, &se):
		return err // already classified (a child that could not start: extractor_unavailable)
	case err != nil:
		return kinded(vocab.FailureExtractorError, err)
	}
	s.Package, s.ArtifactSHA256 = w.pf.Package, w.got.sha
	if s.ExtractorVersion == "" {
		s.ExtractorVersion = version
	}
	// Every member the surface names is stored as a blob of its own: a
	// finding or a capability cites it by hash (methodology §7).
	for _, f := range s.Files {
		b, ok := art.Bytes(f.Path)
		if !ok {
			continue
		}
		sha, err := r.blobs.Put(ctx, b)
		if err != nil {
			return kinded(vocab.FailureEvidenceStore, fmt.Errorf("store member %s: %w", f.Path, err))
		}
		if f.SHA256 != "" && sha != f.SHA256 {
			return kinded(vocab.FailureExtractorError, fmt.Errorf("surface row gives member %s sha256 %s, its bytes hash to %s", f.Path, f.SHA256, sha))
		}
	}
	w.pf.Surface = &s
	return nil
}

// ReadArtifact is the surface stage's read of an archive: every member read
// into memory within limits and classified (language, minified, vendored).
// Benchmarks call it to measure the read + classify cost alone.
func ReadArtifact(ctx context.Context, data []byte, format artifact.Format, limits artifact.Limits) (*artifact.Artifact, error) {
	a, err := artifact.Read(ctx, data, format, limits)
	if err != nil {
		return nil, fmt.Errorf("pipeline.ReadArtifact(%s): %w", format, err)
	}
	return a, nil
}

// UnreadableSurface is the surface row of an archive that could not be read.
func UnreadableSurface(ref rundir.PackageRef, sha, version string, a *artifact.Artifact) *rundir.Surface {
	detail := a.Cause
	if a.Reason != "" {
		detail += ": " + a.Reason
	}
	return &rundir.Surface{
		Package: ref, ArtifactSHA256: sha,
		Outcome: vocab.OutcomeArchiveUnreadable, OutcomeDetail: detail,
		OutcomeEvidence: []rundir.Site{}, ExtractorVersion: version,
		Tools: []rundir.Entry{}, Prompts: []rundir.Entry{}, PromptTexts: []rundir.Entry{},
		Resources: []rundir.Entry{}, ResourceTemplates: []rundir.Entry{}, Instructions: []rundir.Entry{},
		ParameterDescriptions: []rundir.Entry{}, Vendored: []rundir.Vendored{}, AdvertisedTools: []rundir.Advertised{},
		Unresolved: []rundir.Unresolved{}, ReassignedAtRuntime: []rundir.Site{}, Capabilities: []rundir.Capability{},
		Files: []rundir.SourceFile{},
	}
}

// registryLabels are the registries' names as an operator reads them, and
// what configures each (no host is named: configuration supplies it).
var registryLabels = map[string][2]string{
	RegistryNPM:  {"npm", "set ATTESTARI_NPM_REGISTRY, or configure npm's registry (npm config set registry URL)"},
	RegistryPyPI: {"PyPI", "set ATTESTARI_PYPI_URL, or configure pip's index (pip config set global.index-url URL/simple/)"},
}

// notConfigured is the failure of a package whose registry has no client.
// The first such package of a run logs one warning for its registry; the
// failure's detail says what is missing and what to set.
func (r *runner) notConfigured(reg string) error {
	label := registryLabels[reg]
	why := r.o.NotConfigured[reg]
	msg := fmt.Sprintf("the %s registry is not configured: %s", label[0], label[1])
	if why != "" {
		msg = fmt.Sprintf("the %s registry is not configured (%s): %s", label[0], why, label[1])
	}
	once, _ := r.unconfiguredWarned.LoadOrStore(reg, &sync.Once{})
	once.(*sync.Once).Do(func() {
		r.log.Warn(msg + "; every package of this registry is recorded as a fetch failure and is not examined: not decided, not published")
	})
	return kinded(vocab.FailureRegistryNotConfigured, errors.New(msg))
}
