package pipeline

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

func byName[T any](t *testing.T, rows []T, pkg func(T) rundir.PackageRef, name string) []T {
	t.Helper()
	var out []T
	for _, r := range rows {
		if pkg(r).Name == name {
			out = append(out, r)
		}
	}
	return out
}

func summaryOf(t *testing.T, f *rundir.Files, name string) rundir.PackageSummary {
	t.Helper()
	s := byName(t, f.Summary.Packages, func(p rundir.PackageSummary) rundir.PackageRef { return p.Package }, name)
	if len(s) != 1 {
		t.Fatalf("%s: %d summary rows", name, len(s))
	}
	return s[0]
}

func gradeableOf(t *testing.T, f *rundir.Files, name string) rundir.Gradeable {
	t.Helper()
	g := byName(t, f.Gradeable, func(g rundir.Gradeable) rundir.PackageRef { return g.Package }, name)
	if len(g) != 1 {
		t.Fatalf("%s: %d gradeable rows", name, len(g))
	}
	return g[0]
}

func surfaceOf(t *testing.T, f *rundir.Files, name string) *rundir.Surface {
	t.Helper()
	s := byName(t, f.Surfaces, func(s rundir.Surface) rundir.PackageRef { return s.Package }, name)
	if len(s) > 1 {
		t.Fatalf("%s: %d surface rows", name, len(s))
	}
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func resultsOf(t *testing.T, f *rundir.Files, name string) map[string]rundir.Result {
	t.Helper()
	out := map[string]rundir.Result{}
	for _, r := range byName(t, f.Results, func(r rundir.Result) rundir.PackageRef { return r.Package }, name) {
		out[r.Check] = r
	}
	return out
}

func failureKinds(s rundir.PackageSummary) []string {
	var out []string
	for _, f := range s.Failures {
		out = append(out, f.Stage+":"+f.Kind)
	}
	return out
}

// TestRunRecordsEveryOutcome runs a mix of healthy and broken packages and
// checks that each ends as the recorded outcome the methodology asks for,
// with the run finishing whatever happened to any one package.
func TestRunRecordsEveryOutcome(t *testing.T) {
	w := newWorld(t, 4, true)
	o := w.options(t)
	o.Checks = []Check{SurfaceCheck{}, panicCheck{victim: "mcp-server-02"}}
	o.InputFiles = []string{w.cands}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != rundir.StatusFinished || res.Packages != 10 || res.Examined != 10 || res.Carried != 0 {
		t.Fatalf("result %+v", res)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Missing) != 0 {
		t.Fatalf("missing files %v", f.Missing)
	}

	// The header.
	h := f.Header
	raw, _ := os.ReadFile(w.cands)
	if h.Status != rundir.StatusFinished || h.FinishedAt == nil || h.RunID != res.RunID ||
		h.MethodologyVersion != methodology.Version || h.MethodologySHA256 != methodology.SHA256() ||
		h.ExtractorVersion != fakeExtractorVersion || h.VerifierVersion != checks.VerifierVersion ||
		h.CodeCommit != o.CodeCommit || h.CodeDirty || h.CandidatesSHA256 != vocab.SHA256Hex(raw) ||
		!slices.Equal(h.Checks, []string{"undetermined_tool_surface", "publisher_provenance"}) ||
		len(h.Inputs) != 2 || h.Inputs[0].SHA256 != h.CandidatesSHA256 || h.Inputs[0].Path != w.cands {
		t.Fatalf("header %+v", h)
	}
	if b, _ := os.ReadFile(filepath.Join(res.Dir, CandidatesCopy)); !bytes.Equal(b, raw) {
		t.Fatal("the run's copy of the candidates file differs from the file")
	}

	// A healthy package: fetched, blobs stored, surface parsed, checks ran.
	store := w.store(t)
	ok := w.names[0]
	if s := summaryOf(t, f, ok); len(s.Failures) != 0 || len(s.Stages) != 5 {
		t.Fatalf("%s summary %+v", ok, s)
	}
	recs := byName(t, f.Records, func(r rundir.Record) rundir.PackageRef { return r.Package }, ok)
	var kinds []string
	for _, r := range recs {
		kinds = append(kinds, r.Kind+"="+r.Outcome)
		if r.Package.Version != "1.0.0" {
			t.Errorf("record %s carries version %q", r.Kind, r.Package.Version)
		}
		if r.SHA256 != "" {
			if b, err := store.Get(context.Background(), r.SHA256); err != nil || int64(len(b)) != r.Size {
				t.Errorf("record %s blob: %v", r.Kind, err)
			}
		}
	}
	if want := []string{"npm_attestations=not_found", "npm_packument=ok", "npm_tarball=ok", "npm_version=ok"}; !slices.Equal(kinds, want) {
		t.Fatalf("records %v, want %v", kinds, want)
	}
	s := surfaceOf(t, f, ok)
	if s == nil || s.Outcome != "parsed" || len(s.Tools) != 2 || s.ArtifactSHA256 != recs[2].SHA256 || s.ExtractorVersion != fakeExtractorVersion {
		t.Fatalf("surface %+v", s)
	}
	for _, sf := range s.Files {
		if _, err := store.Get(context.Background(), sf.SHA256); err != nil {
			t.Errorf("member %s not stored: %v", sf.Path, err)
		}
	}
	if r := resultsOf(t, f, ok); r["undetermined_tool_surface"].Outcome != "parsed" || r["publisher_provenance"].Outcome != "ran" || len(r) != 2 {
		t.Fatalf("results %+v", r)
	}
	if _, has := resultsOf(t, f, ok)["model_directed_text"]; has {
		t.Fatal("a result row for a check that does not exist")
	}

	// Not found at the registry: a fetch failure, no surface, refused.
	if k := failureKinds(summaryOf(t, f, "missing-package")); !slices.Equal(k, []string{"fetch:not_found"}) {
		t.Fatalf("missing-package failures %v", k)
	}
	if surfaceOf(t, f, "missing-package") != nil || len(resultsOf(t, f, "missing-package")) != 0 {
		t.Fatal("missing-package has a surface or results")
	}
	if g := gradeableOf(t, f, "missing-package"); g.OK || !slices.Equal(g.Reasons, []string{"gate_not_recomputable"}) {
		t.Fatalf("missing-package gate %+v", g)
	}
	mp := byName(t, f.Records, func(r rundir.Record) rundir.PackageRef { return r.Package }, "missing-package")
	if len(mp) != 1 || mp[0].Outcome != vocab.RecordNotFound || mp[0].Status != 404 || mp[0].Package.Version != "1.0.0" {
		t.Fatalf("missing-package records %+v", mp)
	}

	// Integrity mismatch: refused, recorded, nothing unverified stored.
	if k := failureKinds(summaryOf(t, f, "tampered")); !slices.Equal(k, []string{"fetch:integrity_mismatch"}) {
		t.Fatalf("tampered failures %v", k)
	}
	for _, r := range byName(t, f.Records, func(r rundir.Record) rundir.PackageRef { return r.Package }, "tampered") {
		if r.Kind == vocab.KindNPMTarball && (r.Outcome != vocab.RecordIntegrityMismatch || r.SHA256 != "" || r.Error == "") {
			t.Fatalf("tampered tarball record %+v", r)
		}
	}
	if surfaceOf(t, f, "tampered") != nil {
		t.Fatal("a refused artifact was read")
	}

	// Not an archive: examined, and that is the surface outcome.
	s = surfaceOf(t, f, "not-an-archive")
	if s == nil || s.Outcome != "archive_unreadable" || s.OutcomeDetail == "" || len(summaryOf(t, f, "not-an-archive").Failures) != 0 {
		t.Fatalf("not-an-archive surface %+v", s)
	}
	if r := resultsOf(t, f, "not-an-archive"); r["undetermined_tool_surface"].Outcome != "archive_unreadable" {
		t.Fatalf("not-an-archive results %+v", r)
	}
	if g := gradeableOf(t, f, "not-an-archive"); g.OK || !slices.Contains(g.Reasons, "archive_unreadable") {
		t.Fatalf("not-an-archive gate %+v", g)
	}

	// A range resolves to its highest match, and every row says which.
	if s := surfaceOf(t, f, "ranged"); s == nil || s.Package.Version != "1.2.0" || s.Tools[0].Name != "new" {
		t.Fatalf("ranged surface %+v", s)
	}
	if k := failureKinds(summaryOf(t, f, "library-only")); !slices.Equal(k, []string{"fetch:no_matching_version"}) {
		t.Fatalf("library-only failures %v", k)
	}
	if g := gradeableOf(t, f, "library-only"); g.Package.Version != ">=5" {
		t.Fatalf("an unresolved package keeps its range as its version: %+v", g)
	}

	// PyPI: the pure wheel is chosen over the sdist.
	s = surfaceOf(t, f, "mcp-py-server")
	if s == nil || s.Outcome != "parsed" || s.Package.Version != "0.3.0" || s.Tools[0].Name != "py_tool" {
		t.Fatalf("pypi surface %+v", s)
	}
	var pk []string
	for _, r := range byName(t, f.Records, func(r rundir.Record) rundir.PackageRef { return r.Package }, "mcp-py-server") {
		pk = append(pk, r.Kind)
		if r.Kind == vocab.KindPyPIFile && !strings.HasSuffix(r.URL, "-py3-none-any.whl") {
			t.Errorf("downloaded %s", r.URL)
		}
	}
	if want := []string{"pypi_file", "pypi_json", "pypi_json", "pypi_provenance", "pypi_simple"}; !slices.Equal(pk, want) {
		t.Fatalf("pypi records %v, want %v", pk, want)
	}

	// A panicking check is a failure row with its stack and an error result
	// row; the package's other stages and every other package carry on.
	ps := summaryOf(t, f, "mcp-server-02")
	if k := failureKinds(ps); !slices.Equal(k, []string{"publisher_provenance:panic"}) {
		t.Fatalf("panic failures %v", k)
	}
	if st := ps.Failures[0].Stack; !strings.Contains(st, "panicCheck") || strings.Contains(st, "goroutine ") || strings.Contains(st, "+0x") {
		t.Fatalf("stack not recorded, or not cleaned:\n%s", st)
	}
	if r := resultsOf(t, f, "mcp-server-02"); r["publisher_provenance"].Outcome != vocab.ResultError || r["undetermined_tool_surface"].Outcome != "parsed" {
		t.Fatalf("panic results %+v", r)
	}

	// Sorted by package key, whatever order packages finished in.
	if !slices.IsSortedFunc(f.Gradeable, func(a, b rundir.Gradeable) int { return strings.Compare(a.Package.Key(), b.Package.Key()) }) ||
		!slices.IsSortedFunc(f.Records, func(a, b rundir.Record) int { return strings.Compare(a.Package.Key(), b.Package.Key()) }) {
		t.Fatal("rows not sorted by package key")
	}
	if f.Summary.Counts[CountPackages] != 10 || f.Summary.Counts[CountPackagesWithFailures] != 4 || res.WithFailures != 4 ||
		f.Summary.Counts["failure:fetch:not_found"] != 1 || f.Summary.Counts[CountNoSurface] != 3 {
		t.Fatalf("counts %v (with failures %d)", f.Summary.Counts, res.WithFailures)
	}
	if len(f.Findings) != 0 || len(f.NotAnalyzed) != 0 {
		t.Fatalf("findings %v not analysed %v", f.Findings, f.NotAnalyzed)
	}
}

// TestRunsAreDeterministic: two runs over the same inputs write the same
// seven files apart from timestamps and durations.
func TestRunsAreDeterministic(t *testing.T) {
	w := newWorld(t, 6, true)
	o := w.options(t)
	a, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Concurrency = 1
	b, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if a.RunID == b.RunID {
		t.Fatal("two runs share an id")
	}
	fa, fb := seven(t, a.Dir), seven(t, b.Dir)
	for _, name := range rundir.SevenFiles {
		if fa[name] != fb[name] {
			t.Errorf("%s differs between runs:\n%s\n---\n%s", name, fa[name], fb[name])
		}
	}
}

// TestNoExtractorRecordsItsAbsence: without an extractor nothing pretends
// a surface was read.
func TestNoExtractorRecordsItsAbsence(t *testing.T) {
	w := newWorld(t, 2, false)
	o := w.options(t)
	o.Extractor = nil
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.ExtractorVersion != "" || len(f.Surfaces) != 0 || len(f.Results) != 0 {
		t.Fatalf("header %q surfaces %d results %d", f.Header.ExtractorVersion, len(f.Surfaces), len(f.Results))
	}
	for _, p := range f.Summary.Packages {
		if k := failureKinds(p); !slices.Equal(k, []string{"surface:extractor_unavailable"}) {
			t.Fatalf("%s failures %v", p.Package.Key(), k)
		}
	}
	for _, g := range f.Gradeable {
		if g.OK {
			t.Fatalf("%s gradeable with no surface", g.Package.Key())
		}
	}
}

// TestExtractorPanicIsAFailureRow: a panic in the extractor is contained.
func TestExtractorPanicIsAFailureRow(t *testing.T) {
	w := newWorld(t, 1, false)
	w.fake.AddNPM("explodes", "1.0.0", tgz(t, "PANIC", "x", "index.js", "x"), fakeregistry.NPMOptions{})
	writeCandidates(t, w.cands, []cand{{Registry: "npm", Name: w.names[0], Version: "1.0.0", Rank: 1}, {Registry: "npm", Name: "explodes", Version: "1.0.0", Rank: 2}})
	res, err := Run(context.Background(), w.options(t))
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ps := summaryOf(t, f, "explodes")
	if k := failureKinds(ps); !slices.Equal(k, []string{"surface:panic"}) || ps.Failures[0].Stack == "" {
		t.Fatalf("failures %+v", ps.Failures)
	}
	if surfaceOf(t, f, "explodes") != nil || surfaceOf(t, f, w.names[0]) == nil {
		t.Fatal("wrong surfaces")
	}
}

func TestUnconfiguredRegistryIsAPackageFailure(t *testing.T) {
	w := newWorld(t, 1, true)
	o := w.options(t)
	var none *registry.PyPI // a typed nil, as a caller's failed constructor leaves it
	o.PyPI = none
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if k := failureKinds(summaryOf(t, f, "mcp-py-server")); !slices.Equal(k, []string{"fetch:registry_not_configured"}) {
		t.Fatalf("failures %v", k)
	}
}

// TestUnconfiguredRegistryWarnsOncePerRun: the warning about a registry with
// no client comes once, on one line, says why and what to set, and only when
// the candidates name that registry.
func TestUnconfiguredRegistryWarnsOncePerRun(t *testing.T) {
	const why = "registry: base URL not configured: $ATTESTARI_PYPI_URL is unset and pip names no index-url (pip: not found; pip3: not found)"
	for _, tc := range []struct {
		name     string
		mixed    bool
		warnings int
	}{{"candidates name PyPI", true, 1}, {"npm candidates only", false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 2, false)
			cs := []cand{{Registry: "npm", Name: w.names[0], Version: "1.0.0", Rank: 1}, {Registry: "npm", Name: w.names[1], Version: "1.0.0", Rank: 2}}
			if tc.mixed {
				// Two PyPI packages: still one warning.
				cs = append(cs, cand{Registry: "pypi", Name: "mcp-py-server", Version: "0.3.0", Rank: 1}, cand{Registry: "pypi", Name: "mcp-py-other", Version: "0.1.0", Rank: 2})
			}
			writeCandidates(t, w.cands, cs)
			o := w.options(t)
			o.PyPI = nil
			o.NotConfigured = map[string]string{RegistryPyPI: why}
			var logs strings.Builder
			o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			res, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(logs.String(), "registry is not configured"); n != tc.warnings {
				t.Fatalf("%d warnings about the PyPI registry, want %d:\n%s", n, tc.warnings, logs.String())
			}
			if strings.Contains(logs.String(), `\n`) {
				t.Fatalf("a log line carries a literal \\n:\n%s", logs.String())
			}
			if !tc.mixed {
				return
			}
			for _, line := range strings.Split(logs.String(), "\n") {
				if strings.Contains(line, "registry is not configured") && (!strings.Contains(line, "ATTESTARI_PYPI_URL") || !strings.Contains(line, "pip3: not found")) {
					t.Fatalf("warning does not say why and what to set: %s", line)
				}
			}
			f, err := rundir.Read(res.Dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"mcp-py-server", "mcp-py-other"} {
				ps := summaryOf(t, f, name)
				if k := failureKinds(ps); !slices.Equal(k, []string{"fetch:registry_not_configured"}) || !strings.Contains(ps.Failures[0].Message, "the PyPI registry is not configured") {
					t.Fatalf("%s failures %+v", name, ps.Failures)
				}
			}
		})
	}
}

