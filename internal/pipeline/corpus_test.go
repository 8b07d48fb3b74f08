package pipeline

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/candidates/corpus-npm.json from testdata/corpus/packages.json")

// corpusCandidates builds the candidates file for a run over the pinned
// real-server corpus (testdata/corpus): every pinned version, exact, ranked
// in the pinned list's order. The corpus was drawn offline from a package
// listing, so the selection record names that listing as a dataset and
// carries no query or fetch of its own.
func corpusCandidates(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", "packages.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pinned struct {
		Generated string `json:"generated"`
		Packages  []struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &pinned); err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Registry string `json:"registry"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Rank     int    `json:"rank"`
	}
	var cs []entry
	for i, p := range pinned.Packages {
		cs = append(cs, entry{Registry: RegistryNPM, Name: p.Name, Version: p.Version, Rank: i + 1})
	}
	doc := struct {
		Schema    string         `json:"schema"`
		Selection map[string]any `json:"selection"`
		Cands     []entry        `json:"candidates"`
		Excluded  []any          `json:"excluded"`
	}{
		Schema: CandidatesSchema,
		Selection: map[string]any{
			"queries": []any{},
			"ranking_rule": "every version pinned in testdata/corpus/packages.json, in its order (tiers official, official_older, popular, long_tail); " +
				"the selection rule, with each package's downloads a month, is testdata/corpus/README.md and candidates.tsv",
			"page_size":  0,
			"window":     nil,
			"fetched_at": []any{},
			"datasets":   []any{map[string]string{"name": "npm package listing provided on the project's machines (name, newest version, downloads a month)", "snapshot": pinned.Generated}},
		},
		Cands:    cs,
		Excluded: []any{},
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestCorpusCandidatesMatchPinnedList keeps testdata/candidates/corpus-npm.json
// (the file for the opt-in run over real npm servers) in step with the
// pinned corpus; -update-corpus rewrites it.
func TestCorpusCandidatesMatchPinnedList(t *testing.T) {
	want := corpusCandidates(t)
	path := candidatesTestdata("corpus-npm.json")
	if *updateCorpus {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run go test ./internal/pipeline -run CorpusCandidates -update-corpus", path)
	}
	c, err := ParseCandidates(got)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Candidates) < 50 {
		t.Fatalf("corpus has %d candidates", len(c.Candidates))
	}
}
