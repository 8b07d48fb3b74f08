package corpus

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// The Python corpus (testdata/corpus-python/). PyPI is not reachable from
// the project's machines, so each server is a public repository pinned to a
// commit and a package root inside it, packed here into an sdist-shaped
// archive; its truth is written by scripts/py_truth.py (an independent
// reader over Python's ast module) and reviewed by hand.

// Frameworks a Python server is written against, as servers.json records
// them.
const (
	FrameworkFastMCP    = "fastmcp"     // the standalone fastmcp package (2.x, 3.x)
	FrameworkSDKFastMCP = "sdk_fastmcp" // the official SDK's mcp.server.fastmcp.FastMCP (MCPServer in SDK 2)
	FrameworkLowLevel   = "lowlevel"    // the SDK's low-level mcp.server.Server
)

// PyServer is one pinned entry of servers.json.
type PyServer struct {
	Name      string `json:"name"`    // the pyproject's project.name
	Version   string `json:"version"` // the pyproject's project.version (a local label when one tree is pinned twice)
	Repo      string `json:"repo"`    // owner/name on the code host
	Commit    string `json:"commit"`  // 40 hex digits
	Subdir    string `json:"subdir"`  // the package root inside the repository ("" for the top)
	SHA256    string `json:"sha256"`  // of the packed archive
	Framework string `json:"framework"`
	Tier      string `json:"tier"` // official, sdk_example, fastmcp, vendor, long_tail
	Notes     string `json:"notes,omitempty"`
	// Files is the rule that chose the archive's files (pysdist.go): the
	// build backend's sdist selection where the packer applies it, or why
	// the whole tree was packed. py-pack -update writes it; a check compares it.
	Files string `json:"files,omitempty"`
}

// Key is "name@version", the corpus key.
func (s PyServer) Key() string { return s.Name + "@" + s.Version }

// PyList is testdata/corpus-python/servers.json.
type PyList struct {
	Generated string     `json:"generated"`
	Rule      string     `json:"rule"`
	Servers   []PyServer `json:"servers"`
}

var hex40 = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Validate checks what the packer and the evaluation rely on.
func (l *PyList) Validate() error {
	seen := map[string]bool{}
	for i, s := range l.Servers {
		if s.Name == "" || s.Version == "" {
			return fmt.Errorf("%w: server %d has no name or version", ErrInvalidList, i)
		}
		if !hex40.MatchString(s.Commit) {
			return fmt.Errorf("%w: %s: commit %q is not 40 hex digits", ErrInvalidList, s.Key(), s.Commit)
		}
		if strings.Count(s.Repo, "/") != 1 {
			return fmt.Errorf("%w: %s: repo %q is not owner/name", ErrInvalidList, s.Key(), s.Repo)
		}
		if s.Subdir != "" && (path.IsAbs(s.Subdir) || path.Clean(s.Subdir) != s.Subdir || strings.HasPrefix(s.Subdir, "..")) {
			return fmt.Errorf("%w: %s: subdir %q is not a clean relative path", ErrInvalidList, s.Key(), s.Subdir)
		}
		if s.SHA256 != "" && !isHex64(s.SHA256) {
			return fmt.Errorf("%w: %s: sha256 %q is not 64 hex digits", ErrInvalidList, s.Key(), s.SHA256)
		}
		switch s.Framework {
		case FrameworkFastMCP, FrameworkSDKFastMCP, FrameworkLowLevel:
		default:
			return fmt.Errorf("%w: %s: framework %q", ErrInvalidList, s.Key(), s.Framework)
		}
		if seen[s.Key()] {
			return fmt.Errorf("%w: %s listed twice", ErrInvalidList, s.Key())
		}
		seen[s.Key()] = true
	}
	return nil
}

// LoadPyList reads and validates servers.json.
func LoadPyList(p string) (*PyList, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("corpus.LoadPyList %s: %w", p, err)
	}
	var l PyList
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("corpus.LoadPyList %s: %w", p, err)
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("corpus.LoadPyList %s: %w", p, err)
	}
	return &l, nil
}

// SdistName is the PEP 625 spelling of a project name in an sdist's file
// name and top directory: lower case, runs of "-", "_" and "." as one "_".
func SdistName(name string) string {
	return strings.ToLower(regexp.MustCompile(`[-_.]+`).ReplaceAllString(name, "_"))
}

// PyArchivePath is where the packer writes a server's archive under dir.
func PyArchivePath(dir string, s PyServer) string {
	return filepath.Join(dir, SdistName(s.Name)+"-"+s.Version+".tar.gz")
}

