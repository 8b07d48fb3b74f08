package corpus

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as the servers the probe starts: a fake npm
// "installs" a package whose bin is a shell script that runs this binary in
// one of the helper modes below.
const helperEnv = "ATTESTARI_PROBE_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "server":
		helperServer()
	case "urlelicit":
		helperURLElicitServer()
	case "exit":
		fmt.Fprintln(os.Stderr, "Error: FAKE_API_KEY environment variable is required")
		os.Exit(1)
	case "hang":
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

type echoArgs struct {
	Text string `json:"text" jsonschema:"Text to echo back"`
}

func helperServer() {
	// A grandchild in the same process group: the probe must kill it too.
	child := exec.Command("sleep", "1000")
	// And one that left the group, as a detached spawn does: found by its
	// working directory.
	escaped := exec.Command("sleep", "1001")
	escaped.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if child.Start() == nil && escaped.Start() == nil {
		_ = os.WriteFile(os.Getenv("PIDFILE"), []byte(strconv.Itoa(child.Process.Pid)+" "+strconv.Itoa(escaped.Process.Pid)), 0o644)
	}
	// Noise on stdout before the first frame, as careless servers print.
	fmt.Println("fake server starting")
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "0.1"}, &mcp.ServerOptions{Instructions: "Use echo <carefully> & well."})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text.\nSecond line ✓"}, func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Say hi", Arguments: []*mcp.PromptArgument{{Name: "who", Description: "Whom", Required: true}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	s.AddResource(&mcp.Resource{Name: "readme", URI: "fake://readme", Description: "The readme", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "item", URITemplate: "fake://items/{id}", Description: "An item"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// helperURLElicitServer lists "open_link" only to a client that declared
// URL-mode elicitation, as the reference "everything" server does, and
// still declared roots and sampling (explicit capabilities must not drop
// what the probe declares by default).
func helperURLElicitServer() {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake-url", Version: "0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, nil
	})
	added := false
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && method == "tools/list" && !added {
				if p := ss.InitializeParams(); p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil && p.Capabilities.Elicitation.URL != nil &&
					p.Capabilities.Elicitation.Form != nil && p.Capabilities.Sampling != nil && p.Capabilities.Roots.ListChanged {
					added = true
					mcp.AddTool(s, &mcp.Tool{Name: "open_link"}, func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
						return nil, nil, nil
					})
				}
			}
			return next(ctx, method, req)
		}
	})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

// fakeNPM writes an npm stand-in whose install lays out node_modules/NAME
// with a shell bin running this test binary in the mode named by the
// package ("fake-server" -> "server"); "fake-broken" fails to install.
func fakeNPM(t *testing.T, pidFile string) NPM {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := `#!/bin/sh
set -e
[ "$1" = install ] || { echo "fake npm: only install" >&2; exit 1; }
spec=""
for a in "$@"; do spec="$a"; done
name="${spec%@*}"
mode="${name#fake-}"
[ "$mode" != broken ] || { echo "npm error code E404" >&2; exit 1; }
d="node_modules/$name"
mkdir -p "$d/bin"
printf '{"name":"%s","bin":{"%s":"bin/run"}}' "$name" "$name" > "$d/package.json"
printf '#!/bin/sh\nPIDFILE=%s %s=%s exec %s -test.run=^$\n' "` + pidFile + `" "` + helperEnv + `" "$mode" "` + self + `" > "$d/bin/run"
chmod +x "$d/bin/run"
`
	p := filepath.Join(dir, "npm")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return NPM{Bin: p}
}

func probeOpts(t *testing.T, npm NPM, timeout time.Duration) ProbeOptions {
	return ProbeOptions{
		NPM:     npm,
		WorkDir: t.TempDir(),
		Node:    "sh", // the fake bins are shell scripts; the probe only needs a node path to exist
		Timeout: timeout,
		Now:     func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
	}
}

