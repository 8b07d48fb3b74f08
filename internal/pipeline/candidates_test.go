package pipeline

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func candidatesTestdata(name string) string {
	return filepath.Join("..", "..", "testdata", "candidates", name)
}

func TestExampleCandidatesParse(t *testing.T) {
	for _, name := range []string{"npm-search.json", "mixed.json", "hand-picked.json"} {
		t.Run(name, func(t *testing.T) {
			c, sum, err := LoadCandidates(candidatesTestdata(name))
			if err != nil {
				t.Fatal(err)
			}
			if len(sum) != 64 || c.Schema != CandidatesSchema || len(c.Candidates) == 0 || c.Selection.RankingRule == "" {
				t.Fatalf("parsed %+v, sum %q", c, sum)
			}
		})
	}
	c, _, err := LoadCandidates(candidatesTestdata("mixed.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := c.Candidates[1]
	if got.Registry != "npm" || got.Range != ">=2026.1.0 <2027.0.0" || got.Version != "" || got.Spec() != got.Range || got.Rank != 2 || *got.Downloads != 261331 {
		t.Fatalf("candidate 1: %+v", got)
	}
	if c.Selection.Window == nil || c.Selection.Window.From != "2026-10-01" || len(c.Selection.FetchedAt) != 3 ||
		c.Selection.FetchedAt[2].At.Format("15:04:05") != "09:00:04" || c.Selection.Datasets[0].Snapshot != "2026-11-01" {
		t.Fatalf("selection: %+v", c.Selection)
	}
	if len(c.Excluded) != 2 || c.Excluded[1].Reason != ExcludedNoDownloadFigure {
		t.Fatalf("excluded: %+v", c.Excluded)
	}
}

// problemsOf parses data and returns the problems, failing if it parses.
func problemsOf(t *testing.T, data string) []Problem {
	t.Helper()
	_, err := ParseCandidates([]byte(data))
	if err == nil {
		t.Fatalf("parsed without error:\n%s", data)
	}
	if !errors.Is(err, ErrCandidates) {
		t.Fatalf("error does not match ErrCandidates: %v", err)
	}
	var ce *CandidatesError
	if !errors.As(err, &ce) {
		t.Fatalf("not a *CandidatesError: %T", err)
	}
	return ce.Problems
}

func wantProblem(t *testing.T, ps []Problem, where, what string) {
	t.Helper()
	for _, p := range ps {
		if p.Where == where && strings.Contains(p.What, what) {
			if p.Fix == "" {
				t.Errorf("problem at %s has no fix: %+v", where, p)
			}
			return
		}
	}
	t.Errorf("no problem at %q containing %q; got:\n%s", where, what, dump(ps))
}

func dump(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("  " + p.String() + "\n")
	}
	return b.String()
}

func TestInvalidExamples(t *testing.T) {
	_, _, err := LoadCandidates(candidatesTestdata("invalid/version-and-range.json"))
	var ce *CandidatesError
	if !errors.As(err, &ce) || !strings.HasSuffix(ce.File, "version-and-range.json") {
		t.Fatalf("want CandidatesError naming the file, got %v", err)
	}
	wantProblem(t, ce.Problems, "candidates[0] (server-a)", "both version and range")
	if !strings.Contains(err.Error(), "version-and-range.json: 1 problem(s)") {
		t.Errorf("message does not name the file: %v", err)
	}

	_, _, err = LoadCandidates(candidatesTestdata("invalid/duplicate-member.json"))
	if !errors.As(err, &ce) {
		t.Fatalf("got %v", err)
	}
	wantProblem(t, ce.Problems, "candidates[0].version", "more than once")

	_, _, err = LoadCandidates(candidatesTestdata("invalid/many-problems.json"))
	if !errors.As(err, &ce) {
		t.Fatalf("got %v", err)
	}
	ps := ce.Problems
	wantProblem(t, ps, "schema", `"attestari.candidates/v2"`)
	wantProblem(t, ps, "candidates[0] (server-a).verison", "unknown member")
	wantProblem(t, ps, "candidates[0] (server-a)", "neither version nor range")
	wantProblem(t, ps, "candidates[1] (server-b).registry", `unknown registry "crates"`)
	wantProblem(t, ps, "candidates[2] (server-a).version", "not an exact npm version")
	wantProblem(t, ps, "candidates[2] (server-a).rank", "want a whole number")
	wantProblem(t, ps, "excluded[0] (server-a).reason", `unknown reason "too small"`)
	wantProblem(t, ps, "excluded[0] (server-a)", "also selected")
	wantProblem(t, ps, "selection.window", "required member is missing")
	wantProblem(t, ps, "selection.ranking_rule", "is empty")
	wantProblem(t, ps, "selection.page_size", "queries were run")
	wantProblem(t, ps, "selection.fetched_at", "queries were run")
}

const validSelection = `"selection": {"queries": [], "ranking_rule": "hand-picked", "page_size": 0, "window": null, "fetched_at": [], "datasets": []}`

func TestCandidateProblems(t *testing.T) {
	cases := []struct {
		name, doc, where, what string
	}{
		{"not json", `{`, "$", "not valid JSON"},
		{"trailing data", `{} {}`, "$", "not valid JSON"},
		{"array", `[]`, "$", "want an object"},
		{"missing members", `{"schema": "attestari.candidates/v1"}`, "candidates", "required member is missing"},
		{"empty candidates", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [], "excluded": []}`, "candidates", "is empty"},
		{"null excluded", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1}], "excluded": null}`, "excluded", "is null"},
		{"bad npm name", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"../etc","version":"1.0.0","rank":1}], "excluded": []}`, "candidates[0] (../etc).name", "not a valid npm package name"},
		{"bad pypi name", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"pypi","name":"-x-","version":"1.0","rank":1}], "excluded": []}`, "candidates[0] (-x-).name", "not a valid PyPI project name"},
		{"pypi range as version", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"pypi","name":"mcp-x","version":">=1.0","rank":1}], "excluded": []}`, "candidates[0] (mcp-x).version", "not an exact PEP 440 version"},
		{"bad pypi range", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"pypi","name":"mcp-x","range":"^1.0","rank":1}], "excluded": []}`, "candidates[0] (mcp-x).range", "not a PEP 440 specifier"},
		{"pypi duplicate by normalisation", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"pypi","name":"MCP_X","version":"1.0","rank":1},{"registry":"pypi","name":"mcp-x","version":"1.0","rank":2}], "excluded": []}`, "candidates[1] (mcp-x)", "same package and version as candidates[0] (MCP_X)"},
		{"range beside a version", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1},{"registry":"npm","name":"a","range":"^1","rank":2}], "excluded": []}`, "candidates[1] (a)", "is the same package as candidates[0] (a)"},
		{"version beside a range", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","range":"^1","rank":1},{"registry":"npm","name":"a","version":"2.0.0","rank":2}], "excluded": []}`, "candidates[1] (a)", "is the same package as candidates[0] (a)"},
		{"same version twice", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1},{"registry":"npm","name":"b","version":"1.0.0","rank":2},{"registry":"npm","name":"a","version":"1.0.0","rank":3}], "excluded": []}`, "candidates[2] (a)", "same package and version as candidates[0] (a)"},
		{"duplicate rank", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1},{"registry":"npm","name":"b","version":"1.0.0","rank":1}], "excluded": []}`, "candidates[1] (b).rank", "also held by candidates[0] (a)"},
		{"rank zero", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":0}], "excluded": []}`, "candidates[0] (a).rank", "is 0"},
		{"negative downloads", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1,"downloads":-1}], "excluded": []}`, "candidates[0] (a).downloads", "negative"},
		{"downloads without window", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1,"downloads":5}], "excluded": []}`, "selection.window", "carry download counts"},
		{"pypi downloads without dataset", `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "r", "page_size": 0, "window": {"from":"2026-01-01","to":"2026-01-31"}, "fetched_at": [], "datasets": []}, "candidates": [{"registry":"pypi","name":"a","version":"1.0","rank":1,"downloads":5}], "excluded": []}`, "selection.datasets", "come from a dataset"},
		{"window backwards", `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "r", "page_size": 0, "window": {"from":"2026-02-01","to":"2026-01-31"}, "fetched_at": [], "datasets": []}, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1}], "excluded": []}`, "selection.window", "ends before it starts"},
		{"bad date", `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "r", "page_size": 0, "window": {"from":"Jan 1","to":"2026-01-31"}, "fetched_at": [], "datasets": []}, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1}], "excluded": []}`, "selection.window.from", "not a date"},
		{"bad timestamp", `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "r", "page_size": 0, "window": null, "fetched_at": [{"source":"x","at":"yesterday"}], "datasets": []}, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1}], "excluded": []}`, "selection.fetched_at[0].at", "not a timestamp"},
		{"dataset without snapshot", `{"schema": "attestari.candidates/v1", "selection": {"queries": [], "ranking_rule": "r", "page_size": 0, "window": null, "fetched_at": [], "datasets": [{"name":"d"}]}, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":1}], "excluded": []}`, "selection.datasets[0].snapshot", "required member is missing"},
		{"name of wrong type", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":7,"version":"1.0.0","rank":1}], "excluded": []}`, "candidates[0].name", "want a string"},
		{"wrong type", `{"schema": 1, ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"1.0.0","rank":"1"}], "excluded": []}`, "candidates[0] (a).rank", "want a number"},
		{"range whitespace", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","range":" ^1","rank":1}], "excluded": []}`, "candidates[0] (a).range", "whitespace"},
		{"empty version", `{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [{"registry":"npm","name":"a","version":"","rank":1}], "excluded": []}`, "candidates[0] (a).version", "is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantProblem(t, problemsOf(t, tc.doc), tc.where, tc.what)
		})
	}
}

