// Package gate is the pinning proxy of attestari-gate (docs/gateways.md): it
// sits on the stdio of one MCP server, between the client and the server,
// and holds every tools/list answer against the tools a verified attestation
// pins. A tool that is added, changed or not attested is blocked (removed
// from the list and refused on call), warned about, or only logged, as the
// policy says; notifications/tools/list_changed makes the proxy list the
// server's tools itself and check them again before the client hears of the
// change, so a server that changes a description after its first list (a
// rug pull) is caught at once. Every decision is logged as one JSON line.
//
// Messages are newline-delimited JSON-RPC, as MCP's stdio transport sends
// them. A message the proxy does not act on is forwarded byte for byte.
package gate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/api/attest"
)

// Policy says what happens to a tool that does not verify.
type Policy string

// Policies.
const (
	// PolicyBlock removes the tool from the list and refuses calls to it.
	PolicyBlock Policy = "block"
	// PolicyWarn lets it through and logs a warning.
	PolicyWarn Policy = "warn"
	// PolicyAudit lets it through and logs the decision at info level.
	PolicyAudit Policy = "audit"
)

// ParsePolicy reads a --policy value.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyBlock, PolicyWarn, PolicyAudit:
		return p, nil
	}
	return "", fmt.Errorf("policy %q is not one of block, warn, audit", s)
}

// Config is what the proxy enforces.
type Config struct {
	// Statement is the verified attestation whose manifest is pinned. Nil
	// means no attestation: every message is forwarded unchecked and each
	// tools/list answer is logged as unattested (the --unknown warn and
	// allow modes).
	Statement *attest.Statement
	Policy    Policy
	// UnattestedLevel is the level at which an unattested list is logged
	// when Statement is nil (warn: slog.LevelWarn; allow: slog.LevelInfo).
	UnattestedLevel slog.Level
	Log             *slog.Logger
}

// MaxMessageBytes bounds one JSON-RPC line; a longer one ends the session
// with an error rather than exhausting memory.
const MaxMessageBytes = 16 << 20

// CodeToolBlocked is the JSON-RPC error code of a refused tools/call.
const CodeToolBlocked = -32001

// gateIDPrefix marks the ids of the proxy's own requests to the server.
const gateIDPrefix = "attestari-gate-"

// Proxy is one session: construct with New, then Run.
type Proxy struct {
	cfg Config
	log *slog.Logger

	mu sync.Mutex
	// listing holds the client's pending tools/list requests (by id key),
	// with whether they asked for a page after the first (a cursor).
	listing map[string]bool
	// own holds the proxy's own pending tools/list requests.
	own map[string]bool
	// verified is the set of tools whose last definition the server sent
	// verified against the attestation. Under block, only these may be
	// called.
	verified map[string]bool
	seq      int

	toClient, toServer *lineWriter
}

// New makes a proxy for cfg.
func New(cfg Config) *Proxy {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Proxy{cfg: cfg, log: cfg.Log, listing: map[string]bool{}, own: map[string]bool{}, verified: map[string]bool{}}
}

// lineWriter serialises whole lines to one side.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) write(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(b); err != nil {
		return err
	}
	_, err := l.w.Write([]byte("\n"))
	return err
}

// Run proxies until either side ends: clientIn/clientOut are the client's
// stdio, serverIn/serverOut the server's. When the client closes its input,
// serverIn is closed (if it is an io.Closer) so the server can exit, and Run
// returns once the server's output ends.
func (p *Proxy) Run(ctx context.Context, clientIn io.Reader, clientOut io.Writer, serverIn io.Writer, serverOut io.Reader) error {
	p.toClient = &lineWriter{w: clientOut}
	p.toServer = &lineWriter{w: serverIn}
	errc := make(chan error, 1)
	go func() {
		err := p.pump(clientIn, p.fromClient)
		if c, ok := serverIn.(io.Closer); ok {
			c.Close()
		}
		errc <- err
	}()
	err := p.pump(serverOut, p.fromServer)
	select {
	case cerr := <-errc:
		return errors.Join(err, cerr)
	default:
		// The server ended first: the client's side is still reading.
		return err
	}
}

func (p *Proxy) pump(r io.Reader, handle func([]byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxMessageBytes)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := handle(append([]byte(nil), line...)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("gate: reading a message: %w", err)
	}
	return nil
}

