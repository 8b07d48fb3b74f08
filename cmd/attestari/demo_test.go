package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/demo"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
)

// TestDemoCycleDecidesAsExpected runs the whole demo cycle the way `make run`
// does (without a database) and checks every package decides to what
// testdata/demo/demo.json says: an A, an F from a verified exfiltrate_data
// finding, one refusal per outcome, an out-of-scope client. A second cycle
// over the same set diffs against the first and changes nothing.
func TestDemoCycleDecidesAsExpected(t *testing.T) {
	home := t.TempDir()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string {
		switch k {
		case "ATTESTARI_HOME":
			return home
		case "ATTESTARI_DEMO_DIR":
			return "../../testdata/demo"
		}
		return ""
	}}
	if code := runMain(context.Background(), e, []string{"cycle", "--demo", "--json-logs"}); code != 0 {
		t.Fatalf("cycle --demo exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "offline rules") || !strings.Contains(out.String(), "DEMO:") {
		t.Errorf("the demo must say it uses the offline rules and an injected clock:\n%s", out.String())
	}
	runs, err := pipeline.ListRuns(home)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	d, _, err := publish.ReadDecisions(runs[0].Dir)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := demo.Load("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]policy.PackageRow{}
	for _, p := range d.Packages {
		rows[p.Package.Name] = p
	}
	for _, p := range pkgs {
		row, ok := rows[p.Name]
		if !ok {
			t.Errorf("%s: not decided", p.Name)
			continue
		}
		kind, want, _ := strings.Cut(p.Expect, ":")
		switch kind {
		case "grade":
			if row.Verdict != "graded" || row.Grade != want {
				t.Errorf("%s: want grade %s, got %s %s %v", p.Name, want, row.Verdict, row.Grade, row.BlockedBy)
			}
		case "refused":
			if row.Verdict != "not_gradeable" || !contains(row.BlockedBy, want) {
				t.Errorf("%s: want refused with %s, got %s %v", p.Name, want, row.Verdict, row.BlockedBy)
			}
		case "out_of_scope":
			if row.Verdict != "out_of_scope" {
				t.Errorf("%s: want out of scope, got %s", p.Name, row.Verdict)
			}
		}
	}
	var exfil bool
	for _, f := range d.Findings {
		if f.Package.Name == "@attestari-demo/notes-sync" && f.Tag == "exfiltrate_data" && f.Decision == "confirmed" && f.Verification.Outcome == "verified" {
			exfil = true
		}
	}
	if !exfil {
		t.Error("the F must rest on a verified, confirmed exfiltrate_data finding")
	}

	out.Reset()
	if code := runMain(context.Background(), e, []string{"cycle", "--demo", "--json-logs"}); code != 0 {
		t.Fatalf("second cycle exit %d\n%s", code, errb.String())
	}
	runs, _ = pipeline.ListRuns(home)
	if len(runs) != 2 {
		t.Fatalf("a finished run is not resumed: want a second run, got %d", len(runs))
	}
	b, err := os.ReadFile(filepath.Join(runs[1].Dir, policy.DiffFile))
	if err != nil {
		t.Fatal(err)
	}
	var diff policy.RunDiff
	if err := json.Unmarshal(b, &diff); err != nil {
		t.Fatal(err)
	}
	if diff.PreviousRunID != runs[0].ID || len(diff.Changes) != 0 || len(diff.PackagesAdded) != 0 || len(diff.Manifests) != 0 {
		t.Fatalf("the same demo set twice should diff to nothing: %+v", diff)
	}
	pubs, err := publish.List(filepath.Join(home, "publications"))
	if err != nil || len(pubs) != 2 {
		t.Fatalf("publications: %d %v", len(pubs), err)
	}
	// The demo signs its publications with its own key, and the key set
	// `make run` serves verifies every attestation (docs/attestations.md).
	ksb, err := os.ReadFile(filepath.Join(home, demoKeySetFile))
	if err != nil {
		t.Fatal(err)
	}
	ks, err := attest.ParseKeySet(ksb)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := publish.Read(filepath.Join(home, "publications", pubs[len(pubs)-1].ID))
	if err != nil {
		t.Fatal(err)
	}
	atts, err := pub.AttestationsByPackage()
	if err != nil || len(atts) != len(pub.Packages) || len(atts) == 0 {
		t.Fatalf("%d attestations for %d packages: %v", len(atts), len(pub.Packages), err)
	}
	for key, env := range atts {
		v, err := attest.Verify(context.Background(), env, ks)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !v.Statement.Predicate.Publication.Demo {
			t.Fatalf("%s: a demo attestation not labelled demo", key)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
