package gate_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/manifest"
)

// The binaries the end-to-end tests run as real subprocesses: the gate, and
// a real MCP server on stdio (internal/testserver) that the gate starts.
var gateBin, serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gate-e2e")
	if err != nil {
		panic(err)
	}
	gateBin, serverBin = filepath.Join(dir, "attestari-gate"), filepath.Join(dir, "testserver")
	for out, pkg := range map[string]string{gateBin: "../../cmd/attestari-gate", serverBin: "./internal/testserver"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			panic("building " + pkg + ": " + err.Error())
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func strp(s string) *string { return &s }

// attested builds the tool entry the extractor would attest: echo's schema
// is the JSON literal the server sends (a full tool hash), sum's is declared
// as source code (its name and description are compared).
func attested(t *testing.T, name, desc, kind, schema string) api.ToolHash {
	comp, err := manifest.SchemaComponent(kind, schema)
	if err != nil {
		t.Fatal(err)
	}
	d := manifest.ToolDigest(name, desc, comp)
	return api.ToolHash{Name: name, DescriptionState: "readable", Description: strp(desc), SchemaKind: kind, ToolHash: strp(hex.EncodeToString(d[:]))}
}

type fixture struct {
	api      *httptest.Server
	keysFile string
	mu       sync.Mutex
	envelope []byte // nil: 404
}

func newFixture(t *testing.T, tools []api.ToolHash, verdict string) *fixture {
	t.Helper()
	key, err := attest.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	var digests [][32]byte
	for _, tl := range tools {
		b, _ := hex.DecodeString(*tl.ToolHash)
		digests = append(digests, [32]byte(b))
	}
	md := manifest.ManifestDigest(digests)
	mh := hex.EncodeToString(md[:])
	p := attest.Predicate{
		Package:     attest.Package{Registry: "npm", Name: "@example/echo-server", Version: "1.2.3", PURL: "pkg:npm/%40example/echo-server@1.2.3"},
		Verdict:     verdict,
		Manifest:    attest.Manifest{Hash: &mh, Tools: tools},
		Methodology: attest.Methodology{Version: "2.3.4", SHA256: strings.Repeat("0", 64)},
		Publication: attest.Publication{ID: "pub-1", DecidedAt: time.Now().Add(-time.Hour), PublishedAt: time.Now()},
	}
	if verdict == api.VerdictGraded {
		p.Grade = strp("A")
	} else {
		p.Reasons = []attest.Reason{{Code: "not_analyzed", Guard: "G3", Line: "At least one description could not be read."}}
	}
	st, err := attest.NewStatement(p, strings.Repeat("a", 64), strings.Repeat("b", 128))
	if err != nil {
		t.Fatal(err)
	}
	env, err := attest.Sign(context.Background(), key, st)
	if err != nil {
		t.Fatal(err)
	}
	ks, _ := (&attest.KeySet{Keys: []attest.PublicKey{attest.NewPublicKey(key.Public(), time.Now().Add(-24*time.Hour))}}).Marshal()
	f := &fixture{envelope: env, keysFile: filepath.Join(t.TempDir(), "keys.json")}
	if err := os.WriteFile(f.keysFile, ks, 0o644); err != nil {
		t.Fatal(err)
	}
	f.api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		env := f.envelope
		f.mu.Unlock()
		switch {
		case r.URL.Path == "/attestations/@example/echo-server/1.2.3" && env != nil:
			w.Header().Set("Content-Type", "application/json")
			w.Write(env)
		case r.URL.Path == api.AttestationKeysPath:
			w.Write(ks)
		default:
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(404)
			w.Write([]byte(`{"title":"Not Found","status":404}`))
		}
	}))
	t.Cleanup(f.api.Close)
	return f
}

