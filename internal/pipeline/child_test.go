package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// childModeEnv makes the test binary a child extraction process (TestMain):
// the re-executed binary serves one request with testChildExtract.
const childModeEnv = "ATTESTARI_PIPELINE_TEST_CHILD"

// childNoHangEnv makes a child extract a HANG package as an ordinary one:
// the machine that stalled it is well again (TestResumeRedoesStalled).
const childNoHangEnv = "ATTESTARI_PIPELINE_TEST_CHILD_NO_HANG"

// childPIDDirEnv, when set in a child, names a directory where the child
// writes its pid, so a test can check it did not outlive its parent.
const childPIDDirEnv = "ATTESTARI_PIPELINE_TEST_CHILD_PIDS"

// serveTestChild is the child's main: the fake extractor, plus the deaths
// an extractor can die, each chosen by a member of the artifact.
func serveTestChild() int {
	if dir := os.Getenv(childPIDDirEnv); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprint(os.Getpid())), nil, 0o644)
	}
	if err := ServeChild(context.Background(), os.Stdin, os.Stdout, testChildExtract); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// recurse never returns: a stack overflow on purpose, the way an
// unbounded recursion over hostile input ends.
//
//go:noinline
func recurse(n int) int {
	var pad [128]byte
	pad[n%128] = byte(n)
	//lint:ignore SA5007 the infinite recursion is the point
	return recurse(n+1) + int(pad[7])
}

var keep [][]byte

func testChildExtract(ctx context.Context, in ExtractInput, b ChildBudget) (rundir.Surface, error) {
	a := in.Artifact
	switch {
	case has(a, "STACKOVERFLOW"):
		recurse(0)
	case has(a, "FATAL"):
		// An unlock of an unlocked mutex: an unrecoverable fatal error.
		var mu sync.Mutex
		mu.Unlock()
	case has(a, "NILDEREF"):
		var p *rundir.Surface
		return *p, nil
	case has(a, "SIGSEGV"):
		// Sent to this goroutine's own thread, so the trace is this
		// goroutine's whatever else runs.
		runtime.LockOSThread()
		_ = syscall.Tgkill(os.Getpid(), syscall.Gettid(), syscall.SIGSEGV)
		time.Sleep(time.Minute)
	case has(a, "EXIT"):
		os.Exit(3)
	case has(a, "MEMORY"):
		// Grows resident memory until the parent ends it; stops at 8× the
		// budget so a parent that never measures fails the test instead of
		// the machine.
		for i := int64(0); i < 8*b.RSS; i += 8 << 20 {
			c := make([]byte, 8<<20)
			for j := range c {
				c[j] = byte(j)
			}
			keep = append(keep, c)
		}
		return rundir.Surface{}, errors.New("the memory child was never ended")
	case has(a, "HANG") && os.Getenv(childNoHangEnv) == "":
		time.Sleep(time.Hour)
	case has(a, "BURN"):
		// Burns CPU without checking any clock until the parent ends it;
		// stops at 8× the CPU budget so a parent that never measures
		// fails the test instead of holding it.
		burnCPU(8 * b.CPU)
		return rundir.Surface{}, errors.New("the burning child was never ended")
	}
	return fakeExtractor{}.Extract(ctx, in)
}

func has(a interface{ Bytes(string) ([]byte, bool) }, member string) bool {
	_, ok := a.Bytes(member)
	return ok
}

// allowedExtractorVersion is an extractor version the version table pairs
// with the methodology in force, so decide evaluates the guards.
func allowedExtractorVersion(t *testing.T) string {
	for _, p := range methodology.VersionTable() {
		if p.Methodology == methodology.Version {
			return p.Extractor
		}
	}
	t.Fatalf("the version table has no row for methodology %s", methodology.Version)
	return ""
}

func testChild(t *testing.T, version string) *ChildExtractor {
	t.Helper()
	return &ChildExtractor{
		Path: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{childModeEnv + "=1"},
		// A CPU budget and a wall backstop far above what a loaded
		// machine needs to start a child; the tests of child_cpu_test.go
		// use short ones of their own.
		ExtractorVersion: version, CPUBudget: 30 * time.Second, WallBudget: 60 * time.Second, Grace: time.Second,
		RSSBudget: 160 << 20,
	}
}

