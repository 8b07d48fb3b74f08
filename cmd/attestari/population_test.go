package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPopulationOfADecidedFixture: decide a fixture run, then state its
// figures in both formats; --out writes the page and names no package.
func TestPopulationOfADecidedFixture(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	copyDir(t, "../../analysis/fixtures/reason_codes/partial_description", dir)
	home := t.TempDir()
	if code, _, errs := runCLI(t, home, "decide", dir); code != 0 {
		t.Fatalf("decide: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI(t, home, "population", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("population: exit %d: %s", code, errs)
	}
	var f struct {
		P       int `json:"packages"`
		NG      int `json:"not_gradeable"`
		Reasons []struct {
			Code     string
			Packages int
		}
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if f.P != 1 || f.NG != 1 || len(f.Reasons) != 1 || f.Reasons[0].Code != "partial_description" {
		t.Fatalf("figures: %s", out)
	}
	page := filepath.Join(t.TempDir(), "population.md")
	if code, _, errs := runCLI(t, home, "population", "--out", page, dir); code != 0 {
		t.Fatalf("population --out: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "| servers not gradeable | 1 | 100.0% |") || !strings.Contains(string(b), "--out "+filepath.ToSlash(page)) {
		t.Errorf("page:\n%s", b)
	}
	if code, _, _ := runCLI(t, home, "population", "--format", "yaml", dir); code != 2 {
		t.Errorf("--format yaml: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, home, "population", filepath.Join(t.TempDir(), "none")); code != 1 {
		t.Errorf("an undecided directory: exit %d, want 1", code)
	}
}
