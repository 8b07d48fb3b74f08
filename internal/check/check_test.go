package check

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestEveryCodeHasARemedy: every reason code the policy can record has a
// remedy of its own (not the fallback), and a remedy of a reason that has a
// place names that place as file:line.
func TestEveryCodeHasARemedy(t *testing.T) {
	for _, g := range vocab.GateMap {
		if _, ok := remedies[g.Code]; !ok {
			t.Errorf("%s has no remedy", g.Code)
			continue
		}
		b := policy.Blocking{Code: g.Code, Guard: g.Guard, Detail: "the detail", File: "src/tools.ts", Line: 41, Names: []string{"tool t"},
			Partial: []policy.PartialEntry{{Kind: "tool", Name: "t", File: "src/tools.ts", Line: 41, Holes: []policy.PartialHole{{Line: 41, Source: "${X}"}}}}}
		got := Remedy(b, &rundir.Surface{})
		if got == "" || strings.HasPrefix(got, "No remedy is known") {
			t.Errorf("%s: remedy %q", g.Code, got)
		}
		if placed[g.Code] && !strings.Contains(got, "src/tools.ts:41") {
			t.Errorf("%s: remedy %q does not name src/tools.ts:41", g.Code, got)
		}
	}
	if got := Remedy(policy.Blocking{Code: "no_such_code"}, nil); !strings.HasPrefix(got, "No remedy is known") {
		t.Errorf("unknown code: %q", got)
	}
}

// placed are the codes whose reason carries the place that causes it.
var placed = map[string]bool{
	vocab.CodeMinifiedOnly: true, vocab.CodeRuntimeGenerated: true, vocab.CodeDeclarationNotParsed: true, vocab.CodeNoRegistrationSite: true,
	vocab.CodeArchiveUnreadable: true, vocab.CodeExtractionBudgetExceeded: true, vocab.CodeAdvertisedToolsNotParsed: true,
	vocab.CodeNotAnalyzed: true, vocab.CodePartialDescription: true, vocab.CodeExcerptUnverified: true, vocab.CodeVerifierRejected: true,
	vocab.CodeEvidenceUnpublishable: true, vocab.CodeNotAnalyzedRecorded: true,
}

func TestMinifiedRemedySaysShipAReadableBuild(t *testing.T) {
	got := Remedy(policy.Blocking{Code: vocab.CodeMinifiedOnly, Detail: "longest line 1.2 MB", File: "dist/index.js", Line: 1}, nil)
	for _, want := range []string{"dist/index.js:1", "longest line 1.2 MB", "ship a readable build"} {
		if !strings.Contains(got, want) {
			t.Errorf("remedy %q lacks %q", got, want)
		}
	}
}

func TestExitCodes(t *testing.T) {
	graded := func(grade string, confirmed int) *Report {
		return &Report{Verdict: Verdict{Verdict: vocab.VerdictGraded, Grade: grade, Confirmed: confirmed}}
	}
	refused := func(codes ...string) *Report {
		r := &Report{Verdict: Verdict{Verdict: vocab.VerdictNotGradeable, BlockedBy: codes}}
		for _, c := range codes {
			r.Reasons = append(r.Reasons, Reason{Code: c})
		}
		return r
	}
	for _, tc := range []struct {
		name string
		r    *Report
		o    ExitOptions
		want int
	}{
		{"A clean", graded("A", 0), ExitOptions{}, ExitClean},
		{"B confirmed", graded("B", 1), ExitOptions{}, ExitFinding},
		{"B at fail-below B", graded("B", 1), ExitOptions{FailBelow: "B"}, ExitClean},
		{"C below fail-below B", graded("C", 1), ExitOptions{FailBelow: "B"}, ExitFinding},
		{"F below A", graded("F", 2), ExitOptions{FailBelow: "A"}, ExitFinding},
		{"refused", refused(vocab.CodeGateFailedAsRecorded, vocab.CodeMinifiedOnly), ExitOptions{}, ExitRefused},
		{"refused, code failed on", refused(vocab.CodeGateFailedAsRecorded, vocab.CodeMinifiedOnly), ExitOptions{FailOn: []string{vocab.CodeMinifiedOnly}}, ExitRefused},
		{"refused, every code tolerated", refused(vocab.CodeGateFailedAsRecorded, vocab.CodeMinifiedOnly), ExitOptions{FailOn: []string{vocab.CodePartialDescription}}, ExitClean},
		{"out of scope", &Report{Verdict: Verdict{Verdict: vocab.VerdictOutOfScope}, Reasons: []Reason{{Code: vocab.CodeNotAServer}}}, ExitOptions{}, ExitRefused},
		{"not examined", &Report{Verdict: Verdict{Verdict: VerdictNotExamined}, Reasons: []Reason{{Code: VerdictNotExamined, Detail: "not found"}}}, ExitOptions{}, ExitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			SetExit(tc.r, tc.o)
			if tc.r.Exit.Code != tc.want || tc.r.Exit.Why == "" {
				t.Fatalf("exit %+v, want %d", tc.r.Exit, tc.want)
			}
		})
	}
	// Advisory mode marks what it tolerates, and a withheld model finding
	// still fails the step.
	r := refused(vocab.CodeGateFailedAsRecorded, vocab.CodePartialDescription)
	r.Findings = []Finding{{ID: "m1", Check: vocab.CheckModel, Tag: "exfiltrate_data", Decision: vocab.DecisionWithheld, SeverityAssigned: vocab.SeverityHigh}}
	SetExit(r, ExitOptions{FailOn: []string{}})
	if r.Exit.Code != ExitFinding || !r.Reasons[0].Tolerated || !r.Reasons[1].Tolerated {
		t.Fatalf("advisory with a withheld model finding: %+v %+v", r.Exit, r.Reasons)
	}
}