// TestCancelThenResume: a cancelled run is marked so, writes none of the
// seven files, and resumes to the files of an uninterrupted run.
func TestCancelThenResume(t *testing.T) {
	w := newWorld(t, 8, true)
	o := w.options(t)
	o.Concurrency = 2
	ref, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	o.afterFetch = func(ctx context.Context, _ rundir.PackageRef) {
		if n.Add(1) == 5 {
			cancel()
		}
	}
	res, err := Run(ctx, o)
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) || res == nil || res.Status != rundir.StatusCancelled {
		t.Fatalf("got %+v, %v", res, err)
	}
	if h := readHeader(t, res.Dir); h.Status != rundir.StatusCancelled || h.FinishedAt != nil {
		t.Fatalf("header %+v", h)
	}
	for _, name := range rundir.SevenFiles {
		if exists(filepath.Join(res.Dir, name)) {
			t.Fatalf("a cancelled run wrote %s", name)
		}
	}
	done := len(packageFiles(t, res.Dir))
	if done == 0 || done >= 14 {
		t.Fatalf("%d packages finished before the cancel took effect", done)
	}

	o.afterFetch = nil
	o.CandidatesPath = "" // the run's own copy is used
	o.Resume = res.RunID
	again, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.RunID != res.RunID || again.Carried != done || again.Examined != 14-done || again.Status != rundir.StatusFinished {
		t.Fatalf("resumed %+v, %d were done", again, done)
	}
	h := readHeader(t, again.Dir)
	if h.Status != rundir.StatusFinished || h.FinishedAt == nil || h.StartedAt.IsZero() {
		t.Fatalf("header %+v", h)
	}
	want, got := seven(t, ref.Dir), seven(t, again.Dir)
	for _, name := range rundir.SevenFiles {
		if want[name] != got[name] {
			t.Errorf("%s differs from the uninterrupted run", name)
		}
	}

	// Resuming a finished run redoes nothing and rewrites the same files.
	before := len(w.fake.Requests())
	third, err := Run(context.Background(), o)
	if err != nil || third.Examined != 0 || third.Carried != 14 || len(w.fake.Requests()) != before {
		t.Fatalf("resume of a finished run: %+v %v", third, err)
	}
}

