package pipeline

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// burnCPU spins until this process has used d more CPU time.
func burnCPU(d time.Duration) {
	clock := ProcessCPUClock()
	if clock == nil {
		time.Sleep(d)
		return
	}
	end := clock() + d
	x := uint64(1)
	for clock() < end {
		for range 1 << 16 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink = x
}

var sink uint64

// runCPUBudgeted runs crashWorld(mode)'s packages, each extracted in a
// child with a CPU budget of 1 s (200 ms grace) and the given wall
// backstop, and returns its world, the run's directory and its files.
func runCPUBudgeted(t *testing.T, mode string, wall time.Duration) (*world, string, *rundir.Files) {
	t.Helper()
	w := crashWorld(t, mode)
	o := w.options(t)
	child := testChild(t, allowedExtractorVersion(t))
	child.CPUBudget, child.Grace, child.WallBudget = time.Second, 200*time.Millisecond, wall
	o.Extractor = child
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	files, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return w, res.Dir, files
}

// TestChildCPUBudget: a child that burns CPU past the CPU budget plus the
// grace, checking no clock of its own, is ended by the parent and recorded
// extraction_budget_exceeded, its detail naming the CPU part, with the CPU
// time measured beside its limit and the wall and memory figures; decide
// refuses it on that code. The wall backstop is far off, so it is the CPU
// part that ends it.
func TestChildCPUBudget(t *testing.T) {
	w, dir, files := runCPUBudgeted(t, "BURN", 10*time.Minute)
	found := false
	for _, s := range files.Surfaces {
		b := s.Budget
		if b.CPUMsLimit != 1000 || b.WallMsLimit != 600000 || b.RSSBytesLimit != 160<<20 {
			t.Errorf("%s: budget limits %+v", s.Package.Name, b)
		}
		if s.Package.Name != "dies-burn" {
			if s.Outcome == vocab.CodeExtractionBudgetExceeded {
				t.Errorf("%s: refused on the budget (%s)", s.Package.Name, s.OutcomeDetail)
			}
			continue
		}
		found = true
		if s.Outcome != vocab.CodeExtractionBudgetExceeded || !strings.Contains(s.OutcomeDetail, "CPU time of the extraction passed the budget of 1s") ||
			b.CPUMs <= 1000 || b.WallMs <= 0 || b.RSSBytes <= 0 {
			t.Errorf("burn: outcome %s (%s), budget %+v", s.Outcome, s.OutcomeDetail, b)
		}
	}
	if !found {
		t.Fatal("the burning package has no surface row")
	}
	for _, p := range files.Summary.Packages {
		if len(p.Failures) > 0 {
			t.Errorf("%s: failures %+v, want none", p.Package.Name, p.Failures)
		}
	}
	d, err := policy.Decide(context.Background(), dir, w.store(t), policy.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Packages {
		if r.Package.Name == "dies-burn" && (r.Verdict != vocab.VerdictNotGradeable || !slices.Contains(r.BlockedBy, vocab.CodeExtractionBudgetExceeded)) {
			t.Errorf("burn: verdict %s blocked by %v", r.Verdict, r.BlockedBy)
		}
	}
}

// TestChildSleepIsNotRefused: a child that sleeps, using no CPU, well past
// the CPU budget plus the grace (what the wall budget before 2.3.11
// refused) is not refused on the package; the wall backstop ends it later
// as the run's failure row surface / extractor_stalled, which names the
// machine, and the package has no surface row to be refused on.
func TestChildSleepIsNotRefused(t *testing.T) {
	_, _, files := runCPUBudgeted(t, "HANG", 4*time.Second)
	for _, s := range files.Surfaces {
		if s.Outcome == vocab.CodeExtractionBudgetExceeded {
			t.Errorf("%s: refused on the budget (%s), budget %+v", s.Package.Name, s.OutcomeDetail, s.Budget)
		}
		if s.Package.Name == "dies-hang" {
			t.Errorf("the sleeping package has a surface row: outcome %s", s.Outcome)
		}
	}
	found := false
	for _, p := range files.Summary.Packages {
		if p.Package.Name != "dies-hang" {
			if len(p.Failures) > 0 {
				t.Errorf("%s: failures %+v", p.Package.Name, p.Failures)
			}
			continue
		}
		found = true
		fs := p.Failures
		if len(fs) != 1 || fs[0].Stage != vocab.StageSurface || fs[0].Kind != vocab.FailureExtractorStalled ||
			!strings.Contains(fs[0].Message, "passed the wall backstop of 4s") || !strings.Contains(fs[0].Message, "under the CPU budget of 1s") {
			t.Errorf("hang: failures %+v, want one surface/%s naming the backstop", fs, vocab.FailureExtractorStalled)
		}
	}
	if !found {
		t.Fatal("the sleeping package is not in the summary")
	}
}

// TestStalledIsTransient: a queued run retries a package whose extraction
// the machine stalled; a budget refusal or a crash is kept.
func TestStalledIsTransient(t *testing.T) {
	for kind, want := range map[string]bool{vocab.FailureExtractorStalled: true, vocab.FailureExtractorCrashed: false} {
		pf := &packageFile{Summary: rundir.PackageSummary{Failures: []rundir.Failure{{Stage: vocab.StageSurface, Kind: kind}}}}
		if got := transient(pf); got != want {
			t.Errorf("transient(%s) = %v, want %v", kind, got, want)
		}
	}
}

// TestParseStatCPU: utime and stime are read after the command name's
// last parenthesis, in clock ticks; a line without them is not read.
func TestParseStatCPU(t *testing.T) {
	line := "4242 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 250 75 0 0 20 0 1 0 100 0 0\n"
	if got, ok := parseStatCPU([]byte(line)); !ok || got != 3250*time.Millisecond {
		t.Errorf("parseStatCPU = %v, %v; want 3.25s", got, ok)
	}
	for _, bad := range []string{"", "4242 (x) R 1 2", "4242 (x) R 1 2 3 4 5 6 7 8 9 10 -1 0", "4242 x R 1 2 3 4 5 6 7 8 9 10 1 1"} {
		if got, ok := parseStatCPU([]byte(bad)); ok {
			t.Errorf("parseStatCPU(%q) = %v, read", bad, got)
		}
	}
	if ProcessCPUClock() != nil {
		if got, ok := childCPUTime(os.Getpid()); !ok || got < 0 {
			t.Errorf("childCPUTime(self) = %v, %v", got, ok)
		}
	}
}

// TestResumeRedoesStalled: a local resume examines again a package whose
// last attempt failed extractor_stalled (a failure of the run: the wall
// backstop ended a child that was under the CPU budget), in a real child
// process, and records what that extraction reads; a package whose child
// crashed (extractor_crashed, the package's own answer) and the ordinary
// packages are carried over, not redone.
func TestResumeRedoesStalled(t *testing.T) {
	w := crashWorld(t, "HANG", "EXIT")
	version := allowedExtractorVersion(t)
	o := w.options(t)
	o.RunID = "stalled-then-resumed"
	child := testChild(t, version)
	child.CPUBudget, child.Grace, child.WallBudget = time.Second, 200*time.Millisecond, 3*time.Second
	o.Extractor = child
	first, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	failuresOf := func(files *rundir.Files) map[string][]string {
		out := map[string][]string{}
		for _, p := range files.Summary.Packages {
			for _, f := range p.Failures {
				out[p.Package.Name] = append(out[p.Package.Name], f.Kind)
			}
		}
		return out
	}
	files, err := rundir.Read(first.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := failuresOf(files); !slices.Equal(got["dies-hang"], []string{vocab.FailureExtractorStalled}) ||
		!slices.Equal(got["dies-exit"], []string{vocab.FailureExtractorCrashed}) || len(got) != 2 {
		t.Fatalf("first run's failures %v", got)
	}

	o = w.options(t)
	o.CandidatesPath, o.Resume = "", first.RunID
	well := testChild(t, version)
	well.Env = append(well.Env, childNoHangEnv+"=1")
	o.Extractor = well
	second, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if second.Examined != 1 || second.Carried != first.Packages-1 {
		t.Errorf("resume examined %d and carried %d of %d packages; want 1 and %d", second.Examined, second.Carried, first.Packages, first.Packages-1)
	}
	files, err = rundir.Read(second.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := failuresOf(files); len(got) != 1 || !slices.Equal(got["dies-exit"], []string{vocab.FailureExtractorCrashed}) {
		t.Errorf("resumed run's failures %v; want only dies-exit's crash", got)
	}
	var hang *rundir.Surface
	for i, s := range files.Surfaces {
		if s.Package.Name == "dies-hang" {
			hang = &files.Surfaces[i]
		}
	}
	if hang == nil || hang.Budget.CPUMs <= 0 && hang.Budget.WallMs <= 0 {
		t.Fatalf("the stalled package has no surface row measured by its child after the resume: %+v", hang)
	}
}
