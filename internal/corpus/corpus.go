// Package corpus owns the real-server corpora the extractor is measured
// against: the pinned list of npm MCP server versions (testdata/corpus/
// packages.json), the pinning step that builds it with the npm client, the
// runtime probe that starts each server and records what it lists (the
// truth files under testdata/corpus/truth/), and the comparison of extractor
// output with that truth; and the Python corpus (testdata/corpus-python/):
// public repositories pinned to a commit, packed into sdist-shaped archives
// from local git mirrors (pylist.go), with a truth read from source by
// scripts/py_truth.py and reviewed by hand, and its comparison (pyeval.go).
//
// It must not import the extractor (internal/surface): the comparison takes
// surfaces as rundir values, so the truth stays independent of what it
// judges. It never stores a package's code: the list and the truth hold
// names, versions, hashes and the text a running server returned. It names
// no registry host; the npm client is configured outside the project.
package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// Registry is the registry the runtime-probed corpus draws from. PyPI is not
// reachable from the project's machines, so the Python corpus is packed from
// public repositories instead (PyRegistry).
const Registry = vocab.RegistryNPM

// Tiers say why a package was selected.
const (
	TierOfficial      = "official"       // @modelcontextprotocol/server-*
	TierOfficialOlder = "official_older" // older releases of the official servers (older SDK idioms)
	TierPopular       = "popular"        // ≥ 10,000 downloads a month in the package listing
	TierLongTail      = "long_tail"      // 300–10,000 downloads a month
)

// Package is one pinned entry of packages.json.
type Package struct {
	Name            string   `json:"name"`
	Version         string   `json:"version"`
	Tier            string   `json:"tier"`
	SelectedBy      string   `json:"selected_by"`
	DownloadsAMonth int64    `json:"downloads_a_month,omitempty"`
	TarballSHA256   string   `json:"tarball_sha256"`
	TarballSize     int64    `json:"tarball_size"`
	Integrity       string   `json:"integrity"`
	Bin             []string `json:"bin"`
}

// Key is the package's identity inside the corpus: "name@version".
func (p Package) Key() string { return p.Name + "@" + p.Version }

// Excluded is a candidate the pinning step left out, with the reason.
type Excluded struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Tier    string `json:"tier"`
	Reason  string `json:"reason"`
}

// List is packages.json.
type List struct {
	Generated string     `json:"generated"` // date the versions were pinned, YYYY-MM-DD
	Rule      string     `json:"rule"`      // one sentence; README.md has the whole rule
	Packages  []Package  `json:"packages"`
	Excluded  []Excluded `json:"excluded"`
}

// ErrInvalidList reports a packages.json that breaks the list's invariants.
var ErrInvalidList = errors.New("invalid corpus list")

// Validate checks the invariants every consumer relies on: each entry names
// a version and a 64-hex SHA-256, and no name@version appears twice.
func (l *List) Validate() error {
	seen := map[string]bool{}
	for i, p := range l.Packages {
		if p.Name == "" || p.Version == "" {
			return fmt.Errorf("%w: entry %d has no name or version", ErrInvalidList, i)
		}
		if !isHex64(p.TarballSHA256) {
			return fmt.Errorf("%w: %s: tarball_sha256 %q is not 64 hex digits", ErrInvalidList, p.Key(), p.TarballSHA256)
		}
		if !strings.HasPrefix(p.Integrity, "sha512-") {
			return fmt.Errorf("%w: %s: integrity %q is not a sha512 SRI", ErrInvalidList, p.Key(), p.Integrity)
		}
		if seen[p.Key()] {
			return fmt.Errorf("%w: %s listed twice", ErrInvalidList, p.Key())
		}
		seen[p.Key()] = true
	}
	return nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// LoadList reads and validates packages.json.
func LoadList(path string) (*List, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus.LoadList %s: %w", path, err)
	}
	var l List
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("corpus.LoadList %s: %w", path, err)
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("corpus.LoadList %s: %w", path, err)
	}
	return &l, nil
}

// WriteJSON writes v as indented JSON with a trailing newline, through a
// temporary file so that a reader never sees half a file.
func WriteJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // descriptions hold <, > and & verbatim; keep the files readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("corpus.WriteJSON %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("corpus.WriteJSON %s: %w", path, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("corpus.WriteJSON %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("corpus.WriteJSON %s: %w", path, err)
	}
	return nil
}

// Probe outcomes, the error_kind of a truth file whose server did not list.
const (
	KindInstallFailed   = "install_failed"   // npm install did not complete
	KindNoBin           = "no_bin"           // the package declares no executable
	KindSpawnFailed     = "spawn_failed"     // the bin could not be started
	KindExited          = "exited"           // the process ended before answering initialize
	KindTimeout         = "timeout"          // no initialize answer within the hard timeout
	KindProtocolError   = "protocol_error"   // initialize answered with an error or malformed result
	KindListToolsFailed = "list_tools_error" // initialized, but tools/list failed
)

// TextHash is the hex SHA-256 of s's UTF-8 bytes.
func TextHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// ToolTruth is one tool as the running server listed it.
type ToolTruth struct {
	Name              string         `json:"name"`
	Title             string         `json:"title,omitempty"`
	Description       string         `json:"description"`
	DescriptionSHA256 string         `json:"description_sha256"`
	InputSchemaSHA256 string         `json:"input_schema_sha256"` // SHA-256 of the RFC 8785 canonical form
	Annotations       map[string]any `json:"annotations,omitempty"`
	ParamDescriptions []ParamTruth   `json:"parameter_descriptions,omitempty"`
}

