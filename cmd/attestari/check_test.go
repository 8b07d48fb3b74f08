package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/check"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/demo"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/surface"
	"github.com/attestari/attestari/internal/vocab"
)

const fixtures = "testdata/check"

// checkWorld is what every check in a test runs against: a fake registry
// (packument and tarball wire format) that has published tide-tables 1.0.0
// and ledger-export 0.3.0, an ATTESTARI_HOME that holds a prior pass's
// files, and a private temporary parent the check's home is made in.
type checkWorld struct {
	home, tmp, scratch string
	homeBefore         map[string]string
}

func newCheckWorld(t *testing.T) *checkWorld {
	t.Helper()
	fake := fakeregistry.New()
	for _, p := range []struct{ dir, name, version string }{
		{"tide-tables-1.0.0", "@attestari-check-fixture/tide-tables", "1.0.0"},
		{"ledger-export", "@attestari-check-fixture/ledger-export", "0.3.0"},
	} {
		tgz, err := demo.Tarball(filepath.Join(fixtures, p.dir))
		if err != nil {
			t.Fatal(err)
		}
		fake.AddNPM(p.name, p.version, tgz, fakeregistry.NPMOptions{})
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	t.Setenv("ATTESTARI_NPM_REGISTRY", srv.URL)
	t.Setenv("ATTESTARI_PYPI_URL", srv.URL+"/pypi")
	w := &checkWorld{home: filepath.Join(t.TempDir(), "home"), tmp: t.TempDir(), scratch: t.TempDir()}
	// A prior pass's home: a run directory and a proposal cache entry.
	for p, body := range map[string]string{
		"runs/20261101T000000Z-00000000/run.json":         `{"run_id":"20261101T000000Z-00000000"}`,
		"evidence/proposals/offline/prompt/evidence.json": `{}`,
	} {
		full := filepath.Join(w.home, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.homeBefore = treeOf(t, w.home)
	old := checkTempParent
	checkTempParent = w.tmp
	t.Cleanup(func() { checkTempParent = old })
	return w
}

// treeOf maps every path under root to the SHA-256 of its bytes ("dir" for
// a directory).
func treeOf(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(s[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// assertUntouched: nothing was written under $ATTESTARI_HOME (no run
// directory the pass can read, no proposal cache entry it could reuse), and
// the check's private home is gone.
func (w *checkWorld) assertUntouched(t *testing.T) {
	t.Helper()
	after := treeOf(t, w.home)
	if len(after) != len(w.homeBefore) {
		var paths []string
		for p := range after {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		t.Fatalf("ATTESTARI_HOME changed: %v", paths)
	}
	for p, h := range w.homeBefore {
		if after[p] != h {
			t.Fatalf("ATTESTARI_HOME changed at %s", p)
		}
	}
	if ents, err := os.ReadDir(w.tmp); err != nil || len(ents) != 0 {
		t.Fatalf("the private home was left behind: %v %v", ents, err)
	}
}

func (w *checkWorld) run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string {
		switch k {
		case "ATTESTARI_HOME":
			return w.home
		case analyzer.EnvAnalyzer:
			return analyzer.NameOffline
		}
		return ""
	}}
	code := runMain(context.Background(), e, append([]string{"check"}, args...))
	w.assertUntouched(t)
	return code, out.String(), errb.String()
}

func tarballOf(t *testing.T, w *checkWorld, dir, name string) string {
	t.Helper()
	tgz, err := demo.Tarball(filepath.Join(fixtures, dir))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(w.scratch, name)
	if err := os.WriteFile(p, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func compileSchema(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("compile %s: %v", path, err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, name, out string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", name, err)
	}
	if err := s.Validate(inst); err != nil {
		t.Fatalf("%s does not validate: %v", name, err)
	}
}

// TestCheckEndToEnd checks hand-written packages as a tarball, as a
// directory and through the fake registry, in every format: the exit code,
// the first line, the report's schema (JSON against docs/check.schema.json,
// SARIF against the official 2.1.0 schema), a golden per format, and that
// nothing is written under $ATTESTARI_HOME.
func TestCheckEndToEnd(t *testing.T) {
	w := newCheckWorld(t)
	reportSchema := compileSchema(t, filepath.Join("..", "..", "docs", "check.schema.json"))
	sarifSchema := compileSchema(t, filepath.Join("..", "..", "internal", "check", "testdata", "sarif-schema-2.1.0.json"))
	tide := tarballOf(t, w, "tide-tables", "tide-tables-1.1.0.tgz")
	norm := strings.NewReplacer(w.scratch, "SCRATCH", methodology.Version, "M", surface.ExtractorVersion, "E", checks.VerifierVersion, "V",
		analyzer.PromptSHA256, "PROMPT_SHA256")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		assert func(t *testing.T, rep check.Report)
	}{
		{"tarball-against-published", []string{tide}, check.ExitClean, func(t *testing.T, rep check.Report) {
			if rep.Target.Kind != check.TargetTarball || rep.Verdict.Grade != "A" || rep.Against == nil {
				t.Fatalf("target %+v verdict %+v against %+v", rep.Target, rep.Verdict, rep.Against)
			}
			got := map[string]string{}
			for _, tool := range rep.Against.Tools {
				got[tool.Name] = tool.Change
			}
			want := map[string]string{"tide_times": "description_changed", "moon_phase": "added", "harbour_list": "removed"}
			for n, c := range want {
				if got[n] != c {
					t.Errorf("tool %s: %q, want %q (all: %v)", n, got[n], c, got)
				}
			}
			if rep.Against.Package.Version != "1.0.0" || !rep.Against.ManifestChanged || len(rep.Manifest.Tools) != 2 || rep.Manifest.ManifestHash == "" {
				t.Errorf("against %+v manifest %+v", rep.Against, rep.Manifest)
			}
		}},
		{"directory-refused", []string{filepath.Join(fixtures, "issue-finder")}, check.ExitRefused, func(t *testing.T, rep check.Report) {
			if rep.Target.Kind != check.TargetDirectory || rep.Verdict.Verdict != vocab.VerdictNotGradeable || rep.Against != nil || !strings.Contains(rep.AgainstNote, "not published yet") {
				t.Fatalf("%+v %+v %q", rep.Target, rep.Verdict, rep.AgainstNote)
			}
			var partial *check.Reason
			for i := range rep.Reasons {
				if rep.Reasons[i].Code == vocab.CodePartialDescription {
					partial = &rep.Reasons[i]
				}
			}
			if partial == nil || !strings.Contains(partial.Remedy, "`${TRACKER}` at lib/main.js:6") || partial.GateMapLine == "" {
				t.Fatalf("partial_description reason: %+v", partial)
			}
		}},
		{"registry-finding", []string{"npm:@attestari-check-fixture/ledger-export@0.3.0"}, check.ExitFinding, func(t *testing.T, rep check.Report) {
			if rep.Target.Kind != check.TargetRegistry || rep.Verdict.Grade != "F" || !strings.Contains(rep.AgainstNote, "newest published version") {
				t.Fatalf("%+v %+v %q", rep.Target, rep.Verdict, rep.AgainstNote)
			}
			var quoted bool
			for _, f := range rep.Findings {
				if f.Decision == vocab.DecisionConfirmed && f.File == "server.js" && f.LineStart == 9 && strings.Contains(f.Excerpt, "~/.aws/credentials") {
					quoted = true
				}
			}
			if !quoted {
				t.Fatalf("no confirmed finding quoting server.js:9: %+v", rep.Findings)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, format := range check.Formats {
				code, out, errs := w.run(t, append([]string{"--format", format}, tc.args...)...)
				if code != tc.code {
					t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", format, code, tc.code, out, errs)
				}
				first, _, _ := strings.Cut(out, "\n")
				if !strings.Contains(first, check.Notice) {
					t.Fatalf("%s: first line %q does not carry the notice", format, first)
				}
				switch format {
				case check.FormatJSON:
					validate(t, reportSchema, tc.name+".json", out)
					var rep check.Report
					if err := json.Unmarshal([]byte(out), &rep); err != nil {
						t.Fatal(err)
					}
					if rep.Exit.Code != tc.code {
						t.Fatalf("report exit %+v", rep.Exit)
					}
					tc.assert(t, rep)
				case check.FormatSARIF:
					validate(t, sarifSchema, tc.name+".sarif", out)
					assertSARIFLocations(t, out)
				}
				golden(t, filepath.Join(fixtures, "golden", tc.name+"."+format), norm.Replace(out))
			}
		})
	}
}

// assertSARIFLocations: every result has a physical location.
func assertSARIFLocations(t *testing.T, out string) {
	t.Helper()
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Results) == 0 {
		t.Fatalf("no results: %s", out)
	}
	for _, r := range doc.Runs[0].Results {
		if len(r.Locations) == 0 || r.Locations[0].PhysicalLocation == nil || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
			t.Fatalf("result %s has no physical location", r.RuleID)
		}
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test ./cmd/attestari -run TestCheck -update after checking):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestCheckExitCodesAndErrors: usage and input errors exit 3 and say what
// to do; advisory mode and --fail-below move the exit code as documented;
// the same package checked as a directory and as its tarball reaches the
// same verdict and manifest.
func TestCheckExitCodesAndErrors(t *testing.T) {
	w := newCheckWorld(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"no target", nil, check.ExitUsage, "expected one TARGET"},
		{"bad flag", []string{"--no-such-flag", "x"}, check.ExitUsage, "flag provided but not defined"},
		{"bad format", []string{"--format", "yaml", "x"}, check.ExitUsage, "--format \"yaml\""},
		{"bad grade", []string{"--fail-below", "D", "x"}, check.ExitUsage, "one of A, B, C, F"},
		{"bad code", []string{"--fail-on", "minified", "x"}, check.ExitUsage, "not a reason code"},
		{"missing file", []string{filepath.Join(w.scratch, "absent.tgz")}, check.ExitUsage, "no such file or directory; give an npm pack tarball"},
		{"not an archive", []string{filepath.Join(fixtures, "tide-tables", "package.json")}, check.ExitUsage, "is not an npm tarball, wheel or sdist"},
		{"not a package directory", []string{fixtures}, check.ExitUsage, "not laid out like a package"},
		{"bad registry spec", []string{"npm:@attestari-check-fixture/ledger-export"}, check.ExitUsage, "expected npm:NAME@VERSION"},
		{"unpublished version", []string{"--against", "none", "npm:@attestari-check-fixture/ledger-export@9.9.9"}, check.ExitUsage, "could not be examined as asked"},
		{"against another package", []string{"--against", "npm:other@1.0.0", filepath.Join(fixtures, "issue-finder")}, check.ExitUsage, "names another package"},
		{"advisory tolerates", []string{"--against", "none", "--fail-on", "minified_only", filepath.Join(fixtures, "issue-finder")}, check.ExitClean, ""},
		{"advisory fails on its code", []string{"--against", "none", "--fail-on", "partial_description", filepath.Join(fixtures, "issue-finder")}, check.ExitRefused, ""},
		{"fail-below F", []string{"--against", "none", "--fail-below", "F", filepath.Join(fixtures, "ledger-export")}, check.ExitClean, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := w.run(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errs)
			}
			if tc.says != "" && !strings.Contains(out+errs, tc.says) {
				t.Fatalf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", tc.says, out, errs)
			}
			// Past the flags, every answer starts with the notice, an
			// input error included.
			if flagLevel := tc.name == "no target" || strings.HasPrefix(tc.name, "bad ") && tc.name != "bad registry spec"; !flagLevel && !strings.Contains(out+errs, check.Notice) {
				t.Fatalf("no notice:\n%s%s", out, errs)
			}
		})
	}
	// A directory and its tarball are the same package to the pass.
	var reps []check.Report
	for _, target := range []string{filepath.Join(fixtures, "tide-tables"), tarballOf(t, w, "tide-tables", "t.tgz")} {
		code, out, errs := w.run(t, "--format", "json", "--against", "none", target)
		if code != check.ExitClean {
			t.Fatalf("%s: exit %d: %s", target, code, errs)
		}
		var rep check.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	if reps[0].Manifest.ManifestHash == "" || reps[0].Manifest.ManifestHash != reps[1].Manifest.ManifestHash || reps[0].Verdict.Grade != reps[1].Verdict.Grade {
		t.Fatalf("directory %+v vs tarball %+v", reps[0].Manifest, reps[1].Manifest)
	}
}

// TestCheckPython checks a hand-written FastMCP package as a directory
// (pyproject.toml, packed as an sdist) and as a wheel written here: both are
// read from the stand-in index as the pass reads PyPI, to the same tool.
func TestCheckPython(t *testing.T) {
	w := newCheckWorld(t)
	src, err := os.ReadFile(filepath.Join(fixtures, "almanac-py", "src", "almanac_server", "server.py"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"almanac_server/__init__.py":                               "",
		"almanac_server/server.py":                                 string(src),
		"attestari_check_fixture_almanac-0.2.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: attestari-check-fixture-almanac\nVersion: 0.2.0\n\nA fixture.\n",
		"attestari_check_fixture_almanac-0.2.0.dist-info/WHEEL":    "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
	} {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	wheel := filepath.Join(w.scratch, "attestari_check_fixture_almanac-0.2.0-py3-none-any.whl")
	if err := os.WriteFile(wheel, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ target, kind, file string }{
		{filepath.Join(fixtures, "almanac-py"), check.TargetDirectory, "src/almanac_server/server.py"},
		{wheel, check.TargetWheel, "almanac_server/server.py"},
	} {
		code, out, errs := w.run(t, "--format", "json", "--against", "none", tc.target)
		if code != check.ExitClean {
			t.Fatalf("%s: exit %d\n%s\n%s", tc.target, code, out, errs)
		}
		var rep check.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Target.Registry != "pypi" || rep.Target.Kind != tc.kind || rep.Target.Name != "attestari-check-fixture-almanac" || rep.Verdict.Grade != "A" ||
			len(rep.Surface.Entries) != 1 || rep.Surface.Entries[0].Name != "sunrise" || rep.Surface.Entries[0].File != tc.file {
			t.Fatalf("%s: target %+v verdict %+v surface %+v", tc.target, rep.Target, rep.Verdict, rep.Surface.Entries)
		}
	}
}
