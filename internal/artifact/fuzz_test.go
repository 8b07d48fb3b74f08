package artifact

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// Small limits keep each fuzz execution fast and make the limit paths
// reachable from small inputs.
var fuzzLimits = Limits{MaxTotalBytes: 1 << 20, MaxMembers: 512, MaxMemberBytes: 256 << 10, MaxRatio: 200, RatioFloorBytes: 64 << 10}

// FuzzReadTarGz reads arbitrary bytes as an npm tarball and as an sdist.
// With gzipFirst the input is gzip'd before reading, so the fuzzer works on
// the tar layer directly instead of spending itself on gzip checksums.
func FuzzReadTarGz(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, gzipFirst bool) {
		if gzipFirst {
			data = gz(t, data)
		}
		DetectFormat("", data)
		for _, format := range []Format{FormatNpmTarball, FormatSdistTar} {
			a, err := Read(context.Background(), data, format, fuzzLimits)
			if err != nil {
				t.Fatalf("Read(%s): %v", format, err)
			}
			checkArtifact(t, a, fuzzLimits)
		}
	})
}

// FuzzReadZip reads arbitrary bytes as a wheel and as a zip sdist.
func FuzzReadZip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		DetectFormat("x.whl", data)
		for _, format := range []Format{FormatWheel, FormatSdistZip} {
			a, err := Read(context.Background(), data, format, fuzzLimits)
			if err != nil {
				t.Fatalf("Read(%s): %v", format, err)
			}
			checkArtifact(t, a, fuzzLimits)
		}
	})
}

var (
	knownCauses = []string{CauseUnknownFormat, CauseInvalid, CauseTruncated, CauseTotalBytes, CauseMemberCount, CauseMemberBytes, CauseCompressionRatio}
	knownSkips  = []string{SkipPathTraversal, SkipAbsolutePath, SkipSymlink, SkipHardlink, SkipDevice, SkipFIFO, SkipSocket,
		SkipDuplicateName, SkipNonUTF8Name, SkipInvalidName, SkipBackslashName, SkipOutsidePackageRoot, SkipPathConflict, SkipSparse, SkipUnsupportedType}
)

// checkArtifact asserts what must hold for any input at all.
func checkArtifact(t *testing.T, a *Artifact, lim Limits) {
	t.Helper()
	if _, err := json.Marshal(a); err != nil {
		t.Fatalf("artifact does not marshal: %v", err)
	}
	for _, s := range a.Skipped {
		if !slices.Contains(knownSkips, s.Reason) {
			t.Fatalf("unknown skip reason %q", s.Reason)
		}
	}
	if a.Entries > lim.MaxMembers+1 || a.UncompressedBytes > lim.MaxTotalBytes+1 {
		t.Fatalf("read past the limits: %d entries, %d bytes", a.Entries, a.UncompressedBytes)
	}
	switch a.Outcome {
	case vocab.OutcomeArchiveUnreadable:
		if a.Reason == "" || !slices.Contains(knownCauses, a.Cause) {
			t.Fatalf("unreadable with cause %q reason %q", a.Cause, a.Reason)
		}
		if len(a.Members) != 0 {
			t.Fatal("unreadable archive exposes members")
		}
		if entries, err := fs.ReadDir(a.FS, "."); err != nil || len(entries) != 0 {
			t.Fatalf("unreadable archive's FS lists %d entries (%v)", len(entries), err)
		}
		return
	case OutcomeOK:
	default:
		t.Fatalf("outcome %q", a.Outcome)
	}
	if a.Entries == 0 || a.Entries > lim.MaxMembers {
		t.Fatalf("ok with %d entries", a.Entries)
	}
	var total int64
	for i, m := range a.Members {
		if !fs.ValidPath(m.Path) || m.Path == "." {
			t.Fatalf("invalid member path %q", m.Path)
		}
		if i > 0 && a.Members[i-1].Path >= m.Path {
			t.Fatalf("members not sorted and unique at %q", m.Path)
		}
		b, ok := a.Bytes(m.Path)
		if !ok {
			t.Fatalf("member %q has no bytes", m.Path)
		}
		sum := sha256.Sum256(b)
		if int64(len(b)) != m.Size || hex.EncodeToString(sum[:]) != m.SHA256 {
			t.Fatalf("member %q: size/hash do not match its bytes", m.Path)
		}
		if m.Size > lim.MaxMemberBytes {
			t.Fatalf("member %q is %d bytes, over the limit", m.Path, m.Size)
		}
		if !reflect.DeepEqual(m.Classification, Classify(m.Path, b)) {
			t.Fatalf("member %q: classification is not a function of path and bytes", m.Path)
		}
		for _, r := range m.VendoredRegions {
			if r.StartLine < 1 || r.EndLine < r.StartLine || r.EndLine > m.Lines || r.Library == "" {
				t.Fatalf("member %q: bad region %+v (lines %d)", m.Path, r, m.Lines)
			}
		}
		total += m.Size
	}
	if total > lim.MaxTotalBytes {
		t.Fatalf("members total %d bytes, over the limit", total)
	}
	var walked int
	if err := fs.WalkDir(a.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			walked++
			if _, ok := a.Member(p); !ok {
				t.Fatalf("FS file %q is not a member", p)
			}
		}
		return nil
	}); err != nil {
		t.Fatalf("walking the FS: %v", err)
	}
	if walked != len(a.Members) {
		t.Fatalf("FS holds %d files, Members %d", walked, len(a.Members))
	}
}