var (
	echoTool = func(t *testing.T) api.ToolHash {
		return attested(t, "echo", "Echo the message back.", manifest.SchemaJSON, `{"type":"object","properties":{"message":{"type":"string"}}}`)
	}
	sumTool = func(t *testing.T) api.ToolHash {
		return attested(t, "sum", "Add two numbers.", manifest.SchemaSource, "{a: z.number(), b: z.number()}")
	}
)

// gateCmd is the gate in front of the test server, as a client config runs it.
func (f *fixture) gateCmd(t *testing.T, mode string, extra ...string) (*exec.Cmd, *bytes.Buffer) {
	args := append([]string{"--api", f.api.URL, "--keys", f.keysFile, "--registry", "npm", "--package", "@example/echo-server", "--version", "1.2.3"}, extra...)
	args = append(args, "--", serverBin)
	cmd := exec.Command(gateBin, args...)
	cmd.Env = append(os.Environ(), "TESTSERVER_MODE="+mode, "TESTSERVER_MARK="+filepath.Join(t.TempDir(), "started"))
	var logs bytes.Buffer
	cmd.Stderr = &syncWriter{w: &logs}
	return cmd, &logs
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func connect(t *testing.T, cmd *exec.Cmd, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	c := mcp.NewClient(&mcp.Implementation{Name: "gate-e2e-client", Version: "1"}, opts)
	s, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func names(t *testing.T, s *mcp.ClientSession) []string {
	t.Helper()
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// decisions reads the gate's JSON log lines.
func decisions(t *testing.T, logs *bytes.Buffer) []map[string]any {
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(logs.Bytes()))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["component"] == "attestari-gate" {
			out = append(out, m)
		}
	}
	return out
}

func hasDecision(ds []map[string]any, decision, tool string) bool {
	for _, d := range ds {
		if d["decision"] == decision && (tool == "" || d["tool"] == tool) {
			return true
		}
	}
	return false
}

// TestMatchingServerPasses: a server whose tools are the attested ones is
// listed and called through the gate unchanged.
func TestMatchingServerPasses(t *testing.T) {
	f := newFixture(t, []api.ToolHash{echoTool(t), sumTool(t)}, api.VerdictGraded)
	cmd, logs := f.gateCmd(t, "stable")
	s := connect(t, cmd, nil)
	if got := strings.Join(names(t, s), ","); got != "echo,sum" {
		t.Fatalf("tools %s", got)
	}
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "sum", Arguments: map[string]any{"a": 1, "b": 2}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	s.Close()
	ds := decisions(t, logs)
	if !hasDecision(ds, "pinned", "") || !hasDecision(ds, "allowed", "echo") || !hasDecision(ds, "allowed", "sum") || hasDecision(ds, "blocked", "") {
		t.Fatalf("decisions: %v", ds)
	}
}

// TestRugPullBlocked: a server that changes a description after its first
// list is caught on the change: the tool disappears from the next list and
// a call to it is refused without reaching the server.
func TestRugPullBlocked(t *testing.T) {
	f := newFixture(t, []api.ToolHash{echoTool(t), sumTool(t)}, api.VerdictGraded)
	cmd, logs := f.gateCmd(t, "rugpull")
	changed := make(chan struct{}, 4)
	s := connect(t, cmd, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
	if got := strings.Join(names(t, s), ","); got != "echo,sum" {
		t.Fatalf("first list %s", got)
	}
	select {
	case <-changed:
	case <-time.After(30 * time.Second):
		t.Fatal("the server's list_changed never reached the client")
	}
	if got := strings.Join(names(t, s), ","); got != "echo" {
		t.Fatalf("after the change the list is %q, want the changed tool removed", got)
	}
	_, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "sum", Arguments: map[string]any{"a": 1, "b": 2}})
	if err == nil || !strings.Contains(err.Error(), "blocked") {
		t.Fatalf("call of the changed tool: %v", err)
	}
	if res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}}); err != nil || res.IsError {
		t.Fatalf("the unchanged tool: %v %+v", err, res)
	}
	s.Close()
	ds := decisions(t, logs)
	if !hasDecision(ds, "recheck", "") || !hasDecision(ds, "blocked", "sum") {
		t.Fatalf("decisions: %v", ds)
	}
}

