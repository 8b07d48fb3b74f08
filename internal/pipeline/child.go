package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Extraction in a child process (docs/reliability.md §2 and §4).
//
// A Go stack overflow or any other fatal runtime error cannot be recovered,
// so an extractor that dies in the worker's own process takes the whole run
// with it, and every resume dies on the same package. ChildExtractor runs
// each package's extraction in a process of its own: the parent writes a
// one-line JSON header and the artifact's bytes on the child's stdin
// (ServeChild reads them), the child reads the archive and extracts, and
// writes one JSON result on stdout. The parent watches the child's resident
// memory and CPU time where the extraction runs, ends it past the budget,
// and turns a death into a failure row whose cause is read from the child's
// stderr (child_cpu.go: the time part is CPU time, the wall a backstop).

// childSchema versions the protocol between a parent and its child; both are
// the same binary, so a mismatch is a wiring defect.
const childSchema = "attestari.extract/v2"

// Defaults of ChildExtractor.
const (
	// DefaultChildWallBudget is the wall backstop (child_cpu.go).
	DefaultChildWallBudget = ChildWallBackstopFactor * DefaultChildCPUBudget
	DefaultChildRSSBudget  = 1 << 30
	DefaultChildGrace      = 10 * time.Second
	DefaultChildPoll       = 10 * time.Millisecond
	// defaultChildMaxOutput bounds the result the parent reads from a child.
	defaultChildMaxOutput = 512 << 20
	// maxChildStderr bounds what is kept of a child's stderr: the runtime
	// prints the cause first, then the goroutine traces.
	maxChildStderr = 64 << 10
	// maxChildHeader bounds the header line a child reads.
	maxChildHeader = 1 << 20
	// maxChildArtifact bounds the artifact bytes a child accepts.
	maxChildArtifact = 1 << 30
	// maxCauseBytes and maxStackLines bound what a failure row carries.
	maxCauseBytes = 512
	maxStackLines = 64
)

// MaxExtractAttempts is how many times a package's extraction may start
// without the worker ever finishing the package (the worker itself was
// killed while the extraction ran) before a resume records the failure
// instead of starting it again.
const MaxExtractAttempts = 2

// childRequest is the header line a parent writes on the child's stdin;
// exactly Size artifact bytes follow it.
type childRequest struct {
	Schema         string            `json:"schema"`
	Package        rundir.PackageRef `json:"package"`
	ArtifactSHA256 string            `json:"artifact_sha256"`
	Format         artifact.Format   `json:"format"`
	Size           int64             `json:"size"`
	Limits         childLimits       `json:"limits"`
	WallBudgetMs   int64             `json:"wall_budget_ms"`
	CPUBudgetMs    int64             `json:"cpu_budget_ms"`
	RSSBudgetBytes int64             `json:"rss_budget_bytes"`
}

// childLimits are artifact.Limits on the wire, so the child reads the
// archive under exactly the limits the parent read it under.
type childLimits struct {
	MaxTotalBytes   int64 `json:"max_total_bytes"`
	MaxMembers      int   `json:"max_members"`
	MaxMemberBytes  int64 `json:"max_member_bytes"`
	MaxRatio        int64 `json:"max_ratio"`
	RatioFloorBytes int64 `json:"ratio_floor_bytes"`
}

// childResult is what a child writes on stdout.
type childResult struct {
	Schema  string          `json:"schema"`
	Surface *rundir.Surface `json:"surface,omitempty"`
	// Error is an error the extractor returned (not a crash).
	Error string `json:"error,omitempty"`
	// PeakRSSBytes is the child's own resident high-water mark (VmHWM) just
	// before it wrote the result: the parent's last poll may have missed
	// the end of the extraction.
	PeakRSSBytes int64 `json:"peak_rss_bytes"`
}