// crashWorld serves two ordinary packages and one package per way an
// extraction can die or pass its budget.
func crashWorld(t *testing.T, kinds ...string) *world {
	t.Helper()
	w := newWorld(t, 2, false)
	var cs []cand
	for i, name := range w.names {
		cs = append(cs, cand{Registry: "npm", Name: name, Version: "1.0.0", Rank: i + 1})
	}
	for _, k := range kinds {
		name := "dies-" + strings.ToLower(k)
		w.fake.AddNPM(name, "1.0.0", tgz(t, "package.json", `{"name":"`+name+`"}`, "index.js", "x();\n", k, "1"), fakeregistry.NPMOptions{})
		cs = append(cs, cand{Registry: "npm", Name: name, Version: "1.0.0", Rank: len(cs) + 1})
	}
	writeCandidates(t, w.cands, cs)
	return w
}

var addrRe = regexp.MustCompile(`0x[0-9a-fA-F]{5,}`)

// TestChildDeathsAreFailureRows is the item 2: an extraction that
// dies by a stack overflow, a fatal runtime error, a nil dereference, a
// SIGSEGV or an exit without a result ends as that package's failure row
// (stage surface, extractor_crashed) with the runtime's cause, while the run
// finishes; one that passes the memory budget is the surface row
// extraction_budget_exceeded with the measured peak beside the limit
// (TestChildCPUBudget holds the CPU budget). Two
// runs record the same rows, so the cause holds nothing that differs
// between executions. Decide then refuses every one of them.
func TestChildDeathsAreFailureRows(t *testing.T) {
	kinds := []string{"STACKOVERFLOW", "FATAL", "NILDEREF", "SIGSEGV", "EXIT", "MEMORY"}
	w := crashWorld(t, kinds...)
	version := allowedExtractorVersion(t)
	var dirs []string
	for run := range 2 {
		o := w.options(t)
		o.RunID = fmt.Sprintf("children-%d", run)
		o.Concurrency = 2
		child := testChild(t, version)
		o.Extractor = child
		res, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != rundir.StatusFinished || res.Packages != 2+len(kinds) {
			t.Fatalf("run %+v", res)
		}
		if p := child.PeakChildren(); p < 1 || p > o.Concurrency {
			t.Errorf("%d children alive at once with %d workers", p, o.Concurrency)
		}
		dirs = append(dirs, res.Dir)
	}
	a, b := seven(t, dirs[0]), seven(t, dirs[1])
	for _, name := range rundir.SevenFiles {
		if a[name] != b[name] {
			t.Errorf("two runs over the same dying packages differ in %s:\n%s", name, lineDiff(a[name], b[name]))
		}
	}

	files, err := rundir.Read(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	failures := map[string][]rundir.Failure{}
	for _, p := range files.Summary.Packages {
		failures[p.Package.Name] = p.Failures
	}
	surfaces := map[string]rundir.Surface{}
	for _, s := range files.Surfaces {
		surfaces[s.Package.Name] = s
	}
	wantCause := map[string]string{
		"STACKOVERFLOW": "fatal error: stack overflow",
		"FATAL":         "fatal error: sync: unlock of unlocked mutex",
		"NILDEREF":      "panic: runtime error: invalid memory address or nil pointer dereference",
		"SIGSEGV":       "SIGSEGV: segmentation violation",
		"EXIT":          "exit status 3",
	}
	for k, cause := range wantCause {
		name := "dies-" + strings.ToLower(k)
		fs := failures[name]
		if len(fs) != 1 || fs[0].Stage != vocab.StageSurface || fs[0].Kind != vocab.FailureExtractorCrashed {
			t.Errorf("%s: failures %+v, want one surface/%s", name, fs, vocab.FailureExtractorCrashed)
			continue
		}
		f := fs[0]
		if !strings.Contains(f.Message, cause) || len(f.Message) > maxCauseBytes+100 || addrRe.MatchString(f.Message+f.Stack) {
			t.Errorf("%s: message %q (stack %q): want the cause %q, bounded, without addresses", name, f.Message, f.Stack, cause)
		}
		if (k != "EXIT") != (f.Stack != "") {
			t.Errorf("%s: stack %q", name, f.Stack)
		}
		if _, ok := surfaces[name]; ok {
			t.Errorf("%s: a dead extraction has a surface row", name)
		}
	}
	if f := failures["dies-stackoverflow"]; len(f) == 1 && !strings.Contains(f[0].Message, fmt.Sprintf("goroutine stack exceeds %d-byte limit", ChildStackLimit(160<<20))) {
		t.Errorf("stack overflow cause %q does not name the child's stack limit", f[0].Message)
	}
	if s, ok := surfaces["dies-memory"]; !ok || s.Outcome != vocab.CodeExtractionBudgetExceeded || len(failures["dies-memory"]) != 0 ||
		s.Budget.RSSBytesLimit != 160<<20 || s.Budget.RSSBytes <= s.Budget.RSSBytesLimit || !strings.Contains(s.OutcomeDetail, "resident memory") {
		t.Errorf("memory: surface %+v, failures %+v", s, failures["dies-memory"])
	}
	for _, name := range w.names {
		s := surfaces[name]
		if s.Outcome != "parsed" || len(s.Tools) != 2 || len(failures[name]) != 0 {
			t.Errorf("%s: surface %+v failures %+v", name, s, failures[name])
		}
		// The figures are the child's measured high-water mark: at least
		// the Go runtime's own baseline, never the in-process estimate 0.
		if s.Budget.RSSBytes < 1<<20 || s.Budget.RSSBytes > s.Budget.RSSBytesLimit {
			t.Errorf("%s: recorded peak %d bytes", name, s.Budget.RSSBytes)
		}
	}

	d, err := policy.Decide(context.Background(), dirs[0], w.store(t), policy.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]policy.PackageRow{}
	for _, r := range d.Packages {
		rows[r.Package.Name] = r
	}
	for _, k := range kinds {
		name := "dies-" + strings.ToLower(k)
		r := rows[name]
		want := []string{vocab.CodeGateFailedAsRecorded, vocab.CodeGateNotRecomputable, vocab.CodeCheckMissing, vocab.CodeCheckFailed}
		switch k {
		case "EXIT":
			want = want[:3] // no trace, so nothing says it was a crash but the missing row
		case "MEMORY":
			want = []string{vocab.CodeGateFailedAsRecorded, vocab.CodeExtractionBudgetExceeded}
		}
		if r.Verdict != vocab.VerdictNotGradeable {
			t.Errorf("%s: verdict %q", name, r.Verdict)
		}
		for _, c := range want {
			if !slices.Contains(r.BlockedBy, c) {
				t.Errorf("%s: blocked_by %v lacks %s", name, r.BlockedBy, c)
			}
		}
	}
}

// lineDiff shows the lines of a and b that differ, in order.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("%d: %q\n   %q", i+1, x, y))
		}
	}
	return strings.Join(out, "\n")
}

