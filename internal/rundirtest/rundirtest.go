// Package rundirtest is test support shared by the tests that compare run
// directories (internal/pipeline, internal/queue, cmd/attestari): the one
// normaliser of run files, and the one synthetic npm tarball writer of
// their stand-in registries. It is imported by tests only.
package rundirtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/rundir"
)

// Volatile are the members of a run's files whose values are times or
// measured figures: two runs over the same inputs differ only there.
var Volatile = []string{"fetched_at", "ms", "wall_ms", "rss_bytes", "cpu_ms"}

// HeaderTimes are run.json's own times, volatile too when a test compares
// headers.
var HeaderTimes = []string{"started_at", "finished_at"}

// Normalise re-encodes a run file (JSON) as the run directory encodes it,
// with every member named in Volatile, or in extra, replaced by
// "<volatile>" wherever it occurs.
func Normalise(t testing.TB, b []byte, extra ...string) string {
	t.Helper()
	volatile := map[string]bool{}
	for _, k := range Volatile {
		volatile[k] = true
	}
	for _, k := range extra {
		volatile[k] = true
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if volatile[k] {
					x[k] = "<volatile>"
				} else {
					x[k] = walk(e)
				}
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	nb, err := rundir.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return string(nb)
}

// TGZ packs files (name, text, name, text, ...) under package/, as npm
// packs a tarball, with fixed times so the same files give the same bytes.
func TGZ(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for i := 0; i+1 < len(files); i += 2 {
		hdr := &tar.Header{Name: "package/" + files[i], Mode: 0o644, Size: int64(len(files[i+1])), ModTime: time.Unix(499162500, 0), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