// MirrorGitDir is the bare git directory of repo under mirrors, in the
// layout the fetch tool writes (<mirrors>/<owner>+<name>/repo); a plain
// <mirrors>/<owner>+<name>.git or <mirrors>/<owner>+<name> is accepted too.
func MirrorGitDir(mirrors, repo string) (string, error) {
	base := filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"))
	for _, c := range []string{filepath.Join(base, "repo"), base + ".git", base} {
		if st, err := os.Stat(filepath.Join(c, "objects")); err == nil && st.IsDir() {
			return c, nil
		}
	}
	return "", fmt.Errorf("corpus.MirrorGitDir: %w: %s (fetch github:%s first)", ErrNoMirror, base, repo)
}

// ErrNoMirror reports a repository of the list with no local mirror.
var ErrNoMirror = errors.New("no mirror of the repository")

// ErrArchiveMismatch reports a packed archive whose SHA-256 is not the one
// the list pins.
var ErrArchiveMismatch = errors.New("packed archive does not match the pinned SHA-256")

// MaxTreeBlob is the size from which a file of a pinned tree is left out of
// its archive. The fetch tool's mirrors lack files of 4 MiB and more (images
// and data, never a server's source), so leaving them out everywhere keeps an
// archive's bytes the same whichever copy of the repository it is packed
// from.
const MaxTreeBlob = 4 << 20

// GitTree returns the regular files of commit:subdir in the bare repository
// gitDir as a tar stream (paths relative to subdir), read with `git ls-tree`
// and `git cat-file`. Links, submodules and files of MaxTreeBlob bytes or
// more are left out.
func GitTree(ctx context.Context, gitDir, commit, subdir string) ([]byte, error) {
	treeish := commit
	if subdir != "" {
		treeish += ":" + subdir
	}
	ls, err := git(ctx, gitDir, nil, "ls-tree", "-r", "-l", "-z", treeish)
	if err != nil {
		return nil, fmt.Errorf("corpus.GitTree %s %s: %w", gitDir, treeish, err)
	}
	type blob struct {
		path, sha string
		exec      bool
	}
	var blobs []blob
	for _, rec := range bytes.Split(ls, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 {
			return nil, fmt.Errorf("corpus.GitTree %s: unexpected ls-tree line %q", treeish, rec)
		}
		if f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue
		}
		var size int64
		if _, err := fmt.Sscan(f[3], &size); err != nil || size >= MaxTreeBlob {
			continue
		}
		blobs = append(blobs, blob{p, f[2], f[0] == "100755"})
	}
	var in bytes.Buffer
	for _, b := range blobs {
		in.WriteString(b.sha + "\n")
	}
	cat, err := git(ctx, gitDir, &in, "cat-file", "--batch")
	if err != nil {
		return nil, fmt.Errorf("corpus.GitTree %s %s: %w", gitDir, treeish, err)
	}
	var out bytes.Buffer
	tw := tar.NewWriter(&out)
	for _, b := range blobs {
		nl := bytes.IndexByte(cat, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("corpus.GitTree %s: cat-file output ends early at %s", treeish, b.path)
		}
		f := strings.Fields(string(cat[:nl]))
		var size int
		if len(f) != 3 || f[1] != "blob" {
			return nil, fmt.Errorf("corpus.GitTree %s: %s: cat-file says %q", treeish, b.path, cat[:nl])
		}
		if _, err := fmt.Sscan(f[2], &size); err != nil || nl+1+size+1 > len(cat) {
			return nil, fmt.Errorf("corpus.GitTree %s: %s: bad size in %q", treeish, b.path, cat[:nl])
		}
		data := cat[nl+1 : nl+1+size]
		cat = cat[nl+1+size+1:]
		mode := int64(0o644)
		if b.exec {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: b.path, Mode: mode, Size: int64(size), Typeflag: tar.TypeReg}); err != nil {
			return nil, fmt.Errorf("corpus.GitTree %s: %w", b.path, err)
		}
		if _, err := tw.Write(data); err != nil {
			return nil, fmt.Errorf("corpus.GitTree %s: %w", b.path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("corpus.GitTree: %w", err)
	}
	return out.Bytes(), nil
}

func git(ctx context.Context, gitDir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", gitDir}, args...)...)
	var out, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}

