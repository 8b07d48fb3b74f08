package surface

import (
	"fmt"
	"time"

	"github.com/attestari/attestari/internal/rundir"
)

// The time part of the extraction budget (methodology §5.2).
//
// Wall time measures the machine as much as the package: on a loaded
// machine a large package passed a wall budget it kept on an idle one. So
// where the extraction has a process to itself (the run's child process;
// the CLI's one package), the time part is the CPU time, user and system,
// of that process, read from its own clock (Options.CPUTime) on the same
// schedule as the wall deadline: a figure of the work done, the same under
// load. The wall time is then only a backstop (Options.WallBudget; 0 when
// the caller ends the extraction from outside): a package that passes it
// without passing the CPU budget was starved, not heavy. Without a CPU
// clock (the tests, which extract many packages in one process at once,
// so a process clock would count the others' work too) the wall budget is
// the time part, as before 2.3.11.

// DefaultCPUBudget is the CPU-time part of the budget (methodology §5.2):
// about eight times the CPU time of the largest package of the corpora,
// docs/versions/2.3.11/cpubudget.md.
const DefaultCPUBudget = 60 * time.Second

// noParseTimeout is tree-sitter's parse timeout where no wall deadline
// applies: tree-sitter measures only wall time, so under a CPU budget the
// parse is bounded by the CPU checks around it and, inside one parse, by
// the parent's watch of the child's CPU time.
const noParseTimeout = 24 * time.Hour

// startCPU reads the CPU clock at the start of the extraction.
func (x *extractor) startCPU() {
	if x.opts.CPUTime != nil {
		x.cpuStart = x.opts.CPUTime()
	}
}

// cpuUsed is the CPU time the extraction has used so far.
func (x *extractor) cpuUsed() time.Duration {
	return x.opts.CPUTime() - x.cpuStart
}

// timePassed says whether the time part of the budget is passed, and how.
func (x *extractor) timePassed() (string, bool) {
	if x.opts.CPUTime == nil {
		if x.opts.Now().After(x.deadline) {
			return fmt.Sprintf("wall time passed the budget of %s", x.opts.WallBudget), true
		}
		return "", false
	}
	if used := x.cpuUsed(); used > x.opts.CPUBudget {
		return fmt.Sprintf("CPU time passed the budget of %s", x.opts.CPUBudget), true
	}
	if x.opts.WallBudget > 0 && x.opts.Now().After(x.deadline) {
		return fmt.Sprintf("wall time passed the backstop of %s with %s of CPU time used, under the CPU budget of %s: the machine was starved or stalled",
			x.opts.WallBudget, x.cpuUsed().Truncate(time.Millisecond), x.opts.CPUBudget), true
	}
	return "", false
}

// parseTimeout is tree-sitter's timeout for the next parse: what is left of
// the wall deadline, or none under a CPU budget with no wall backstop.
func (x *extractor) parseTimeout() time.Duration {
	if x.opts.CPUTime != nil && x.opts.WallBudget <= 0 {
		return noParseTimeout
	}
	return x.deadline.Sub(x.opts.Now())
}

// wallName names the wall limit a timed-out parse passed.
func (x *extractor) wallName() string {
	if x.opts.CPUTime != nil {
		return "wall-time backstop"
	}
	return "wall-time budget"
}

// cpuFigures records the CPU time used and its limit on the row.
func (x *extractor) cpuFigures(b *rundir.Budget) {
	if x.opts.CPUTime == nil {
		return
	}
	b.CPUMs = x.cpuUsed().Milliseconds()
	b.CPUMsLimit = x.opts.CPUBudget.Milliseconds()
}
