package checks

import (
	"errors"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

func TestMinifiedOnlyFinding(t *testing.T) {
	bundle := "// header\n" + strings.Repeat("x", 1500) + "\nshort\n"
	s := &rundir.Surface{
		Package:         rundir.PackageRef{Registry: "npm", Name: "b", Version: "1.0.0"},
		Outcome:         "minified_only",
		OutcomeEvidence: []rundir.Site{{File: "dist/a.min.js", Line: 2}, {File: "dist/a.min.js", Line: 2}},
		Files:           []rundir.SourceFile{{Path: "dist/a.min.js", SHA256: vocab.SHA256Hex([]byte(bundle))}},
	}
	fs, err := MinifiedOnlyFindings(s, func(p string) ([]byte, error) {
		if p == "dist/a.min.js" {
			return []byte(bundle), nil
		}
		return nil, errors.New("absent")
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 {
		t.Fatalf("one finding per bundle, got %d", len(fs))
	}
	f := fs[0]
	if f.Severity != "medium" || f.Tag != "minified_only" || f.Evidence.LineStart != 2 || f.Evidence.LineEnd != 2 {
		t.Fatalf("finding: %+v", f)
	}
	if !strings.Contains(bundle, f.Evidence.Excerpt) || len(f.Evidence.Excerpt) != 200 || !strings.Contains(f.Title, "longest line 1500 bytes") {
		t.Fatalf("excerpt %d bytes, title %q", len(f.Evidence.Excerpt), f.Title)
	}
	if f.Evidence.SHA256 != vocab.SHA256Hex([]byte(bundle)) {
		t.Fatal("the evidence must be the bundle file's blob")
	}
	if none, _ := MinifiedOnlyFindings(&rundir.Surface{Outcome: "parsed"}, nil); none != nil {
		t.Fatal("only minified_only surfaces make this finding")
	}
}

func TestLongestLine(t *testing.T) {
	for in, want := range map[string][3]int{"": {1, 0, 0}, "a\nbbb\ncc": {2, 2, 3}, "aaa\r\nbb": {1, 0, 3}, "x\n\nyy\n": {3, 3, 2}} {
		l, s, n := longestLine([]byte(in))
		if [3]int{l, s, n} != want {
			t.Errorf("%q: got %d %d %d want %v", in, l, s, n, want)
		}
	}
}