// TestCrashCause checks the cause read from a runtime crash report: the
// runtime's lines in order, addresses gone, bounded, then how the process
// ended; and the goroutine trace cleaned of frame addresses.
func TestCrashCause(t *testing.T) {
	report := "runtime: goroutine stack exceeds 67108864-byte limit\n" +
		"runtime: sp=0x1ade34ee03a8 stack=[0x1ade34ee0000, 0x1ade38ee0000]\n" +
		"fatal error: stack overflow\n\nruntime stack:\nruntime.throw({0x4f3d68?, 0x200000001?})\n" +
		"\t/usr/local/go/src/runtime/panic.go:1229 +0x48 fp=0x7ffc0c98e0f8 sp=0x7ffc0c98e0c8 pc=0x47ca68\n\n" +
		"goroutine 1 gp=0x1ade30e341e0 m=0 mp=0x5d3360 [running]:\nmain.rec(0xd7931?)\n" +
		"\t/tmp/crashx/main.go:13 +0xe5 fp=0x1ade34ee03b8 sp=0x1ade34ee03b0 pc=0x4c3cc5\nmain.rec(...)\n\t/tmp/crashx/main.go:13\n\n" +
		"goroutine 2 gp=0x1 m=nil [force gc (idle)]:\nruntime.gopark()\n"
	e := crashFrom(errors.New("exit status 2"), []byte(report))
	want := "runtime: goroutine stack exceeds 67108864-byte limit; fatal error: stack overflow; exit status 2"
	if e.Cause != want {
		t.Errorf("cause %q, want %q", e.Cause, want)
	}
	wantStack := "main.rec(...)\n\t/tmp/crashx/main.go:13\n...the frame above 2 times in a row"
	if e.Stack != wantStack {
		t.Errorf("stack %q, want %q", e.Stack, wantStack)
	}
	long := "panic: " + strings.Repeat("é", 2000) + "\n"
	e = crashFrom(errors.New("exit status 2"), []byte(long))
	if len(e.Cause) > maxCauseBytes+4 || !strings.HasSuffix(e.Cause, "…; exit status 2") || !strings.HasPrefix(e.Cause, "panic: é") {
		t.Errorf("long cause (%d bytes) %q", len(e.Cause), e.Cause[:40])
	}
	if e := crashFrom(errors.New("signal: killed"), nil); e.Cause != "no runtime error was printed; signal: killed" || e.Stack != "" {
		t.Errorf("silent death: %+v", e)
	}
}

