package surface

import (
	"context"
	"os"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

func TestExpDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		return
	}
	src, _ := os.ReadFile(os.Getenv("DUMP"))
	lang := languageOf(os.Getenv("DUMP"))
	p, err := parseFile(lang, src, 1e9, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &file{src: src, parsed: p}
	t.Log("\n" + f.sexp(0))
}

func TestExpDir(t *testing.T) {
	if os.Getenv("DIR") == "" {
		return
	}
	s, err := ExtractDir(context.Background(), os.Getenv("DIR"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Files = nil
	b, _ := rundir.Marshal(s)
	os.WriteFile("/tmp/surface.json", b, 0o644)
}
