package artifact

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPackTarGz: a packed directory reads back through the archive reader
// with every file under the prefix, and packing twice gives the same bytes.
func TestPackTarGz(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"package.json": `{"name":"x","version":"1.0.0"}`, "lib/index.js": "module.exports = 1;\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	files := []string{"lib/index.js", "package.json"}
	a, err := PackTarGz(dir, files, "package", tar.FormatUSTAR, epoch)
	if err != nil {
		t.Fatal(err)
	}
	b, err := PackTarGz(dir, files, "package", tar.FormatUSTAR, epoch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("packing the same files twice gave different bytes")
	}
	art, err := Read(context.Background(), a, FormatNpmTarball, Limits{})
	if err != nil || art.Outcome != "ok" {
		t.Fatalf("read back: %v %+v", err, art)
	}
	if len(art.Members) != 2 {
		t.Fatalf("members: %+v", art.Members)
	}
	if _, err := PackTarGz(dir, []string{"missing.js"}, "package", tar.FormatUSTAR, epoch); err == nil {
		t.Fatal("a missing file packed without error")
	}
}
