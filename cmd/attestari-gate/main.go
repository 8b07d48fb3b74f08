// Command attestari-gate is a pinning proxy for one MCP server on stdio
// (docs/gateways.md). It takes the place of the server's command in a client
// configuration: before the first message it fetches and verifies the
// package version's signed attestation, then starts the server and holds
// every tools/list answer against the attested tools. It only parses flags
// and wires internal/gate.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/gate"
)

const usage = `Usage: attestari-gate --api URL [options] -- COMMAND [ARGS...]

Runs COMMAND (the MCP server a client configuration would start, e.g.
npx -y @scope/server@1.2.3) behind a pinning proxy on stdio. Before the server
starts, the attestation of its package version is fetched from the API and
verified (signature, key window, package); then every tools/list answer is
checked tool by tool against the attested tool hashes:

  a tool that is missing is logged; one that is added, changed, or has no
  attested hash is handled by --policy: block (removed from the list, and a
  call to it refused), warn (passed, logged as a warning), audit (passed,
  logged). notifications/tools/list_changed makes the gate list the tools
  itself and check them again before the client hears of the change.

A package with no attestation, or whose version was refused a grade, follows
--unknown: block (the server is not started), warn or allow (it starts; with no
attestation it runs unchecked, with a refused one its pinned tools are still
enforced). A failed verification never starts the server. Every decision is one
JSON line on stderr (the server's own stderr passes through).

The package version is read from COMMAND (npx/bunx/npm exec/pnpm dlx NAME@VERSION,
uvx [--from] NAME==VERSION, pipx run NAME==VERSION), or given with --registry,
--package and --version. Exit status: the server's, 3 when the gate refused to
start it, 2 on a usage mistake.

Example:
  attestari-gate --api https://attestari.internal --keys keys.json --policy block -- npx -y @scope/server@1.2.3

Options:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("attestari-gate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	apiURL := fs.String("api", os.Getenv("ATTESTARI_API_URL"), "the Attestari API's base URL (default $ATTESTARI_API_URL)")
	keysFile := fs.String("keys", "", "a pinned key set file; without it the key set is fetched from the API (trusting its TLS)")
	policyFlag := fs.String("policy", "block", "what happens to a tool that does not verify: block, warn or audit")
	unknownFlag := fs.String("unknown", "block", "a package with no attestation or a refused version: block, warn or allow")
	registry := fs.String("registry", "", "npm or pypi (with --package and --version, instead of reading them from COMMAND)")
	pkg := fs.String("package", "", "the package name")
	ver := fs.String("version", "", "the exact package version")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(msg string) int {
		fmt.Fprintf(stderr, "attestari-gate: %s\n\n", msg)
		fs.Usage()
		return 2
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return fail("no server command after --")
	}
	if *apiURL == "" {
		return fail("--api URL (or ATTESTARI_API_URL) is required")
	}
	policy, err := gate.ParsePolicy(*policyFlag)
	if err != nil {
		return fail(err.Error())
	}
	unknown, err := gate.ParseUnknown(*unknownFlag)
	if err != nil {
		return fail(err.Error())
	}
	var t gate.Target
	switch {
	case *registry != "" || *pkg != "" || *ver != "":
		if *registry == "" || *pkg == "" || *ver == "" {
			return fail("--registry, --package and --version go together")
		}
		if *registry != api.RegistryNPM && *registry != api.RegistryPyPI {
			return fail("--registry must be npm or pypi")
		}
		t = gate.Target{Registry: *registry, Name: *pkg, Version: *ver}
	default:
		if t, err = gate.TargetFromCommand(argv); err != nil {
			return fail(err.Error())
		}
	}
	client, err := api.NewClient(*apiURL, nil)
	if err != nil {
		return fail(err.Error())
	}
	client.UserAgent = "attestari-gate"
	log := slog.New(slog.NewJSONHandler(stderr, nil)).With("component", "attestari-gate")
	var keys *attest.KeySet
	if *keysFile != "" {
		if keys, err = gate.ReadKeySet(*keysFile); err != nil {
			return fail(err.Error())
		}
	}
	cfg, err := gate.Setup(ctx, client, keys, t, policy, unknown, log)
	if err != nil {
		return 3
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = stderr
	serverIn, err := cmd.StdinPipe()
	if err != nil {
		log.Error("could not start the server", "error", err.Error())
		return 3
	}
	serverOut, err := cmd.StdoutPipe()
	if err != nil {
		log.Error("could not start the server", "error", err.Error())
		return 3
	}
	if err := cmd.Start(); err != nil {
		log.Error("could not start the server", "error", err.Error())
		return 3
	}
	perr := gate.New(cfg).Run(ctx, stdin, stdout, serverIn, serverOut)
	werr := cmd.Wait()
	if perr != nil {
		log.Error("proxy ended", "error", perr.Error())
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		return ee.ExitCode()
	}
	if werr != nil || perr != nil {
		return 1
	}
	return 0
}
