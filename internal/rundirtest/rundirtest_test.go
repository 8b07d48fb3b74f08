package rundirtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
)

// TestNormalise: the volatile members are replaced at any depth, the extra
// ones only when asked, and everything else is kept.
func TestNormalise(t *testing.T) {
	in := []byte(`{"a": 1, "ms": 12, "rows": [{"fetched_at": "2026-12-01T00:00:00Z", "name": "x"}], "started_at": "t0"}`)
	got := Normalise(t, in)
	for _, want := range []string{`"ms": "<volatile>"`, `"fetched_at": "<volatile>"`, `"name": "x"`, `"started_at": "t0"`, `"a": 1`} {
		if !strings.Contains(got, want) {
			t.Errorf("Normalise: %q missing from %s", want, got)
		}
	}
	if got := Normalise(t, in, HeaderTimes...); !strings.Contains(got, `"started_at": "<volatile>"`) {
		t.Errorf("Normalise with HeaderTimes kept started_at: %s", got)
	}
	if Normalise(t, []byte(`{"ms": 1}`)) != Normalise(t, []byte(`{"ms": 2}`)) {
		t.Errorf("two files differing only in a measured figure normalise differently")
	}
	if Normalise(t, []byte(`{"n": 1}`)) == Normalise(t, []byte(`{"n": 2}`)) {
		t.Errorf("two files differing in a kept member normalise the same")
	}
}

// TestTGZ: the members are under package/ with their texts, and the same
// files give the same bytes.
func TestTGZ(t *testing.T) {
	b := TGZ(t, "package.json", `{"name": "x"}`, "index.js", "1;")
	if !bytes.Equal(b, TGZ(t, "package.json", `{"name": "x"}`, "index.js", "1;")) {
		t.Errorf("the same files gave other bytes")
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		got = append(got, h.Name+"="+string(body))
	}
	if want := `package/package.json={"name": "x"} package/index.js=1;`; strings.Join(got, " ") != want {
		t.Errorf("members: %q, want %q", strings.Join(got, " "), want)
	}
}
