package surface

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/verify"
	"golang.org/x/tools/txtar"
)

// checkQuotePieces verifies quote against entry (of kind, in file) of s and
// checks the source bytes of each piece the verifier matched, in order;
// excerpts nil means the verifier must reject the quote. It is the shared
// body of the tests that quote across texts joined from several places
// (fallbacks, constant tables, conditional message texts).
func checkQuotePieces(t *testing.T, s *rundir.Surface, read func(string) ([]byte, error), kind, entry, file, quote string, excerpts []string) {
	t.Helper()
	v, err := verify.VerifyQuote(s, read, kind, entry, file, quote)
	if excerpts == nil {
		if err == nil || !errors.Is(err, verify.ErrRejected) {
			t.Errorf("%s %q: verified (%v), want a rejection", entry, quote, err)
		}
		return
	}
	if err != nil {
		t.Errorf("%s %q: %v", entry, quote, err)
		return
	}
	parts := v.Parts
	if len(parts) == 0 {
		parts = []verify.Verified{v}
	}
	var got []string
	for _, p := range parts {
		got = append(got, string(p.Excerpt))
	}
	if len(got) != len(excerpts) {
		t.Errorf("%s %q: pieces %q, want %q", entry, quote, got, excerpts)
		return
	}
	for i := range got {
		if got[i] != excerpts[i] {
			t.Errorf("%s %q: pieces %q, want %q", entry, quote, got, excerpts)
			return
		}
	}
}

// quoteFixture extracts the golden case name (a txtar archive under
// goldenDir) and returns its surface and a reader of its members, the two
// things checkQuotePieces needs.
func quoteFixture(t *testing.T, name string) (rundir.Surface, func(string) ([]byte, error)) {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	s := extractArchive(t, a)
	fsys := archiveFS(a)
	return s, func(path string) ([]byte, error) { return fsys[path].Data, nil }
}
