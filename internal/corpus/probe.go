package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gowebpki/jcs"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProberName identifies the client that produced a truth file.
const ProberName = "attestari-probe (github.com/modelcontextprotocol/go-sdk v1.8.0)"

// probeProtocolVersion is the version the probe offers in initialize. It is
// the newest one that every server of the corpus can answer with the
// classic initialize handshake (newer ones start with a discovery request
// older servers reject).
const probeProtocolVersion = "2025-11-25"

// ProbeOptions configures Probe.
type ProbeOptions struct {
	NPM NPM
	// WorkDir is where each probe makes its throwaway directory (install
	// tree, HOME, data directory); everything there is removed afterwards.
	WorkDir string
	// Node is the node executable; "node" when empty.
	Node string
	// Timeout bounds the server's life: start, initialize and the four
	// lists. The whole process group is killed when it runs out.
	Timeout time.Duration
	// InstallTimeout bounds npm install.
	InstallTimeout time.Duration
	// Now stamps probed_at; time.Now when nil.
	Now func() time.Time
}

// Probe installs pkg into a throwaway directory with install scripts
// disabled, starts its bin on stdio with a throwaway HOME and dummy
// credentials, and records what it lists. Every failure ends in a Truth with
// Started false and an ErrorKind: the outcome is data, never a lost error.
func Probe(ctx context.Context, opt ProbeOptions, pkg Package) (t Truth) {
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	start := time.Now()
	t = Truth{
		Name:          pkg.Name,
		Version:       pkg.Version,
		TarballSHA256: pkg.TarballSHA256,
		ProbedAt:      now().UTC().Format("2006-01-02"),
		Prober:        ProberName,
		Args:          []string{},
		EnvProfile:    EnvProfile,
		Lists:         map[string]ListStatus{},
		Tools:         []ToolTruth{},
		Prompts:       []PromptTruth{},
		Resources:     []ResourceTruth{},
		Templates:     []ResourceTruth{},
		LowerBound:    true,
	}
	for _, m := range listMethods {
		t.Lists[m] = ListStatus{Status: ListNotAsked}
	}
	defer func() { t.DurationMs = time.Since(start).Milliseconds() }()

	root, err := os.MkdirTemp(opt.WorkDir, "probe-")
	if err != nil {
		t.ErrorKind, t.Error = KindSpawnFailed, fmt.Sprintf("throwaway directory: %v", err)
		return t
	}
	defer os.RemoveAll(root)
	installDir, home, data := filepath.Join(root, "install"), filepath.Join(root, "home"), filepath.Join(root, "data")
	for _, d := range []string{installDir, home, data, filepath.Join(home, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.ErrorKind, t.Error = KindSpawnFailed, fmt.Sprintf("throwaway directory: %v", err)
			return t
		}
	}
	redact := func(s string) string { return RedactHosts(strings.ReplaceAll(s, root, "$PROBE")) }

	ictx, cancel := context.WithTimeout(ctx, orDefault(opt.InstallTimeout, 5*time.Minute))
	err = opt.NPM.Install(ictx, pkg.Name, pkg.Version, installDir)
	cancel()
	if err != nil {
		t.ErrorKind, t.Error = KindInstallFailed, redact(tailString(err.Error(), 1500))
		return t
	}

	pkgDir := filepath.Join(installDir, "node_modules", filepath.FromSlash(pkg.Name))
	setup := SetupFor(pkg.Name)
	binName, binPath, err := chooseBin(pkgDir, pkg.Name, setup.Bin)
	if err != nil {
		t.ErrorKind, t.Error = KindNoBin, redact(err.Error())
		return t
	}
	t.Bin = binName

	args := make([]string, 0, len(setup.Args))
	for _, a := range setup.Args {
		t.Args = append(t.Args, a)
		args = append(args, strings.ReplaceAll(a, DataPlaceholder, data))
	}
	env := DummyEnv()
	for k, v := range setup.Env {
		env[k] = strings.ReplaceAll(v, DataPlaceholder, data)
	}
	t.ExtraFiles = slices.Sorted(maps.Keys(setup.Files))
	if len(t.ExtraFiles) == 0 {
		t.ExtraFiles = nil
	}
	for rel, content := range setup.Files {
		p := filepath.Join(data, filepath.FromSlash(rel))
		if r, ok := strings.CutPrefix(rel, "~/"); ok {
			p = filepath.Join(home, filepath.FromSlash(r))
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.ErrorKind, t.Error = KindSpawnFailed, redact(err.Error())
			return t
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.ErrorKind, t.Error = KindSpawnFailed, redact(err.Error())
			return t
		}
	}
	t.ExtraEnv = EnvNames(setup.Env)
	if len(t.ExtraEnv) == 0 {
		t.ExtraEnv = nil
	}
	node := opt.Node
	if node == "" {
		node = "node"
	}
	nodePath, err := exec.LookPath(node)
	if err != nil {
		t.ErrorKind, t.Error = KindSpawnFailed, fmt.Sprintf("node: %v", err)
		return t
	}
	env["HOME"] = home
	env["USERPROFILE"] = home
	env["TMPDIR"] = filepath.Join(home, "tmp")
	env["XDG_CONFIG_HOME"] = filepath.Join(home, ".config")
	env["XDG_CACHE_HOME"] = filepath.Join(home, ".cache")
	env["XDG_DATA_HOME"] = filepath.Join(home, ".local", "share")
	env["PATH"] = strings.Join([]string{filepath.Join(installDir, "node_modules", ".bin"), filepath.Dir(nodePath), "/usr/local/bin", "/usr/bin", "/bin"}, string(os.PathListSeparator))

	sctx, cancel := context.WithTimeout(ctx, orDefault(opt.Timeout, 20*time.Second))
	defer cancel()
	cmd := commandFor(sctx, nodePath, binPath, args)
	cmd.Dir = data
	for _, k := range EnvNames(env) {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	// Its own process group, so the server's children die with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 2 * time.Second
	stderr := &tailBuffer{max: 8 << 10}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.ErrorKind, t.Error = KindSpawnFailed, err.Error()
		return t
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.ErrorKind, t.Error = KindSpawnFailed, err.Error()
		return t
	}
	if err := cmd.Start(); err != nil {
		t.ErrorKind, t.Error = KindSpawnFailed, redact(err.Error())
		return t
	}
	exited := make(chan struct{})
	noiseHead := &headBuffer{max: 2 << 10}
	var noise int
	var noiseMu sync.Mutex
	pr, pw := io.Pipe()
	go func() {
		// Servers that log to stdout break a strict line decoder; a lenient
		// client skips such lines, and so does the probe (counting them).
		n := filterJSONLines(stdout, pw, noiseHead)
		noiseMu.Lock()
		noise = n
		noiseMu.Unlock()
		pw.Close()
	}()
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	defer func() {
		_ = killGroup(cmd)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
		// A child that left the group (setsid, a detached spawn) is still
		// found by its working directory inside the throwaway tree.
		killStragglers(root)
		noiseMu.Lock()
		t.StdoutNoiseLines = noise
		noiseMu.Unlock()
		if !t.Started || t.ErrorKind != "" {
			t.StderrTail = redact(tailString(stderr.String(), 2000))
			t.StdoutNoiseHead = redact(strings.TrimSpace(noiseHead.String()))
		}
	}()

	raw := &rawLists{}
	// The client declares roots, sampling and elicitation, as a full client
	// would: some servers list more when the client can do more. The probe
	// never answers a sampling or elicitation request.
	errNoModel := errors.New("attestari-probe answers no sampling or elicitation request")
	copts := &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, errNoModel
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return nil, errNoModel
		},
	}
	if setup.URLElicitation {
		// Explicit capabilities replace the SDK's defaults, so roots is
		// restated; sampling is still inferred from its handler.
		copts.Capabilities = &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{ListChanged: true},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		}
		t.ExtraClientCaps = []string{CapURLElicitation}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "attestari-probe", Version: "1"}, copts)
	client.AddRoots(&mcp.Root{URI: "file://" + data, Name: "data"})
	client.AddSendingMiddleware(raw.middleware)
	cs, err := client.Connect(sctx, &mcp.IOTransport{Reader: pr, Writer: stdin, MaxLineLength: 64 << 20}, &mcp.ClientSessionOptions{ProtocolVersion: probeProtocolVersion})
	if err != nil {
		t.ErrorKind, t.Error = classifyConnect(sctx, exited, err), redact(tailString(err.Error(), 1000))
		return t
	}
	defer cs.Close()
	t.Started = true
	ir := cs.InitializeResult()
	if ir.ServerInfo != nil {
		t.ServerName, t.ServerVersion = ir.ServerInfo.Name, ir.ServerInfo.Version
	}
	t.ProtocolVersion = ir.ProtocolVersion
	t.Instructions = ir.Instructions
	if ir.Instructions != "" {
		t.InstructionsSHA = TextHash(ir.Instructions)
	}
	caps := ir.Capabilities
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}

	t.Lists["tools/list"] = listAll(sctx, caps.Tools != nil, func(cursor string) (string, error) {
		r, err := cs.ListTools(sctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		for _, tool := range raw.takeTools(r.Tools) {
			t.Tools = append(t.Tools, toolTruth(tool))
		}
		return r.NextCursor, nil
	})
	if s := t.Lists["tools/list"]; s.Status == ListError {
		t.ErrorKind, t.Error = KindListToolsFailed, s.Error
	}
	t.Lists["prompts/list"] = listAll(sctx, caps.Prompts != nil, func(cursor string) (string, error) {
		r, err := cs.ListPrompts(sctx, &mcp.ListPromptsParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		for _, p := range r.Prompts {
			if p == nil {
				continue
			}
			pt := PromptTruth{Name: p.Name, Title: p.Title, Description: p.Description, DescriptionSHA256: TextHash(p.Description)}
			for _, a := range p.Arguments {
				if a != nil {
					pt.Arguments = append(pt.Arguments, ArgTruth{Name: a.Name, Description: a.Description, Required: a.Required})
				}
			}
			t.Prompts = append(t.Prompts, pt)
		}
		return r.NextCursor, nil
	})
	t.Lists["resources/list"] = listAll(sctx, caps.Resources != nil, func(cursor string) (string, error) {
		r, err := cs.ListResources(sctx, &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		for _, x := range r.Resources {
			if x != nil {
				t.Resources = append(t.Resources, ResourceTruth{Name: x.Name, Title: x.Title, URI: x.URI, MIMEType: x.MIMEType, Description: x.Description, DescriptionSHA256: TextHash(x.Description)})
			}
		}
		return r.NextCursor, nil
	})
	t.Lists["resources/templates/list"] = listAll(sctx, caps.Resources != nil, func(cursor string) (string, error) {
		r, err := cs.ListResourceTemplates(sctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return "", err
		}
		for _, x := range r.ResourceTemplates {
			if x != nil {
				t.Templates = append(t.Templates, ResourceTruth{Name: x.Name, Title: x.Title, URI: x.URITemplate, MIMEType: x.MIMEType, Description: x.Description, DescriptionSHA256: TextHash(x.Description)})
			}
		}
		return r.NextCursor, nil
	})
	for k, v := range t.Lists {
		v.Error = redact(v.Error)
		t.Lists[k] = v
	}
	t.Error = redact(t.Error)
	return t
}

var listMethods = []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list"}

// maxPages bounds pagination: a server that hands out cursors forever must
// not keep the probe alive past its timeout anyway, but the bound makes the
// intent plain.
const maxPages = 50

// listAll asks one list method, following cursors. A method the server did
// not declare and that fails is "unsupported"; a declared one that fails is
// an error.
func listAll(ctx context.Context, declared bool, page func(cursor string) (string, error)) ListStatus {
	cursor := ""
	for i := 0; i < maxPages; i++ {
		next, err := page(cursor)
		if err != nil {
			var werr *jsonrpc.Error
			methodNotFound := errors.As(err, &werr) && werr.Code == -32601
			if !declared || methodNotFound {
				return ListStatus{Status: ListUnsupported, Error: tailString(err.Error(), 500)}
			}
			return ListStatus{Status: ListError, Error: tailString(err.Error(), 500)}
		}
		if next == "" {
			return ListStatus{Status: ListOK}
		}
		cursor = next
	}
	return ListStatus{Status: ListError, Error: fmt.Sprintf("more than %d pages", maxPages)}
}

func classifyConnect(ctx context.Context, exited <-chan struct{}, err error) string {
	// The deadline first: when it passes, the process is killed for it, so
	// "exited" is then a consequence of the timeout, not its cause.
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return KindTimeout
	}
	select {
	case <-exited:
		return KindExited
	default:
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) {
		return KindExited
	}
	return KindProtocolError
}

// rawLists keeps the tools exactly as the server sent them: the SDK's
// ListTools drops entries it judges invalid, and the truth must not.
type rawLists struct {
	mu    sync.Mutex
	tools []*mcp.Tool
}

func (r *rawLists) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil && method == "tools/list" {
			if lt, ok := res.(*mcp.ListToolsResult); ok {
				r.mu.Lock()
				r.tools = append([]*mcp.Tool(nil), lt.Tools...)
				r.mu.Unlock()
			}
		}
		return res, err
	}
}

