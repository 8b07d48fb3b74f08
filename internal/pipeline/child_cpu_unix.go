//go:build unix

package pipeline

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// ProcessCPUClock is this process's CPU clock, user and system time of all
// its threads (getrusage RUSAGE_SELF), for surface.Options.CPUTime. It
// counts everything the process does, so it is the clock of one
// extraction only in a process that runs one extraction at a time (the
// child; the CLI).
func ProcessCPUClock() func() time.Duration { return processCPUTime }

func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		// getrusage(RUSAGE_SELF) fails only on a bad address; a clock
		// that cannot be read must not read as time unused.
		return 1<<63 - 1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// childCPUTime reads a process's CPU time from /proc/<pid>/stat.
func childCPUTime(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStatCPU(b)
}