func TestProbeListsEverything(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	opt := probeOpts(t, fakeNPM(t, pidFile), 20*time.Second)
	tr := Probe(context.Background(), opt, Package{Name: "fake-server", Version: "1.0.0", TarballSHA256: strings.Repeat("0", 64)})
	if !tr.Started || tr.ErrorKind != "" {
		t.Fatalf("not started: %s %s\n%s", tr.ErrorKind, tr.Error, tr.StderrTail)
	}
	if tr.ProbedAt != "2026-11-30" || !tr.LowerBound || tr.EnvProfile != EnvProfile || tr.Bin != "fake-server -> bin/run" {
		t.Errorf("header: %+v", tr)
	}
	if tr.Instructions != "Use echo <carefully> & well." || tr.InstructionsSHA != TextHash(tr.Instructions) {
		t.Errorf("instructions = %q", tr.Instructions)
	}
	if tr.StdoutNoiseLines != 1 {
		t.Errorf("stdout noise = %d, want 1", tr.StdoutNoiseLines)
	}
	if len(tr.Tools) != 1 || tr.Tools[0].Name != "echo" || tr.Tools[0].Description != "Echo text.\nSecond line ✓" ||
		tr.Tools[0].DescriptionSHA256 != TextHash("Echo text.\nSecond line ✓") || len(tr.Tools[0].InputSchemaSHA256) != 64 {
		t.Errorf("tools = %+v", tr.Tools)
	}
	if len(tr.Tools) == 1 && (len(tr.Tools[0].ParamDescriptions) != 1 || tr.Tools[0].ParamDescriptions[0] != (ParamTruth{"/properties/text", "Text to echo back"})) {
		t.Errorf("parameter descriptions = %+v", tr.Tools[0].ParamDescriptions)
	}
	if len(tr.Prompts) != 1 || tr.Prompts[0].Name != "greet" || len(tr.Prompts[0].Arguments) != 1 || !tr.Prompts[0].Arguments[0].Required {
		t.Errorf("prompts = %+v", tr.Prompts)
	}
	if len(tr.Resources) != 1 || tr.Resources[0].URI != "fake://readme" || tr.Resources[0].Description != "The readme" {
		t.Errorf("resources = %+v", tr.Resources)
	}
	if len(tr.Templates) != 1 || tr.Templates[0].URI != "fake://items/{id}" {
		t.Errorf("templates = %+v", tr.Templates)
	}
	for _, m := range listMethods {
		if tr.Lists[m].Status != ListOK {
			t.Errorf("%s: %+v", m, tr.Lists[m])
		}
	}
	// The server's own child shared its process group and must be gone.
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("helper wrote no pid: %v", err)
	}
	pids := strings.Fields(string(b))
	if len(pids) != 2 {
		t.Fatalf("pid file %q", b)
	}
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		if !processGone(pid) {
			t.Errorf("descendant %d survived the probe", pid)
		}
	}
	// Nothing of the throwaway directory is left.
	if left, _ := filepath.Glob(filepath.Join(opt.WorkDir, "*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// processGone polls /proc until pid is absent or a zombie awaiting its new
// parent; it gives the kernel a bounded while to deliver SIGKILL.
func processGone(pid int) bool {
	for i := 0; i < 100; i++ {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func TestProbeDeclaresURLElicitationOnlyWhenSetUp(t *testing.T) {
	npm := fakeNPM(t, filepath.Join(t.TempDir(), "pid"))
	pkg := Package{Name: "fake-urlelicit", Version: "1.0.0"}
	names := func(tr Truth) []string {
		var out []string
		for _, x := range tr.Tools {
			out = append(out, x.Name)
		}
		return out
	}
	plain := Probe(context.Background(), probeOpts(t, npm, 20*time.Second), pkg)
	if !plain.Started || len(plain.Tools) != 1 || plain.ExtraClientCaps != nil {
		t.Fatalf("default client: started=%v tools=%v caps=%v %s", plain.Started, names(plain), plain.ExtraClientCaps, plain.StderrTail)
	}
	setups[pkg.Name] = Setup{URLElicitation: true}
	defer delete(setups, pkg.Name)
	tr := Probe(context.Background(), probeOpts(t, npm, 20*time.Second), pkg)
	if !tr.Started || len(tr.Tools) != 2 || len(tr.ExtraClientCaps) != 1 || tr.ExtraClientCaps[0] != CapURLElicitation {
		t.Fatalf("URL elicitation: started=%v tools=%v caps=%v %s", tr.Started, names(tr), tr.ExtraClientCaps, tr.StderrTail)
	}
}

func TestProbeRecordsFailures(t *testing.T) {
	npm := fakeNPM(t, filepath.Join(t.TempDir(), "pid"))
	for _, c := range []struct {
		name, kind, stderr string
	}{
		{"fake-exit", KindExited, "FAKE_API_KEY environment variable is required"},
		{"fake-hang", KindTimeout, ""},
		{"fake-broken", KindInstallFailed, ""},
	} {
		tr := Probe(context.Background(), probeOpts(t, npm, 2*time.Second), Package{Name: c.name, Version: "1.0.0"})
		if tr.Started || tr.ErrorKind != c.kind {
			t.Errorf("%s: started=%v kind=%q error=%q, want kind %q", c.name, tr.Started, tr.ErrorKind, tr.Error, c.kind)
		}
		if !strings.Contains(tr.StderrTail, c.stderr) {
			t.Errorf("%s: stderr tail %q lacks %q", c.name, tr.StderrTail, c.stderr)
		}
		if tr.Lists["tools/list"].Status != ListNotAsked || tr.Tools == nil {
			t.Errorf("%s: lists %+v tools %v", c.name, tr.Lists, tr.Tools)
		}
	}
}

func TestProbeAllWritesAndSkips(t *testing.T) {
	npm := fakeNPM(t, filepath.Join(t.TempDir(), "pid"))
	truthDir := t.TempDir()
	pkgs := []Package{{Name: "fake-server", Version: "1.0.0"}, {Name: "fake-exit", Version: "1.0.0"}}
	var lines []string
	logf := func(s string) { lines = append(lines, s) }
	if err := ProbeAll(context.Background(), probeOpts(t, npm, 10*time.Second), pkgs, truthDir, 1, true, false, logf); err != nil {
		t.Fatal(err)
	}
	ts, err := LoadTruths(truthDir)
	if err != nil || len(ts) != 2 {
		t.Fatalf("truths %v, %v", ts, err)
	}
	// A second pass with skip-done probes nothing; with retry-failed only the failure.
	lines = nil
	if err := ProbeAll(context.Background(), probeOpts(t, npm, 10*time.Second), pkgs, truthDir, 1, true, false, logf); err != nil || len(lines) != 0 {
		t.Fatalf("skip-done probed %v (%v)", lines, err)
	}
	if err := ProbeAll(context.Background(), probeOpts(t, npm, 10*time.Second), pkgs, truthDir, 1, true, true, logf); err != nil || len(lines) != 1 || !strings.Contains(lines[0], "fake-exit") {
		t.Fatalf("retry-failed probed %v (%v)", lines, err)
	}
}
