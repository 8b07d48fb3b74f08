package pipeline

import (
	"strconv"
	"strings"
	"time"
)

// The time part of the extraction budget is the CPU time of the child
// (methodology §5.2, 2.3.11): user and system time of the process that
// extracts, which is the same on an idle machine and a loaded one. The
// child reads its own clock (ProcessCPUClock) where surface checks its
// budget; the parent reads the child's from outside on every poll
// (childCPUTime, /proc/<pid>/stat) and ends a child past the CPU budget
// plus the grace, which bounds a child stuck inside one parse, where
// surface does not check. The wall time is only a far backstop
// (DefaultChildWallBackstop): a child past it and under the CPU budget was
// starved or stalled by the machine, and that is a failure of the run
// (extractor_stalled), never a refusal of the package.

// DefaultChildCPUBudget is the CPU-time part of the budget; it is
// surface.DefaultCPUBudget (the extractor package's tests hold them equal).
const DefaultChildCPUBudget = 60 * time.Second

// ChildWallBackstopFactor is how many times the CPU budget the wall
// backstop is by default: a child given a tenth of a core still ends on
// its CPU budget before the backstop.
const ChildWallBackstopFactor = 10

// clockTicks is the unit of utime and stime in /proc/<pid>/stat: USER_HZ,
// 100 on every Linux the kernel's ABI describes.
const clockTicks = 100

// parseStatCPU reads utime + stime from a /proc/<pid>/stat line. The
// command name (field 2) is in parentheses and may hold spaces and
// parentheses, so the fields are counted after its last ')'.
func parseStatCPU(b []byte) (time.Duration, bool) {
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil || u < 0 || st < 0 {
		return 0, false
	}
	return time.Duration(u+st) * time.Second / clockTicks, true
}
