package artifact

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// The hostile-archive suite: each case is an archive an attacker could
// publish, built here, and each asserts the recorded outcome or skip
// reason. None of these tests may run in parallel: the memory assertions
// read process-wide allocation counters.

// smallLimits is what the bomb tests read with, so that "bounded memory"
// is checked against a number small enough to notice a leak.
var smallLimits = Limits{MaxTotalBytes: 8 << 20, MaxMemberBytes: 2 << 20, MaxMembers: 20_000, MaxRatio: 200, RatioFloorBytes: 4 << 20}

// tarBomb is a gzip'd tar of members × memberSize zero bytes, as
// concatenated gzip members (one gzip stream per tar header, one shared
// compressed block of zeros per body), so gigabytes cost the test only
// megabytes to build.
func tarBomb(t testing.TB, members, memberSize int) []byte {
	t.Helper()
	var zbuf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&zbuf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(make([]byte, memberSize)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zerosGz := bytes.Clone(zbuf.Bytes())
	var out, hbuf bytes.Buffer
	for i := range members {
		hbuf.Reset()
		tw := tar.NewWriter(&hbuf)
		if err := tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("package/zeros-%05d.bin", i), Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(memberSize)}); err != nil {
			t.Fatal(err)
		}
		zbuf.Reset()
		zw.Reset(&zbuf)
		if _, err := zw.Write(hbuf.Bytes()); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		out.Write(zbuf.Bytes())
		out.Write(zerosGz)
	}
	return out.Bytes()
}

func TestTarBomb(t *testing.T) {
	// 4096 members of 1 MiB of zeros: 4 GiB uncompressed, ~4 MiB on the wire.
	bomb := tarBomb(t, 4096, 1<<20)
	var a *Artifact
	alloc := allocatedBy(func() { a = mustRead(t, bomb, FormatNpmTarball, smallLimits) })
	wantUnreadable(t, a, CauseTotalBytes)
	if want := fmt.Sprintf("uncompressed size exceeds %d bytes", smallLimits.MaxTotalBytes); a.Reason != want {
		t.Fatalf("reason %q, want %q", a.Reason, want)
	}
	// Reading stopped at the limit, not at the end of the 4 GiB.
	if a.UncompressedBytes > smallLimits.MaxTotalBytes+1 {
		t.Fatalf("read %d uncompressed bytes, limit %d", a.UncompressedBytes, smallLimits.MaxTotalBytes)
	}
	if limit := uint64(2 * smallLimits.MaxTotalBytes); alloc > limit {
		t.Fatalf("reading the bomb allocated %d bytes, want under %d (2x the total limit)", alloc, limit)
	}
}

