package extractor

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/surface"
	"github.com/attestari/attestari/internal/vocab"
)

// Modes of the re-executed test binary (TestMain): a child extraction
// process serving one request, or an in-process extraction of the tarball
// at the given path that prints what it recorded beside its own measured
// peak (the "before" figures of docs/reliability.md §4).
const (
	childEnv  = "ATTESTARI_EXTRACTOR_TEST_CHILD"
	inProcEnv = "ATTESTARI_EXTRACTOR_TEST_INPROC"
)

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(childEnv) != "":
		if err := ServeChild(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case os.Getenv(inProcEnv) != "":
		os.Exit(extractInProcess(os.Getenv(inProcEnv)))
	}
	os.Exit(m.Run())
}

// inProcFigures is what an in-process extraction recorded and what its
// process really held.
type inProcFigures struct {
	Outcome       string `json:"outcome"`
	Detail        string `json:"detail"`
	RecordedBytes int64  `json:"recorded_rss_bytes"`
	WallMs        int64  `json:"wall_ms"`
	PeakRSSBytes  int64  `json:"peak_rss_bytes"`
}

func extractInProcess(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s := FromArchive(context.Background(), rundir.PackageRef{Registry: "npm", Name: "hostile"}, data, artifact.FormatNpmTarball, surface.Options{})
	f := inProcFigures{Outcome: s.Outcome, Detail: s.OutcomeDetail, RecordedBytes: s.Budget.RSSBytes, WallMs: s.Budget.WallMs, PeakRSSBytes: vmHWM()}
	_ = json.NewEncoder(os.Stdout).Encode(f)
	return 0
}

// vmHWM is this process's resident high-water mark in bytes.
func vmHWM() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb)
			return kb << 10
		}
	}
	return 0
}

func testChild() *pipeline.ChildExtractor {
	c := Child(os.Args[0], "-test.run=^$")
	c.Env = []string{childEnv + "=1"}
	return c
}

func childExtract(t testing.TB, c *pipeline.ChildExtractor, data []byte) (rundir.Surface, error) {
	t.Helper()
	return c.Extract(context.Background(), pipeline.ExtractInput{
		Package: rundir.PackageRef{Registry: "npm", Name: "p", Version: "1.0.0"}, ArtifactSHA256: vocab.SHA256Hex(data),
		Data: data, Format: artifact.FormatNpmTarball,
	})
}

// serverPackage is a readable server of n tools spread over files.
func serverPackage(t testing.TB, files, toolsPerFile int) []byte {
	t.Helper()
	members := []string{"package.json", `{"name":"p","version":"1.0.0","main":"index.js","dependencies":{"@modelcontextprotocol/sdk":"^1.0.0"}}`}
	var index strings.Builder
	index.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nconst server = new McpServer({ name: \"p\", version: \"1.0.0\" });\n")
	for f := range files {
		var src strings.Builder
		fmt.Fprintf(&src, "export function register%d(server) {\n", f)
		for i := range toolsPerFile {
			fmt.Fprintf(&src, "  server.tool(\"tool_%d_%d\", \"Returns the value number %d of list %d.\", async () => ({ content: [] }));\n", f, i, i, f)
		}
		src.WriteString("}\n")
		members = append(members, fmt.Sprintf("lib/m%d.js", f), src.String())
		fmt.Fprintf(&index, "import { register%d } from \"./lib/m%d.js\";\nregister%d(server);\n", f, f, f)
	}
	members = append(members, "index.js", index.String())
	return tgz(t, members...)
}

// TestChildMatchesInProcess: the child reads the same surface row as the
// in-process extractor over the same bytes; only the budget's figures
// differ, and the child's are its measured resident high-water mark.
func TestChildMatchesInProcess(t *testing.T) {
	data := serverPackage(t, 4, 5)
	ref := rundir.PackageRef{Registry: "npm", Name: "p", Version: "1.0.0"}
	want := FromArchive(context.Background(), ref, data, artifact.FormatNpmTarball, surface.Options{})
	got, err := childExtract(t, testChild(), data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != "parsed" || len(got.Tools) != 20 {
		t.Fatalf("child: outcome %s, %d tools", got.Outcome, len(got.Tools))
	}
	if got.Budget.RSSBytes < 4<<20 || got.Budget.RSSBytesLimit != pipeline.DefaultChildRSSBudget || got.Budget.WallMsLimit != pipeline.DefaultChildWallBudget.Milliseconds() ||
		got.Budget.CPUMsLimit != pipeline.DefaultChildCPUBudget.Milliseconds() {
		t.Errorf("child budget %+v", got.Budget)
	}
	want.Budget, got.Budget = rundir.Budget{}, rundir.Budget{}
	if !reflect.DeepEqual(want, got) {
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		t.Fatalf("child row differs from in-process row:\n%s\n%s", a, b)
	}
}

// longLine is a JavaScript member of about n bytes on one line, varied
// enough that the archive stays under the reader's compression-ratio limit.
func longLine(n int) string {
	r := rand.New(rand.NewPCG(3, 30))
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "function f%x(a,b){return a*%d+b.k%x(%q)};", i, r.IntN(1<<20), r.Uint32(), fmt.Sprintf("%08x", r.Uint32()))
	}
	return b.String()
}

