package publish

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// fetchFailed adds a package whose fetch failed with kind, with the records
// the run received for it.
func (r *testRun) fetchFailed(p rundir.PackageRef, kind, msg string, recs ...rundir.Record) {
	r.failed = append(r.failed, rundir.PackageSummary{Package: p,
		Stages:   []rundir.StageTiming{{Stage: "fetch", Status: "failed"}},
		Failures: []rundir.Failure{{Stage: "fetch", Kind: kind, Message: msg}}})
	for _, rec := range recs {
		rec.Package = p
		r.records = append(r.records, rec)
	}
}

// TestNotExaminedIsNeverPublished: the candidates the run could not examine
// as asked (a misspelt name, a version not published, a registry not
// configured) appear nowhere in the publication, not in its packages, its
// counts, its diff or any other file; a package whose registry answered 503
// is published as a refusal that says the fetch failed.
func TestNotExaminedIsNeverPublished(t *testing.T) {
	r := newTestRun(t)
	good := ref("good-server")
	r.addServer(good, "", map[string]string{"get_weather": "Returns the weather."}, []string{"get_weather"})
	r.fetchFailed(rundir.PackageRef{Registry: "npm", Name: "mcp-server-filesystm", Version: "1.0.0"}, "not_found",
		"no package mcp-server-filesystm on the npm registry; did you mean mcp-server-filesystem?",
		rundir.Record{Kind: "npm_packument", URL: "https://registry.test/mcp-server-filesystm", Status: 404, Outcome: "not_found", FetchedAt: decidedAt})
	r.fetchFailed(rundir.PackageRef{Registry: "npm", Name: "ranged-nowhere", Version: ">=5"}, "no_matching_version",
		"no version >=5 of ranged-nowhere is published; the newest is 1.0.0",
		rundir.Record{Kind: "npm_packument", URL: "https://registry.test/ranged-nowhere", Status: 200, Outcome: "ok", FetchedAt: decidedAt})
	r.fetchFailed(rundir.PackageRef{Registry: "pypi", Name: "unconfigured-py", Version: ">=0.1"}, "registry_not_configured",
		"the PyPI registry is not configured: set ATTESTARI_PYPI_URL")
	flaky := ref("flaky-registry")
	r.fetchFailed(flaky, "http_error", "flaky-registry: the registry answered 503 after 2 attempts",
		rundir.Record{Kind: "npm_packument", URL: "https://registry.test/flaky-registry", Status: 503, Outcome: "http_error", FetchedAt: decidedAt})
	d := r.decideAndNotice()
	if len(d.NotExamined) != 3 {
		t.Fatalf("decided %d not examined, want 3: %+v", len(d.NotExamined), d.NotExamined)
	}
	// The diff the cycle writes names no previous run here; it goes through
	// publication's parser and projection all the same.
	diff := policy.Diff(nil, policy.DecidedRun{Decisions: d})
	if err := rundir.WriteJSON(r.dir, DiffFileName, diff); err != nil {
		t.Fatal(err)
	}
	res := r.publish(day31)

	if !slices.Contains(res.Warnings, "3 candidates the run could not examine as asked are not published (decisions.md, Not examined)") {
		t.Errorf("publish does not tell the operator what it left out: %q", res.Warnings)
	}
	p := res.Publication
	if len(p.Packages) != 2 || p.Header.Counts.Packages != 2 || p.Header.Counts.NotGradeable != 1 || p.Header.Counts.Graded != 1 {
		t.Fatalf("published %d packages, counts %+v: want good-server graded and flaky-registry refused", len(p.Packages), p.Header.Counts)
	}
	if pkg := pubPackage(t, p, flaky); pkg.Verdict != vocab.VerdictNotGradeable || !slices.Contains(pkg.BlockedBy, vocab.CodeCheckFailed) {
		t.Errorf("flaky-registry: %s %v, want a refusal with check_failed", pkg.Verdict, pkg.BlockedBy)
	}
	err := filepath.WalkDir(res.Dir, func(path string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, name := range []string{"mcp-server-filesystm", "ranged-nowhere", "unconfigured-py", "not_examined"} {
			if strings.Contains(string(b), name) {
				t.Errorf("publication file %s names %s", filepath.Base(path), name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