// ParamTruth is one description found in a tool's input schema, addressed by
// its JSON pointer inside the schema (e.g. "/properties/path").
type ParamTruth struct {
	Pointer     string `json:"pointer"`
	Description string `json:"description"`
}

// ArgTruth is one argument of a prompt.
type ArgTruth struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptTruth is one prompt as listed.
type PromptTruth struct {
	Name              string     `json:"name"`
	Title             string     `json:"title,omitempty"`
	Description       string     `json:"description"`
	DescriptionSHA256 string     `json:"description_sha256"`
	Arguments         []ArgTruth `json:"arguments,omitempty"`
}

// ResourceTruth is one resource or resource template as listed; URI holds
// the template for a template.
type ResourceTruth struct {
	Name              string `json:"name"`
	Title             string `json:"title,omitempty"`
	URI               string `json:"uri"`
	MIMEType          string `json:"mime_type,omitempty"`
	Description       string `json:"description"`
	DescriptionSHA256 string `json:"description_sha256"`
}

// ListStatus says how one list request went: "ok", "unsupported" (the server
// declares no such capability, or answered method-not-found) or "error".
type ListStatus struct {
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// List statuses.
const (
	ListOK          = "ok"
	ListUnsupported = "unsupported"
	ListError       = "error"
	ListNotAsked    = "not_asked" // the server never initialized
)

// Truth is one file under testdata/corpus/truth/: what one server version
// listed at run time. LowerBound is always true: a server may list more once
// it is configured (real credentials, a reachable backend, feature flags),
// so a tool the extractor finds that is not here is not proof of a false
// positive; a tool here that the extractor misses is a miss.
type Truth struct {
	Name             string                `json:"name"`
	Version          string                `json:"version"`
	TarballSHA256    string                `json:"tarball_sha256"`
	ProbedAt         string                `json:"probed_at"` // YYYY-MM-DD
	Prober           string                `json:"prober"`    // client name and version
	Started          bool                  `json:"started"`
	ErrorKind        string                `json:"error_kind,omitempty"`
	Error            string                `json:"error,omitempty"`
	StderrTail       string                `json:"stderr_tail,omitempty"`
	Bin              string                `json:"bin,omitempty"`
	Args             []string              `json:"args"`                                // "{data}" stands for the throwaway data directory
	EnvProfile       string                `json:"env_profile"`                         // the common dummy-credential set (README.md lists it)
	ExtraEnv         []string              `json:"extra_env,omitempty"`                 // names of package-specific variables set
	ExtraFiles       []string              `json:"extra_files,omitempty"`               // dummy files written into the data directory
	ExtraClientCaps  []string              `json:"extra_client_capabilities,omitempty"` // capabilities the client declared beyond the default set (CapURLElicitation)
	StdoutNoiseLines int                   `json:"stdout_noise_lines,omitempty"`        // non-JSON lines the server wrote to stdout, skipped
	StdoutNoiseHead  string                `json:"stdout_noise_head,omitempty"`         // the first skipped stdout lines, kept when the probe failed
	ServerName       string                `json:"server_name,omitempty"`
	ServerVersion    string                `json:"server_version,omitempty"`
	ProtocolVersion  string                `json:"protocol_version,omitempty"`
	Instructions     string                `json:"instructions"`
	InstructionsSHA  string                `json:"instructions_sha256,omitempty"`
	Lists            map[string]ListStatus `json:"lists"` // keyed by method: tools/list, prompts/list, ...
	Tools            []ToolTruth           `json:"tools"`
	Prompts          []PromptTruth         `json:"prompts"`
	Resources        []ResourceTruth       `json:"resources"`
	Templates        []ResourceTruth       `json:"templates"`
	LowerBound       bool                  `json:"lower_bound"`
	DurationMs       int64                 `json:"duration_ms"`
}

// Key is the truth's identity: "name@version".
func (t Truth) Key() string { return t.Name + "@" + t.Version }

// TruthFileName is the file a truth is stored in: the scope's "@" dropped and
// "/" replaced by "__", so "@scope/x" at 1.0.0 is "scope__x@1.0.0.json".
func TruthFileName(name, version string) string {
	n := strings.TrimPrefix(name, "@")
	n = strings.ReplaceAll(n, "/", "__")
	return n + "@" + version + ".json"
}

// LoadTruth reads one truth file.
func LoadTruth(path string) (*Truth, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus.LoadTruth %s: %w", path, err)
	}
	var t Truth
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("corpus.LoadTruth %s: %w", path, err)
	}
	if t.Name == "" || t.Version == "" {
		return nil, fmt.Errorf("corpus.LoadTruth %s: %w: no name or version", path, ErrInvalidList)
	}
	return &t, nil
}

// LoadTruths reads every *.json file of dir, sorted by name@version.
func LoadTruths(dir string) ([]Truth, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus.LoadTruths %s: %w", dir, err)
	}
	out := make([]Truth, 0, len(paths))
	for _, p := range paths {
		t, err := LoadTruth(p)
		if err != nil {
			return nil, err
		}
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, nil
}