func TestSeveralExactVersionsOfOnePackage(t *testing.T) {
	c, err := ParseCandidates([]byte(`{"schema": "attestari.candidates/v1", ` + validSelection + `, "candidates": [
		{"registry":"npm","name":"a","version":"2.0.0","rank":1},{"registry":"npm","name":"a","version":"1.0.0","rank":2}], "excluded": []}`))
	if err != nil || len(c.Candidates) != 2 {
		t.Fatalf("two exact versions of one package: %v", err)
	}
}

func TestCandidateIdentity(t *testing.T) {
	a := Candidate{Registry: "npm", Name: "x", Version: "1.0.0"}
	b := Candidate{Registry: "npm", Name: "x", Range: "1.0.0"}
	if a.identity() == b.identity() || packageFileName(a) == packageFileName(b) {
		t.Fatal("an exact version and a range spelled alike must be different candidates")
	}
	if packageFileName(a) != packageFileName(Candidate{Registry: "npm", Name: "x", Version: "1.0.0", Rank: 7}) {
		t.Fatal("rank and downloads are not part of a package's identity")
	}
}

// TestCandidatesDepthBounded: a candidates file nested past the walk's bound
// is refused with a problem, not walked to the decoder's own limit.
func TestCandidatesDepthBounded(t *testing.T) {
	deep := `{"schema": "attestari.candidates/v1", "x": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`
	ps := problemsOf(t, deep)
	found := false
	for _, p := range ps {
		if strings.Contains(p.String(), "nests deeper than") {
			found = true
		}
	}
	if !found {
		t.Fatalf("problems %v do not name the depth bound", ps)
	}
}
