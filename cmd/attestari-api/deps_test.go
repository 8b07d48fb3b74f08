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
// the pure-Go format libraries of leafModules and other leaves, so every step
// and the store may depend on them. The module root only embeds files.
var leaves = []string{
	"github.com/attestari/attestari",
	"github.com/attestari/attestari/api",
	"github.com/attestari/attestari/api/attest",
	"github.com/attestari/attestari/internal/appeals",
	"github.com/attestari/attestari/internal/checks/declared",
	"github.com/attestari/attestari/internal/decision",
	"github.com/attestari/attestari/internal/evidence",
	"github.com/attestari/attestari/internal/literal",
	"github.com/attestari/attestari/internal/manifest",
	"github.com/attestari/attestari/internal/methodology",
	"github.com/attestari/attestari/internal/pep440",
	"github.com/attestari/attestari/internal/publication",
	"github.com/attestari/attestari/internal/rundir",
	"github.com/attestari/attestari/internal/verify",
	"github.com/attestari/attestari/internal/vocab",
}

// leafModules are the modules outside the standard library a leaf may link,
// by path prefix: RFC 8785 (manifest, appeals), DSSE and the x/crypto it
// needs (api/attest), Unicode names (literal). No driver, SDK or parser.
var leafModules = []string{
	"github.com/gowebpki/jcs",
	"github.com/secure-systems-lab/go-securesystemslib/",
	"golang.org/x/crypto/",
	"golang.org/x/text/",
}

func isLeaf(p string) bool { return slices.Contains(leaves, p) }

// storeMustNotLink are the pipeline's steps the store must not link: it
// loads and serves the publication format, and the format is a leaf.
var storeMustNotLink = []string{
	"github.com/attestari/attestari/internal/publish",
	"github.com/attestari/attestari/internal/policy",
	"github.com/attestari/attestari/internal/checks",
	"github.com/attestari/attestari/internal/surface",
}

// steps returns the packages of deps that storeMustNotLink names: the entry
// itself or a package below it that is not a leaf.
func steps(deps []string) []string {
	var out []string
	for _, d := range deps {
		for _, f := range storeMustNotLink {
			if d == f || strings.HasPrefix(d, f+"/") && !isLeaf(d) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// notLeafDeps returns what pkg links that a leaf may not: a package of the
// project that is not a leaf, or one outside the standard library that no
// entry of leafModules covers.
func notLeafDeps(t *testing.T, pkg string) []string {
	t.Helper()
	var out []string
	for _, d := range goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg) {
		switch {
		case d == pkg || isLeaf(d):
		case d == "github.com/attestari/attestari" || strings.HasPrefix(d, "github.com/attestari/attestari/"):
			out = append(out, d)
		case !slices.ContainsFunc(leafModules, func(m string) bool { return d == m || strings.HasSuffix(m, "/") && strings.HasPrefix(d, m) }):
			out = append(out, d)
		}
	}
	return out
}

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

// TestLeavesImportOnlyLeaves proves each leaf links, of the project, only
// leaves, and outside it only the standard library and leafModules; and that
// the check would see a package that is not a leaf: the store links pgx.
func TestLeavesImportOnlyLeaves(t *testing.T) {
	for _, leaf := range leaves {
		for _, d := range notLeafDeps(t, leaf) {
			t.Errorf("leaf %s links %s", leaf, d)
		}
	}
	bad := notLeafDeps(t, "github.com/attestari/attestari/internal/store")
	if !slices.Contains(bad, "github.com/jackc/pgx/v5") || !slices.Contains(bad, "github.com/attestari/attestari/internal/store/internal/dbq") {
		t.Errorf("the store links pgx and its dbq, and the leaf check does not see them: %v", bad)
	}
}

// TestStoreLinksNoStep proves the store and its test builder link neither
// publish nor policy nor a check nor the extractor (they read the decision
// and publication formats, which are leaves), and that the check would see
// them: the CLI links each.
func TestStoreLinksNoStep(t *testing.T) {
	for _, pkg := range []string{"../../internal/store", "../../internal/store/storetest"} {
		if bad := steps(goList(t, "-deps", pkg)); len(bad) > 0 {
			t.Errorf("%s links %d packages it must not:\n%s", pkg, len(bad), strings.Join(bad, "\n"))
		}
	}
	cli := steps(goList(t, "-deps", "../attestari"))
	for _, f := range storeMustNotLink {
		if !slices.Contains(cli, f) {
			t.Errorf("cmd/attestari does not link %s: the check above cannot see it", f)
		}
	}
}