// The committed seed corpora (testdata/fuzz/<target>/seed-*) are generated
// from the archives below; run
// `go test ./internal/artifact -run TestFuzzSeeds -write-seeds` after
// changing them.
var writeSeeds = flag.Bool("write-seeds", false, "rewrite the generated fuzz seed corpora under testdata/fuzz")

type fuzzSeed struct {
	name string
	args []any
}

func tarSeeds(t testing.TB) []fuzzSeed {
	npm := tarBytes(t,
		tarEntry{hdr: tar.Header{Name: "package/", Typeflag: tar.TypeDir, Mode: 0o755}},
		tfile("package/package.json", `{"name":"seed","version":"1.0.0","bin":"dist/index.js"}`),
		tfile("package/dist/index.js", esbuildBundle),
		tfile("package/dist/bundle.js", webpackBundle),
		tfile("package/dist/min.js", strings.Repeat("a", 900)),
		tfile("package/dist/index.d.ts", "export declare const x: number;\n"),
		tfile("package/node_modules/zod/index.js", "module.exports = {};\n"),
		tarEntry{hdr: tar.Header{Name: "package/passwd", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}},
		tarEntry{hdr: tar.Header{Name: "package/hard", Typeflag: tar.TypeLink, Linkname: "package/dist/index.js"}},
		tarEntry{hdr: tar.Header{Name: "package/null", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 3}},
		tarEntry{hdr: tar.Header{Name: "package/fifo", Typeflag: tar.TypeFifo}},
		tfile("package/../evil.js", "x"),
		tfile("/abs.js", "x"),
		tfile("package/dist/index.js", "duplicate"),
		tarEntry{hdr: tar.Header{Name: "package/" + strings.Repeat("long/", 30) + "name.js", Typeflag: tar.TypeReg, Size: 1, Format: tar.FormatPAX}, body: []byte("x")},
		tarEntry{hdr: tar.Header{Name: "package/gnu-" + strings.Repeat("n", 120) + ".js", Typeflag: tar.TypeReg, Size: 1, Format: tar.FormatGNU}, body: []byte("y")},
	)
	sdist := tarBytes(t,
		tfile("thing-1.0/PKG-INFO", "Metadata-Version: 2.1\nName: thing\n"),
		tfile("thing-1.0/thing/server.py", "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"),
		tfile("thing-1.0/thing/_vendor/lib/x.py", "pass\n"),
	)
	var raw []byte
	raw = append(raw, rawTarHeader("package/\xc3\x28.js", '0', 4)...)
	raw = append(raw, pad512([]byte("evil"))...)
	recs := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
		paxRecord("GNU.sparse.name", "package/sparse.bin") + paxRecord("GNU.sparse.realsize", "1073741824")
	raw = append(raw, rawTarHeader("PaxHeaders/sparse", 'x', int64(len(recs)))...)
	raw = append(raw, pad512([]byte(recs))...)
	body := append(pad512([]byte("1\n1073741823\n1\n")), pad512([]byte("z"))...)
	raw = append(raw, rawTarHeader("package/GNUSparseFile.0/sparse.bin", '0', int64(len(body)))...)
	raw = append(raw, body...)
	raw = append(raw, endOfArchive...)

	npmGz := gz(t, npm)
	return []fuzzSeed{
		{"seed-npm-raw", []any{npm, true}},
		{"seed-npm-tgz", []any{npmGz, false}},
		{"seed-npm-truncated", []any{npmGz[:len(npmGz)/2], false}},
		{"seed-sdist-raw", []any{sdist, true}},
		{"seed-sdist-tgz", []any{gz(t, sdist), false}},
		{"seed-handmade-raw", []any{raw, true}},
		{"seed-empty", []any{[]byte{}, false}},
		{"seed-gzip-header", []any{[]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, false}},
	}
}

