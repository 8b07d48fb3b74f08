package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// NPM runs the ordinary npm client. The registry it talks to is the client's
// own configuration (.npmrc, npm_config_registry): the project names none.
type NPM struct {
	// Bin is the npm executable; "npm" when empty.
	Bin string
	// Cache is npm's cache directory, shared by every call so that repeated
	// installs of the same dependencies stay local; npm's default when empty.
	Cache string
}

// ErrNotFound reports that the registry has no such package or version.
var ErrNotFound = errors.New("package or version not found")

// CommandError is a failed npm invocation with the tail of what it printed.
type CommandError struct {
	Args   []string
	Err    error
	Stderr string
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("npm %s: %v: %s", strings.Join(e.Args, " "), e.Err, e.Stderr)
}
func (e *CommandError) Unwrap() error { return e.Err }

func (n NPM) run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	bin := n.Bin
	if bin == "" {
		bin = "npm"
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if n.Cache != "" {
		cmd.Env = append(cmd.Env, "npm_config_cache="+n.Cache)
	}
	cmd.Env = append(cmd.Env, "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tail := tailString(stderr.String(), 1500)
		if strings.Contains(stderr.String(), "E404") || strings.Contains(stderr.String(), "ETARGET") {
			err = fmt.Errorf("%w: %v", ErrNotFound, err)
		}
		return stdout.Bytes(), &CommandError{Args: args, Err: err, Stderr: tail}
	}
	return stdout.Bytes(), nil
}

// Manifest is the part of `npm view --json` the corpus reads.
type Manifest struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Dist    struct {
		Integrity string `json:"integrity"`
		Shasum    string `json:"shasum"`
	} `json:"dist"`
	// Bin maps command names to paths; a manifest that names one path as a
	// string is read as that path under the package's unscoped name.
	Bin binField `json:"bin"`
}

type binField map[string]string

func (b *binField) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		// The command name is filled in by View, which knows the package name.
		*b = binField{"": s}
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("bin: %w", err)
	}
	*b = m
	return nil
}

// View returns the manifest of name@version.
func (n NPM) View(ctx context.Context, name, version string) (*Manifest, error) {
	out, err := n.run(ctx, "", "view", "--json", name+"@"+version)
	if err != nil {
		return nil, fmt.Errorf("corpus.NPM.View %s@%s: %w", name, version, err)
	}
	var m Manifest
	if err := json.Unmarshal(out, &m); err != nil {
		// A range that matches several versions prints an array; the corpus
		// always asks for one exact version, so that is an error too.
		return nil, fmt.Errorf("corpus.NPM.View %s@%s: unexpected output: %w", name, version, err)
	}
	if m.Version != version {
		return nil, fmt.Errorf("corpus.NPM.View %s@%s: %w (got %q)", name, version, ErrNotFound, m.Version)
	}
	if p, ok := m.Bin[""]; ok {
		delete(m.Bin, "")
		m.Bin[name[strings.LastIndex(name, "/")+1:]] = p
	}
	return &m, nil
}

// BinNames returns the manifest's command names, sorted.
func (m *Manifest) BinNames() []string {
	out := make([]string, 0, len(m.Bin))
	for k := range m.Bin {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Pack downloads name@version's tarball into dir with `npm pack` and returns
// its path.
func (n NPM) Pack(ctx context.Context, name, version, dir string) (string, error) {
	out, err := n.run(ctx, dir, "pack", "--ignore-scripts", "--json", "--pack-destination", dir, name+"@"+version)
	if err != nil {
		return "", fmt.Errorf("corpus.NPM.Pack %s@%s: %w", name, version, err)
	}
	var res []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res) != 1 || res[0].Filename == "" {
		return "", fmt.Errorf("corpus.NPM.Pack %s@%s: unexpected output %q", name, version, tailString(string(out), 300))
	}
	// Scoped packages are packed as "scope-name-version.tgz"; the client
	// reports that name, never a path.
	return filepath.Join(dir, filepath.Base(res[0].Filename)), nil
}

// Install installs name@version and its dependencies into dir without
// running any install script, so nothing of the package runs before the
// probe starts it on purpose.
func (n NPM) Install(ctx context.Context, name, version, dir string) error {
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"attestari-probe-sandbox","private":true}`), 0o644); err != nil {
		return fmt.Errorf("corpus.NPM.Install %s@%s: %w", name, version, err)
	}
	_, err := n.run(ctx, dir, "install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-save",
		"--no-package-lock", "--loglevel=error", name+"@"+version)
	if err != nil {
		return fmt.Errorf("corpus.NPM.Install %s@%s: %w", name, version, err)
	}
	return nil
}

// FileDigests are the two digests the corpus records of a tarball.
type FileDigests struct {
	SHA256    string // hex
	Integrity string // "sha512-" + base64, the SRI form npm records
	Size      int64
}

// DigestFile reads path once and returns its SHA-256 and SHA-512 SRI.
func DigestFile(path string) (FileDigests, error) {
	f, err := os.Open(path)
	if err != nil {
		return FileDigests{}, fmt.Errorf("corpus.DigestFile %s: %w", path, err)
	}
	defer f.Close()
	h256, h512 := sha256.New(), sha512.New()
	n, err := io.Copy(io.MultiWriter(h256, h512), f)
	if err != nil {
		return FileDigests{}, fmt.Errorf("corpus.DigestFile %s: %w", path, err)
	}
	return FileDigests{
		SHA256:    hex.EncodeToString(h256.Sum(nil)),
		Integrity: "sha512-" + base64.StdEncoding.EncodeToString(h512.Sum(nil)),
		Size:      n,
	}, nil
}

func tailString(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary so the stored text stays valid UTF-8.
	cut := len(s) - n
	for cut < len(s) && (s[cut]&0xC0) == 0x80 {
		cut++
	}
	return "…" + s[cut:]
}