func TestResumeRefusesDifferentInputsOrVersions(t *testing.T) {
	w := newWorld(t, 2, false)
	o := w.options(t)
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Resume = res.RunID

	changed := o
	changed.CodeCommit = "fedcba9876543210fedcba9876543210fedcba98"
	if _, err := Run(context.Background(), changed); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "code commit") {
		t.Fatalf("other commit: %v", err)
	}
	changed = o
	changed.Extractor = nil
	if _, err := Run(context.Background(), changed); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "extractor version") {
		t.Fatalf("other extractor: %v", err)
	}
	changed = o
	changed.Checks = []Check{SurfaceCheck{}, panicCheck{}}
	if _, err := Run(context.Background(), changed); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "checks") {
		t.Fatalf("other checks: %v", err)
	}
	other := filepath.Join(t.TempDir(), "other.json")
	writeCandidates(t, other, []cand{{Registry: "npm", Name: "else", Version: "1.0.0", Rank: 1}})
	changed = o
	changed.CandidatesPath = other
	if _, err := Run(context.Background(), changed); !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), "not the one the run started with") {
		t.Fatalf("other candidates: %v", err)
	}
	// Tampering with the run's own copy is caught too.
	if err := os.WriteFile(filepath.Join(res.Dir, CandidatesCopy), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.CandidatesPath = ""
	if _, err := Run(context.Background(), o); !errors.Is(err, ErrResumeMismatch) {
		t.Fatalf("tampered copy: %v", err)
	}
}