func idKey(id jsonrpc.ID) string {
	switch v := id.Raw().(type) {
	case string:
		return "s:" + v
	case int64:
		return "n:" + strconv.FormatInt(v, 10)
	case float64:
		return "n:" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprintf("?:%v", id.Raw())
}

// fromClient handles one message from the client.
func (p *Proxy) fromClient(line []byte) error {
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		// Not ours to judge: the server answers a malformed message.
		return p.toServer.write(line)
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() || p.cfg.Statement == nil {
		return p.toServer.write(line)
	}
	switch req.Method {
	case "tools/list":
		var params struct {
			Cursor *string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &params)
		p.mu.Lock()
		p.listing[idKey(req.ID)] = params.Cursor != nil
		p.mu.Unlock()
	case "tools/call":
		var params struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(req.Params, &params); err != nil {
			if p.cfg.Policy == PolicyBlock {
				// Fail closed: a call whose tool the gate cannot name is a
				// call it cannot check.
				p.log.Warn("call refused", "decision", "blocked", "why", "the call's params could not be read, so its tool cannot be checked")
				return p.refuseUnread(req.ID)
			}
			p.log.Log(context.Background(), p.levelFor(), "call with unreadable params", "decision", string(p.cfg.Policy))
			return p.toServer.write(line)
		}
		p.mu.Lock()
		ok := p.verified[params.Name]
		p.mu.Unlock()
		if !ok && p.cfg.Policy == PolicyBlock {
			p.log.Warn("call refused", "decision", "blocked", "tool", params.Name,
				"why", "the tool's current definition has not verified against the attestation")
			return p.refuse(req.ID, params.Name)
		}
		if !ok {
			p.log.Log(context.Background(), p.levelFor(), "call of an unverified tool", "decision", string(p.cfg.Policy), "tool", params.Name)
		}
	}
	return p.toServer.write(line)
}

func (p *Proxy) levelFor() slog.Level {
	if p.cfg.Policy == PolicyAudit {
		return slog.LevelInfo
	}
	return slog.LevelWarn
}

func (p *Proxy) refuse(id jsonrpc.ID, name string) error {
	return p.refuseWith(id, fmt.Sprintf("attestari-gate: tool %q is blocked: its definition does not match the attested manifest", name))
}

// refuseUnread answers a tools/call whose params the gate could not read.
func (p *Proxy) refuseUnread(id jsonrpc.ID) error {
	return p.refuseWith(id, "attestari-gate: call blocked: its params are not an object naming a tool, so the gate cannot check it")
}

// refuseWith answers request id with the gate's blocked-call error.
func (p *Proxy) refuseWith(id jsonrpc.ID, message string) error {
	resp := &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: CodeToolBlocked, Message: message}}
	b, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		return err
	}
	return p.toClient.write(b)
}

// fromServer handles one message from the server.
func (p *Proxy) fromServer(line []byte) error {
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		if p.cfg.Statement != nil && p.cfg.Policy == PolicyBlock {
			// A message the proxy cannot read could be a tools/list answer
			// it cannot check: under block it is not passed on.
			p.log.Warn("server message dropped", "decision", "blocked", "why", "not a JSON-RPC message the gate can read", "bytes", len(line))
			return nil
		}
		return p.toClient.write(line)
	}
	if p.cfg.Statement == nil {
		if resp, ok := msg.(*jsonrpc.Response); ok && len(resp.Result) > 0 {
			if n, ok := toolCount(resp.Result); ok {
				p.log.Log(context.Background(), p.cfg.UnattestedLevel, "tools listed unchecked", "decision", "unattested", "tools", n)
			}
		}
		return p.toClient.write(line)
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.Method == "notifications/tools/list_changed" {
			if err := p.recheck(); err != nil {
				return err
			}
		}
		return p.toClient.write(line)
	case *jsonrpc.Response:
		key := idKey(m.ID)
		p.mu.Lock()
		paged, client := p.listing[key]
		delete(p.listing, key)
		own := p.own[key]
		delete(p.own, key)
		p.mu.Unlock()
		if own {
			if m.Error == nil {
				p.check(m.Result, true, "recheck")
			}
			return nil
		}
		if m.Error != nil {
			break
		}
		if !client {
			// An answer carrying a tool list that the gate did not see asked
			// for (a client request it could not read, which the server read
			// leniently, or an answer the server was never asked for) is
			// checked and filtered all the same under block: no unverified
			// tool reaches the client, whatever the gate tracked.
			if _, ok := toolCount(m.Result); !ok || p.cfg.Policy != PolicyBlock {
				break
			}
			p.log.Warn("tool list in an answer the gate did not track", "decision", "checked")
			paged = true
		}
		out, err := p.checkAndFilter(m, paged)
		if err != nil {
			return err
		}
		if out == nil {
			out = line // nothing removed: the answer as the server sent it
		}
		return p.toClient.write(out)
	}
	return p.toClient.write(line)
}

