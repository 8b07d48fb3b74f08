package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/surface"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden outputs under testdata/cli")

// TestCLIGoldenOutputs pins what a user reads first: the usage printed when
// no command is given (on stderr, exit 2), `help` (stdout, exit 0), and the
// version line with its versions replaced by placeholders (they move with
// every methodology version; TestVersionNamesEveryVersion checks them).
func TestCLIGoldenOutputs(t *testing.T) {
	versions := strings.NewReplacer(methodology.Version, "M", methodology.SHA256()[:12], "SHA", surface.ExtractorVersion, "E",
		checks.VerifierVersion, "V", analyzer.PromptVersion, "P")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr bool
	}{
		{"no-command", nil, 2, true},
		{"help", []string{"help"}, 0, false},
		{"version", []string{"version"}, 0, false},
		{"check-help", []string{"help", "check"}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, t.TempDir(), tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d", code, tc.code)
			}
			got := out
			if tc.stderr {
				if out != "" {
					t.Fatalf("stdout %q, want nothing", out)
				}
				got = errs
			}
			got = versions.Replace(got)
			path := filepath.Join("testdata", "cli", tc.name+".golden")
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (run with -update after checking):\ngot:\n%s\nwant:\n%s", tc.name, path, got, want)
			}
		})
	}
}