func TestTarBombSingleStream(t *testing.T) {
	// One member, one ordinary gzip stream of 64 MiB of zeros, declared
	// truthfully: the member limit stops it before a byte is allocated
	// for it.
	body := make([]byte, 64<<20)
	bomb := tgz(t, tarEntry{hdr: tar.Header{Name: "package/zeros.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}, body: body})
	body = nil
	var a *Artifact
	alloc := allocatedBy(func() { a = mustRead(t, bomb, FormatNpmTarball, smallLimits) })
	wantUnreadable(t, a, CauseMemberBytes)
	if !strings.Contains(a.Reason, `"package/zeros.bin" declares 67108864 bytes`) {
		t.Fatalf("reason %q", a.Reason)
	}
	if alloc > uint64(2*smallLimits.MaxTotalBytes) {
		t.Fatalf("allocated %d bytes", alloc)
	}
}

func TestCompressionRatio(t *testing.T) {
	// 24 MiB of zeros compress to ~24 KiB: past the 4 MiB floor the ratio
	// is ~1000:1, far over 200:1, while the size limits would allow it.
	body := make([]byte, 24<<20)
	data := tgz(t, tarEntry{hdr: tar.Header{Name: "package/zeros.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}, body: body})
	lim := Limits{MaxTotalBytes: 256 << 20, MaxMemberBytes: 64 << 20, MaxRatio: 200, RatioFloorBytes: 4 << 20}
	a := mustRead(t, data, FormatNpmTarball, lim)
	wantUnreadable(t, a, CauseCompressionRatio)
	if !strings.HasPrefix(a.Reason, "compression ratio exceeds 200:1") {
		t.Fatalf("reason %q", a.Reason)
	}
	if a.UncompressedBytes > 200*int64(len(data))+(1<<20) {
		t.Fatalf("read %d bytes before stopping; ratio limit allows ~%d", a.UncompressedBytes, 200*len(data))
	}

	// The same bytes under the floor are fine: a small, very repetitive
	// file is not a bomb.
	small := make([]byte, 1<<20)
	ok := mustRead(t, tgz(t, tarEntry{hdr: tar.Header{Name: "package/zeros.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(small))}, body: small}), FormatNpmTarball, lim)
	wantOK(t, ok)
}

func TestZipBomb(t *testing.T) {
	zeros := make([]byte, 1<<20)
	comp := rawDeflate(t, zeros)
	var members []rawMember
	for i := range 4096 {
		members = append(members, rawMember{name: fmt.Sprintf("pkg/zeros-%05d.bin", i), compressed: comp, crc: crcOf(zeros), uncompressed: 1 << 20})
	}
	bomb := zipRawBytes(t, members...)
	var a *Artifact
	alloc := allocatedBy(func() { a = mustRead(t, bomb, FormatWheel, smallLimits) })
	wantUnreadable(t, a, CauseTotalBytes)
	if want := "uncompressed size exceeds 8388608 bytes (the central directory declares 4294967296)"; a.Reason != want {
		t.Fatalf("reason %q, want %q", a.Reason, want)
	}
	// Refused from the central directory, before decompressing anything.
	if a.UncompressedBytes != 0 {
		t.Fatalf("decompressed %d bytes", a.UncompressedBytes)
	}
	if alloc > uint64(2*smallLimits.MaxTotalBytes) {
		t.Fatalf("allocated %d bytes", alloc)
	}
}

func TestZipBombLyingSizes(t *testing.T) {
	// Each member declares 1 KiB and inflates to 1 MiB: the declared total
	// passes, so the bytes must be stopped as they are read.
	zeros := make([]byte, 1<<20)
	comp := rawDeflate(t, zeros)
	var members []rawMember
	for i := range 4096 {
		members = append(members, rawMember{name: fmt.Sprintf("pkg/zeros-%05d.bin", i), compressed: comp, crc: crcOf(zeros), uncompressed: 1024})
	}
	bomb := zipRawBytes(t, members...)
	var a *Artifact
	alloc := allocatedBy(func() { a = mustRead(t, bomb, FormatWheel, smallLimits) })
	if a.Outcome != vocab.OutcomeArchiveUnreadable {
		t.Fatalf("outcome %s", a.Outcome)
	}
	if alloc > uint64(2*smallLimits.MaxTotalBytes) {
		t.Fatalf("allocated %d bytes", alloc)
	}
	if a.UncompressedBytes > 2<<20 {
		t.Fatalf("read %d bytes of a member that declared 1 KiB", a.UncompressedBytes)
	}
}

func TestPathTraversal(t *testing.T) {
	for _, name := range []string{"package/../../etc/evil.js", "../evil.js", "package/a/../../b.js", "package/.."} {
		t.Run(name, func(t *testing.T) {
			a := mustRead(t, tgz(t, tfile("package/index.js", "ok"), tfile(name, "evil")), FormatNpmTarball, Limits{})
			wantOK(t, a)
			wantSkipped(t, a, name, SkipPathTraversal)
			wantPaths(t, a, "index.js")
		})
	}
	a := mustRead(t, zipBytes(t, zfile("pkg/ok.py", "x = 1"), zfile("../../evil.py", "import os")), FormatWheel, Limits{})
	wantOK(t, a)
	wantSkipped(t, a, "../../evil.py", SkipPathTraversal)
	wantPaths(t, a, "pkg/ok.py")
}

func TestAbsolutePath(t *testing.T) {
	for _, name := range []string{"/etc/cron.d/evil", "//server/share/x.js", "C:/Windows/evil.js", `C:\evil.js`} {
		a := mustRead(t, tgz(t, tfile("package/index.js", "ok"), tfile(name, "evil")), FormatNpmTarball, Limits{})
		wantOK(t, a)
		wantSkipped(t, a, name, SkipAbsolutePath)
		wantPaths(t, a, "index.js")
	}
	a := mustRead(t, zipBytes(t, zfile("/etc/passwd", "root:x:0:0")), FormatSdistZip, Limits{})
	wantSkipped(t, a, "/etc/passwd", SkipAbsolutePath)
}

func TestSymlinkToEtcPasswd(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/index.js", "ok"),
		tarEntry{hdr: tar.Header{Name: "package/passwd", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd", Mode: 0o777}},
		tarEntry{hdr: tar.Header{Name: "package/lib", Typeflag: tar.TypeSymlink, Linkname: "../../../", Mode: 0o777}},
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	if s := wantSkipped(t, a, "package/passwd", SkipSymlink); s.Target != "/etc/passwd" {
		t.Fatalf("symlink target %q not recorded", s.Target)
	}
	wantSkipped(t, a, "package/lib", SkipSymlink)
	if _, err := fs.Stat(a.FS, "passwd"); err == nil {
		t.Fatal("symlink is reachable through the FS")
	}
	wantPaths(t, a, "index.js")

	h := zip.FileHeader{Name: "pkg/passwd"}
	h.SetMode(fs.ModeSymlink | 0o777)
	z := mustRead(t, zipBytes(t, zfile("pkg/__init__.py", ""), zipEntry{hdr: h, body: []byte("/etc/passwd")}), FormatWheel, Limits{})
	wantOK(t, z)
	if s := wantSkipped(t, z, "pkg/passwd", SkipSymlink); s.Target != "/etc/passwd" {
		t.Fatalf("zip symlink target %q", s.Target)
	}
	wantPaths(t, z, "pkg/__init__.py")
}

func TestHardlink(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/index.js", "ok"),
		tarEntry{hdr: tar.Header{Name: "package/shadow", Typeflag: tar.TypeLink, Linkname: "/etc/shadow"}},
		tarEntry{hdr: tar.Header{Name: "package/copy.js", Typeflag: tar.TypeLink, Linkname: "package/index.js"}},
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	if s := wantSkipped(t, a, "package/shadow", SkipHardlink); s.Target != "/etc/shadow" {
		t.Fatalf("target %q", s.Target)
	}
	wantSkipped(t, a, "package/copy.js", SkipHardlink)
	wantPaths(t, a, "index.js")
}

func TestDevicesAndFIFOs(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/index.js", "ok"),
		tarEntry{hdr: tar.Header{Name: "package/null", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 3, Mode: 0o666}},
		tarEntry{hdr: tar.Header{Name: "package/sda", Typeflag: tar.TypeBlock, Devmajor: 8, Mode: 0o660}},
		tarEntry{hdr: tar.Header{Name: "package/pipe", Typeflag: tar.TypeFifo, Mode: 0o644}},
		tarEntry{hdr: tar.Header{Name: "package/weird", Typeflag: 'V'}},
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantSkipped(t, a, "package/null", SkipDevice)
	wantSkipped(t, a, "package/sda", SkipDevice)
	wantSkipped(t, a, "package/pipe", SkipFIFO)
	wantSkipped(t, a, "package/weird", SkipUnsupportedType)
	wantPaths(t, a, "index.js")

	var zs []zipEntry
	for name, mode := range map[string]fs.FileMode{"pkg/dev": fs.ModeDevice | fs.ModeCharDevice, "pkg/fifo": fs.ModeNamedPipe, "pkg/sock": fs.ModeSocket} {
		h := zip.FileHeader{Name: name}
		h.SetMode(mode | 0o644)
		zs = append(zs, zipEntry{hdr: h})
	}
	z := mustRead(t, zipBytes(t, append(zs, zfile("pkg/a.py", "a"))...), FormatWheel, Limits{})
	wantOK(t, z)
	wantSkipped(t, z, "pkg/dev", SkipDevice)
	wantSkipped(t, z, "pkg/fifo", SkipFIFO)
	wantSkipped(t, z, "pkg/sock", SkipSocket)
	wantPaths(t, z, "pkg/a.py")
}

func TestHundredThousandEmptyMembers(t *testing.T) {
	entries := make([]tarEntry, 100_000)
	for i := range entries {
		entries[i] = tfile(fmt.Sprintf("package/e%06d", i), "")
	}
	a := mustRead(t, tgz(t, entries...), FormatNpmTarball, Limits{})
	wantUnreadable(t, a, CauseMemberCount)
	if a.Reason != "member count exceeds 20000" {
		t.Fatalf("reason %q", a.Reason)
	}
	if a.Entries != 20_001 {
		t.Fatalf("stopped after %d entries, want 20001", a.Entries)
	}

	zs := make([]zipEntry, 100_000)
	for i := range zs {
		zs[i] = zipEntry{hdr: zip.FileHeader{Name: fmt.Sprintf("pkg/e%06d", i), Method: zip.Store}}
	}
	z := mustRead(t, zipBytes(t, zs...), FormatWheel, Limits{})
	wantUnreadable(t, z, CauseMemberCount)
	if z.Reason != "member count exceeds 20000 (the central directory lists 100000)" {
		t.Fatalf("reason %q", z.Reason)
	}
}

func TestMemberClaimingHugeSize(t *testing.T) {
	// The header claims 10 GiB; the stream holds 100 bytes. Nothing may be
	// allocated from the claim.
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: "package/huge.js", Typeflag: tar.TypeReg, Mode: 0o644, Size: 10 << 30}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(bytes.Repeat([]byte("x"), 100)); err != nil {
		t.Fatal(err)
	}
	data := gz(t, buf.Bytes()) // deliberately not closed: the archive is a lie
	var a *Artifact
	alloc := allocatedBy(func() { a = mustRead(t, data, FormatNpmTarball, Limits{}) })
	wantUnreadable(t, a, CauseMemberBytes)
	if want := `member "package/huge.js" declares 10737418240 bytes, over the 33554432-byte member limit`; a.Reason != want {
		t.Fatalf("reason %q, want %q", a.Reason, want)
	}
	if alloc > 4<<20 {
		t.Fatalf("allocated %d bytes for a member claiming 10 GiB", alloc)
	}

	// Under the member limit, a claim the stream does not honour is a
	// truncated archive, and costs at most the 1 MiB first allocation.
	buf.Reset()
	tw = tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: "package/short.js", Typeflag: tar.TypeReg, Mode: 0o644, Size: 30 << 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte("short")); err != nil {
		t.Fatal(err)
	}
	data = gz(t, buf.Bytes())
	alloc = allocatedBy(func() { a = mustRead(t, data, FormatNpmTarball, Limits{}) })
	wantUnreadable(t, a, CauseTruncated)
	if alloc > 4<<20 {
		t.Fatalf("allocated %d bytes for a 5-byte member claiming 30 MiB", alloc)
	}

	// A zip member declaring 10 GiB in the central directory.
	z := zipRawBytes(t, rawMember{name: "pkg/huge.py", compressed: rawDeflate(t, []byte("x")), crc: crcOf([]byte("x")), uncompressed: 10 << 30})
	za := mustRead(t, z, FormatWheel, Limits{})
	wantUnreadable(t, za, CauseTotalBytes)
	za = mustRead(t, z, FormatWheel, Limits{MaxTotalBytes: 1 << 40})
	wantUnreadable(t, za, CauseMemberBytes)
	if !strings.Contains(za.Reason, `"pkg/huge.py" declares 10737418240 bytes`) {
		t.Fatalf("reason %q", za.Reason)
	}
}

func sampleTgz(t testing.TB) []byte {
	t.Helper()
	var entries []tarEntry
	for i := range 20 {
		var b strings.Builder
		for j := range 200 {
			fmt.Fprintf(&b, "export const v%d_%d = %d; // line %d of file %d\n", i, j, i*j, j, i)
		}
		entries = append(entries, tfile(fmt.Sprintf("package/src/f%02d.js", i), b.String()))
	}
	return tgz(t, entries...)
}

func TestGzipCutShort(t *testing.T) {
	whole := sampleTgz(t)
	wantOK(t, mustRead(t, whole, FormatNpmTarball, Limits{}))
	for _, cut := range []int{len(whole) / 2, len(whole) - 4, len(whole) - 1, 20, 11} {
		t.Run(fmt.Sprint(cut), func(t *testing.T) {
			a := mustRead(t, whole[:cut], FormatNpmTarball, Limits{})
			wantUnreadable(t, a, CauseTruncated)
			if !strings.HasPrefix(a.Reason, "unexpected EOF after ") {
				t.Fatalf("reason %q", a.Reason)
			}
		})
	}
	// A gzip header cut inside itself.
	a := mustRead(t, whole[:5], FormatNpmTarball, Limits{})
	wantUnreadable(t, a, CauseTruncated)
}

func TestGzipCorrupt(t *testing.T) {
	whole := sampleTgz(t)
	// The CRC-32 in the trailer: the damage is past the last member, and
	// still the archive is refused.
	bad := bytes.Clone(whole)
	bad[len(bad)-8] ^= 0xff
	a := mustRead(t, bad, FormatNpmTarball, Limits{})
	wantUnreadable(t, a, CauseInvalid)
	if !strings.HasPrefix(a.Reason, "gzip: invalid checksum") {
		t.Fatalf("reason %q", a.Reason)
	}
	// Trailing garbage after the gzip stream.
	a = mustRead(t, append(bytes.Clone(whole), "garbage after the gzip stream"...), FormatNpmTarball, Limits{})
	wantUnreadable(t, a, CauseInvalid)
	if !strings.HasPrefix(a.Reason, "gzip: invalid header") {
		t.Fatalf("reason %q", a.Reason)
	}
	// Not gzip at all.
	a = mustRead(t, []byte("hello, world"), FormatNpmTarball, Limits{})
	wantUnreadable(t, a, CauseInvalid)
	if a.Reason != "not a gzip stream (first bytes 68656c6c)" {
		t.Fatalf("reason %q", a.Reason)
	}
	// A valid gzip of something that is not a tar.
	a = mustRead(t, gz(t, bytes.Repeat([]byte("not a tar header "), 100)), FormatNpmTarball, Limits{})
	wantUnreadable(t, a, CauseInvalid)
	if !strings.Contains(a.Reason, "archive/tar: invalid tar header") {
		t.Fatalf("reason %q", a.Reason)
	}
}

// eocd returns the offset of the end-of-central-directory record.
func eocd(t testing.TB, z []byte) int {
	t.Helper()
	i := bytes.LastIndex(z, []byte("PK\x05\x06"))
	if i < 0 {
		t.Fatal("no EOCD")
	}
	return i
}

func TestZipBadCentralDirectory(t *testing.T) {
	good := zipBytes(t, zfile("pkg/a.py", "print(1)"), zfile("pkg/b.py", "print(2)"))
	wantOK(t, mustRead(t, good, FormatWheel, Limits{}))

	cases := map[string]func([]byte){
		"directory signature": func(z []byte) {
			i := bytes.Index(z, []byte("PK\x01\x02"))
			z[i+3] = 0x09
		},
		"directory offset past the end": func(z []byte) {
			binary.LittleEndian.PutUint32(z[eocd(t, z)+16:], uint32(len(z)+1000))
		},
		"directory size past the end": func(z []byte) {
			binary.LittleEndian.PutUint32(z[eocd(t, z)+12:], 1<<30)
		},
		"entry count": func(z []byte) {
			binary.LittleEndian.PutUint16(z[eocd(t, z)+10:], 60000)
			binary.LittleEndian.PutUint16(z[eocd(t, z)+8:], 60000)
		},
		"no end record": func(z []byte) {
			copy(z[eocd(t, z):], "XXXX")
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			z := bytes.Clone(good)
			mutate(z)
			a := mustRead(t, z, FormatWheel, Limits{})
			wantUnreadable(t, a, CauseInvalid)
			if !strings.HasPrefix(a.Reason, "zip: ") {
				t.Fatalf("reason %q", a.Reason)
			}
		})
	}

	// A member whose compressed bytes are damaged fails its CRC or its
	// inflate, and the archive is unreadable.
	z := bytes.Clone(good)
	i := bytes.Index(z, []byte("PK\x03\x04"))
	nameLen := int(binary.LittleEndian.Uint16(z[i+26:]))
	extraLen := int(binary.LittleEndian.Uint16(z[i+28:]))
	z[i+30+nameLen+extraLen] ^= 0xff
	a := mustRead(t, z, FormatWheel, Limits{})
	wantUnreadable(t, a, CauseInvalid)
	if !strings.Contains(a.Reason, `in member "pkg/a.py"`) {
		t.Fatalf("reason %q", a.Reason)
	}
}

func TestDuplicateNames(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/index.js", "first"),
		tfile("package/other.js", "other"),
		tfile("package/index.js", "second"),
		tfile("./package//index.js", "third"),
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantPaths(t, a, "index.js", "other.js")
	// The installer overwrites, so the last copy is what runs and what is read.
	if b, _ := fs.ReadFile(a.FS, "index.js"); string(b) != "third" {
		t.Fatalf("index.js = %q, want the last copy", b)
	}
	if m, _ := a.Member("index.js"); m.Name != "./package//index.js" {
		t.Fatalf("kept member's name %q", m.Name)
	}
	var dups int
	for _, s := range a.Skipped {
		if s.Reason == SkipDuplicateName {
			dups++
		}
	}
	if dups != 2 {
		t.Fatalf("%d duplicate skips, want 2: %+v", dups, a.Skipped)
	}
	wantSkipped(t, a, "package/index.js", SkipDuplicateName)

	z := mustRead(t, zipBytes(t, zfile("pkg/a.py", "one"), zfile("pkg/a.py", "two")), FormatWheel, Limits{})
	wantOK(t, z)
	if b, _ := fs.ReadFile(z.FS, "pkg/a.py"); string(b) != "two" {
		t.Fatalf("pkg/a.py = %q", b)
	}
	wantSkipped(t, z, "pkg/a.py", SkipDuplicateName)
}

func TestPathConflict(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/lib", "a file"),
		tfile("package/lib/index.js", "under the file"),
		tfile("package/src/a.js", "a"),
		tfile("package/src", "a file where a directory is"),
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantSkipped(t, a, "package/lib/index.js", SkipPathConflict)
	wantSkipped(t, a, "package/src", SkipPathConflict)
	wantPaths(t, a, "lib", "src/a.js")
}

func TestNonUTF8Names(t *testing.T) {
	z := mustRead(t, zipBytes(t,
		zfile("pkg/ok.py", "ok"),
		zipEntry{hdr: zip.FileHeader{Name: "pkg/\xff\xfe.py", NonUTF8: true}, body: []byte("evil")},
	), FormatWheel, Limits{})
	wantOK(t, z)
	wantSkipped(t, z, `"pkg/\xff\xfe.py"`, SkipNonUTF8Name)
	wantPaths(t, z, "pkg/ok.py")

	// A USTAR name with raw bytes that are not UTF-8, and a PAX path
	// record carrying some.
	var raw []byte
	raw = append(raw, rawTarHeader("package/ok.js", '0', 2)...)
	raw = append(raw, pad512([]byte("ok"))...)
	raw = append(raw, rawTarHeader("package/\xc3\x28.js", '0', 4)...)
	raw = append(raw, pad512([]byte("evil"))...)
	rec := paxRecord("path", "package/\xff.js")
	raw = append(raw, rawTarHeader("PaxHeaders/x", 'x', int64(len(rec)))...)
	raw = append(raw, pad512([]byte(rec))...)
	raw = append(raw, rawTarHeader("package/placeholder.js", '0', 4)...)
	raw = append(raw, pad512([]byte("evil"))...)
	raw = append(raw, endOfArchive...)
	a := mustRead(t, gz(t, raw), FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantSkipped(t, a, `"package/\xc3(.js"`, SkipNonUTF8Name)
	wantSkipped(t, a, `"package/\xff.js"`, SkipNonUTF8Name)
	wantPaths(t, a, "ok.js")
}

func TestOtherBadNames(t *testing.T) {
	a := mustRead(t, tgz(t,
		tfile("package/ok.js", "ok"),
		tfile(`package\evil.js`, "x"),
		tfile("toplevel.js", "npm does not install this"),
		tfile("package", "a file with no directory at all"),
	), FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantSkipped(t, a, `package\evil.js`, SkipBackslashName)
	wantSkipped(t, a, "toplevel.js", SkipOutsidePackageRoot)
	wantSkipped(t, a, "package", SkipOutsidePackageRoot)
	wantPaths(t, a, "ok.js")
}

func TestSparseFileSkipped(t *testing.T) {
	// A PAX (format 1.0) GNU sparse file whose one byte of data sits at
	// the end of a 1 GiB hole. archive/tar would expand the hole on read,
	// above the limit accounting, so the member is recorded and not read.
	var raw []byte
	raw = append(raw, rawTarHeader("package/ok.js", '0', 2)...)
	raw = append(raw, pad512([]byte("ok"))...)
	recs := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
		paxRecord("GNU.sparse.name", "package/sparse.bin") + paxRecord("GNU.sparse.realsize", "1073741824")
	raw = append(raw, rawTarHeader("PaxHeaders/sparse", 'x', int64(len(recs)))...)
	raw = append(raw, pad512([]byte(recs))...)
	body := append(pad512([]byte("1\n1073741823\n1\n")), pad512([]byte("z"))...)
	raw = append(raw, rawTarHeader("package/GNUSparseFile.0/sparse.bin", '0', int64(len(body)))...)
	raw = append(raw, body...)
	raw = append(raw, endOfArchive...)

	// The same bytes through archive/tar alone do expand to 1 GiB: the
	// test is about a real hazard.
	tr := tar.NewReader(bytes.NewReader(raw))
	tr.Next()
	hdr, err := tr.Next()
	if err != nil || hdr.Size != 1<<30 || hdr.Name != "package/sparse.bin" {
		t.Fatalf("archive/tar reads the sparse entry as %+v, %v", hdr, err)
	}

	a := mustRead(t, gz(t, raw), FormatNpmTarball, Limits{})
	wantOK(t, a)
	wantSkipped(t, a, "package/sparse.bin", SkipSparse)
	wantPaths(t, a, "ok.js")
	if a.UncompressedBytes > 1<<20 {
		t.Fatalf("read %d bytes", a.UncompressedBytes)
	}
}

func TestEmptyArchives(t *testing.T) {
	wantUnreadable(t, mustRead(t, gz(t, nil), FormatNpmTarball, Limits{}), CauseInvalid)
	wantUnreadable(t, mustRead(t, tgz(t), FormatNpmTarball, Limits{}), CauseInvalid)
	wantUnreadable(t, mustRead(t, zipBytes(t), FormatWheel, Limits{}), CauseInvalid)
	wantUnreadable(t, mustRead(t, nil, FormatWheel, Limits{}), CauseInvalid)
	wantUnreadable(t, mustRead(t, nil, FormatNpmTarball, Limits{}), CauseInvalid)
	wantUnreadable(t, mustRead(t, []byte("x"), FormatUnknown, Limits{}), CauseUnknownFormat)
	wantUnreadable(t, mustRead(t, []byte("x"), Format("rar"), Limits{}), CauseUnknownFormat)
}