func (r *rawLists) takeTools(filtered []*mcp.Tool) []*mcp.Tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.tools
	r.tools = nil
	if out == nil {
		out = filtered
	}
	kept := out[:0:0]
	for _, t := range out {
		if t != nil {
			kept = append(kept, t)
		}
	}
	return kept
}

func toolTruth(tool *mcp.Tool) ToolTruth {
	tt := ToolTruth{
		Name:              tool.Name,
		Title:             tool.Title,
		Description:       tool.Description,
		DescriptionSHA256: TextHash(tool.Description),
		InputSchemaSHA256: SchemaHash(tool.InputSchema),
		ParamDescriptions: ParamDescriptions(tool.InputSchema),
	}
	if tool.Annotations != nil {
		b, _ := json.Marshal(tool.Annotations)
		var m map[string]any
		if json.Unmarshal(b, &m) == nil && len(m) > 0 {
			tt.Annotations = m
		}
	}
	return tt
}

// SchemaHash is the hex SHA-256 of the RFC 8785 canonical JSON of schema,
// so two servers that send the same schema in a different key order hash
// alike. A schema that does not marshal hashes as the empty string's hash of
// "null".
func SchemaHash(schema any) string {
	b, err := json.Marshal(schema)
	if err != nil {
		b = []byte("null")
	}
	c, err := jcs.Transform(b)
	if err != nil {
		c = b
	}
	return TextHash(string(c))
}