func TestParseHWM(t *testing.T) {
	n, ok := parseHWM([]byte("Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    1234 kB\nVmRSS:\t 1000 kB\n"))
	if !ok || n != 1234<<10 {
		t.Fatalf("parseHWM = %d %v", n, ok)
	}
	if _, ok := parseHWM([]byte("VmHWM: lots\n")); ok {
		t.Fatal("a malformed VmHWM line parsed")
	}
	self, ok := selfPeakRSS()
	if !ok || self < 1<<20 {
		t.Fatalf("this process's own high-water mark: %d %v", self, ok)
	}
}

// workerEnv carries the re-executed worker's configuration in
// TestKilledWorkerRetriesExtractionBoundedly.
const workerEnv = "ATTESTARI_PIPELINE_TEST_WORKER"

type workerConfig struct {
	URL, Home, Candidates, RunID, PIDDir string
	Resume                               bool
}

// TestKilledWorkerRetriesExtractionBoundedly: a worker killed with SIGKILL
// while a package's extraction runs takes its child with it, and the
// package is tried again on resume, but only MaxExtractAttempts times in
// all: the next resume records extractor_abandoned for it without starting
// the extraction, and the run finishes.
func TestKilledWorkerRetriesExtractionBoundedly(t *testing.T) {
	w := crashWorld(t, "HANG")
	pidDir := t.TempDir()
	cfg := workerConfig{URL: w.srv.URL, Home: w.home, Candidates: w.cands, RunID: "killed-in-extraction", PIDDir: pidDir}
	dir := filepath.Join(w.home, "runs", cfg.RunID)
	cs, _, err := LoadCandidates(w.cands)
	if err != nil {
		t.Fatal(err)
	}
	var marker string
	for _, c := range cs.Candidates {
		if c.Name == "dies-hang" {
			marker = filepath.Join(dir, PackagesDir, strings.TrimSuffix(packageFileName(c), ".json")+".attempts")
		}
	}
	for attempt := 1; attempt <= MaxExtractAttempts; attempt++ {
		cfg.Resume = attempt > 1
		env, _ := json.Marshal(cfg)
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWorkerWithChildren$", "-test.timeout=5m")
		cmd.Env = append(os.Environ(), workerEnv+"="+string(env))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		// The hanging package's extraction is under way once its marker
		// counts this attempt and a child is alive (the ordinary
		// packages' children have exited by then: one worker, in order).
		var child int
		deadline := time.After(2 * time.Minute)
	wait:
		for {
			select {
			case err := <-exited:
				t.Fatalf("attempt %d: worker exited before it was killed: %v\n%s", attempt, err, out.String())
			case <-deadline:
				_ = cmd.Process.Kill()
				t.Fatalf("attempt %d: the extraction never started\n%s", attempt, out.String())
			case <-time.After(10 * time.Millisecond):
				if markerCount(t, marker) == attempt {
					if child = liveChild(t, pidDir); child != 0 {
						break wait
					}
				}
			}
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if err := <-exited; err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("worker did not die by SIGKILL: %v", err)
		}
		// The kernel ends the child with its parent (Pdeathsig).
		gone := time.After(30 * time.Second)
		for alive(child) {
			select {
			case <-gone:
				t.Fatalf("attempt %d: child %d outlived its killed worker", attempt, child)
			case <-time.After(10 * time.Millisecond):
			}
		}
		if _, err := os.Stat(filepath.Join(dir, rundir.SummaryFile)); err == nil {
			t.Fatalf("attempt %d: the killed run finished", attempt)
		}
	}

	o := w.options(t)
	o.CandidatesPath, o.Resume, o.Concurrency = "", cfg.RunID, 1
	rec := &recordingExtractor{inner: testChild(t, fakeExtractorVersion)}
	o.Extractor = rec
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != rundir.StatusFinished || res.Carried != 2 || res.Examined != 1 {
		t.Fatalf("resumed %+v", res)
	}
	if n := rec.calls["dies-hang"]; n != 0 {
		t.Fatalf("the abandoned package's extraction was started %d more times", n)
	}
	files, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files.Summary.Packages {
		if p.Package.Name != "dies-hang" {
			continue
		}
		if len(p.Failures) != 1 || p.Failures[0].Stage != vocab.StageSurface || p.Failures[0].Kind != vocab.FailureExtractorAbandoned ||
			!strings.Contains(p.Failures[0].Message, fmt.Sprintf("started %d times", MaxExtractAttempts)) {
			t.Fatalf("abandoned package's failures %+v", p.Failures)
		}
	}
	if ms, _ := filepath.Glob(filepath.Join(dir, PackagesDir, "*.attempts")); len(ms) != 0 {
		t.Fatalf("a finished run keeps attempt markers %v", ms)
	}
}

