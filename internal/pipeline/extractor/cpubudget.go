package extractor

import (
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/surface"
)

// childOptions are the surface options of an extraction in the child: the
// time part of the budget is the child's own CPU time (the process runs
// this one extraction), and no wall deadline is checked inside, since the
// parent holds the wall backstop and its passing is a failure of the run,
// not an outcome of the package (methodology §5.2).
func childOptions(b pipeline.ChildBudget) surface.Options {
	return surface.Options{CPUTime: pipeline.ProcessCPUClock(), CPUBudget: b.CPU, RSSBudget: b.RSS}
}

// InProcessOptions are the surface options of an extraction that has its
// process to itself (`attestari surface`, the probe's corpus evaluation at
// one package at a time): the process's CPU clock and the default CPU
// budget, the wall backstop ChildWallBackstopFactor times it, as in a run.
// A process that extracts several packages at once cannot use them (its
// clock counts all of them) and keeps surface.Options' wall budget.
func InProcessOptions() surface.Options {
	if pipeline.ProcessCPUClock() == nil {
		return surface.Options{}
	}
	return surface.Options{CPUTime: pipeline.ProcessCPUClock(), CPUBudget: surface.DefaultCPUBudget,
		WallBudget: pipeline.ChildWallBackstopFactor * surface.DefaultCPUBudget}
}
