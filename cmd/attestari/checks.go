package main

import "github.com/attestari/attestari/internal/pipeline"

// runningChecks are the checks a run executes, in order.
func runningChecks(e *env) []pipeline.Check {
	return pipeline.DefaultChecks()
}
