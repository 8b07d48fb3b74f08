package pipeline

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
)

// NPMClient is what the fetch stage asks an npm registry. *registry.NPM
// satisfies it.
type NPMClient interface {
	Packument(ctx context.Context, name string) (*registry.Packument, error)
	Version(ctx context.Context, name, version string) (*registry.VersionDoc, error)
	Tarball(ctx context.Context, m *registry.VersionManifest) (*registry.Artifact, error)
	Attestations(ctx context.Context, name, version string) (*registry.Attestations, error)
}

// PyPIClient is what the fetch stage asks a PyPI index. *registry.PyPI
// satisfies it.
type PyPIClient interface {
	Project(ctx context.Context, name string) (*registry.PyPIProject, error)
	Release(ctx context.Context, name, version string) (*registry.PyPIRelease, error)
	Simple(ctx context.Context, name string) (*registry.SimpleIndex, error)
	Provenance(ctx context.Context, name, version, filename string) (*registry.Provenance, error)
	Download(ctx context.Context, fileURL, wantSHA256 string) (*registry.Artifact, error)
}

// Blobs is the evidence store as the pipeline uses it. *evidence.Store
// satisfies it; Get must verify the bytes against their hash.
type Blobs interface {
	Put(ctx context.Context, data []byte) (string, error)
	Get(ctx context.Context, sha string) ([]byte, error)
}

// Extractor reads a package's tool surface from its archive (package
// surface). Version is EXTRACTOR_VERSION, recorded in the run header and on
// every surface row.
type Extractor interface {
	Version() string
	Extract(ctx context.Context, in ExtractInput) (rundir.Surface, error)
}

// ExtractInput is what the surface stage hands the extractor: the archive,
// read and classified, and whose it is.
type ExtractInput struct {
	Package        rundir.PackageRef
	ArtifactSHA256 string
	Artifact       *artifact.Artifact
	// Data, Format and Limits are the artifact's bytes as fetched and how
	// Artifact was read from them, for an extractor that reads the archive
	// again in a process of its own (ChildExtractor).
	Data   []byte
	Format artifact.Format
	Limits artifact.Limits
}

// Check is one check that runs (methodology §5). Run returns the package's
// result row and what the check found; ErrSkipped means the check's input is
// missing (the reason is already recorded by an earlier stage), so no row is
// written and the gate refuses the package (check_missing). Any other error
// is a failure of the stage named ID().
type Check interface {
	ID() string
	Run(ctx context.Context, in CheckInput) (CheckOutput, error)
}

// CheckInput is everything a check may read about one package.
type CheckInput struct {
	Package rundir.PackageRef
	// Surface is nil when no surface row was produced.
	Surface *rundir.Surface
	// Artifact is nil when the archive was not fetched or not read.
	Artifact       *artifact.Artifact
	ArtifactSHA256 string
	// Records are the package's upstream records so far; their blobs are
	// in Blobs.
	Records []rundir.Record
	Blobs   Blobs
}

// CheckOutput is a check's rows for one package. The pipeline sets the
// package and check id on every row.
type CheckOutput struct {
	Result      rundir.Result
	Findings    []rundir.Finding
	NotAnalyzed []rundir.NotAnalyzed
	// Records are upstream responses the check fetched itself (the
	// repository host's, for provenance), already stored as blobs: they join
	// records.json so every response a finding cites is indexed.
	Records []rundir.Record
}

// ErrSkipped is returned by a Check whose input is missing.
var ErrSkipped = errors.New("check skipped: its input is missing")

// Progress receives the run's progress. Calls come from several goroutines.
type Progress interface {
	// Start is called once with the number of packages in the run and how
	// many of them a resumed run already finished.
	Start(runID string, total, done int)
	PackageStarted(key string)
	PackageFinished(key string, failures []rundir.Failure, elapsed time.Duration)
	// Finish is called once with the run's final status.
	Finish(status string)
}

// JoinProgress is implemented by a Progress that wants to hear of the
// packages that join the run by delegation (methodology §4): n more
// packages, done of which a resumed run already finished. It is called once
// per wave of targets, after Start.
type JoinProgress interface {
	Joined(n, done int)
}