func TestParseRegistrySpec(t *testing.T) {
	for spec, want := range map[string][3]string{
		"npm:@scope/server@1.2.3":  {"npm", "@scope/server", "1.2.3"},
		"npm:plain@0.1.0":          {"npm", "plain", "0.1.0"},
		"pypi:mcp-server-x==2.0.1": {"pypi", "mcp-server-x", "2.0.1"},
	} {
		reg, name, version, ok, err := ParseRegistrySpec(spec)
		if err != nil || !ok || [3]string{reg, name, version} != want {
			t.Errorf("%s: %s %s %s %v %v", spec, reg, name, version, ok, err)
		}
	}
	for _, bad := range []string{"npm:@scope/server", "npm:x@", "pypi:x", "pypi:==1"} {
		var ie *InputError
		if _, _, _, _, err := ParseRegistrySpec(bad); !errors.As(err, &ie) {
			t.Errorf("%s: %v, want an InputError", bad, err)
		}
	}
	if _, _, _, ok, err := ParseRegistrySpec("./pkg.tgz"); ok || err != nil {
		t.Errorf("a path is not a registry spec")
	}
}

func TestPyprojectNameVersion(t *testing.T) {
	b := []byte("[build-system]\nname = \"not-this\"\n[project]\nname = \"srv\"  # the project\nversion = \"1.0\"\n[tool.x]\nversion = \"9\"\n")
	if n, v := pyprojectNameVersion(b); n != "srv" || v != "1.0" {
		t.Fatalf("%q %q", n, v)
	}
	if n, v := pyprojectNameVersion([]byte("[project]\nname = \"srv\"\ndynamic = [\"version\"]\n")); n != "srv" || v != "" {
		t.Fatalf("a dynamic version is not read: %q %q", n, v)
	}
}

// cancelOnStart cancels the context when the first package starts.
type cancelOnStart struct{ cancel context.CancelFunc }

func (c cancelOnStart) Start(string, int, int)                                  {}
func (c cancelOnStart) PackageStarted(string)                                   { c.cancel() }
func (c cancelOnStart) PackageFinished(string, []rundir.Failure, time.Duration) {}
func (c cancelOnStart) Finish(string)                                           {}

// TestInterruptedCheckLeavesNothing: a check interrupted mid-run (SIGINT is
// the context's cancellation in cmd/attestari) returns an error and removes
// its private home.
func TestInterruptedCheckLeavesNothing(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(t.TempDir(), "pkg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"interrupted-fixture","version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var home string
	_, err := Run(ctx, Options{
		Target: dir, Against: AgainstNone, TempParent: parent, madeHome: func(h string) { home = h },
		Pipeline: func(ctx context.Context, home string, npm pipeline.NPMClient, pypi pipeline.PyPIClient) (pipeline.Options, error) {
			return pipeline.Options{Home: home, NPM: npm, PyPI: pypi, Progress: cancelOnStart{cancel}, Concurrency: 1}, nil
		},
	})
	if err == nil || !strings.Contains(err.Error(), "check interrupted") {
		t.Fatalf("an interrupted check returned %v", err)
	}
	if home == "" {
		t.Fatal("no private home was made")
	}
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("private home %s left behind: %v", home, err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Fatalf("left in the temporary directory: %v", ents)
	}
}

// TestSARIFSchemaPinned: the committed official schema is the file its
// README names.
func TestSARIFSchemaPinned(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e" {
		t.Fatalf("sha256 %s", got)
	}
}

// TestMarkdownCellsCannotBreakTheTable: text from the package (a quote with
// a pipe, a backtick, a newline) stays inside its cell.
func TestMarkdownCellsCannotBreakTheTable(t *testing.T) {
	got := code("a|b`c\nd")
	if strings.Contains(got, "\n") || strings.Contains(got, "a|b") || !strings.HasPrefix(got, "``") {
		t.Fatalf("%q", got)
	}
}

// TestTextColourOnlyWhenAsked: the text format carries ANSI colour only
// with RenderOptions.Color (which the command sets only on a terminal,
// without NO_COLOR); the words are the same either way.
func TestTextColourOnlyWhenAsked(t *testing.T) {
	r := &Report{Notice: Notice, Schema: SchemaName,
		Verdict: Verdict{Verdict: vocab.VerdictNotGradeable, BlockedBy: []string{vocab.CodeMinifiedOnly}},
		Reasons: []Reason{{Code: vocab.CodeMinifiedOnly, Guard: "G2"}}, Exit: Exit{Code: ExitRefused}}
	var plain, colour bytes.Buffer
	if err := Render(&plain, r, FormatText, RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := Render(&colour, r, FormatText, RenderOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain.Bytes(), []byte("\x1b[")) {
		t.Fatalf("colour without Color:\n%q", plain.String())
	}
	if !bytes.Contains(colour.Bytes(), []byte("\x1b[31m"+vocab.CodeMinifiedOnly+"\x1b[0m")) {
		t.Fatalf("no colour on the refusal code with Color:\n%q", colour.String())
	}
	stripped := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAll(colour.Bytes(), nil)
	if !bytes.Equal(stripped, plain.Bytes()) {
		t.Fatalf("colour changed the words:\n%s\n---\n%s", stripped, plain.String())
	}
}
