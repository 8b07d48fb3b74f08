//go:build !unix

package pipeline

import "time"

// ProcessCPUClock: no process CPU clock is read outside Unix, so an
// extraction there is held to its wall budget (surface.Options.CPUTime nil).
func ProcessCPUClock() func() time.Duration { return nil }

func childCPUTime(int) (time.Duration, bool) { return 0, false }
