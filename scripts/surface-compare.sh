#!/usr/bin/env bash
# surface-compare.sh: what the extractor of one commit reads from the surface
# goldens and the committed fuzz corpora, one line per case (case, outcome,
# SHA-256 of the surface row without extractor_version and budget), each case
# in its own process so a case that kills the process prints "crash" instead
# of ending the listing. Run it at two commits and diff the listings to see
# what a change of the extractor changed:
#
#   diff <(scripts/surface-compare.sh 8f5bba7) <(scripts/surface-compare.sh HEAD)
#
# The cases are read from the newer tree (this checkout), so the older
# extractor meets the inputs committed since. The commit's tree is exported
# with git archive into a temporary directory; nothing in this checkout is
# written.
set -euo pipefail

rev="${1:?usage: scripts/surface-compare.sh REV}"
here="$(git rev-parse --show-toplevel)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git -C "$here" archive "$rev" | tar -x -C "$work"
cat > "$work/internal/surface/zz_compare_test.go" <<'EOF'
package surface

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/rundir"
)

const comparePkg = `{"name":"fuzz","version":"1.0.0","main":"index.js"}`

// compareFiles builds the package one case stands for, as the golden test
// or the fuzz target that owns it does.
func compareFiles(t *testing.T, path string) map[string][]byte {
	if strings.HasSuffix(path, ".txtar") {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string][]byte{}
		for _, f := range a.Files {
			if f.Name != "want.json" {
				m[f.Name] = f.Data
			}
		}
		return m
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, l := range strings.Split(string(b), "\n")[1:] {
		l = strings.TrimSpace(l)
		for _, p := range []string{"[]byte(", "string("} {
			if strings.HasPrefix(l, p) && strings.HasSuffix(l, ")") {
				s, err := strconv.Unquote(l[len(p) : len(l)-1])
				if err != nil {
					t.Fatal(err)
				}
				args = append(args, s)
			}
		}
	}
	m := map[string][]byte{"package.json": []byte(comparePkg)}
	switch filepath.Base(filepath.Dir(path)) {
	case "FuzzExtractJS":
		m["index.js"] = []byte(args[0])
	case "FuzzExtractPython":
		m["server.py"] = []byte(args[0])
	case "FuzzPythonImportCycles":
		m["pyproject.toml"] = []byte("[project]\nname = \"p\"\nversion = \"1\"\ndependencies = [\"mcp\"]\n")
		for i, s := range []string{"p/__init__.py", "p/server.py", "p/a.py", "p/b.py", "p/c.py"} {
			m[s] = []byte(args[i])
		}
	case "FuzzJSImportCycles":
		for i, s := range []string{"index.js", "a.js", "b.js", "c.js"} {
			m[s] = []byte(args[i])
		}
	case "FuzzPythonDecorators":
		m["server.py"] = []byte("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\nfrom mcp.server import Server\nx = mcp\nserver = Server('s')\nDESC = 'd'\n" +
			"@" + args[0] + "\ndef f(" + args[1] + "):\n" + args[2])
	default:
		t.Skip("no harness for " + path)
	}
	return m
}

func TestCompareCase(t *testing.T) {
	path := os.Getenv("COMPARE_CASE")
	fsys := fstest.MapFS{}
	for k, v := range compareFiles(t, path) {
		fsys[k] = &fstest.MapFile{Data: v, Mode: 0o644}
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	s := Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "compare", Version: "1"}, fsys, members,
		Options{WallBudget: 20 * time.Second, MaxVisited: 200_000})
	s.ExtractorVersion, s.Budget = "", rundir.Budget{}
	b, err := rundir.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	d := sha256.Sum256(b)
	fmt.Printf("RESULT %s %s\n", s.Outcome, hex.EncodeToString(d[:8]))
}
EOF
(cd "$work" && go test -c -o "$work/surface.test" ./internal/surface/ >/dev/null)
cd "$here"
for c in testdata/surface/*.txtar internal/surface/testdata/fuzz/*/*; do
  [ -f "$c" ] || continue
  out="$(cd "$work/internal/surface" && COMPARE_CASE="$here/$c" timeout 120 "$work/surface.test" -test.run '^TestCompareCase$' 2>&1 || true)"
  line="$(printf '%s\n' "$out" | sed -n 's/^RESULT //p' | head -1)"
  if [ -z "$line" ]; then
    why="crash"
    printf '%s\n' "$out" | grep -q 'stack overflow' && why="crash (stack overflow)"
    printf '%s\n' "$out" | grep -q 'SKIP' && why="skipped"
    line="$why"
  fi
  printf '%s %s\n' "$c" "$line"
done