// TestHelperWorkerWithChildren is the worker of
// TestKilledWorkerRetriesExtractionBoundedly; run directly it does nothing.
func TestHelperWorkerWithChildren(t *testing.T) {
	env := os.Getenv(workerEnv)
	if env == "" {
		return
	}
	var cfg workerConfig
	if err := json.Unmarshal([]byte(env), &cfg); err != nil {
		t.Fatal(err)
	}
	o := optionsFor(t, cfg.URL, cfg.Home, cfg.Candidates)
	o.Concurrency = 1
	if cfg.Resume {
		o.CandidatesPath, o.Resume = "", cfg.RunID
	} else {
		o.RunID = cfg.RunID
	}
	child := testChild(t, fakeExtractorVersion)
	child.WallBudget = time.Hour
	child.Env = append(child.Env, childPIDDirEnv+"="+cfg.PIDDir)
	o.Extractor = child
	_, err := Run(context.Background(), o)
	t.Fatalf("the worker was meant to be killed while the extraction hung; Run returned %v", err)
}

// recordingExtractor counts the extractions started per package name.
type recordingExtractor struct {
	inner Extractor
	mu    sync.Mutex
	calls map[string]int
}

func (r *recordingExtractor) Version() string { return r.inner.Version() }

func (r *recordingExtractor) Extract(ctx context.Context, in ExtractInput) (rundir.Surface, error) {
	r.mu.Lock()
	if r.calls == nil {
		r.calls = map[string]int{}
	}
	r.calls[in.Package.Name]++
	r.mu.Unlock()
	return r.inner.Extract(ctx, in)
}

// markerCount is the count an attempt marker holds, 0 without one.
func markerCount(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// liveChild is a child that wrote its pid to dir and is still running.
func liveChild(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if pid, err := strconv.Atoi(e.Name()); err == nil && alive(pid) {
			return pid
		}
	}
	return 0
}