// PackSdist turns a tar of a package root (what `git archive` writes) into
// an sdist-shaped .tar.gz: every regular file under <name>-<version>/ with
// a PKG-INFO beside it, members sorted by path, mode 0644 (0755 when
// executable), mtime, uid and gid 0, no user or group names, and a gzip
// header with no name or time. The same tree gives the same bytes, so the
// archive's SHA-256 can be pinned. Links, directories and other special
// members are left out (an sdist built from the tree would follow a link;
// none of the pinned trees needs one). A PKG-INFO in the tree is replaced.
// The files are those the package's build backend puts in its sdist where
// the packer applies that backend's rules (selectSdistFiles); the rule
// applied is returned.
func PackSdist(tree io.Reader, name, version string) ([]byte, string, error) {
	type member struct {
		path string
		mode int64
		data []byte
	}
	var ms []member
	tr := tar.NewReader(tree)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("corpus.PackSdist: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		p := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if p == "." || strings.HasPrefix(p, "../") || path.IsAbs(p) || p == "PKG-INFO" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, 64<<20))
		if err != nil {
			return nil, "", fmt.Errorf("corpus.PackSdist %s: %w", p, err)
		}
		mode := int64(0o644)
		if h.Mode&0o111 != 0 {
			mode = 0o755
		}
		ms = append(ms, member{p, mode, data})
	}
	var pyproject []byte
	for _, m := range ms {
		if m.path == "pyproject.toml" {
			pyproject = m.data
		}
	}
	sel := selectSdistFiles(pyproject)
	if sel.keep != nil {
		kept := ms[:0]
		for _, m := range ms {
			if sel.keep(m.path) {
				kept = append(kept, m)
			}
		}
		ms = kept
	}
	pkgInfo := fmt.Sprintf("Metadata-Version: 2.1\nName: %s\nVersion: %s\n", name, version)
	ms = append(ms, member{"PKG-INFO", 0o644, []byte(pkgInfo)})
	sort.Slice(ms, func(i, j int) bool { return ms[i].path < ms[j].path })
	top := SdistName(name) + "-" + version
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, "", fmt.Errorf("corpus.PackSdist: %w", err)
	}
	tw := tar.NewWriter(zw)
	for _, m := range ms {
		h := &tar.Header{Name: top + "/" + m.path, Mode: m.mode, Size: int64(len(m.data)), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, "", fmt.Errorf("corpus.PackSdist %s: %w", m.path, err)
		}
		if _, err := tw.Write(m.data); err != nil {
			return nil, "", fmt.Errorf("corpus.PackSdist %s: %w", m.path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, "", fmt.Errorf("corpus.PackSdist: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, "", fmt.Errorf("corpus.PackSdist: %w", err)
	}
	return buf.Bytes(), sel.Rule, nil
}

// PackResult is what packing one server did.
type PackResult struct {
	Key    string
	Path   string
	SHA256 string
	Err    error
}

// PackAll packs every server of l from its mirror under mirrors into dir and
// checks each archive against the list. With update, an entry whose sha256
// is empty or different is given the packed archive's digest instead (the
// caller writes the list back); without it a difference is an
// ErrArchiveMismatch and the archive is not kept.
func PackAll(ctx context.Context, l *PyList, mirrors, dir string, update bool) []PackResult {
	out := make([]PackResult, 0, len(l.Servers))
	for i := range l.Servers {
		s := &l.Servers[i]
		r := PackResult{Key: s.Key(), Path: PyArchivePath(dir, *s)}
		var rule string
		r.SHA256, rule, r.Err = packOne(ctx, *s, mirrors, r.Path, update)
		if r.Err == nil && update {
			s.SHA256, s.Files = r.SHA256, rule
		}
		out = append(out, r)
		if ctx.Err() != nil {
			break
		}
	}
	return out
}

func packOne(ctx context.Context, s PyServer, mirrors, dest string, update bool) (string, string, error) {
	gitDir, err := MirrorGitDir(mirrors, s.Repo)
	if err != nil {
		return "", "", err
	}
	tree, err := GitTree(ctx, gitDir, s.Commit, s.Subdir)
	if err != nil {
		return "", "", err
	}
	data, rule, err := PackSdist(bytes.NewReader(tree), s.Name, s.Version)
	if err != nil {
		return "", "", err
	}
	got := vocab.SHA256Hex(data)
	if !update && got != s.SHA256 {
		return got, rule, fmt.Errorf("%w: %s packs to %s, the list pins %s", ErrArchiveMismatch, s.Key(), got, s.SHA256)
	}
	if !update && rule != s.Files {
		return got, rule, fmt.Errorf("%w: %s: its files are chosen by %q, the list records %q", ErrArchiveMismatch, s.Key(), rule, s.Files)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return got, rule, fmt.Errorf("corpus.PackAll %s: %w", s.Key(), err)
	}
	tmp := dest + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return got, rule, fmt.Errorf("corpus.PackAll %s: %w", s.Key(), err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return got, rule, fmt.Errorf("corpus.PackAll %s: %w", s.Key(), err)
	}
	return got, rule, nil
}
