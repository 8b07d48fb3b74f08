package main

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The API server serves publications from PostgreSQL; it must not link what
// examines packages (docs/architecture.md, import rules). These are the
// module paths of the model SDKs, sigstore and tree-sitter, and the project's
// packages that wrap them or run the pipeline's steps.
var apiMustNotLink = []string{
	"github.com/anthropics/anthropic-sdk-go",
	"github.com/openai/openai-go",
	"github.com/sigstore/",
	"github.com/tree-sitter/",
	"github.com/attestari/attestari/internal/analyzer",
	"github.com/attestari/attestari/internal/sigstore",
	"github.com/attestari/attestari/internal/surface",
	"github.com/attestari/attestari/internal/checks",
	"github.com/attestari/attestari/internal/repohost",
	"github.com/attestari/attestari/internal/registry",
	"github.com/attestari/attestari/internal/pipeline",
}

// forbidden returns the packages of deps that apiMustNotLink names. A
// package path matches an entry that ends in "/" by prefix, and any other
// entry when it is the entry or below it (so internal/checks/declared, a
// leaf, is not internal/checks).
func forbidden(deps []string) []string {
	var out []string
	for _, d := range deps {
		for _, f := range apiMustNotLink {
			if strings.HasSuffix(f, "/") && strings.HasPrefix(d, f) || d == f || strings.HasPrefix(d, f+"/") && !isLeaf(d) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// leaves are the project's packages that import only the standard library,
// vendored pure-Go modules and other leaves, so every step and the store may
// depend on them.
var leaves = []string{
	"github.com/attestari/attestari/internal/verify",
	"github.com/attestari/attestari/internal/pep440",
	"github.com/attestari/attestari/internal/checks/declared",
	"github.com/attestari/attestari/internal/literal",
	"github.com/attestari/attestari/internal/rundir",
	"github.com/attestari/attestari/internal/vocab",
}

func isLeaf(p string) bool { return slices.Contains(leaves, p) }

func goList(t *testing.T, args ...string) []string {
	t.Helper()
	// go test puts its own toolchain's bin first on PATH.
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to list the packages with: %v", err)
	}
	cmd := exec.CommandContext(context.Background(), goBin, append([]string{"list"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, stderr)
	}
	return strings.Fields(string(out))
}

// TestAPILinksNoExaminer proves the server binary links no model SDK, no
// sigstore, no tree-sitter and no pipeline step, and that the check would
// see them: the CLI, which runs every step, links each.
func TestAPILinksNoExaminer(t *testing.T) {
	if bad := forbidden(goList(t, "-deps", ".")); len(bad) > 0 {
		t.Errorf("cmd/attestari-api links %d packages it must not:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	cli := forbidden(goList(t, "-deps", "../attestari"))
	for _, f := range apiMustNotLink {
		if !slices.ContainsFunc(cli, func(d string) bool { return strings.HasPrefix(d, f) }) {
			t.Errorf("cmd/attestari links nothing under %s: the check above cannot see it", f)
		}
	}
}

// TestLeavesImportOnlyLeaves proves each leaf links no other package of the
// project than leaves (and the module root's embedded files it never needs).
func TestLeavesImportOnlyLeaves(t *testing.T) {
	for _, leaf := range leaves {
		for _, d := range goList(t, "-deps", leaf) {
			if d != leaf && strings.HasPrefix(d, "github.com/attestari/attestari") && !isLeaf(d) {
				t.Errorf("leaf %s links %s", leaf, d)
			}
		}
	}
}
