package pipeline

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/vocab"
)

// TestOperatorMistakesEndToEnd runs a misspelt name, a version that is not
// published and a registry that is not configured beside a registry that answers 503 and an artifact whose
// digest does not match, and decides the run: the first three are not
// examined (no package row, not counted), the last two are refused. (A
// name that is not valid never reaches the fetch: the candidates file is
// refused first.)
func TestOperatorMistakesEndToEnd(t *testing.T) {
	fake := fakeregistry.New()
	fake.AddNPM("good-server", "1.0.0", serverTarball(t, "good-server", "tool_a"), fakeregistry.NPMOptions{})
	fake.AddNPM("ranged", "1.0.0", serverTarball(t, "ranged", "old"), fakeregistry.NPMOptions{})
	fake.AddNPM("tampered", "1.0.0", serverTarball(t, "tampered", "x"), fakeregistry.NPMOptions{WrongIntegrity: true})
	fake.AddNPM("flaky", "1.0.0", serverTarball(t, "flaky", "x"), fakeregistry.NPMOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/flaky" {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	home := t.TempDir()
	cands := filepath.Join(home, "candidates.json")
	writeCandidates(t, cands, []cand{
		{Registry: "npm", Name: "good-server", Version: "1.0.0", Rank: 1},
		{Registry: "npm", Name: "good-servr", Version: "1.0.0", Rank: 2},
		{Registry: "npm", Name: "ranged", Range: ">=5", Rank: 4},
		{Registry: "pypi", Name: "mcp-py-server", Range: ">=0.1", Rank: 5},
		{Registry: "npm", Name: "flaky", Version: "1.0.0", Rank: 6},
		{Registry: "npm", Name: "tampered", Version: "1.0.0", Rank: 7},
	})
	o := optionsFor(t, srv.URL, home, cands)
	o.PyPI = nil
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	d, err := policy.Decide(context.Background(), res.Dir, (&world{home: home}).store(t), policy.Options{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	var ne []string
	for _, n := range d.NotExamined {
		ne = append(ne, n.Package.Name+" "+n.Kind)
	}
	want := []string{"good-servr not_found", "ranged no_matching_version", "mcp-py-server registry_not_configured"}
	slices.Sort(ne)
	slices.Sort(want)
	if !slices.Equal(ne, want) {
		t.Fatalf("not examined %v, want %v", ne, want)
	}
	refused := map[string]bool{}
	for _, p := range d.Packages {
		// The test extractor's version is not in the version table, so the
		// refusal's code is version_pair_not_allowed here; the policy's own
		// tests show the fetch failure's check_failed.
		if p.Verdict == vocab.VerdictNotGradeable {
			refused[p.Package.Name] = true
		}
		if slices.ContainsFunc(d.NotExamined, func(n policy.NotExaminedRow) bool { return n.Package.Name == p.Package.Name }) {
			t.Errorf("%s is both not examined and a package row", p.Package.Name)
		}
	}
	if !refused["flaky"] || !refused["tampered"] || len(d.Packages) != 3 || d.Header.Counts.Packages != 3 || d.Header.Counts.NotExamined != 3 {
		t.Fatalf("packages %d (refused %v), counts %+v: want good-server, flaky and tampered, the last two refused", len(d.Packages), refused, d.Header.Counts)
	}
	for _, n := range d.NotExamined {
		if n.Package.Name == "good-servr" && n.Reason != "no package good-servr on the npm registry; did you mean good-server?" {
			t.Errorf("misspelt name: reason %q", n.Reason)
		}
	}
}

// TestNotExaminedKindsArePipelineKinds ties the policy's list to the kinds
// this package records: every operator-side kind is one, and no kind that
// says the package exists (or may) and could not be examined is.
func TestNotExaminedKindsArePipelineKinds(t *testing.T) {
	for _, k := range []string{vocab.RecordNotFound, vocab.RecordInvalidRequest, vocab.FailureNoMatchingVersion,
		vocab.FailureInvalidSpecifier, vocab.FailureUnsupportedSpecifier, vocab.FailureRegistryNotConfigured, vocab.RecordCanceled} {
		if !policy.NotExaminedKind(k) {
			t.Errorf("%s is an operator-side kind the policy does not set apart", k)
		}
	}
	for _, k := range []string{vocab.RecordHTTPError, vocab.RecordNetworkError, vocab.RecordIntegrityMismatch,
		vocab.RecordNoIntegrity, vocab.RecordTooLarge, vocab.RecordMalformed, vocab.FailureNoDistribution, vocab.FailureEvidenceStore,
		vocab.FailureCorruptBlob, vocab.FailureExtractorError, vocab.FailureExtractorCrashed, vocab.FailurePanic, vocab.FailureInternal} {
		if policy.NotExaminedKind(k) {
			t.Errorf("%s says the package exists or may; the policy must refuse it, not set it apart", k)
		}
	}
}