// ParamDescriptions walks a JSON schema by its structure and returns every
// subschema's own string "description" below the root, with the JSON pointer
// of the subschema that carries it, sorted by pointer. The root's own
// description is not a parameter's.
//
// A key's role is read from where it stands, never from its name alone: in a
// schema, "description" is the schema's text and "enum", "const", "default"
// and "examples" hold data (not walked); under "properties" (and the other
// keywords that map names to schemas) every key is a name and its value a
// schema, so a property named "description", "title", "items" or
// "properties" is walked like any other. A key of a schema that is no
// keyword JSON Schema gives a subschema to is walked as a schema too: servers
// send such schemas (an object's properties set beside "type" with no
// "properties" around them) and their texts reach the client all the same.
// The walk stops 64 levels down.
func ParamDescriptions(schema any) []ParamTruth {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil
	}
	var out []ParamTruth
	var walk func(node any, ptr string, depth int)
	each := func(node any, ptr string, depth int) {
		switch n := node.(type) {
		case map[string]any:
			for k, child := range n {
				walk(child, ptr+"/"+escapePointer(k), depth)
			}
		case []any:
			for i, child := range n {
				walk(child, fmt.Sprintf("%s/%d", ptr, i), depth)
			}
		}
	}
	walk = func(node any, ptr string, depth int) {
		if depth > 64 {
			return
		}
		switch n := node.(type) {
		case map[string]any:
			if d, ok := n["description"].(string); ok && ptr != "" {
				out = append(out, ParamTruth{Pointer: ptr, Description: d})
			}
			for k, child := range n {
				kp := ptr + "/" + escapePointer(k)
				switch schemaKeywordRole[k] {
				case roleNamedSchemas:
					if m, ok := child.(map[string]any); ok {
						each(m, kp, depth+1)
					}
				case roleSchemas:
					if a, ok := child.([]any); ok {
						each(a, kp, depth+1)
					} else {
						walk(child, kp, depth+1)
					}
				case roleData:
				case roleSchema: // also every key not listed
					walk(child, kp, depth+1)
				}
			}
		case []any:
			each(n, ptr, depth+1)
		}
	}
	walk(v, "", 0)
	sort.Slice(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// The role a keyword of a JSON schema gives its value, for ParamDescriptions:
// a map from names to schemas, a schema or an array of schemas, or data and
// annotations that hold no subschema. A key not listed is walked as a schema.
const (
	roleSchema = iota
	roleNamedSchemas
	roleSchemas
	roleData
)

var schemaKeywordRole = map[string]int{
	"properties": roleNamedSchemas, "patternProperties": roleNamedSchemas, "$defs": roleNamedSchemas,
	"definitions": roleNamedSchemas, "dependentSchemas": roleNamedSchemas, "dependencies": roleNamedSchemas,
	"items": roleSchemas, "prefixItems": roleSchemas, "anyOf": roleSchemas, "oneOf": roleSchemas, "allOf": roleSchemas,
	"description": roleData, "title": roleData, "enum": roleData, "const": roleData, "default": roleData,
	"examples": roleData, "type": roleData, "required": roleData, "$comment": roleData, "format": roleData,
	"pattern": roleData, "$ref": roleData, "$id": roleData, "$schema": roleData,
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// chooseBin picks the executable to start: want when set, else the only one,
// else the one named like the package, else one whose name says mcp or
// server, else the first by name.
func chooseBin(pkgDir, name, want string) (string, string, error) {
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return "", "", fmt.Errorf("installed package.json: %w", err)
	}
	var pj struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		return "", "", fmt.Errorf("installed package.json: %w", err)
	}
	bins := map[string]string{}
	var s string
	if json.Unmarshal(pj.Bin, &s) == nil && s != "" {
		base := name
		if i := strings.LastIndex(base, "/"); i >= 0 {
			base = base[i+1:]
		}
		bins[base] = s
	} else {
		_ = json.Unmarshal(pj.Bin, &bins)
	}
	if len(bins) == 0 {
		return "", "", errors.New("package.json declares no bin")
	}
	keys := slices.Sorted(maps.Keys(bins))
	pick := keys[0]
	unscoped := name[strings.LastIndex(name, "/")+1:]
	switch {
	case want != "":
		if bins[want] == "" {
			return "", "", fmt.Errorf("package.json has no bin %q", want)
		}
		pick = want
	case len(keys) == 1:
	case bins[unscoped] != "":
		pick = unscoped
	default:
		for _, k := range keys {
			if strings.Contains(k, "mcp") || strings.Contains(k, "server") {
				pick = k
				break
			}
		}
	}
	rel := filepath.Clean(filepath.FromSlash(bins[pick]))
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
		return "", "", fmt.Errorf("bin %q points outside the package: %q", pick, bins[pick])
	}
	return pick + " -> " + bins[pick], filepath.Join(pkgDir, rel), nil
}

