package artifact

import (
	"archive/tar"
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestNpmTarballStripsPackageDir(t *testing.T) {
	data := tgz(t,
		tarEntry{hdr: tar.Header{Name: "package/", Typeflag: tar.TypeDir, Mode: 0o755}},
		tfile("package/package.json", `{"name":"x","version":"1.0.0"}`),
		tarEntry{hdr: tar.Header{Name: "package/bin/cli.js", Typeflag: tar.TypeReg, Mode: 0o755, Size: 5}, body: []byte("run()")},
		tfile("package/dist/index.js", "export {}\n"),
	)
	a := mustRead(t, data, FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantPaths(t, a, "bin/cli.js", "dist/index.js", "package.json")
	m, ok := a.Member("bin/cli.js")
	if !ok {
		t.Fatal("Member(bin/cli.js) missing")
	}
	sum := sha256.Sum256([]byte("run()"))
	if m.Name != "package/bin/cli.js" || m.Size != 5 || m.SHA256 != hex.EncodeToString(sum[:]) || m.Mode != 0o755 {
		t.Fatalf("member %+v", m)
	}
	if m.Language != LanguageJavaScript {
		t.Fatalf("language %q", m.Language)
	}
	if b, ok := a.Bytes("bin/cli.js"); !ok || string(b) != "run()" {
		t.Fatalf("Bytes = %q, %v", b, ok)
	}
	if a.Entries != 4 || len(a.Skipped) != 0 {
		t.Fatalf("entries %d skipped %+v", a.Entries, a.Skipped)
	}

	// npm strips the first component whatever it is called.
	b := mustRead(t, tgz(t, tfile("node-pkg/index.js", "x")), FormatNpmTarball, Limits{})
	wantPaths(t, b, "index.js")
}

func TestSdistStripsCommonRoot(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("mcp_thing-1.2.0/PKG-INFO", "Metadata-Version: 2.1\n"),
		tfile("mcp_thing-1.2.0/src/mcp_thing/server.py", "from mcp.server.fastmcp import FastMCP\n"),
	), FormatSdistTar, Limits{})
	wantOK(t, a)
	wantPaths(t, a, "PKG-INFO", "src/mcp_thing/server.py")
	if m, _ := a.Member("src/mcp_thing/server.py"); m.Name != "mcp_thing-1.2.0/src/mcp_thing/server.py" || m.Language != LanguagePython {
		t.Fatalf("member %+v", m)
	}

	z := mustRead(t, zipBytes(t, zfile("thing-1.0/setup.py", "setup()"), zfile("thing-1.0/thing/__init__.py", "")), FormatSdistZip, Limits{})
	wantOK(t, z)
	wantPaths(t, z, "setup.py", "thing/__init__.py")

	// No shared root: nothing is stripped, nothing is lost.
	n := mustRead(t, tgz(t, tfile("a/x.py", "1"), tfile("b/y.py", "2")), FormatSdistTar, Limits{})
	wantPaths(t, n, "a/x.py", "b/y.py")
	n = mustRead(t, tgz(t, tfile("a/x.py", "1"), tfile("setup.py", "2")), FormatSdistTar, Limits{})
	wantPaths(t, n, "a/x.py", "setup.py")
}

func TestWheelKeepsPaths(t *testing.T) {
	a := mustRead(t, zipBytes(t,
		zfile("mcp_thing/__init__.py", ""),
		zfile("mcp_thing/server.py", "import mcp\n"),
		zfile("mcp_thing-1.2.0.dist-info/METADATA", "Name: mcp-thing\n"),
	), FormatWheel, Limits{})
	wantOK(t, a)
	wantPaths(t, a, "mcp_thing-1.2.0.dist-info/METADATA", "mcp_thing/__init__.py", "mcp_thing/server.py")
}