// ChildBudget is the budget a child extracts under: CPU is the time part,
// Wall the parent's backstop (the parent ends the child there; the child
// need not check it).
type ChildBudget struct {
	Wall time.Duration
	CPU  time.Duration
	RSS  int64
}

// ChildFunc extracts one package inside the child: the in-process
// extractor the child wraps (package pipeline/extractor's surface).
type ChildFunc func(ctx context.Context, in ExtractInput, b ChildBudget) (rundir.Surface, error)

// ChildStackLimit is the maximum goroutine stack a child allows itself: an
// eighth of the memory budget, between 16 and 256 MiB (128 MiB for the
// default 1 GiB). A runaway recursion then dies fast and well inside the
// budget instead of growing a 1 GB stack.
func ChildStackLimit(rssBudget int64) int {
	return int(min(max(rssBudget/8, 16<<20), 256<<20))
}

// ChildMemoryLimit is the Go runtime's soft memory limit in a child: three
// quarters of the budget, so the collector works harder before the parent's
// hard limit ends the child. It counts Go's own memory only; the parser's C
// allocations are seen by the parent's measurement, not by this limit.
func ChildMemoryLimit(rssBudget int64) int64 { return rssBudget / 4 * 3 }

// ServeChild is the child side: it reads one request from stdin, sets the
// runtime's stack and memory limits from its budget, reads the archive
// (ReadArtifact) and extracts with fn, and writes the result on stdout. It
// returns an error only when the request cannot be read or the result not
// written; the extractor's own error travels in the result. A crash of fn is
// not recovered: the process dies and the parent records how.
func ServeChild(ctx context.Context, stdin io.Reader, stdout io.Writer, fn ChildFunc) error {
	br := bufio.NewReaderSize(stdin, maxChildHeader)
	line, err := br.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("pipeline.ServeChild: header: %w", err)
	}
	var req childRequest
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return fmt.Errorf("pipeline.ServeChild: header: %w", err)
	}
	if req.Schema != childSchema || req.Size < 0 || req.Size > maxChildArtifact || req.RSSBudgetBytes <= 0 || req.WallBudgetMs <= 0 || req.CPUBudgetMs <= 0 {
		return fmt.Errorf("pipeline.ServeChild: header: schema %q, size %d, budget %d ms wall %d ms CPU %d bytes not acceptable", req.Schema, req.Size, req.WallBudgetMs, req.CPUBudgetMs, req.RSSBudgetBytes)
	}
	debug.SetMaxStack(ChildStackLimit(req.RSSBudgetBytes))
	debug.SetMemoryLimit(ChildMemoryLimit(req.RSSBudgetBytes))
	data := make([]byte, req.Size)
	if _, err := io.ReadFull(br, data); err != nil {
		return fmt.Errorf("pipeline.ServeChild: artifact: %w", err)
	}
	if got := vocab.SHA256Hex(data); got != req.ArtifactSHA256 {
		return fmt.Errorf("pipeline.ServeChild: artifact hashes to %s, the header says %s", got, req.ArtifactSHA256)
	}
	l := req.Limits
	limits := artifact.Limits{MaxTotalBytes: l.MaxTotalBytes, MaxMembers: l.MaxMembers, MaxMemberBytes: l.MaxMemberBytes, MaxRatio: l.MaxRatio, RatioFloorBytes: l.RatioFloorBytes}
	b := ChildBudget{Wall: time.Duration(req.WallBudgetMs) * time.Millisecond, CPU: time.Duration(req.CPUBudgetMs) * time.Millisecond, RSS: req.RSSBudgetBytes}
	res := childResult{Schema: childSchema}
	art, err := ReadArtifact(ctx, data, req.Format, limits)
	if err != nil {
		// As extractor.FromArchive: an archive the reader refuses with an
		// error is unreadable, whatever the error.
		art = &artifact.Artifact{Outcome: vocab.OutcomeArchiveUnreadable, Cause: "read", Reason: err.Error()}
	}
	switch {
	case art.Outcome == vocab.OutcomeArchiveUnreadable:
		res.Surface = UnreadableSurface(req.Package, req.ArtifactSHA256, "", art)
	default:
		s, err := fn(ctx, ExtractInput{Package: req.Package, ArtifactSHA256: req.ArtifactSHA256, Artifact: art, Data: data, Format: req.Format, Limits: limits}, b)
		if err != nil {
			res.Error = err.Error()
		} else {
			res.Surface = &s
		}
	}
	res.PeakRSSBytes, _ = selfPeakRSS()
	enc, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("pipeline.ServeChild: encode result: %w", err)
	}
	if _, err := stdout.Write(enc); err != nil {
		return fmt.Errorf("pipeline.ServeChild: write result: %w", err)
	}
	return nil
}