// alive reports whether pid runs (a zombie has ended).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// TestServeChildProtocol: the child refuses a header it does not know and
// bytes that are not the artifact the header names, and answers a good
// request with one result line holding the surface row.
func TestServeChildProtocol(t *testing.T) {
	data := serverTarball(t, "p", "echo")
	req := childRequest{Schema: childSchema, Package: rundir.PackageRef{Registry: "npm", Name: "p", Version: "1.0.0"},
		ArtifactSHA256: vocab.SHA256Hex(data), Format: artifact.FormatNpmTarball, Size: int64(len(data)), WallBudgetMs: 1000, CPUBudgetMs: 1000, RSSBudgetBytes: 1 << 30}
	// ServeChild sets this process's stack and memory limits, as a child's.
	stack, mem := debug.SetMaxStack(1<<30), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMaxStack(stack); debug.SetMemoryLimit(mem) })
	frame := func(r childRequest, body []byte) *bytes.Reader {
		h, _ := json.Marshal(r)
		return bytes.NewReader(append(append(h, '\n'), body...))
	}
	extract := func(ctx context.Context, in ExtractInput, _ ChildBudget) (rundir.Surface, error) {
		return fakeExtractor{}.Extract(ctx, in)
	}
	bad := req
	bad.Schema = "attestari.extract/v0"
	if err := ServeChild(context.Background(), frame(bad, data), io.Discard, extract); err == nil {
		t.Error("a header of another schema was served")
	}
	if err := ServeChild(context.Background(), frame(req, append([]byte("x"), data[1:]...)), io.Discard, extract); err == nil || !strings.Contains(err.Error(), "hashes to") {
		t.Errorf("bytes that are not the artifact: %v", err)
	}
	if err := ServeChild(context.Background(), bytes.NewReader([]byte(`{"schema":"`+childSchema+`","extra":1}`+"\n")), io.Discard, extract); err == nil {
		t.Error("a header with an unknown field was served")
	}
	var out bytes.Buffer
	if err := ServeChild(context.Background(), frame(req, data), &out, extract); err != nil {
		t.Fatal(err)
	}
	var res childResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Surface == nil || res.Surface.Outcome != "parsed" || len(res.Surface.Tools) != 1 || res.PeakRSSBytes <= 0 {
		t.Fatalf("result %s: %v", out.String(), err)
	}
}

// TestCancelEndsChildren: cancelling a run ends the child that is
// extracting, abandons its package (redone on resume) and does not count
// the attempt, since this worker saw the extraction end.
func TestCancelEndsChildren(t *testing.T) {
	w := crashWorld(t, "HANG")
	pidDir := t.TempDir()
	o := w.options(t)
	o.RunID, o.Concurrency = "cancelled-in-extraction", 1
	child := testChild(t, fakeExtractorVersion)
	child.Env = append(child.Env, childPIDDirEnv+"="+pidDir)
	o.Extractor = child
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := Run(ctx, o); done <- err }()
	cs, _, err := LoadCandidates(w.cands)
	if err != nil {
		t.Fatal(err)
	}
	var marker string
	for _, c := range cs.Candidates {
		if c.Name == "dies-hang" {
			marker = filepath.Join(w.home, "runs", o.RunID, PackagesDir, strings.TrimSuffix(packageFileName(c), ".json")+".attempts")
		}
	}
	var pid int
	for pid == 0 {
		select {
		case err := <-done:
			t.Fatalf("the run ended before it was cancelled: %v", err)
		case <-time.After(10 * time.Millisecond):
			if markerCount(t, marker) == 1 {
				pid = liveChild(t, pidDir)
			}
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, ErrCancelled) {
		t.Fatalf("cancelled run returned %v", err)
	}
	if alive(pid) {
		t.Fatalf("child %d outlived the cancelled run", pid)
	}
	if _, err := os.Stat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the attempt marker is still there: %v", err)
	}
	if h := readHeader(t, filepath.Join(w.home, "runs", o.RunID)); h.Status != rundir.StatusCancelled {
		t.Fatalf("header status %s", h.Status)
	}
}

// TestChildThatCannotStart: a child binary that does not exist leaves every
// package that reads a failure row extractor_unavailable, and the run goes on.
func TestChildThatCannotStart(t *testing.T) {
	w := newWorld(t, 2, false)
	o := w.options(t)
	o.Extractor = &ChildExtractor{Path: filepath.Join(t.TempDir(), "no-such-binary"), ExtractorVersion: fakeExtractorVersion}
	res, err := Run(context.Background(), o)
	if err != nil || res.Status != rundir.StatusFinished {
		t.Fatalf("run %+v: %v", res, err)
	}
	files, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files.Summary.Packages {
		if len(p.Failures) != 1 || p.Failures[0].Stage != vocab.StageSurface || p.Failures[0].Kind != vocab.FailureExtractorUnavailable {
			t.Errorf("%s: failures %+v", p.Package.Name, p.Failures)
		}
	}
}
