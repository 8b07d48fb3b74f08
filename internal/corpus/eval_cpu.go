package corpus

import (
	"fmt"
	"sort"
	"strings"
)

// writeCPUCost adds the CPU time per package, the budget's time part
// (methodology §5.2), when the extractions recorded it: unlike the wall
// time it does not move with the machine's load.
func writeCPUCost(b *strings.Builder, costs []Extracted) {
	cpus := make([]int64, 0, len(costs))
	for _, c := range costs {
		if c.CPUMs > 0 {
			cpus = append(cpus, c.CPUMs)
		}
	}
	if len(cpus) == 0 {
		return
	}
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	q := func(p float64) int64 { return cpus[int(p*float64(len(cpus)-1))] }
	fmt.Fprintf(b, "CPU time per package (%d with a CPU figure): median %d ms, p90 %d ms, max %d ms.\n", len(cpus), q(0.5), q(0.9), cpus[len(cpus)-1])
}
