package main

import (
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/corpus"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/pipeline/extractor"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/rundirtest"
	"github.com/attestari/attestari/internal/vocab"
)

// testChildEnv makes the test binary the probe's extraction child.
const testChildEnv = "ATTESTARI_PROBE_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(testChildEnv) != "" {
		if err := extractor.ServeChild(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestCorpusEvalParallelExtractsInChildren: with -parallel 2 each package is
// extracted in a child process of its own, so every row is held to, and
// carries, its own CPU time (budget.cpu_ms beside budget.cpu_ms_limit, the
// wall limit the backstop), as with -parallel 1 and as in a run; before,
// such rows had wall time only.
func TestCorpusEvalParallelExtractsInChildren(t *testing.T) {
	var started int
	probeChild = func() (*pipeline.ChildExtractor, error) {
		started++
		c := extractor.Child(os.Args[0], "-test.run=^$")
		c.Env = []string{testChildEnv + "=1"}
		return c, nil
	}
	t.Cleanup(func() {
		probeChild = func() (*pipeline.ChildExtractor, error) { return nil, fmt.Errorf("no child in tests") }
	})
	dir, truth, rows := t.TempDir(), t.TempDir(), t.TempDir()
	l := corpus.List{Generated: "2026-12-02", Rule: "a test corpus"}
	for i := range 3 {
		var src strings.Builder
		src.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nconst server = new McpServer({ name: \"s\", version: \"1\" });\n")
		// Enough source that reading it takes measurable CPU time.
		for j := range 1500 {
			fmt.Fprintf(&src, "server.tool(\"tool_%d\", \"Returns item %d of the list.\", async () => ({ content: [] }));\n", j, j)
		}
		name := fmt.Sprintf("probe-child-%d", i)
		data := rundirtest.TGZ(t, "package.json", `{"name":"`+name+`","version":"1.0.0","main":"index.js","dependencies":{"@modelcontextprotocol/sdk":"^1.20.0"}}`,
			"index.js", src.String())
		p := corpus.Package{Name: name, Version: "1.0.0", Tier: "test", SelectedBy: "test", TarballSHA256: vocab.SHA256Hex(data), TarballSize: int64(len(data)),
			Integrity: "sha512-" + base64.StdEncoding.EncodeToString(sha512Of(data))}
		if err := os.WriteFile(corpus.TarballPath(dir, p), data, 0o644); err != nil {
			t.Fatal(err)
		}
		l.Packages = append(l.Packages, p)
	}
	listPath := filepath.Join(t.TempDir(), "packages.json")
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(listPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report.md")
	if err := corpusEvalRun(context.Background(), listPath, truth, dir, out, rows, "", "test", 2); err != nil {
		t.Fatal(err)
	}
	if started != 1 {
		t.Errorf("child extractor built %d times, want once", started)
	}
	paths, _ := filepath.Glob(filepath.Join(rows, "*.json"))
	if len(paths) != len(l.Packages) {
		t.Fatalf("%d rows, want %d", len(paths), len(l.Packages))
	}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var s rundir.Surface
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		bud := s.Budget
		if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1500 {
			t.Errorf("%s: outcome %s (%s), %d tools", s.Package.Name, s.Outcome, s.OutcomeDetail, len(s.Tools))
		}
		if bud.CPUMs <= 0 || bud.CPUMsLimit != pipeline.DefaultChildCPUBudget.Milliseconds() || bud.WallMsLimit != pipeline.DefaultChildWallBudget.Milliseconds() || bud.RSSBytes <= 0 {
			t.Errorf("%s: budget %+v, want the child's CPU time beside the CPU budget and the wall backstop", s.Package.Name, bud)
		}
	}
}

func sha512Of(b []byte) []byte {
	h := sha512.Sum512(b)
	return h[:]
}
