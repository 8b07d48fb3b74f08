// Command attestari is the worker and operator CLI: it runs the examination
// pipeline, decides runs, publishes, records appeals, evaluates analyzers and
// manages the database. It only parses flags and wires packages together.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand: its flags, its help and what it runs.
type command struct {
	name    string
	args    string // positional arguments, for the usage line
	summary string
	detail  string
	example string
	flags   func(fs *flag.FlagSet) // declares the flags
	run     func(ctx context.Context, env *env, fs *flag.FlagSet) error
	// usageExit is the exit code of a usage error; 0 means 2. `check`
	// keeps 2 for a refusal, so its usage errors exit 3.
	usageExit int
}

func (c *command) usageCode() int {
	if c.usageExit != 0 {
		return c.usageExit
	}
	return 2
}

// env is what every command may use: output streams and configuration.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	log            *slog.Logger
	// terminal says whether a stream is a terminal (progressFor); nil
	// asks the operating system.
	terminal func(w io.Writer) bool
}

func (e *env) home() string {
	if h := e.getenv("ATTESTARI_HOME"); h != "" {
		return h
	}
	return "var"
}

// usageError is a mistake in how the command was called: print the usage too.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func commands() []*command {
	cmds := []*command{versionCommand(), dbCommand(), decideCommand(), surfaceCommand(), publishCommand(), loadCommand(), appealCommand(), runCommand(), cycleCommand(), evalCommand(), keysCommand(), verifyCommand()}
	cmds = append(cmds, checkCommand()) // the publisher's tool, check.go
	cmds = append(cmds, extraCommands()...)
	cmds = append(cmds, selectCommand())
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	return cmds
}

// extraCommands is extended by the files that wire the pipeline's commands.
var extraCommands = func() []*command { return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e := &env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(runMain(ctx, e, os.Args[1:]))
}

func newLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

func runMain(ctx context.Context, e *env, args []string) int {
	e.log = newLogger(e.stderr, e.getenv("ATTESTARI_LOG_FORMAT"))
	if len(args) == 0 {
		// No command is a mistake of the caller, not a request for help:
		// a script that forgot its command must not succeed.
		fmt.Fprintln(e.stderr, "attestari: no command given")
		fmt.Fprintln(e.stderr)
		topUsage(e.stderr)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if c := find(args[1]); c != nil {
				printHelp(e.stdout, c, flagSet(c, e))
				return 0
			}
		}
		topUsage(e.stdout)
		return 0
	}
	if args[0] == extractChildCommand {
		return serveExtractChild(ctx, e, args[1:])
	}
	c := find(args[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "attestari: unknown command %q\n\n", args[0])
		topUsage(e.stderr)
		return 2
	}
	fs := flagSet(c, e)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.usageCode()
	}
	if err := c.run(ctx, e, fs); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(e.stderr, "attestari %s: %s\n\n", c.name, ue.msg)
			printHelp(e.stderr, c, fs)
			return c.usageCode()
		}
		var ec interface{ ExitCode() int }
		if errors.As(err, &ec) {
			if msg := err.Error(); msg != "" {
				fmt.Fprintf(e.stderr, "attestari %s: %s\n", c.name, msg)
			}
			return ec.ExitCode()
		}
		fmt.Fprintf(e.stderr, "attestari %s: %v\n", c.name, err)
		return 1
	}
	return 0
}

func find(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

func flagSet(c *command, e *env) *flag.FlagSet {
	fs := flag.NewFlagSet("attestari "+c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if c.flags != nil {
		c.flags(fs)
	}
	fs.Usage = func() { printHelp(e.stdout, c, fs) }
	return fs
}

func printHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: attestari %s [flags] %s\n\n%s\n", c.name, c.args, c.summary)
	if c.detail != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.detail))
	}
	var hasFlags bool
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	if c.example != "" {
		fmt.Fprintf(w, "\nExample:\n  %s\n", strings.ReplaceAll(strings.TrimSpace(c.example), "\n", "\n  "))
	}
}

func topUsage(w io.Writer) {
	fmt.Fprintln(w, `attestari examines published MCP server packages and decides grades under a fail-closed methodology.

Usage: attestari <command> [flags] [arguments]

Commands:`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, `
Run 'attestari <command> --help' for a command's flags and an example.

Environment:
  ATTESTARI_HOME         data home: evidence/, runs/, publications/, pg/ (default ./var)
  DATABASE_URL           PostgreSQL to use; unset, a private cluster is started under $ATTESTARI_HOME/pg
  ATTESTARI_LOG_FORMAT   "json" for JSON logs (default text)`)
}

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "Print the build version and the methodology, extractor, verifier and prompt versions in force.",
		example: "attestari version",
		run: func(ctx context.Context, e *env, fs *flag.FlagSet) error {
			fmt.Fprintln(e.stdout, versionLine())
			return nil
		},
	}
}

func absHome(e *env) string {
	h, err := filepath.Abs(e.home())
	if err != nil {
		return e.home()
	}
	return h
}