func TestRunIDsAndLocks(t *testing.T) {
	w := newWorld(t, 1, false)
	o := w.options(t)
	o.RunID = "fixed-id"
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), o); !errors.Is(err, ErrRunExists) {
		t.Fatalf("second run with the same id: %v", err)
	}
	o.RunID = "../escape"
	if _, err := Run(context.Background(), o); err == nil {
		t.Fatal("a run id with a path separator was accepted")
	}

	dir := filepath.Join(w.home, "runs", "fixed-id")
	unlock, err := lockRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	o.RunID, o.Resume = "", "fixed-id"
	if _, err := Run(context.Background(), o); !errors.Is(err, ErrRunLocked) {
		t.Fatalf("resume of a locked run: %v", err)
	}
	unlock()
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	o.Resume = dir // a path works as well as an id
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatalf("resume by path: %v", err)
	}

	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	a, b := NewRunID(now, []byte("x")), NewRunID(now.Add(time.Second), []byte("x"))
	if !strings.HasPrefix(a, "20261130T120000Z-") || len(a) != len("20261130T120000Z-")+8 || !(a < b) || !runIDRe.MatchString(a) {
		t.Fatalf("run ids %q %q", a, b)
	}
	if NewRunID(now, []byte("x")) == a {
		t.Fatal("two ids in the same second collide")
	}
}