func TestFSConformance(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/package.json", "{}"),
		tfile("package/dist/index.js", "a"),
		tfile("package/dist/lib/util.js", "b"),
		tfile("package/dist/lib/deep/x.d.ts", "c"),
		tfile("package/README.md", "d"),
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	if err := fstest.TestFS(a.FS, "package.json", "dist/index.js", "dist/lib/util.js", "dist/lib/deep/x.d.ts", "README.md"); err != nil {
		t.Fatal(err)
	}
	// ReadFile hands out a copy: a caller scribbling on it cannot change
	// what the next reader (or the hash) sees.
	b, err := fs.ReadFile(a.FS, "dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	b[0] = 'X'
	if again, _ := fs.ReadFile(a.FS, "dist/index.js"); string(again) != "a" {
		t.Fatalf("FS content changed to %q", again)
	}
	for _, bad := range []string{"../package.json", "/package.json", "dist/../package.json", ""} {
		if _, err := a.FS.Open(bad); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := a.FS.Open("nope.js"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(nope.js) = %v", err)
	}
}

func TestMembersMatchFS(t *testing.T) {
	a := mustRead(t, sampleTgz(t), FormatNpmTarball, Limits{})
	wantOK(t, a)
	var walked int
	err := fs.WalkDir(a.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		walked++
		m, ok := a.Member(p)
		if !ok {
			t.Errorf("%s in FS but not in Members", p)
			return nil
		}
		b, _ := fs.ReadFile(a.FS, p)
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != m.SHA256 || int64(len(b)) != m.Size {
			t.Errorf("%s: member says %d bytes %s", p, m.Size, m.SHA256)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if walked != len(a.Members) || walked != 20 {
		t.Fatalf("walked %d files, %d members", walked, len(a.Members))
	}
}

func TestArtifactJSON(t *testing.T) {
	a := mustRead(t, tgz(t, tfile("package/index.js", "x"), tarEntry{hdr: tar.Header{Name: "package/l", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}), FormatNpmTarball, Limits{})
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Format  string
		Outcome string
		Members []struct {
			Path, Name, SHA256, Language string
		}
		Skipped []SkippedMember
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != "npm_tarball" || back.Outcome != "ok" || len(back.Members) != 1 || back.Members[0].Language != "javascript" ||
		len(back.Skipped) != 1 || back.Skipped[0].Target != "/etc/passwd" {
		t.Fatalf("JSON %s", b)
	}
}

func TestDetectFormat(t *testing.T) {
	npm := tgz(t, tfile("package/index.js", "x"))
	sdist := tgz(t, tfile("thing-1.0/setup.py", "x"))
	z := zipBytes(t, zfile("a.py", "x"))
	for _, c := range []struct {
		name string
		data []byte
		want Format
	}{
		{"thing-1.0.0.tgz", npm, FormatNpmTarball},
		{"https://host.invalid/thing/-/thing-1.0.0.tgz", npm, FormatNpmTarball},
		{"thing-1.0.tar.gz", sdist, FormatSdistTar},
		{"THING-1.0.TAR.GZ", npm, FormatSdistTar}, // the name decides the flavour
		{"", npm, FormatNpmTarball},               // no name: the first member decides
		{"", sdist, FormatSdistTar},
		{"blob", npm, FormatNpmTarball},
		{"thing-1.0-py3-none-any.whl", z, FormatWheel},
		{"thing-1.0.zip", z, FormatSdistZip},
		{"", z, FormatSdistZip},
		{"thing-1.0.tgz", []byte("not an archive"), FormatUnknown},
		{"x.whl", nil, FormatUnknown},
		{"x.tgz", []byte{0x1f}, FormatUnknown},
	} {
		if got := DetectFormat(c.name, c.data); got != c.want {
			t.Errorf("DetectFormat(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLimitsValidation(t *testing.T) {
	if _, err := Read(context.Background(), nil, FormatNpmTarball, Limits{MaxMembers: -1}); err == nil {
		t.Fatal("negative limit accepted")
	}
	d := DefaultLimits()
	if d.MaxTotalBytes != 256<<20 || d.MaxMembers != 20_000 || d.MaxMemberBytes != 32<<20 || d.MaxRatio != 200 || d.RatioFloorBytes != 4<<20 {
		t.Fatalf("defaults changed without the doc: %+v", d)
	}
	got, err := Limits{MaxMembers: 5}.withDefaults()
	if err != nil || got.MaxMembers != 5 || got.MaxTotalBytes != d.MaxTotalBytes {
		t.Fatalf("withDefaults = %+v, %v", got, err)
	}
	// A configured member count is what the reader enforces.
	a := mustRead(t, tgz(t, tfile("package/a", ""), tfile("package/b", ""), tfile("package/c", "")), FormatNpmTarball, Limits{MaxMembers: 2})
	wantUnreadable(t, a, CauseMemberCount)
}

func TestMemberSizeLimitOnRead(t *testing.T) {
	// Exactly at the limit is fine; one byte over is not.
	lim := Limits{MaxMemberBytes: 1000}
	at := make([]byte, 1000)
	wantOK(t, mustRead(t, tgz(t, tarEntry{hdr: tar.Header{Name: "package/a", Typeflag: tar.TypeReg, Size: 1000}, body: at}), FormatNpmTarball, lim))
	over := make([]byte, 1001)
	a := mustRead(t, tgz(t, tarEntry{hdr: tar.Header{Name: "package/a", Typeflag: tar.TypeReg, Size: 1001}, body: over}), FormatNpmTarball, lim)
	wantUnreadable(t, a, CauseMemberBytes)
	z := mustRead(t, zipBytes(t, zipEntry{hdr: zip.FileHeader{Name: "a", Method: zip.Deflate}, body: over}), FormatWheel, lim)
	wantUnreadable(t, z, CauseMemberBytes)
}

func TestCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, sampleTgz(t), FormatNpmTarball, Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read with canceled ctx: %v", err)
	}
	if _, err := Read(ctx, zipBytes(t, zfile("a", "b")), FormatWheel, Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read zip with canceled ctx: %v", err)
	}
}