func zipSeeds(t testing.TB) []fuzzSeed {
	link := zip.FileHeader{Name: "pkg/passwd"}
	link.SetMode(fs.ModeSymlink | 0o777)
	fifo := zip.FileHeader{Name: "pkg/fifo"}
	fifo.SetMode(fs.ModeNamedPipe | 0o644)
	dir := zip.FileHeader{Name: "pkg/"}
	dir.SetMode(fs.ModeDir | 0o755)
	wheel := zipBytes(t,
		zipEntry{hdr: dir},
		zfile("pkg/__init__.py", ""),
		zfile("pkg/server.py", "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n@mcp.tool()\ndef f(): pass\n"),
		zfile("pkg/_vendor/requests/api.py", "def get(): pass\n"),
		zfile("pkg-1.0.dist-info/METADATA", "Name: pkg\n"),
		zipEntry{hdr: zip.FileHeader{Name: "pkg/stored.py", Method: zip.Store}, body: []byte("x = 1\n")},
		zipEntry{hdr: link, body: []byte("/etc/passwd")},
		zipEntry{hdr: fifo},
		zipEntry{hdr: zip.FileHeader{Name: "pkg/\xff.py", NonUTF8: true}, body: []byte("x")},
		zfile("../evil.py", "x"),
		zfile("pkg/server.py", "duplicate"),
	)
	sdist := zipBytes(t, zfile("thing-1.0/setup.py", "setup()\n"), zfile("thing-1.0/thing/__init__.py", ""))
	zeros := make([]byte, 64<<10)
	lying := zipRawBytes(t, rawMember{name: "pkg/z.bin", compressed: rawDeflate(t, zeros), crc: crcOf(zeros), uncompressed: 1024})
	return []fuzzSeed{
		{"seed-wheel", []any{wheel}},
		{"seed-sdist-zip", []any{sdist}},
		{"seed-lying-size", []any{lying}},
		{"seed-truncated", []any{wheel[:len(wheel)-30]}},
		{"seed-empty-zip", []any{zipBytes(t)}},
	}
}

// encodeCorpus writes a corpus file in the format `go test -fuzz` reads.
func encodeCorpus(args []any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case bool:
			fmt.Fprintf(&b, "bool(%v)\n", v)
		default:
			panic(fmt.Sprintf("corpus type %T", a))
		}
	}
	return b.Bytes()
}

// TestFuzzSeeds checks that every generated seed is committed (go test
// then runs each through its fuzz target). Contents are not compared:
// compress/flate's output may differ between Go releases, and a seed is
// useful whatever its exact bytes.
func TestFuzzSeeds(t *testing.T) {
	for target, seeds := range map[string][]fuzzSeed{"FuzzReadTarGz": tarSeeds(t), "FuzzReadZip": zipSeeds(t)} {
		dir := filepath.Join("testdata", "fuzz", target)
		for _, s := range seeds {
			p := filepath.Join(dir, s.name)
			if *writeSeeds {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, encodeCorpus(s.args), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("%v (run with -write-seeds)", err)
			}
			if !bytes.HasPrefix(got, []byte("go test fuzz v1\n")) {
				t.Errorf("%s is not a fuzz corpus file", p)
			}
		}
	}
}
