package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
)

// The pull command is wired through extraCommands, like worker.
func init() {
	prev := extraCommands
	extraCommands = func() []*command { return append(prev(), pullCommand()) }
}

// errRunNotInStore is what pull says for a run the store does not hold.
var errRunNotInStore = errors.New("the evidence store holds no finished run of that id: a queued run is put there when its last wave is assembled by a worker whose evidence store is not its home's directory")

func pullCommand() *command {
	return &command{
		name:    "pull",
		args:    "RUN_ID",
		summary: "Copy a finished run from the shared evidence store into $ATTESTARI_HOME/runs/<id>/, to decide or publish it here.",
		detail: `
A worker that assembles a queued run ('attestari run --queue', 'attestari worker') puts run.json,
candidates.json and the seven run files into the evidence store (ATTESTARI_EVIDENCE_URL) as
runs/<id>/<name>, unless that store is its own home's directory. pull reads them back, byte for
byte, into this machine's $ATTESTARI_HOME/runs/<id>/: then 'attestari decide <id>' and
'attestari publish' work here with no shared filesystem. A file already there with the same
bytes is kept; one with other bytes is an error and nothing is written. A run whose header in
the store does not say finished is refused.`,
		example: "ATTESTARI_EVIDENCE_URL='s3://evidence/attestari?endpoint=store.internal:9000' attestari pull 20261201T153305Z-de197ce9 && attestari decide 20261201T153305Z-de197ce9",
		flags:   func(fs *flag.FlagSet) {},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"expected one run id"}
			}
			st, err := evstore.Open(ctx, evstore.FromEnv(e.getenv, absHome(e)))
			if err != nil {
				return err
			}
			dir, err := pipeline.PullRun(ctx, st, absHome(e), fs.Arg(0))
			if errors.Is(err, evidence.ErrNotFound) {
				return fmt.Errorf("run %s: %w", fs.Arg(0), errRunNotInStore)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "run %s pulled from %s into %s\n", fs.Arg(0), st.Location(), dir)
			return nil
		},
	}
}
