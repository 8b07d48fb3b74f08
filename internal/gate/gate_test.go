package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
)

func TestTargetFromCommand(t *testing.T) {
	good := map[string]Target{
		"npx -y @scope/server@1.2.3":               {"npm", "@scope/server", "1.2.3"},
		"npx server@v2.0.0 --port 1":               {"npm", "server", "2.0.0"},
		"/usr/bin/npx --yes a-b@0.1.0-beta.1":      {"npm", "a-b", "0.1.0-beta.1"},
		"npm exec @s/x@1.0.0":                      {"npm", "@s/x", "1.0.0"},
		"pnpm dlx x@3.1.4":                         {"npm", "x", "3.1.4"},
		"bunx x@1.0.0":                             {"npm", "x", "1.0.0"},
		"uvx mcp-server-fetch==2025.1.7":           {"pypi", "mcp-server-fetch", "2025.1.7"},
		"uvx --from mcp-server-git==0.6.2 mcp-git": {"pypi", "mcp-server-git", "0.6.2"},
		"pipx run mcp-x==1.0":                      {"pypi", "mcp-x", "1.0"},
	}
	for cmd, want := range good {
		got, err := TargetFromCommand(strings.Fields(cmd))
		if err != nil || got != want {
			t.Errorf("%s: %+v %v, want %+v", cmd, got, err, want)
		}
	}
	for _, cmd := range []string{"", "node server.js", "npx -y @scope/server", "npx server@latest", "npx server@^1.2.0", "uvx mcp-server-fetch", "pipx install x==1", "npm install x@1.0.0"} {
		if _, err := TargetFromCommand(strings.Fields(cmd)); !errors.Is(err, ErrNoTarget) {
			t.Errorf("%q: %v, want ErrNoTarget", cmd, err)
		}
	}
}

