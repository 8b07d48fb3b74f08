package pipeline

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/attestari/attestari/internal/rundir"
)

// StageProgress is implemented by a Progress that wants to hear of each
// stage of each package as it ends (fetch, surface, each check by its id,
// gate, delegation: the names of summary.json), with the stage's status
// (StageOK, StageFailed, StageSkipped) and duration. Calls come from
// several goroutines.
type StageProgress interface {
	StageFinished(key, stage, status string, elapsed time.Duration)
}

// stageTally is one stage's counts so far.
type stageTally struct {
	name                string
	ok, failed, skipped int
	elapsed             time.Duration
}

func (s *stageTally) add(status string, d time.Duration) {
	switch status {
	case StageOK:
		s.ok++
	case StageFailed:
		s.failed++
	default:
		s.skipped++
	}
	s.elapsed += d
}

func (s *stageTally) done() int { return s.ok + s.failed + s.skipped }

// stageTallies keeps the stages in the order they first ended, which is
// the order a package passes through them.
type stageTallies struct {
	order []*stageTally
	by    map[string]*stageTally
}

func (t *stageTallies) get(name string) *stageTally {
	if t.by == nil {
		t.by = map[string]*stageTally{}
	}
	s, ok := t.by[name]
	if !ok {
		s = &stageTally{name: name}
		t.by[name] = s
		t.order = append(t.order, s)
	}
	return s
}

// StageBars draws, on a terminal, one progress line for the run (packages
// done of the total, rate, time left) and one line per stage below it
// (packages through that stage, how many failed or were skipped, the time
// the stage took per package), redrawn in place.
type StageBars struct {
	w        io.Writer
	mu       sync.Mutex
	runID    string
	total    int
	done     int
	start    time.Time
	stages   stageTallies
	started  bool
	drawn    int // lines drawn last time, to move back over
	last     time.Time
	throttle time.Duration
	now      func() time.Time
}

// NewStageBars returns stage progress lines writing to w (a terminal).
func NewStageBars(w io.Writer) *StageBars {
	return &StageBars{w: w, throttle: 100 * time.Millisecond, now: time.Now}
}

// barWidth is the width of each line's bar, in cells.
const barWidth = 24

// bar renders one line: its name, the share done, a bar and done/total.
// (progressbar.ProgressBar, which draws the single-line BarProgress, draws
// one bar per writer and stops at its first maximum; these lines stack and
// their total grows when delegation targets join.)
func bar(name string, done, total int) string {
	frac := 0.0
	if total > 0 {
		frac = min(float64(done)/float64(total), 1)
	}
	full := int(frac * barWidth)
	return fmt.Sprintf("%-26s %3d%% |%s%s| (%d/%d)", name, int(frac*100), strings.Repeat("█", full), strings.Repeat(" ", barWidth-full), done, total)
}

// Start implements Progress.
func (b *StageBars) Start(runID string, total, done int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.runID, b.total, b.done, b.start, b.started = runID, total, done, b.now(), true
	b.draw(true)
}

// Joined implements JoinProgress: every line grows by the targets that joined.
func (b *StageBars) Joined(n, done int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += n
	b.done += done
	b.draw(true)
}

// PackageStarted implements Progress.
func (b *StageBars) PackageStarted(string) {}

// PackageFinished implements Progress.
func (b *StageBars) PackageFinished(string, []rundir.Failure, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done++
	b.draw(false)
}

// StageFinished implements StageProgress.
func (b *StageBars) StageFinished(_, stage, status string, elapsed time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stages.get(stage).add(status, elapsed)
	b.draw(false)
}

// Finish implements Progress: the lines are drawn a last time and left on
// the terminal, with the run's status.
func (b *StageBars) Finish(status string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.draw(true)
	fmt.Fprintf(b.w, "run %s %s: %d/%d packages in %s\n", b.runID, status, b.done, b.total, b.now().Sub(b.start).Round(time.Second))
	b.drawn = 0
}

// lines renders the run's line and each stage's.
func (b *StageBars) lines() []string {
	var out []string
	if b.started {
		el := b.now().Sub(b.start)
		rate := ""
		if s := el.Seconds(); s > 0 {
			rate = fmt.Sprintf(" %.2f pkg/s", float64(b.done)/s)
		}
		out = append(out, fmt.Sprintf("%s%s %s", bar("packages", b.done, b.total), rate, el.Round(time.Second)))
	}
	for _, s := range b.stages.order {
		line := bar("  "+s.name, s.done(), b.total)
		extra := ""
		if s.failed > 0 {
			extra += fmt.Sprintf(" %d failed", s.failed)
		}
		if s.skipped > 0 {
			extra += fmt.Sprintf(" %d skipped", s.skipped)
		}
		if n := s.done(); n > 0 {
			extra += fmt.Sprintf(" %s/pkg", (s.elapsed / time.Duration(n)).Round(time.Millisecond))
		}
		out = append(out, line+extra)
	}
	return out
}

// draw rewrites the lines in place (cursor up over the last drawing, each
// line cleared), at most every throttle unless forced.
func (b *StageBars) draw(force bool) {
	now := b.now()
	if !force && now.Sub(b.last) < b.throttle {
		return
	}
	b.last = now
	var sb strings.Builder
	if b.drawn > 0 {
		fmt.Fprintf(&sb, "\x1b[%dA", b.drawn)
	}
	ls := b.lines()
	for _, l := range ls {
		sb.WriteString("\r\x1b[2K")
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	b.drawn = len(ls)
	_, _ = io.WriteString(b.w, sb.String())
}

// StageFinished implements StageProgress for the log: each stage of each
// package at debug level, and at the end of the run one line per stage.
func (l *LogProgress) StageFinished(key, stage, status string, elapsed time.Duration) {
	l.mu.Lock()
	l.stages.get(stage).add(status, elapsed)
	l.mu.Unlock()
	l.log.Debug("stage finished", "package", key, "stage", stage, "status", status, "elapsed_ms", elapsed.Milliseconds())
}

// logStages writes one line per stage: packages through it, how many
// failed or were skipped, and the time it took in all.
func (l *LogProgress) logStages() {
	l.mu.Lock()
	order := append([]*stageTally(nil), l.stages.order...)
	l.mu.Unlock()
	for _, s := range order {
		l.log.Info("stage totals", "stage", s.name, "packages", s.done(), "ok", s.ok, "failed", s.failed, "skipped", s.skipped, "elapsed_ms", s.elapsed.Milliseconds())
	}
}
