package main

import (
	"context"
	"fmt"
	"os"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/pipeline/extractor"
)

// extractChildCommand is the hidden subcommand a worker starts for each
// package's extraction (pipeline.ChildExtractor): it is not listed in the
// help, because nothing but the worker speaks its protocol.
const extractChildCommand = "__extract-child"

// serveExtractChild is the child process: one request on stdin, one result
// on stdout; a crash is the process's death, which the parent records.
func serveExtractChild(ctx context.Context, e *env, args []string) int {
	if len(args) != 0 {
		fmt.Fprintf(e.stderr, "attestari %s: takes no arguments; it is started by the worker\n", extractChildCommand)
		return 2
	}
	if err := extractor.ServeChild(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(e.stderr, "attestari %s: %v\n", extractChildCommand, err)
		return 1
	}
	return 0
}

// childExtractor is the extractor `run`, `cycle` and `surface` use: this
// binary, started once per package as extractChildCommand.
func childExtractor() (*pipeline.ChildExtractor, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this binary to run extractions in child processes: %w", err)
	}
	return extractor.Child(self, extractChildCommand), nil
}
