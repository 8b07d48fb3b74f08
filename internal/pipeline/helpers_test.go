package pipeline

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/rundirtest"
)

// fakeExtractor stands in for package surface in these tests: the surface
// is read from a tools.json member (a list of {name, description}); a
// member named PANIC makes it panic; without tools.json there is no
// registration site. It is test scaffolding, never wired into a build.
type fakeExtractor struct{}

const fakeExtractorVersion = "fake-extractor-1"

func (fakeExtractor) Version() string { return fakeExtractorVersion }

func (fakeExtractor) Extract(_ context.Context, in ExtractInput) (rundir.Surface, error) {
	a := in.Artifact
	s := rundir.Surface{
		Package: in.Package, ArtifactSHA256: in.ArtifactSHA256, ExtractorVersion: fakeExtractorVersion,
		OutcomeEvidence: []rundir.Site{}, Tools: []rundir.Entry{}, Prompts: []rundir.Entry{}, PromptTexts: []rundir.Entry{},
		Resources: []rundir.Entry{}, ResourceTemplates: []rundir.Entry{}, Instructions: []rundir.Entry{},
		ParameterDescriptions: []rundir.Entry{}, Vendored: []rundir.Vendored{}, AdvertisedTools: []rundir.Advertised{},
		Unresolved: []rundir.Unresolved{}, ReassignedAtRuntime: []rundir.Site{}, Capabilities: []rundir.Capability{},
		Files: []rundir.SourceFile{},
	}
	if _, ok := a.Bytes("PANIC"); ok {
		panic("fake extractor: told to panic")
	}
	for _, m := range a.Members {
		if m.Language != artifact.LanguageNone {
			s.Files = append(s.Files, rundir.SourceFile{Path: m.Path, SHA256: m.SHA256, Size: m.Size, Language: string(m.Language), Minified: m.Minified})
		}
	}
	// delegate.json ({registry, name, specifier}) stands for what the real
	// extractor reads from a shim's entry point and package.json.
	if b, ok := a.Bytes("delegate.json"); ok {
		var d rundir.Delegation
		if err := json.Unmarshal(b, &d); err != nil {
			return s, fmt.Errorf("delegate.json: %w", err)
		}
		d.Evidence = rundir.Site{File: "index.js", Line: 1, Detail: "entry point loads " + d.Name}
		s.DelegatesTo = &d
	}
	b, ok := a.Bytes("tools.json")
	if !ok {
		s.Outcome = "no_registration_site"
		return s, nil
	}
	var tools []struct{ Name, Description string }
	if err := json.Unmarshal(b, &tools); err != nil {
		return s, fmt.Errorf("tools.json: %w", err)
	}
	s.Outcome = "parsed"
	for _, tl := range tools {
		s.Tools = append(s.Tools, rundir.Entry{
			Kind: "tool", Name: tl.Name, DescriptionState: "readable", DescriptionRaw: tl.Description,
			Spans: []rundir.Span{{File: "index.js", Start: 0, End: len(tl.Description), Line: 1, RawEnd: len(tl.Description), Encoding: "js_string"}},
			Holes: []rundir.Hole{}, File: "index.js", Line: 1,
		})
	}
	return s, nil
}

// panicCheck panics for one package and records a row for the others.
type panicCheck struct{ victim string }

func (panicCheck) ID() string { return "publisher_provenance" }

func (p panicCheck) Run(_ context.Context, in CheckInput) (CheckOutput, error) {
	if in.Surface == nil {
		return CheckOutput{}, ErrSkipped
	}
	if in.Package.Name == p.victim {
		var m map[string]int
		//lint:ignore SA5000 a nil-map write on purpose: a real runtime panic, not a string
		m["boom"]++
	}
	return CheckOutput{Result: rundir.Result{Outcome: "ran"}}, nil
}

// tgz builds an npm tarball: members under package/, fixed times, in the
// order given.
func tgz(t testing.TB, files ...string) []byte {
	t.Helper()
	return rundirtest.TGZ(t, files...)
}

