package main

import (
	"io"
	"log/slog"

	"github.com/attestari/attestari/internal/pipeline"
)

// progressFor is how `run` and `cycle` report: on a terminal, one progress
// line for the run and one per stage, redrawn in place
// (pipeline.StageBars); otherwise, or with --json-logs, structured log
// lines (log/slog), JSON with --json-logs or ATTESTARI_LOG_FORMAT=json, a
// line per package and, at the end, one per stage. The logger returned is
// the run's, and becomes e's.
func progressFor(e *env, jsonLogs bool) (pipeline.Progress, *slog.Logger) {
	isTerm := e.terminal
	if isTerm == nil {
		isTerm = func(w io.Writer) bool { return isTerminal(w) }
	}
	if !jsonLogs && isTerm(e.stderr) {
		return pipeline.NewStageBars(e.stderr), e.log
	}
	if jsonLogs {
		e.log = newLogger(e.stderr, "json")
	}
	return pipeline.NewLogProgress(e.log), e.log
}