// recheck forgets what was verified and asks the server for its tools
// again, with the proxy's own request id: until the answer is checked no
// call passes under block.
func (p *Proxy) recheck() error {
	p.mu.Lock()
	p.seq++
	id, err := jsonrpc.MakeID(gateIDPrefix + strconv.Itoa(p.seq))
	if err != nil {
		p.mu.Unlock()
		return err
	}
	p.own[idKey(id)] = true
	p.verified = map[string]bool{}
	p.mu.Unlock()
	p.log.Info("tools changed on the server: checking again", "decision", "recheck")
	b, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: "tools/list", Params: json.RawMessage(`{}`)})
	if err != nil {
		return err
	}
	return p.toServer.write(b)
}

func toolCount(result json.RawMessage) (int, bool) {
	var r struct {
		Tools *[]json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil || r.Tools == nil {
		return 0, false
	}
	return len(*r.Tools), true
}

// check verifies the tools of one tools/list result, updates the verified
// set and logs each decision; it returns the names to remove under block.
func (p *Proxy) check(result json.RawMessage, whole bool, via string) (remove map[string]bool, ok bool) {
	var r struct {
		Tools      []api.WireTool `json:"tools"`
		NextCursor *string        `json:"nextCursor"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		p.log.Warn("tools/list answer not readable", "decision", "blocked", "why", err.Error())
		return nil, false
	}
	rep := api.VerifyTools(p.cfg.Statement.AsManifest(), r.Tools)
	whole = whole && r.NextCursor == nil
	remove = map[string]bool{}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range rep.Tools {
		switch t.Outcome {
		case api.ToolHashMatches, api.ToolTextMatches:
			p.verified[t.Name] = true
			p.log.Info("tool verified", "decision", "allowed", "tool", t.Name, "outcome", t.Outcome, "via", via)
		case api.ToolNotOnServer:
			if whole {
				p.log.Info("attested tool not listed", "decision", "noted", "tool", t.Name, "outcome", t.Outcome, "via", via)
			}
		default:
			delete(p.verified, t.Name)
			decision := string(p.cfg.Policy)
			if p.cfg.Policy == PolicyBlock {
				decision = "blocked"
				remove[t.Name] = true
			}
			p.log.Log(context.Background(), p.levelFor(), "tool does not verify", "decision", decision, "tool", t.Name,
				"outcome", t.Outcome, "attested", t.Attested, "computed", t.Computed, "detail", t.Detail, "via", via)
		}
	}
	return remove, true
}

// checkAndFilter checks a client's tools/list answer and, under block,
// removes the tools that do not verify; the rest of the answer is kept. A
// nil result means nothing was removed.
func (p *Proxy) checkAndFilter(m *jsonrpc.Response, paged bool) ([]byte, error) {
	remove, ok := p.check(m.Result, !paged, "client list")
	if !ok {
		if p.cfg.Policy == PolicyBlock {
			return p.encodeResult(m.ID, json.RawMessage(`{"tools":[]}`))
		}
		return nil, nil
	}
	if len(remove) == 0 {
		return nil, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(m.Result, &fields); err != nil {
		return nil, err
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(fields["tools"], &tools); err != nil {
		return nil, err
	}
	kept := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		var nm struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(t, &nm)
		if !remove[nm.Name] {
			kept = append(kept, t)
		}
	}
	tb, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	fields["tools"] = tb
	res, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	return p.encodeResult(m.ID, res)
}

func (p *Proxy) encodeResult(id jsonrpc.ID, result json.RawMessage) ([]byte, error) {
	return jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: result})
}