// wheel builds a zip with the given members at its root.
func wheel(t testing.TB, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: files[i], Method: zip.Deflate, Modified: time.Unix(499162500, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func serverTarball(t testing.TB, name string, tools ...string) []byte {
	var js strings.Builder
	var list []map[string]string
	for _, tl := range tools {
		fmt.Fprintf(&js, "server.tool(%q, %q, async () => ({}));\n", tl, "Does "+tl)
		list = append(list, map[string]string{"name": tl, "description": "Does " + tl})
	}
	tj, _ := json.Marshal(list)
	return tgz(t, "package.json", `{"name":"`+name+`","version":"0.0.0"}`, "index.js", js.String(), "tools.json", string(tj))
}

// world is a fake registry with synthetic packages, the candidates file
// listing them, and a data home.
type world struct {
	fake  *fakeregistry.Fake
	srv   *httptest.Server
	home  string
	cands string
	names []string // npm packages expected to fetch and parse
}

type cand struct {
	Registry  string `json:"registry"`
	Name      string `json:"name"`
	Version   string `json:"version,omitempty"`
	Range     string `json:"range,omitempty"`
	Rank      int    `json:"rank"`
	Downloads *int64 `json:"downloads,omitempty"`
}

func writeCandidates(t testing.TB, path string, cs []cand) {
	t.Helper()
	doc := map[string]any{
		"schema": CandidatesSchema,
		"selection": map[string]any{
			"queries": []any{}, "ranking_rule": "test fixture: every synthetic package", "page_size": 0,
			"window": nil, "fetched_at": []any{}, "datasets": []any{},
		},
		"candidates": cs,
		"excluded":   []any{},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// newWorld serves n ordinary npm packages plus, when mixed, one of each
// kind of trouble: a package the registry does not have, a tarball whose
// published integrity is wrong, a tarball that is not an archive, a range
// with no match, a range resolved to its highest match, and a PyPI wheel.
func newWorld(t testing.TB, n int, mixed bool) *world {
	t.Helper()
	w := &world{fake: fakeregistry.New(), home: t.TempDir()}
	w.srv = httptest.NewServer(w.fake)
	t.Cleanup(w.srv.Close)
	var cs []cand
	for i := range n {
		name := fmt.Sprintf("mcp-server-%02d", i)
		if i%3 == 1 {
			name = "@synthetic/" + name
		}
		w.fake.AddNPM(name, "1.0.0", serverTarball(t, name, fmt.Sprintf("tool_a_%d", i), fmt.Sprintf("tool_b_%d", i)), fakeregistry.NPMOptions{})
		cs = append(cs, cand{Registry: "npm", Name: name, Version: "1.0.0", Rank: len(cs) + 1})
		w.names = append(w.names, name)
	}
	if mixed {
		w.fake.AddNPM("tampered", "1.0.0", serverTarball(t, "tampered", "x"), fakeregistry.NPMOptions{WrongIntegrity: true})
		w.fake.AddNPM("not-an-archive", "1.0.0", []byte("this is not a tarball\n"), fakeregistry.NPMOptions{})
		w.fake.AddNPM("ranged", "1.0.0", serverTarball(t, "ranged", "old"), fakeregistry.NPMOptions{})
		w.fake.AddNPM("ranged", "1.2.0", serverTarball(t, "ranged", "new"), fakeregistry.NPMOptions{})
		w.fake.AddNPM("ranged", "2.0.0", serverTarball(t, "ranged", "next"), fakeregistry.NPMOptions{})
		w.fake.AddNPM("library-only", "1.0.0", tgz(t, "package.json", `{"name":"library-only"}`, "lib.js", "module.exports = 1;\n"), fakeregistry.NPMOptions{})
		w.fake.AddPyPI("mcp-py-server", "0.3.0", []fakeregistry.PyPIFile{
			{Filename: "mcp_py_server-0.3.0.tar.gz", Content: tgz(t, "x.py", "pass\n")},
			{Filename: "mcp_py_server-0.3.0-py3-none-any.whl", Content: wheel(t, "mcp_py_server/__init__.py", "app = None\n", "tools.json", `[{"name":"py_tool","description":"Py tool"}]`)},
		}, fakeregistry.PyPIOptions{Summary: "py"})
		cs = append(cs,
			cand{Registry: "npm", Name: "missing-package", Version: "1.0.0", Rank: len(cs) + 1},
			cand{Registry: "npm", Name: "tampered", Version: "1.0.0", Rank: len(cs) + 2},
			cand{Registry: "npm", Name: "not-an-archive", Version: "1.0.0", Rank: len(cs) + 3},
			cand{Registry: "npm", Name: "ranged", Range: "^1.0.0", Rank: len(cs) + 4},
			cand{Registry: "npm", Name: "library-only", Range: ">=5", Rank: len(cs) + 5},
			cand{Registry: "pypi", Name: "mcp-py-server", Range: ">=0.1", Rank: 1},
		)
	}
	w.cands = filepath.Join(w.home, "candidates.json")
	writeCandidates(t, w.cands, cs)
	return w
}

// options is a run over w with fast-failing registry clients.
func (w *world) options(t testing.TB) Options {
	t.Helper()
	return optionsFor(t, w.srv.URL, w.home, w.cands)
}

// testCommit is the code commit every test run records.
const testCommit = "0123456789abcdef0123456789abcdef01234567"

func optionsFor(t testing.TB, url, home, cands string) Options {
	t.Helper()
	ro := registry.Options{MaxAttempts: 2, BaseBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
	npm, err := registry.NewNPM(url, ro)
	if err != nil {
		t.Fatal(err)
	}
	pypi, err := registry.NewPyPI(url, ro)
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Home: home, CandidatesPath: cands, Concurrency: 3,
		NPM: npm, PyPI: pypi, Extractor: fakeExtractor{},
		CodeCommit: testCommit, CodeDirty: false,
	}
}

func (w *world) store(t testing.TB) *evidence.Store {
	t.Helper()
	s, err := evidence.Open(filepath.Join(w.home, "evidence"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// seven reads the seven files of a run directory, normalised: every
// timestamp and measured duration is zeroed, so two runs over the same
// inputs must compare equal.
func seven(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range rundir.SevenFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = normalise(t, b)
	}
	return out
}

// normalise is a run file with its times and measured figures replaced
// (rundirtest.Normalise).
func normalise(t testing.TB, b []byte) string {
	t.Helper()
	return rundirtest.Normalise(t, b)
}

func packageFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	entries, err := os.ReadDir(filepath.Join(dir, PackagesDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

func readHeader(t testing.TB, dir string) rundir.Header {
	t.Helper()
	var h rundir.Header
	if _, err := rundir.ReadJSON(dir, rundir.HeaderFile, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil || !os.IsNotExist(err)
}
