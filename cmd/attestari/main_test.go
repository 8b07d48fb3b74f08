package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/s3test"
	"github.com/attestari/attestari/internal/surface"
)

// TestMain lets the test binary be the extraction child the commands start
// (os.Executable is this binary under test), so `run` and `surface` in
// these tests extract in real child processes.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == extractChildCommand || os.Getenv(asCLIEnv) == "1") {
		e := &env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
		os.Exit(runMain(context.Background(), e, os.Args[1:]))
	}
	// One m.Run: dbtest.Main runs it and stops the shared PostgreSQL the
	// queue's tests started; then stop the S3 server evidence_s3_test.go started.
	code := dbtest.Main(m)
	s3test.StopShared()
	os.Exit(code)
}

func runCLI(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string {
		if k == "ATTESTARI_HOME" {
			return home
		}
		return ""
	}}
	code := runMain(context.Background(), e, args)
	return code, out.String(), errb.String()
}

func TestEveryCommandHasHelpWithExample(t *testing.T) {
	for _, c := range commands() {
		code, out, _ := runCLI(t, t.TempDir(), c.name, "--help")
		if code != 0 || !strings.Contains(out, "Usage: attestari "+c.name) || !strings.Contains(out, "Example:") {
			t.Errorf("%s --help (exit %d) lacks usage or example:\n%s", c.name, code, out)
		}
	}
	code, out, _ := runCLI(t, t.TempDir(), "help")
	if code != 0 || !strings.Contains(out, "Commands:") {
		t.Fatalf("help: %d %s", code, out)
	}
	// No command at all is a caller's mistake: usage on stderr, exit 2.
	code, out, errs := runCLI(t, t.TempDir())
	if code != 2 || out != "" || !strings.Contains(errs, "no command given") || !strings.Contains(errs, "Commands:") {
		t.Fatalf("no command: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestVersionNamesEveryVersion(t *testing.T) {
	code, out, _ := runCLI(t, t.TempDir(), "version")
	if code != 0 {
		t.Fatalf("version exit %d", code)
	}
	for _, want := range []string{"methodology " + methodology.Version, "extractor " + surface.ExtractorVersion,
		"verifier " + checks.VerifierVersion, "prompt " + analyzer.PromptVersion} {
		if !strings.Contains(out, want) {
			t.Errorf("version line %q lacks %q", out, want)
		}
	}
}

func TestUnknownCommandAndUsageErrors(t *testing.T) {
	if code, _, errs := runCLI(t, t.TempDir(), "frobnicate"); code != 2 || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: %d %s", code, errs)
	}
	if code, _, errs := runCLI(t, t.TempDir(), "decide"); code != 2 || !strings.Contains(errs, "expected one run id") {
		t.Fatalf("decide without a run: %d %s", code, errs)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDecideFixture decides a reason-code fixture through the CLI and finds
// exactly its code in the counts and the written decisions.
func TestDecideFixture(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	copyDir(t, "../../analysis/fixtures/reason_codes/partial_description", dir)
	code, out, errs := runCLI(t, t.TempDir(), "decide", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var counts struct{ Reasons map[string]int }
	if err := json.Unmarshal([]byte(out), &counts); err != nil {
		t.Fatal(err)
	}
	if len(counts.Reasons) != 1 || counts.Reasons["partial_description"] != 1 {
		t.Fatalf("want exactly partial_description, got %v", counts.Reasons)
	}
	for _, f := range []string{"decisions.json", "decisions.jsonl", "decisions.md", "gate_map.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("decide did not write %s", f)
		}
	}
}

// TestExtractChildIsHidden: the worker's child subcommand is not offered
// to people, and refuses what the worker never sends.
func TestExtractChildIsHidden(t *testing.T) {
	_, out, _ := runCLI(t, t.TempDir())
	if strings.Contains(out, extractChildCommand) {
		t.Fatalf("help lists %s:\n%s", extractChildCommand, out)
	}
	if code, _, errs := runCLI(t, t.TempDir(), extractChildCommand, "extra"); code != 2 || !strings.Contains(errs, "started by the worker") {
		t.Fatalf("%s with an argument: %d %s", extractChildCommand, code, errs)
	}
}
