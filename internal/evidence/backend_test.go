package evidence

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRunObjectFileLayout pins where the directory backend keeps a run
// object and that a rewrite replaces it whole; the behaviours both backends
// share are in internal/evidence/storetest.
func TestRunObjectFileLayout(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := s.PutRunObject(ctx, "run-1", "packages/abc.json", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRunObject(ctx, "run-1", "packages/abc.json", []byte("two")); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(s.Root(), "runs", "run-1", "packages", "abc.json"))
	if err != nil || string(raw) != "two" {
		t.Fatalf("file = %q, %v; want %q", raw, err, "two")
	}
	left, err := filepath.Glob(filepath.Join(s.Root(), "runs", "run-1", "packages", tempPrefix+"*"))
	if err != nil || len(left) != 0 {
		t.Fatalf("temporary files left: %v %v", left, err)
	}
	if got := s.Location(); got != "file://"+filepath.ToSlash(s.Root()) {
		t.Fatalf("Location = %q", got)
	}
}

func TestValidateRunObject(t *testing.T) {
	good := [][2]string{{"r", "run.json"}, {"20261130T071500Z-3f2a9c", "packages/0123.json"}, {"a", "a/b/c/d"}}
	for _, g := range good {
		if err := ValidateRunObject(g[0], g[1]); err != nil {
			t.Errorf("ValidateRunObject(%q, %q) = %v, want nil", g[0], g[1], err)
		}
	}
	bad := [][2]string{
		{"", "run.json"}, {"..", "run.json"}, {"a/b", "run.json"}, {".hidden", "x"},
		{"r", ""}, {"r", "../x"}, {"r", "a/../b"}, {"r", "/abs"}, {"r", "a//b"}, {"r", "a/"},
		{"r", ".tmp-1"}, {"r", "a/b/c/d/e"}, {"r", `a\b`}, {"r", "a b"}, {"r", "é"},
	}
	for _, b := range bad {
		if err := ValidateRunObject(b[0], b[1]); !errors.Is(err, ErrBadRunObject) {
			t.Errorf("ValidateRunObject(%q, %q) = %v, want ErrBadRunObject", b[0], b[1], err)
		}
	}
}
