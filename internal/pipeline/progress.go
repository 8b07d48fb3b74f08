package pipeline

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/attestari/attestari/internal/rundir"
)

type nopProgress struct{}

func (nopProgress) Start(string, int, int)                                  {}
func (nopProgress) PackageStarted(string)                                   {}
func (nopProgress) PackageFinished(string, []rundir.Failure, time.Duration) {}
func (nopProgress) Finish(string)                                           {}

// BarProgress draws a progress bar on a terminal: done/total, the package
// last started, the rate and the time left.
type BarProgress struct {
	w   io.Writer
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

// NewBarProgress returns a progress bar writing to w (a terminal).
func NewBarProgress(w io.Writer) *BarProgress { return &BarProgress{w: w} }

// Start implements Progress.
func (b *BarProgress) Start(runID string, total, done int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(b.w),
		progressbar.OptionSetDescription(runID),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("pkg"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(b.w) }),
	)
	_ = b.bar.Set(done)
}

// Joined implements JoinProgress: the bar grows by the targets that joined.
func (b *BarProgress) Joined(n, done int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.ChangeMax(b.bar.GetMax() + n)
		_ = b.bar.Add(done)
	}
}

// PackageStarted implements Progress.
func (b *BarProgress) PackageStarted(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.Describe(key)
	}
}

// PackageFinished implements Progress.
func (b *BarProgress) PackageFinished(string, []rundir.Failure, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Add(1)
	}
}

// Finish implements Progress.
func (b *BarProgress) Finish(status string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar == nil {
		return
	}
	b.bar.Describe(status)
	if status == rundir.StatusFinished {
		_ = b.bar.Finish()
		return
	}
	_ = b.bar.Exit()
	fmt.Fprintln(b.w)
}

// LogProgress reports progress as structured log lines, for when output is
// not a terminal.
type LogProgress struct {
	log   *slog.Logger
	mu    sync.Mutex
	total int
	done  int
	start time.Time
	// stages counts each stage's packages (StageFinished).
	stages stageTallies
}

// NewLogProgress returns a progress reporter logging to logger.
func NewLogProgress(logger *slog.Logger) *LogProgress { return &LogProgress{log: logger} }

// Start implements Progress.
func (l *LogProgress) Start(runID string, total, done int) {
	l.mu.Lock()
	l.total, l.done, l.start = total, done, time.Now()
	l.mu.Unlock()
	l.log.Info("run started", "run_id", runID, "packages", total, "already_done", done)
}

// Joined implements JoinProgress.
func (l *LogProgress) Joined(n, done int) {
	l.mu.Lock()
	l.total += n
	l.done += done
	total := l.total
	l.mu.Unlock()
	l.log.Info("delegation targets joined the run", "packages", n, "already_done", done, "total", total)
}

// PackageStarted implements Progress.
func (l *LogProgress) PackageStarted(key string) {
	l.log.Debug("package started", "package", key)
}

// PackageFinished implements Progress.
func (l *LogProgress) PackageFinished(key string, failures []rundir.Failure, elapsed time.Duration) {
	l.mu.Lock()
	l.done++
	done, total := l.done, l.total
	l.mu.Unlock()
	attrs := []any{"package", key, "done", done, "total", total, "elapsed_ms", elapsed.Milliseconds()}
	if len(failures) == 0 {
		l.log.Info("package finished", attrs...)
		return
	}
	stages := make([]string, 0, len(failures))
	for _, f := range failures {
		stages = append(stages, f.Stage+":"+f.Kind)
	}
	l.log.Warn("package finished with failures", append(attrs, "failures", stages)...)
}

// Finish implements Progress.
func (l *LogProgress) Finish(status string) {
	l.mu.Lock()
	done, total, start := l.done, l.total, l.start
	l.mu.Unlock()
	l.logStages()
	l.log.Info("run ended", "status", status, "done", done, "total", total, "elapsed_ms", time.Since(start).Milliseconds())
}