func TestLogProgressReportsEachPackage(t *testing.T) {
	w := newWorld(t, 3, false)
	o := w.options(t)
	var buf bytes.Buffer
	o.Progress = NewLogProgress(slog.New(slog.NewJSONHandler(&buf, nil)))
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Count(out, `"msg":"package finished"`) != 3 || !strings.Contains(out, `"msg":"run started"`) ||
		!strings.Contains(out, `"status":"finished"`) || !strings.Contains(out, `"done":3`) {
		t.Fatalf("log:\n%s", out)
	}
}

func TestBarProgressDraws(t *testing.T) {
	var buf bytes.Buffer
	b := NewBarProgress(&buf)
	b.Start("run-x", 2, 1)
	b.PackageStarted("npm:a@1.0.0")
	b.PackageFinished("npm:a@1.0.0", nil, time.Millisecond)
	b.Finish(rundir.StatusFinished)
	if out := buf.String(); !strings.Contains(out, "2/2") {
		t.Fatalf("bar output %q", out)
	}
}

func TestPickDistribution(t *testing.T) {
	f := func(names ...string) []registry.PyPIFile {
		var out []registry.PyPIFile
		for _, n := range names {
			out = append(out, registry.PyPIFile{Filename: n})
		}
		return out
	}
	cases := []struct {
		files []registry.PyPIFile
		want  string
	}{
		{f("x-1.0.tar.gz", "x-1.0-cp312-cp312-manylinux_x86_64.whl", "x-1.0-py3-none-any.whl"), "x-1.0-py3-none-any.whl"},
		{f("x-1.0-cp312-cp312-manylinux_x86_64.whl", "x-1.0.zip"), "x-1.0.zip"},
		{f("x-1.0-cp312-cp312-win_amd64.whl", "x-1.0-cp312-cp312-manylinux_x86_64.whl"), "x-1.0-cp312-cp312-manylinux_x86_64.whl"},
		{append(f("x-1.0-py2-none-any.whl"), registry.PyPIFile{Filename: "x-1.0-py3-none-any.whl", Yanked: true}), "x-1.0-py2-none-any.whl"},
		{f("x-1.0.exe", "x-1.0.egg"), ""},
	}
	for _, c := range cases {
		got, ok := pickDistribution(c.files)
		if got.Filename != c.want || ok != (c.want != "") {
			t.Errorf("pickDistribution(%v) = %q, %v; want %q", c.files, got.Filename, ok, c.want)
		}
	}
}