// Options configures Run. Home, CandidatesPath (or Resume) are required;
// every other field has a default.
type Options struct {
	// Home is $ATTESTARI_HOME; runs go to Home/runs/<run-id>/. Default "var".
	Home string
	// CandidatesPath is the candidates file (docs/candidates.md). With
	// Resume it is optional; when given, it must be byte-identical to the
	// file the run started with.
	CandidatesPath string
	// RunID names a new run; empty generates one (NewRunID). Ignored with
	// Resume.
	RunID string
	// Resume continues an existing run: a run id under Home/runs, or the
	// path of a run directory.
	Resume string
	// Concurrency bounds the packages examined at once; default
	// runtime.NumCPU().
	Concurrency int
	// NPM and PyPI are the registry clients. A nil client makes each
	// package of that registry a fetch failure (registry_not_configured),
	// not a run failure.
	NPM  NPMClient
	PyPI PyPIClient
	// NotConfigured says, per registry ("npm", "pypi"), why its client is
	// nil: the configuration error in words an operator can act on. The run
	// warns once, on the first package of that registry, so a run whose
	// candidates never name the registry says nothing about it.
	NotConfigured map[string]string
	// Evidence is the blob store; nil opens Home/evidence.
	Evidence Blobs
	// Extractor reads tool surfaces. Nil means no extractor is wired: every
	// archive that reads is a surface-stage failure (extractor_unavailable)
	// and has no surface row, so the gate refuses it.
	Extractor Extractor
	// Checks are the checks that run, in order. Nil means DefaultChecks().
	Checks []Check
	// ArtifactLimits bound the archive reader; zero fields take
	// artifact.DefaultLimits.
	ArtifactLimits artifact.Limits
	// Now is the clock for run ids, header times and stage durations;
	// default time.Now. Workers call it concurrently.
	Now func() time.Time
	// Progress reports progress; nil reports nothing.
	Progress Progress
	// Logger receives warnings (a per-package file that could not be read
	// on resume, and so on); default slog.Default().
	Logger *slog.Logger
	// CodeCommit and CodeDirty are the code version (see CodeVersion).
	CodeCommit string
	CodeDirty  bool
	// AnalyzerModel, PromptVersion, PromptLayout and PromptSHA256 stamp the
	// run header with the model check's analyzer (empty when none runs).
	AnalyzerModel, PromptVersion, PromptLayout, PromptSHA256 string
	// InputFiles are further files the run depends on, whose SHA-256 the
	// header records beside the candidates file's.
	InputFiles []string
	// DecideInputs is the machine's configuration a decision of the run
	// reads (the shared hosts of the context tags), recorded in run.json
	// when the run starts; a resumed run keeps what it recorded. Nil
	// records none.
	DecideInputs *rundir.DecideInputs

	// afterFetch, when set, runs between a package's fetch and surface
	// stages; tests use it to hold packages in flight.
	afterFetch func(ctx context.Context, ref rundir.PackageRef)
}

// RunResult says what a run did.
type RunResult struct {
	RunID  string
	Dir    string
	Status string // rundir.StatusFinished, StatusCancelled or StatusFailed
	// Packages is the number of packages in the run; Joined of them are
	// delegation targets the candidates file does not list; Carried were
	// finished by an earlier attempt of a resumed run and not redone;
	// Examined were finished by this call; WithFailures have at least one
	// failure row in summary.json.
	Packages     int
	Joined       int
	Carried      int
	Examined     int
	WithFailures int
	Header       rundir.Header
}

// Errors Run returns; classify with errors.Is.
var (
	// ErrCancelled: the context ended the run. It is marked cancelled and
	// continues with Options.Resume set to its id.
	ErrCancelled = errors.New("pipeline: run cancelled")
	// ErrResumeMismatch: the run to resume was started with other inputs or
	// other versions than this call would use.
	ErrResumeMismatch = errors.New("pipeline: cannot resume with different inputs or versions")
	// ErrRunLocked: another process is working on the run.
	ErrRunLocked = errors.New("pipeline: run is in use by another process")
	// ErrRunExists: a new run's id names an existing directory.
	ErrRunExists = errors.New("pipeline: run directory already exists")
)