// ChildExtractor is an Extractor that runs every package's extraction in a
// child process (ServeChild at the other end) and enforces the extraction
// budget from outside it: it polls the child's resident memory and CPU
// time, ends the child when the high-water mark passes RSSBudget or the CPU
// time passes CPUBudget plus Grace (both refusals of the package,
// extraction_budget_exceeded), or when the wall time passes the backstop
// WallBudget (a failure of the run, extractor_stalled), and records the
// measured figures on the row. A child that dies is a *ChildCrashError with
// the cause its stderr gave. Each call runs one child and waits for it, so a run's workers bound
// the children alive at once to the run's Concurrency.
//
// Use one ChildExtractor through a pointer: it counts its children.
type ChildExtractor struct {
	// Path is the binary to start and Args its arguments (the hidden
	// subcommand that calls ServeChild). Env is added to this process's
	// environment.
	Path string
	Args []string
	Env  []string
	// ExtractorVersion is the version of the extractor the child runs.
	ExtractorVersion string
	// CPUBudget and RSSBudget are the per-package budget (defaults 60 s of
	// CPU time, 1 GiB); Grace is how long past CPUBudget the child may take
	// to stop by itself (default 10 s); WallBudget is the wall backstop
	// (default ChildWallBackstopFactor times CPUBudget); Poll is how often
	// its memory and CPU time are read (default 10 ms).
	CPUBudget  time.Duration
	WallBudget time.Duration
	RSSBudget  int64
	Grace      time.Duration
	Poll       time.Duration
	// MaxOutput bounds the result read from the child (default 512 MiB).
	MaxOutput int64

	live, peak atomic.Int64
}

var _ Extractor = (*ChildExtractor)(nil)

// Version is the child's extractor version.
func (c *ChildExtractor) Version() string { return c.ExtractorVersion }

// ChildCrashError is a child that died: killed by a signal, or exited
// without a result. Cause is deterministic (no addresses) and bounded;
// Stack is the crashing goroutine's trace when the runtime printed one,
// cleaned like a recovered panic's.
type ChildCrashError struct {
	Cause string
	Stack string
}

func (e *ChildCrashError) Error() string { return "the extraction process died: " + e.Cause }

// childOpts are a ChildExtractor's budget with defaults applied.
type childOpts struct {
	CPUBudget, WallBudget, Grace, Poll time.Duration
	RSSBudget, MaxOutput               int64
}

func (c *ChildExtractor) withDefaults() childOpts {
	o := childOpts{CPUBudget: c.CPUBudget, WallBudget: c.WallBudget, RSSBudget: c.RSSBudget, Grace: c.Grace, Poll: c.Poll, MaxOutput: c.MaxOutput}
	if o.CPUBudget <= 0 {
		o.CPUBudget = DefaultChildCPUBudget
	}
	if o.WallBudget <= 0 {
		o.WallBudget = ChildWallBackstopFactor * o.CPUBudget
	}
	if o.RSSBudget <= 0 {
		o.RSSBudget = DefaultChildRSSBudget
	}
	if o.Grace <= 0 {
		o.Grace = DefaultChildGrace
	}
	if o.Poll <= 0 {
		o.Poll = DefaultChildPoll
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = defaultChildMaxOutput
	}
	return o
}