func TestListRunsAndLatestResumable(t *testing.T) {
	w := newWorld(t, 2, false)
	o := w.options(t)
	var mu sync.Mutex
	clock := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	o.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	if _, ok, err := LatestResumable(w.home, w.cands); ok || err != nil {
		t.Fatalf("no runs yet: %v %v", ok, err)
	}
	finished, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	o.afterFetch = func(context.Context, rundir.PackageRef) { cancel() }
	cancelled, err := Run(ctx, o)
	if !errors.Is(err, ErrCancelled) {
		t.Fatal(err)
	}
	o.afterFetch = nil

	runs, err := ListRuns(w.home)
	if err != nil || len(runs) != 2 || runs[0].ID != finished.RunID || runs[1].ID != cancelled.RunID {
		t.Fatalf("runs %+v %v", runs, err)
	}
	if runs[0].Resumable() || !runs[1].Resumable() {
		t.Fatalf("resumable: %v %v", runs[0].Resumable(), runs[1].Resumable())
	}
	ri, ok, err := LatestResumable(w.home, w.cands)
	if err != nil || !ok || ri.ID != cancelled.RunID {
		t.Fatalf("latest resumable %+v %v %v", ri, ok, err)
	}
	// A run some process is working on is not resumable.
	unlock, err := lockRun(cancelled.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := LatestResumable(w.home, w.cands); ok {
		t.Fatal("a locked run was offered for resuming")
	}
	unlock()
	// Another candidates file has no resumable run.
	other := filepath.Join(t.TempDir(), "other.json")
	writeCandidates(t, other, []cand{{Registry: "npm", Name: "else", Version: "1.0.0", Rank: 1}})
	if _, ok, _ := LatestResumable(w.home, other); ok {
		t.Fatal("a run over other candidates was offered")
	}
}

// TestPanicBetweenStagesIsContained: even a panic outside the stages' own
// recovery ends as a failure row of that package.
func TestPanicBetweenStagesIsContained(t *testing.T) {
	w := newWorld(t, 3, false)
	o := w.options(t)
	o.afterFetch = func(_ context.Context, ref rundir.PackageRef) {
		if ref.Name == w.names[1] {
			panic("between stages")
		}
	}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ps := summaryOf(t, f, w.names[1])
	if k := failureKinds(ps); !slices.Equal(k, []string{"pipeline:panic"}) || !strings.Contains(ps.Failures[0].Stack, "TestPanicBetweenStagesIsContained") {
		t.Fatalf("failures %+v", ps.Failures)
	}
	if g := gradeableOf(t, f, w.names[1]); g.OK {
		t.Fatal("a package that crashed is gradeable")
	}
	if len(f.Surfaces) != 2 {
		t.Fatalf("the other packages were not examined: %d surfaces", len(f.Surfaces))
	}
}

// TestResumeIgnoresHalfWrittenFiles: what a killed writer leaves behind (a
// temporary file, a per-package file cut short) is redone, not trusted.
func TestResumeIgnoresHalfWrittenFiles(t *testing.T) {
	w := newWorld(t, 3, false)
	o := w.options(t)
	ref, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.RunID = "damaged"
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	files := packageFiles(t, res.Dir)
	pkgDir := filepath.Join(res.Dir, PackagesDir)
	b, _ := os.ReadFile(filepath.Join(pkgDir, files[0]))
	if err := os.WriteFile(filepath.Join(pkgDir, files[0]), b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(pkgDir, ".tmp-"+files[1]+"-123")
	if err := os.WriteFile(tmp, b[:10], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range rundir.SevenFiles {
		_ = os.Remove(filepath.Join(res.Dir, name))
	}
	o.RunID, o.Resume = "", "damaged"
	again, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Carried != 2 || again.Examined != 1 || exists(tmp) {
		t.Fatalf("resumed %+v; stale temp still there: %v", again, exists(tmp))
	}
	want, got := seven(t, ref.Dir), seven(t, again.Dir)
	for _, name := range rundir.SevenFiles {
		if want[name] != got[name] {
			t.Errorf("%s differs", name)
		}
	}
}

// TestFetchFailuresInPlainWords: a failure row says which package, what is
// wrong and what the registry has, never a client function's name or a URL
// first; the kind is unchanged.
func TestFetchFailuresInPlainWords(t *testing.T) {
	w := newWorld(t, 1, true)
	o := w.options(t)
	var logs strings.Builder
	o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	// The client's own words stay in the debug log.
	if !strings.Contains(logs.String(), `client_error="registry.NPM.Packument(missing-package)`) {
		t.Errorf("the debug log lacks the client's error for missing-package:\n%s", logs.String())
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, kind, msg string }{
		{"missing-package", "fetch:not_found", "no package missing-package on the npm registry: check the name in the candidates file"},
		{"library-only", "fetch:no_matching_version", "no version >=5 of library-only is published; the newest is 1.0.0"},
	} {
		ps := summaryOf(t, f, tc.name)
		if k := failureKinds(ps); !slices.Equal(k, []string{tc.kind}) {
			t.Fatalf("%s: failures %v, want %s", tc.name, k, tc.kind)
		}
		if got := ps.Failures[0].Message; got != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, got, tc.msg)
		}
	}
	if got := summaryOf(t, f, "tampered").Failures[0].Message; !strings.HasPrefix(got, "the artifact of tampered@1.0.0 was refused: ") || strings.Contains(got, "http") {
		t.Errorf("tampered: message %q: want the package first and no URL", got)
	}
}

func TestNewestVersion(t *testing.T) {
	for _, tc := range []struct {
		reg  string
		vs   []string
		want string
	}{
		{RegistryNPM, []string{"1.2.0", "1.10.0", "1.9.9", "not-a-version"}, "1.10.0"},
		{RegistryNPM, []string{"2.0.0-rc.1", "1.9.0"}, "2.0.0-rc.1"},
		{RegistryNPM, nil, ""},
		{RegistryPyPI, []string{"0.9", "0.10", "0.10rc1", "junk!"}, "0.10"},
		{RegistryPyPI, []string{"1.0.post1", "1.0"}, "1.0.post1"},
	} {
		if got := newestVersion(tc.reg, tc.vs); got != tc.want {
			t.Errorf("newestVersion(%s, %v) = %q, want %q", tc.reg, tc.vs, got, tc.want)
		}
	}
}

// TestMisspeltNameSuggestsTheNearest: a name the registry does not have is
// answered with the nearest name its search knows, when one is a few edits
// away, and with no guess otherwise.
func TestMisspeltNameSuggestsTheNearest(t *testing.T) {
	w := newWorld(t, 2, false) // mcp-server-00, @synthetic/mcp-server-01
	writeCandidates(t, w.cands, []cand{
		{Registry: "npm", Name: "mcp-server-0O", Version: "1.0.0", Rank: 1},
		{Registry: "npm", Name: "@synthetic/mcp-srever-01", Version: "1.0.0", Rank: 2},
		{Registry: "npm", Name: "weather-lookup", Version: "1.0.0", Rank: 3},
	})
	res, err := Run(context.Background(), w.options(t))
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"mcp-server-0O":            "no package mcp-server-0O on the npm registry; did you mean mcp-server-00?",
		"@synthetic/mcp-srever-01": "no package @synthetic/mcp-srever-01 on the npm registry; did you mean @synthetic/mcp-server-01?",
		"weather-lookup":           "no package weather-lookup on the npm registry: check the name in the candidates file",
	} {
		ps := summaryOf(t, f, name)
		if len(ps.Failures) != 1 || ps.Failures[0].Kind != "not_found" || ps.Failures[0].Message != want {
			t.Errorf("%s: failures %+v, want message %q", name, ps.Failures, want)
		}
	}
}

func TestNearestName(t *testing.T) {
	names := []string{"@modelcontextprotocol/server-filesystem", "@modelcontextprotocol/server-everything", "filesystem"}
	if got := nearestName("@modelcontextprotocol/server-filesystm", names); got != "@modelcontextprotocol/server-filesystem" {
		t.Errorf("one letter missing: %q", got)
	}
	if got := nearestName("server-git", names); got != "" {
		t.Errorf("far names suggested: %q", got)
	}
	if got := nearestName("filesystem", names); got != "" {
		t.Errorf("the name itself suggested: %q", got)
	}
	if d := editDistance("kitten", "sitting", 5); d != 3 {
		t.Errorf("editDistance(kitten, sitting) = %d", d)
	}
	if d := editDistance("abcdefgh", "zzzzzzzz", 2); d != 3 {
		t.Errorf("past the limit: %d, want limit+1", d)
	}
}