// commandFor runs a JavaScript bin with node (the shebang is not trusted to
// find it in the throwaway PATH) and anything else directly.
func commandFor(ctx context.Context, node, bin string, args []string) *exec.Cmd {
	head := make([]byte, 128)
	if f, err := os.Open(bin); err == nil {
		n, _ := io.ReadFull(f, head)
		head = head[:n]
		f.Close()
	}
	line := string(head)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	ext := filepath.Ext(bin)
	isJS := ext == ".js" || ext == ".mjs" || ext == ".cjs" ||
		(strings.HasPrefix(line, "#!") && strings.Contains(line, "node")) ||
		(!strings.HasPrefix(line, "#!") && !bytes.HasPrefix(head, []byte("\x7fELF")))
	if isJS {
		return exec.CommandContext(ctx, node, append([]string{bin}, args...)...)
	}
	_ = os.Chmod(bin, 0o755)
	return exec.CommandContext(ctx, bin, args...)
}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	// Negative pid: the whole group Setpgid made.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// killStragglers kills every process whose working directory lies inside
// root: the server's descendants that left its process group. It reads
// /proc, so it does nothing where there is none.
func killStragglers(root string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil {
			continue
		}
		if cwd == root || strings.HasPrefix(cwd, root+string(os.PathSeparator)) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// filterJSONLines copies the lines of r that look like JSON-RPC frames (a
// JSON object or array naming "jsonrpc") to w and returns how many other
// non-blank lines it skipped: plain log lines and JSON log records alike.
func filterJSONLines(r io.Reader, w io.Writer, noise io.Writer) int {
	br := bufio.NewReaderSize(r, 1<<16)
	skipped := 0
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			trimmed := bytes.TrimSpace(line)
			switch {
			case len(trimmed) == 0:
			case (trimmed[0] == '{' || trimmed[0] == '[') && bytes.Contains(trimmed, []byte(`"jsonrpc"`)):
				if _, werr := w.Write(line); werr != nil {
					return skipped
				}
			default:
				skipped++
				if noise != nil {
					_, _ = noise.Write(line)
				}
			}
		}
		if err != nil {
			return skipped
		}
	}
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *headBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		if len(p) > room {
			b.buf = append(b.buf, p[:room]...)
		} else {
			b.buf = append(b.buf, p...)
		}
	}
	return len(p), nil
}

func (b *headBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.ToValidUTF8(string(b.buf), "")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