// nested is an expression nested depth levels deep, plus a member of noise
// that keeps the archive under the compression-ratio limit.
func nested(depth int) []string {
	r := rand.New(rand.NewPCG(5, 5))
	noise := make([]byte, depth/40)
	for i := range noise {
		noise[i] = byte('a' + r.IntN(26))
	}
	return []string{"index.js", "const x = " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + ";\n", "assets/noise.txt", string(noise)}
}

// TestChildEndsExtractionAtMeasuredMemory: a single long line whose parse
// holds far more than the extractor's own estimate passes a small budget
// as measured on the child, and is recorded extraction_budget_exceeded
// with the measured peak above the limit.
func TestChildEndsExtractionAtMeasuredMemory(t *testing.T) {
	data := tgz(t, "package.json", `{"name":"p","main":"index.js"}`, "index.js", longLine(6<<20))
	c := testChild()
	c.RSSBudget = 192 << 20
	s, err := childExtract(t, c, data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Outcome != vocab.CodeExtractionBudgetExceeded || !strings.Contains(s.OutcomeDetail, "resident memory") ||
		s.Budget.RSSBytes <= s.Budget.RSSBytesLimit || s.Budget.RSSBytesLimit != 192<<20 || len(s.Tools) != 0 {
		t.Fatalf("outcome %s (%s), budget %+v", s.Outcome, s.OutcomeDetail, s.Budget)
	}
}

// BenchmarkExtractChildVsInProcess is the cost of the child process: one
// package's whole extraction in this process (FromArchive) and in a child
// (start, hand over the bytes, read the archive again, extract, encode and
// decode the row), alternated on the same input so both see the same
// machine. Reported: ms per package of each and their ratio.
//
//	go test -run '^$' -bench 'ChildVsInProcess' -benchtime 20x ./internal/pipeline/extractor/
func BenchmarkExtractChildVsInProcess(b *testing.B) {
	for _, sz := range []struct {
		name         string
		files, tools int
	}{{"small-4x5", 4, 5}, {"medium-40x10", 40, 10}, {"large-200x10", 200, 10}} {
		b.Run(sz.name, func(b *testing.B) {
			data := serverPackage(b, sz.files, sz.tools)
			ref := rundir.PackageRef{Registry: "npm", Name: "p", Version: "1.0.0"}
			c := testChild()
			var inproc, child time.Duration
			for b.Loop() {
				t0 := time.Now()
				s := FromArchive(context.Background(), ref, data, artifact.FormatNpmTarball, surface.Options{})
				t1 := time.Now()
				cs, err := childExtract(b, c, data)
				t2 := time.Now()
				if err != nil || s.Outcome != "parsed" || cs.Outcome != "parsed" || len(cs.Tools) != sz.files*sz.tools {
					b.Fatalf("in-process %s, child %s %v", s.Outcome, cs.Outcome, err)
				}
				inproc += t1.Sub(t0)
				child += t2.Sub(t1)
			}
			n := float64(b.N)
			b.ReportMetric(float64(inproc.Microseconds())/1000/n, "inproc_ms/pkg")
			b.ReportMetric(float64(child.Microseconds())/1000/n, "child_ms/pkg")
			b.ReportMetric(float64(child)/float64(inproc), "child/inproc")
		})
	}
}

// BenchmarkHostileMemory reproduces the issue's two figures before and
// after: a 30 MB single-line member and a 5,000,000-level nested
// expression. "Before" extracts in a fresh process of its own and reports
// the row's recorded figure (the extractor's estimate of bytes held) beside
// that process's real peak (VmHWM); "after" is the child under the default
// 1 GiB budget, whose row records the measured peak. Built here, never
// committed.
//
//	go test -run '^$' -bench 'HostileMemory' -benchtime 1x -timeout 30m ./internal/pipeline/extractor/
func BenchmarkHostileMemory(b *testing.B) {
	for _, in := range []struct {
		name    string
		members func() []string
	}{
		{"line-30MB", func() []string { return []string{"index.js", longLine(30_000_000)} }},
		{"nested-5M", func() []string { return nested(5_000_000) }},
	} {
		b.Run(in.name, func(b *testing.B) {
			data := tgz(b, append([]string{"package.json", `{"name":"hostile","main":"index.js"}`}, in.members()...)...)
			path := b.TempDir() + "/hostile.tgz"
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), inProcEnv+"="+path)
				cmd.Stderr = os.Stderr
				out, err := cmd.Output()
				var before inProcFigures
				if err == nil {
					err = json.Unmarshal(out, &before)
				}
				if err != nil {
					b.Fatalf("in-process extraction: %v\n%s", err, out)
				}
				t0 := time.Now()
				after, err := childExtract(b, testChild(), data)
				if err != nil {
					b.Logf("after: %v (%s)", err, time.Since(t0))
				} else {
					b.Logf("after: outcome %s (%s), recorded rss %d bytes of limit %d, wall %d ms", after.Outcome, after.OutcomeDetail, after.Budget.RSSBytes, after.Budget.RSSBytesLimit, after.Budget.WallMs)
					b.ReportMetric(float64(after.Budget.RSSBytes)/(1<<20), "after_recorded_MiB")
				}
				b.Logf("before: outcome %s (%s), recorded %d bytes, real peak %d bytes, wall %d ms", before.Outcome, before.Detail, before.RecordedBytes, before.PeakRSSBytes, before.WallMs)
				b.ReportMetric(float64(before.RecordedBytes)/(1<<20), "before_recorded_MiB")
				b.ReportMetric(float64(before.PeakRSSBytes)/(1<<20), "before_real_MiB")
			}
		})
	}
}

