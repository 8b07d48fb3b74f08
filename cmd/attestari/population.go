package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/population"
	"github.com/attestari/attestari/internal/rundir"
)

// The population command is wired through extraCommands, so adding it
// touches no list another command's file edits.
func init() {
	prev := extraCommands
	extraCommands = func() []*command { return append(prev(), populationCommand()) }
}

func populationCommand() *command {
	var format, out *string
	return &command{
		name:    "population",
		args:    "RUN",
		summary: "State a decided run's sample figures (methodology §4, §18): out of scope, graded, not gradeable by reason code, findings by decision.",
		detail: `
Reads RUN's decisions.json (a run id under $ATTESTARI_HOME/runs, or a directory) and prints
the figures: the selected candidates not examined (in no count), the packages examined, the
servers graded (by grade), the servers not gradeable (by reason code: refusals including the
code, and those on it alone), the packages that are not servers, and the findings confirmed,
noted and withheld. No package is named. The figures are checked against the counts the
decision recorded; a disagreement is an error and nothing is written. 'make pass' writes
docs/population.md with it.`,
		example: "attestari population 20261201T153305Z-de197ce9\nattestari population --format json var/runs/20261201T153305Z-de197ce9\nattestari population --out docs/population.md 20261201T153305Z-de197ce9",
		flags: func(fs *flag.FlagSet) {
			format = fs.String("format", "markdown", "markdown or json")
			out = fs.String("out", "", "write to this file (atomically) instead of stdout")
		},
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			if fs.NArg() != 1 {
				return usageError{"give one RUN (a run id or a run directory)"}
			}
			if *format != "markdown" && *format != "json" {
				return usageError{"--format is markdown or json"}
			}
			dir, err := pipeline.RunDir(absHome(e), fs.Arg(0))
			if err != nil {
				return err
			}
			f, err := population.Read(dir)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if *format == "json" {
				err = population.WriteJSON(&b, f)
			} else {
				cmd := "attestari population " + f.RunID
				if *out != "" {
					cmd += " --out " + filepath.ToSlash(*out)
				}
				err = population.WriteMarkdown(&b, f, cmd)
			}
			if err != nil {
				return err
			}
			if *out == "" {
				_, err = e.stdout.Write(b.Bytes())
				return err
			}
			if err := rundir.WriteFileAtomic(*out, b.Bytes()); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote %s: %d packages (%d graded, %d not gradeable, %d out of scope), %d not examined\n",
				*out, f.Packages, f.Gradeable, f.NotGradeable, f.OutOfScope, f.NotExamined)
			return nil
		},
	}
}