// Extract runs one child over in.Data and waits for it.
func (c *ChildExtractor) Extract(ctx context.Context, in ExtractInput) (rundir.Surface, error) {
	o := c.withDefaults()
	if c.Path == "" {
		return rundir.Surface{}, kinded(vocab.FailureExtractorUnavailable, errors.New("no extraction binary is configured"))
	}
	if in.Data == nil {
		return rundir.Surface{}, errors.New("pipeline.ChildExtractor: no artifact bytes to hand the child")
	}
	l := in.Limits
	hdr, err := json.Marshal(childRequest{
		Schema: childSchema, Package: in.Package, ArtifactSHA256: in.ArtifactSHA256, Format: in.Format, Size: int64(len(in.Data)),
		Limits:       childLimits{MaxTotalBytes: l.MaxTotalBytes, MaxMembers: l.MaxMembers, MaxMemberBytes: l.MaxMemberBytes, MaxRatio: l.MaxRatio, RatioFloorBytes: l.RatioFloorBytes},
		WallBudgetMs: o.WallBudget.Milliseconds(), CPUBudgetMs: o.CPUBudget.Milliseconds(), RSSBudgetBytes: o.RSSBudget,
	})
	if err != nil {
		return rundir.Surface{}, fmt.Errorf("pipeline.ChildExtractor: header: %w", err)
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Stdin = io.MultiReader(bytes.NewReader(append(hdr, '\n')), bytes.NewReader(in.Data))
	stdout := &boundedBuffer{max: o.MaxOutput}
	stderr := &boundedBuffer{max: maxChildStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The pipes' copies end when the child dies; a grandchild holding them
	// open must not hold the worker.
	cmd.WaitDelay = time.Second
	setChildAttrs(cmd)

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return rundir.Surface{}, kinded(vocab.FailureExtractorUnavailable, fmt.Errorf("start the extraction process: %w", err))
	}
	n := c.live.Add(1)
	defer c.live.Add(-1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	wall := time.NewTimer(o.WallBudget)
	defer wall.Stop()
	var (
		peak    int64
		cpu     time.Duration
		ended   string // why the parent ended the child: memory, cpu, wall, cancelled
		waitErr error
	)
	end := func(why string) {
		if ended == "" {
			ended = why
			_ = cmd.Process.Kill()
		}
	}
	pid := cmd.Process.Pid
wait:
	for {
		select {
		case waitErr = <-done:
			break wait
		case <-tick.C:
			if hwm, ok := peakRSS(pid); ok {
				peak = max(peak, hwm)
				if peak > o.RSSBudget {
					end("memory")
				}
			}
			if t, ok := childCPUTime(pid); ok {
				cpu = max(cpu, t)
				if cpu > o.CPUBudget+o.Grace {
					end("cpu")
				}
			}
		case <-wall.C:
			end("wall")
		case <-ctx.Done():
			end("cancelled")
		}
	}
	if ps := cmd.ProcessState; ps != nil {
		// The kernel's own account of the child's whole life.
		cpu = max(cpu, ps.UserTime()+ps.SystemTime())
	}
	budget := rundir.Budget{WallMs: time.Since(start).Milliseconds(), RSSBytes: peak,
		WallMsLimit: o.WallBudget.Milliseconds(), RSSBytesLimit: o.RSSBudget,
		CPUMs: cpu.Milliseconds(), CPUMsLimit: o.CPUBudget.Milliseconds()}

	if ended == "cancelled" {
		return rundir.Surface{}, fmt.Errorf("pipeline.ChildExtractor: %w", ctx.Err())
	}
	var res childResult
	gotResult := false
	if waitErr == nil && ended == "" && !stdout.over {
		dec := json.NewDecoder(bytes.NewReader(stdout.buf.Bytes()))
		dec.DisallowUnknownFields()
		gotResult = dec.Decode(&res) == nil && res.Schema == childSchema
		budget.RSSBytes = max(budget.RSSBytes, res.PeakRSSBytes)
	}
	switch {
	case ended == "memory" || budget.RSSBytes > o.RSSBudget:
		return *BudgetExceededSurface(in.Package, in.ArtifactSHA256, c.ExtractorVersion, budget, fmt.Sprintf(
			"resident memory of the extraction passed the budget of %d bytes; the extraction process was ended (budget.rss_bytes is the peak measured)",
			o.RSSBudget)), nil
	case ended == "cpu" || cpu > o.CPUBudget:
		return *BudgetExceededSurface(in.Package, in.ArtifactSHA256, c.ExtractorVersion, budget, fmt.Sprintf(
			"CPU time of the extraction passed the budget of %s; the extraction process was ended or stopped (budget.cpu_ms is the CPU time measured)",
			o.CPUBudget)), nil
	case ended == "wall":
		return rundir.Surface{}, kinded(vocab.FailureExtractorStalled, fmt.Errorf(
			"the extraction process passed the wall backstop of %s with %s of CPU time, under the CPU budget of %s: the run's machine starved or stalled it, which says nothing about the package",
			o.WallBudget, cpu.Truncate(time.Millisecond), o.CPUBudget))
	case waitErr != nil:
		return rundir.Surface{}, crashFrom(waitErr, stderr.buf.Bytes())
	case stdout.over:
		return rundir.Surface{}, fmt.Errorf("pipeline.ChildExtractor: the result passed %d bytes", o.MaxOutput)
	case !gotResult:
		return rundir.Surface{}, crashFrom(errors.New("exit status 0 without a result"), stderr.buf.Bytes())
	case res.Error != "":
		return rundir.Surface{}, fmt.Errorf("pipeline.ChildExtractor: %s", res.Error)
	case res.Surface == nil:
		return rundir.Surface{}, errors.New("pipeline.ChildExtractor: the result holds no surface row")
	}
	s := *res.Surface
	if s.ExtractorVersion == "" {
		s.ExtractorVersion = c.ExtractorVersion
	}
	if s.ArtifactSHA256 == "" {
		s.ArtifactSHA256 = in.ArtifactSHA256
	}
	// The figures on the row are the ones measured from outside: the
	// child's whole life and its resident high-water mark.
	s.Budget = budget
	return s, nil
}

// BudgetExceededSurface is the surface row of an extraction the parent
// ended at the budget: nothing was read, so nothing is presented.
func BudgetExceededSurface(ref rundir.PackageRef, sha, version string, b rundir.Budget, detail string) *rundir.Surface {
	s := UnreadableSurface(ref, sha, version, &artifact.Artifact{})
	s.Outcome, s.OutcomeDetail, s.Budget = vocab.CodeExtractionBudgetExceeded, detail, b
	return s
}

// boundedBuffer keeps the first max bytes written to it and accepts (and
// drops) the rest, so a child writing too much never blocks on its pipe.
type boundedBuffer struct {
	buf  bytes.Buffer
	max  int64
	over bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	room := b.max - int64(b.buf.Len())
	if int64(len(p)) > room {
		b.over = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

var (
	causeLineRe = regexp.MustCompile(`^(fatal error: |panic: |runtime: goroutine stack exceeds |\[signal |SIG[A-Z]+: |unexpected signal|runtime: out of memory)`)
	addrFieldRe = regexp.MustCompile(`\b(addr|pc|sp|fp|PC|m|mp|gp)=0x[0-9a-fA-F]+`)
	hexRe       = regexp.MustCompile(`0x[0-9a-fA-F]{5,}`)
	frameTailRe = regexp.MustCompile(`( fp=\S+| sp=\S+| pc=\S+)+$`)
	goroutineRe = regexp.MustCompile(`^goroutine [0-9]+ .*\[.*\]:$`)
)

// scrub removes what differs between executions from a runtime line:
// addresses and pointers.
func scrub(l string) string {
	l = addrFieldRe.ReplaceAllString(l, "$1=?")
	return hexRe.ReplaceAllString(l, "0x?")
}

// crashFrom builds the failure of a child that died: the runtime's own
// lines (fatal error, panic, signal, stack limit) in the order printed,
// with addresses removed and bounded, then how the process ended; and the
// first goroutine trace, cleaned.
func crashFrom(waitErr error, stderr []byte) *ChildCrashError {
	lines := strings.Split(strings.ToValidUTF8(string(stderr), "\uFFFD"), "\n")
	var parts []string
	seen := map[string]bool{}
	for _, l := range lines {
		if goroutineRe.MatchString(l) {
			break
		}
		if causeLineRe.MatchString(l) {
			l = scrub(strings.TrimSpace(l))
			if !seen[l] {
				seen[l] = true
				parts = append(parts, l)
			}
		}
	}
	how := waitErr.Error()
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		how = ee.ProcessState.String() // "exit status 2", "signal: killed"
	}
	if len(parts) == 0 {
		parts = append(parts, "no runtime error was printed")
	}
	cause := truncateUTF8(strings.Join(parts, "; "), maxCauseBytes-len(how)-2) + "; " + how
	return &ChildCrashError{Cause: cause, Stack: childStack(lines)}
}

// childStack is the first goroutine trace of a crash report, cleaned like a
// recovered panic's stack (cleanStack) and cut at maxStackLines.
func childStack(lines []string) string {
	start := -1
	for i, l := range lines {
		if goroutineRe.MatchString(l) {
			start = i
			break
		}
	}
	if start < 0 {
		return ""
	}
	var tr []string
	for _, l := range lines[start:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		tr = append(tr, frameTailRe.ReplaceAllString(l, ""))
	}
	out := collapseFrames(strings.Split(cleanStack([]byte(strings.Join(tr, "\n"))), "\n"))
	if len(out) > maxStackLines {
		out = append(out[:maxStackLines], fmt.Sprintf("...%d more lines", len(out)-maxStackLines))
	}
	for i := range out {
		out[i] = scrub(out[i])
	}
	return strings.Join(out, "\n")
}

// collapseFrames folds a frame (function line and position line) repeated
// back to back into one and a count, so a runaway recursion's trace shows
// the recursion once.
func collapseFrames(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); {
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			n := 1
			for i+2*n+1 < len(lines) && lines[i+2*n] == lines[i] && lines[i+2*n+1] == lines[i+1] {
				n++
			}
			out = append(out, lines[i], lines[i+1])
			if n > 1 {
				out = append(out, fmt.Sprintf("...the frame above %d times in a row", n))
			}
			i += 2 * n
			continue
		}
		out = append(out, lines[i])
		i++
	}
	return out
}

// truncateUTF8 cuts s to at most n bytes on a character boundary.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// peakRSS reads a process's resident high-water mark (VmHWM) from
// /proc/<pid>/status, in bytes.
func peakRSS(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	return parseHWM(b)
}

func selfPeakRSS() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	return parseHWM(b)
}

// parseHWM reads the VmHWM line ("VmHWM:   12345 kB") of a status file.
func parseHWM(b []byte) (int64, bool) {
	for l := range strings.SplitSeq(string(b), "\n") {
		v, ok := strings.CutPrefix(l, "VmHWM:")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}

// FailureKindOf is the failure kind (vocab.Failure*) an error of
// ChildExtractor.Extract carries, or "" when it carries none: for a caller
// with no run to record a failure row in (the corpus evaluation).
func FailureKindOf(err error) string {
	var se *stageError
	if errors.As(err, &se) {
		return se.kind
	}
	return ""
}
