package artifact

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"fmt"
	"hash/crc32"
	"io/fs"
	"runtime"
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// Every archive in these tests is built by the test itself; nothing hostile
// is committed except the fuzz corpora.

type tarEntry struct {
	hdr  tar.Header
	body []byte
}

func tfile(name, body string) tarEntry {
	return tarEntry{hdr: tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}, body: []byte(body)}
}

func tarBytes(t testing.TB, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := e.hdr
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatalf("tar header %q: %v", h.Name, err)
		}
		if _, err := tw.Write(e.body); err != nil {
			t.Fatalf("tar body %q: %v", h.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tgz(t testing.TB, entries ...tarEntry) []byte {
	t.Helper()
	return gz(t, tarBytes(t, entries...))
}

type zipEntry struct {
	hdr  zip.FileHeader
	body []byte
}

func zfile(name, body string) zipEntry {
	h := zip.FileHeader{Name: name, Method: zip.Deflate}
	h.SetMode(0o644)
	return zipEntry{hdr: h, body: []byte(body)}
}

func zipBytes(t testing.TB, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := e.hdr
		w, err := zw.CreateHeader(&h)
		if err != nil {
			t.Fatalf("zip header %q: %v", h.Name, err)
		}
		if _, err := w.Write(e.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawDeflate compresses data as a zip member body.
func rawDeflate(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zipRaw builds a zip whose members carry pre-compressed bodies and
// whatever sizes the test declares.
type rawMember struct {
	name         string
	compressed   []byte
	crc          uint32
	uncompressed uint64
}

func zipRawBytes(t testing.TB, members ...rawMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		h := &zip.FileHeader{
			Name:               m.name,
			Method:             zip.Deflate,
			CRC32:              m.crc,
			CompressedSize64:   uint64(len(m.compressed)),
			UncompressedSize64: m.uncompressed,
		}
		h.SetMode(0o644)
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.compressed); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func crcOf(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

func mustRead(t testing.TB, data []byte, format Format, lim Limits) *Artifact {
	t.Helper()
	a, err := Read(context.Background(), data, format, lim)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if a == nil {
		t.Fatal("Read returned a nil Artifact")
	}
	return a
}

func wantOK(t testing.TB, a *Artifact) {
	t.Helper()
	if a.Outcome != OutcomeOK {
		t.Fatalf("outcome %s (%s: %s), want ok", a.Outcome, a.Cause, a.Reason)
	}
}

func wantUnreadable(t testing.TB, a *Artifact, cause string) {
	t.Helper()
	if a.Outcome != vocab.OutcomeArchiveUnreadable || a.Cause != cause {
		t.Fatalf("outcome %s cause %q (%s), want archive_unreadable cause %q", a.Outcome, a.Cause, a.Reason, cause)
	}
	if a.Reason == "" {
		t.Fatal("archive_unreadable without a reason")
	}
	if len(a.Members) != 0 {
		t.Fatalf("unreadable archive exposes %d members", len(a.Members))
	}
	if entries, err := fs.ReadDir(a.FS, "."); err != nil || len(entries) != 0 {
		t.Fatalf("unreadable archive's FS lists %d entries (%v)", len(entries), err)
	}
}

func wantSkipped(t testing.TB, a *Artifact, name, reason string) SkippedMember {
	t.Helper()
	for _, s := range a.Skipped {
		if s.Name == name && s.Reason == reason {
			return s
		}
	}
	t.Fatalf("no skip {%q %s} in %+v", name, reason, a.Skipped)
	return SkippedMember{}
}

func memberPaths(a *Artifact) []string {
	var ps []string
	for _, m := range a.Members {
		ps = append(ps, m.Path)
	}
	return ps
}

func wantPaths(t testing.TB, a *Artifact, want ...string) {
	t.Helper()
	if got := memberPaths(a); !slices.Equal(got, want) {
		t.Fatalf("member paths %q, want %q", got, want)
	}
}

// allocatedBy reports the bytes allocated while f ran (MemStats.TotalAlloc,
// which counts every allocation, freed or not, so it bounds peak heap
// growth from above).
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// rawTarHeader builds one USTAR header block by hand, for headers
// archive/tar's writer refuses to produce (raw non-UTF-8 names, GNU sparse
// records, arbitrary type flags).
func rawTarHeader(name string, typeflag byte, size int64) []byte {
	h := make([]byte, 512)
	copy(h[0:100], name)
	copy(h[100:108], "0000644\x00")
	copy(h[108:116], "0000000\x00")
	copy(h[116:124], "0000000\x00")
	copy(h[124:136], fmt.Sprintf("%011o\x00", size))
	copy(h[136:148], "00000000000\x00")
	h[156] = typeflag
	copy(h[257:265], "ustar\x0000")
	copy(h[148:156], "        ")
	var sum int
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:156], fmt.Sprintf("%06o\x00 ", sum))
	return h
}

// paxRecord encodes one PAX extended-header record: "<len> key=value\n",
// where len counts the whole record including its own digits.
func paxRecord(k, v string) string {
	body := " " + k + "=" + v + "\n"
	n := len(body) + 1
	for len(fmt.Sprint(n))+len(body) != n {
		n = len(fmt.Sprint(n)) + len(body)
	}
	return fmt.Sprint(n) + body
}

// pad512 pads a tar body to the block size.
func pad512(b []byte) []byte {
	if r := len(b) % 512; r != 0 {
		b = append(b, make([]byte, 512-r)...)
	}
	return b
}

// endOfArchive is tar's two zero blocks.
var endOfArchive = make([]byte, 1024)
