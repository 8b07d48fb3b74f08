package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
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
	if !strings.Contains(out, "1 with failures") || !strings.Contains(out, notExaminedHeading(1)+"\n  "+want) || strings.Contains(out, "failures:") {
		t.Fatalf("run output lacks the failure line %q:\n%s", want, out)
	}
	if strings.Contains(errs, "PyPI") {
		t.Fatalf("a run over npm candidates mentions PyPI:\n%s", errs)
	}
}

func notExaminedHeading(n int) string {
	return fmt.Sprintf("not examined (%d): the run could not examine what was asked; these are not decided or published; correct the candidates file or the configuration and run again:", n)
}

// TestRunAndDecideSetOperatorMistakesApart: a run over a misspelt name, a
// version that is not published and a package whose registry answers 503
// lists the first two as not examined (the operator's to correct) and the
// third as a failure; deciding the run counts two packages and lists the
// two candidates apart, with their reasons.
func TestRunAndDecideSetOperatorMistakesApart(t *testing.T) {
	fake := fakeregistry.New()
	fake.AddNPM("ranged", "1.0.0", minimalTarball(t), fakeregistry.NPMOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/flaky" {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	t.Setenv(registry.EnvNPMRegistry, srv.URL)
	home := t.TempDir()
	cands := filepath.Join(home, "candidates.json")
	doc := `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "test", "page_size": 0, "window": null, "fetched_at": [], "datasets": []},
	 "candidates": [{"registry": "npm", "name": "mcp-server-misspelt", "version": "1.0.0", "rank": 1},
	                {"registry": "npm", "name": "ranged", "range": ">=5", "rank": 2},
	                {"registry": "npm", "name": "flaky", "version": "1.0.0", "rank": 3}], "excluded": []}`
	if err := os.WriteFile(cands, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, home, "run", "--json-logs", "--candidates", cands)
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, out, errs)
	}
	mine := notExaminedHeading(2) + "\n" +
		"  npm:mcp-server-misspelt@1.0.0: fetch not_found: no package mcp-server-misspelt on the npm registry: check the name in the candidates file\n" +
		"  npm:ranged@>=5: fetch no_matching_version: no version >=5 of ranged is published; the newest is 1.0.0\n" +
		"failures:\n  npm:flaky@1.0.0: fetch http_error: "
	if !strings.Contains(out, mine) {
		t.Fatalf("run output does not set the operator's mistakes apart; want\n%s\ngot\n%s", mine, out)
	}
	runs, err := os.ReadDir(filepath.Join(home, "runs"))
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	code, out, errs = runCLI(t, home, "decide", runs[0].Name())
	if code != 0 {
		t.Fatalf("decide exit %d\n%s\n%s", code, out, errs)
	}
	want := "  packages 1: graded 0, not gradeable 1, out of scope 0\n"
	wantNE := "  not examined 2 (not in the counts above, never published; correct the candidates file or the configuration):\n" +
		"    npm:mcp-server-misspelt@1.0.0: not_found: no package mcp-server-misspelt on the npm registry: check the name in the candidates file\n" +
		"    npm:ranged@>=5: no_matching_version: no version >=5 of ranged is published; the newest is 1.0.0\n"
	if !strings.Contains(out, want) || !strings.Contains(out, wantNE) {
		t.Fatalf("decide output; want\n%s...\n%s\ngot\n%s", want, wantNE, out)
	}
}

// minimalTarball is an npm tarball holding only a package.json.
func minimalTarball(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := []byte(`{"name":"ranged","version":"1.0.0"}`)
	if err := tw.WriteHeader(&tar.Header{Name: "package/package.json", Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