// TestAddedToolWarnAndBlock: a tool the attestation does not list is removed
// under block and passed, logged, under warn.
func TestAddedToolWarnAndBlock(t *testing.T) {
	f := newFixture(t, []api.ToolHash{echoTool(t)}, api.VerdictGraded)
	cmd, logs := f.gateCmd(t, "stable")
	s := connect(t, cmd, nil)
	if got := strings.Join(names(t, s), ","); got != "echo" {
		t.Fatalf("block: %s", got)
	}
	s.Close()
	if !hasDecision(decisions(t, logs), "blocked", "sum") {
		t.Fatalf("no block logged: %s", logs)
	}
	cmd, logs = f.gateCmd(t, "stable", "--policy", "warn")
	s = connect(t, cmd, nil)
	if got := strings.Join(names(t, s), ","); got != "echo,sum" {
		t.Fatalf("warn: %s", got)
	}
	s.Close()
	if !hasDecision(decisions(t, logs), "warn", "sum") {
		t.Fatalf("no warning logged: %s", logs)
	}
}

// TestTamperedRefusedBeforeStart: an attestation whose payload was changed
// does not verify, and the server is never started.
func TestTamperedRefusedBeforeStart(t *testing.T) {
	f := newFixture(t, []api.ToolHash{echoTool(t), sumTool(t)}, api.VerdictGraded)
	var env map[string]any
	_ = json.Unmarshal(f.envelope, &env)
	payload, _ := b64decode(env["payload"].(string))
	env["payload"] = b64encode(bytes.Replace(payload, []byte(`"grade":"A"`), []byte(`"grade":"B"`), 1))
	f.envelope, _ = json.Marshal(env)
	assertRefused(t, f, "does not verify")
}

// TestUnknownPackage: with no attestation, --unknown block refuses to start
// and --unknown allow runs the server unchecked.
func TestUnknownPackage(t *testing.T) {
	f := newFixture(t, []api.ToolHash{echoTool(t)}, api.VerdictGraded)
	f.envelope = nil
	assertRefused(t, f, "no attestation")
	cmd, logs := f.gateCmd(t, "stable", "--unknown", "allow")
	s := connect(t, cmd, nil)
	if got := strings.Join(names(t, s), ","); got != "echo,sum" {
		t.Fatalf("allow: %s", got)
	}
	s.Close()
	if !hasDecision(decisions(t, logs), "unattested", "") {
		t.Fatalf("unchecked list not logged: %s", logs)
	}
}

// TestRefusedVersion: a version refused a grade follows --unknown: block
// does not start it; warn starts it with its pinned tools still enforced.
func TestRefusedVersion(t *testing.T) {
	f := newFixture(t, []api.ToolHash{echoTool(t)}, api.VerdictNotGradeable)
	assertRefused(t, f, "not graded")
	cmd, _ := f.gateCmd(t, "stable", "--unknown", "warn")
	s := connect(t, cmd, nil)
	if got := strings.Join(names(t, s), ","); got != "echo" {
		t.Fatalf("warn on a refused version: %s", got)
	}
}

func assertRefused(t *testing.T, f *fixture, why string) {
	t.Helper()
	cmd, logs := f.gateCmd(t, "stable")
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 {
		t.Fatalf("exit %v, want status 3; log %s", err, logs)
	}
	if !strings.Contains(logs.String(), why) {
		t.Fatalf("log does not say %q: %s", why, logs)
	}
	mark := strings.TrimPrefix(cmd.Env[len(cmd.Env)-1], "TESTSERVER_MARK=")
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the server was started")
	}
}

func b64decode(s string) ([]byte, error) { return base64.StdEncoding.DecodeString(s) }
func b64encode(b []byte) string          { return base64.StdEncoding.EncodeToString(b) }