// TestRunSurvivesTheIssuesImportCycle runs the issue's smallest Python
// import cycle (server.py importing DESC from itself for a tool's
// description) and an ordinary npm server through a run whose extractor is
// the child. Extracted in the worker's own process, that package ended the
// whole run with a Go stack overflow (this test binary would die with it).
// Now the run finishes: the package is either read (once the extractor
// bounds that recursion) or, while the extractor still overflows, recorded
// as extractor_crashed with the runtime's cause.
func TestRunSurvivesTheIssuesImportCycle(t *testing.T) {
	fake := fakeregistry.New()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	fake.AddNPM("echo-mcp", "1.0.0", serverPackage(t, 1, 2), fakeregistry.NPMOptions{})
	fake.AddPyPI("cyc-server", "0.1.0", []fakeregistry.PyPIFile{{Filename: "cyc_server-0.1.0-py3-none-any.whl", Content: wheel(t,
		"cyc_server/__init__.py", "",
		"cyc_server/server.py", "from mcp.server.fastmcp import FastMCP\nfrom .server import DESC\n\nmcp = FastMCP(\"cyc\")\n\n@mcp.tool(description=DESC)\ndef hello() -> str:\n    return \"hi\"\n",
	)}}, fakeregistry.PyPIOptions{Summary: "cycle"})
	home := t.TempDir()
	cands := filepath.Join(home, "candidates.json")
	if err := os.WriteFile(cands, []byte(`{"schema": "attestari.candidates/v1",
  "selection": {"queries": [], "ranking_rule": "test", "page_size": 0, "window": null, "fetched_at": [], "datasets": []},
  "candidates": [{"registry": "npm", "name": "echo-mcp", "version": "1.0.0", "rank": 1},
                 {"registry": "pypi", "name": "cyc-server", "version": "0.1.0", "rank": 1}], "excluded": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := registry.Options{MaxAttempts: 1}
	npm, err := registry.NewNPM(srv.URL, ro)
	if err != nil {
		t.Fatal(err)
	}
	pypi, err := registry.NewPyPI(srv.URL, ro)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), pipeline.Options{
		Home: home, CandidatesPath: cands, NPM: npm, PyPI: pypi, Extractor: testChild(), CodeCommit: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != rundir.StatusFinished || res.Packages != 2 {
		t.Fatalf("run %+v", res)
	}
	surfaces := map[string]rundir.Surface{}
	for _, s := range f.Surfaces {
		surfaces[s.Package.Name] = s
	}
	if s := surfaces["echo-mcp"]; s.Outcome != "parsed" || len(s.Tools) != 2 {
		t.Fatalf("the ordinary package: %+v", s)
	}
	for _, p := range f.Summary.Packages {
		if p.Package.Name != "cyc-server" {
			continue
		}
		_, read := surfaces["cyc-server"]
		switch {
		case read && len(p.Failures) == 0:
			t.Logf("the cycle was read: outcome %s", surfaces["cyc-server"].Outcome)
		case !read && len(p.Failures) == 1 && p.Failures[0].Kind == vocab.FailureExtractorCrashed &&
			strings.Contains(p.Failures[0].Message, "fatal error: stack overflow") && p.Failures[0].Stack != "":
			t.Logf("the cycle crashed the child: %s", p.Failures[0].Message)
		default:
			t.Fatalf("the cycle: surface read %v, failures %+v", read, p.Failures)
		}
	}
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

// The child's default CPU budget is the extractor's, so a run and an
// in-process extraction with a CPU clock hold a package to the same limit,
// and the wall backstop is the stated multiple of it.
func TestChildCPUBudgetIsTheExtractors(t *testing.T) {
	if pipeline.DefaultChildCPUBudget != surface.DefaultCPUBudget {
		t.Errorf("child CPU budget %s, extractor's %s", pipeline.DefaultChildCPUBudget, surface.DefaultCPUBudget)
	}
	if pipeline.DefaultChildWallBudget != pipeline.ChildWallBackstopFactor*pipeline.DefaultChildCPUBudget {
		t.Errorf("wall backstop %s, want %d times %s", pipeline.DefaultChildWallBudget, pipeline.ChildWallBackstopFactor, pipeline.DefaultChildCPUBudget)
	}
	o := InProcessOptions()
	if pipeline.ProcessCPUClock() != nil && (o.CPUTime == nil || o.CPUBudget != surface.DefaultCPUBudget || o.WallBudget != pipeline.DefaultChildWallBudget) {
		t.Errorf("in-process options %+v", o)
	}
}
