package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
)

// TestRunListsFailuresInPlainWords: at the end of a run the operator reads
// which candidates failed and why, not only how many.
func TestRunListsFailuresInPlainWords(t *testing.T) {
	srv := httptest.NewServer(fakeregistry.New()) // knows no package
	defer srv.Close()
	t.Setenv(registry.EnvNPMRegistry, srv.URL)
	home := t.TempDir()
	cands := filepath.Join(home, "candidates.json")
	doc := `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "test", "page_size": 0, "window": null, "fetched_at": [], "datasets": []},
	 "candidates": [{"registry": "npm", "name": "mcp-server-misspelt", "version": "1.0.0", "rank": 1}], "excluded": []}`
	if err := os.WriteFile(cands, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, home, "run", "--json-logs", "--candidates", cands)
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, out, errs)
	}
	want := "npm:mcp-server-misspelt@1.0.0: fetch not_found: no package mcp-server-misspelt on the npm registry: check the name in the candidates file"
	if !strings.Contains(out, "1 with failures") || !strings.Contains(out, "failures:\n  "+want) {
		t.Fatalf("run output lacks the failure line %q:\n%s", want, out)
	}
	if strings.Contains(errs, "PyPI") {
		t.Fatalf("a run over npm candidates mentions PyPI:\n%s", errs)
	}
}