func TestParseModes(t *testing.T) {
	for _, s := range []string{"block", "warn", "audit"} {
		if p, err := ParsePolicy(s); err != nil || string(p) != s {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"block", "warn", "allow"} {
		if u, err := ParseUnknown(s); err != nil || string(u) != s {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParsePolicy("allow"); err == nil {
		t.Error("policy allow accepted")
	}
	if _, err := ParseUnknown("audit"); err == nil {
		t.Error("unknown audit accepted")
	}
}

func fuzzStatement(t testing.TB) *attest.Statement {
	desc, hash := "Echo.", strings.Repeat("0", 64)
	st, err := attest.NewStatement(attest.Predicate{
		Package:     attest.Package{Registry: "npm", Name: "x", Version: "1.0.0", PURL: "pkg:npm/x@1.0.0"},
		Verdict:     api.VerdictGraded,
		Grade:       &desc,
		Manifest:    attest.Manifest{Hash: &hash, Tools: []api.ToolHash{{Name: "echo", DescriptionState: "readable", Description: &desc, SchemaKind: "source", ToolHash: &hash}}},
		Methodology: attest.Methodology{Version: "2.3.4", SHA256: hash},
		Publication: attest.Publication{ID: "p", PublishedAt: time.Unix(1, 0)},
	}, hash, strings.Repeat("0", 128))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// FuzzProxy: whatever a hostile server (or client) sends, the proxy neither
// panics nor hangs; under block, a tools/list answer it passes on holds only
// verified tools.
func FuzzProxy(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echo."},{"name":"evil"}]}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"evil"}}`), []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`))
	f.Add([]byte(`[1,2]`), []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":{}}}`))
	st := fuzzStatement(f)
	f.Fuzz(func(t *testing.T, client, server []byte) {
		// The client's messages first, then the server's: the order a real
		// server answers in (it cannot answer what it was not sent).
		p := New(Config{Statement: st, Policy: PolicyBlock})
		var toClient, toServer bytes.Buffer
		p.toClient, p.toServer = &lineWriter{w: &toClient}, &lineWriter{w: &toServer}
		if err := p.pump(bytes.NewReader(client), p.fromClient); err != nil && !strings.Contains(err.Error(), "reading a message") {
			t.Fatalf("client side: %v", err)
		}
		if err := p.pump(bytes.NewReader(server), p.fromServer); err != nil && !strings.Contains(err.Error(), "reading a message") {
			t.Fatalf("server side: %v", err)
		}
		for _, line := range bytes.Split(toClient.Bytes(), []byte("\n")) {
			if bytes.Contains(line, []byte(`"evil"`)) && bytes.Contains(line, []byte(`"tools"`)) && bytes.Contains(line, []byte(`"result"`)) && bytes.Contains(client, []byte(`tools/list`)) {
				var m struct {
					ID any `json:"id"`
				}
				if json.Unmarshal(line, &m) == nil && m.ID == float64(1) && bytes.Contains(client, []byte(`"id":1,"method":"tools/list"`)) {
					t.Fatalf("an unverified tool reached the client: %s", line)
				}
			}
		}
		// The whole session through Run ends too.
		q := New(Config{Statement: st, Policy: PolicyBlock})
		_ = q.Run(context.Background(), bytes.NewReader(client), io.Discard, nopCloser{io.Discard}, bytes.NewReader(server))
	})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestUnreadableCallParams: a tools/call whose params do not name a tool is
// refused under block (the gate cannot check it) and passed on, logged, under
// warn and audit.
func TestUnreadableCallParams(t *testing.T) {
	st := fuzzStatement(t)
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":["echo"]}` + "\n")
	for _, tc := range []struct {
		policy  Policy
		refused bool
	}{{PolicyBlock, true}, {PolicyWarn, false}, {PolicyAudit, false}} {
		p := New(Config{Statement: st, Policy: tc.policy})
		var toClient, toServer bytes.Buffer
		p.toClient, p.toServer = &lineWriter{w: &toClient}, &lineWriter{w: &toServer}
		if err := p.pump(bytes.NewReader(call), p.fromClient); err != nil {
			t.Fatalf("%s: %v", tc.policy, err)
		}
		if tc.refused {
			if toServer.Len() != 0 {
				t.Errorf("%s: the call reached the server: %s", tc.policy, toServer.Bytes())
			}
			var resp struct {
				ID    int `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(bytes.TrimSpace(toClient.Bytes()), &resp); err != nil {
				t.Fatalf("%s: the client got %q: %v", tc.policy, toClient.Bytes(), err)
			}
			if resp.ID != 7 || resp.Error.Code != CodeToolBlocked || !strings.Contains(resp.Error.Message, "params") {
				t.Errorf("%s: refusal %+v", tc.policy, resp)
			}
			continue
		}
		if !bytes.Equal(toServer.Bytes(), call) || toClient.Len() != 0 {
			t.Errorf("%s: server got %q, client got %q; want the call passed on unchanged", tc.policy, toServer.Bytes(), toClient.Bytes())
		}
	}
}

// TestUntrackedToolListFiltered: under block, a tool list in an answer the
// gate did not see asked for (here the client's request was not JSON the gate
// could read, and the server read it leniently) is checked and filtered like
// a tracked one; the corpus entry FuzzProxy/d2931035569b0ed6 found it.
func TestUntrackedToolListFiltered(t *testing.T) {
	st := fuzzStatement(t)
	client := []byte("\"id\":1,\"method\":\"tools/list\"\n")
	server := []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echo."},{"name":"evil","description":"Steals."}]}}` + "\n")
	p := New(Config{Statement: st, Policy: PolicyBlock})
	var toClient, toServer bytes.Buffer
	p.toClient, p.toServer = &lineWriter{w: &toClient}, &lineWriter{w: &toServer}
	if err := p.pump(bytes.NewReader(client), p.fromClient); err != nil {
		t.Fatal(err)
	}
	if err := p.pump(bytes.NewReader(server), p.fromServer); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(toClient.Bytes(), []byte("evil")) {
		t.Fatalf("an unverified tool reached the client: %s", toClient.Bytes())
	}
	if !bytes.Contains(toClient.Bytes(), []byte(`"result"`)) {
		t.Fatalf("the answer was dropped instead of filtered: %q", toClient.Bytes())
	}
}
