package publish

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Test runs are real: source files whose spans are computed from their
// text, blobs stored under their hashes, gate rows computed by the policy's
// own gate, and decisions made by policy.Decide.

var (
	decidedAt = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	noticedAt = decidedAt.Add(time.Hour)
	day31     = noticedAt.Add(31 * 24 * time.Hour)
)

const srcPath = "index.js"

type testPkg struct {
	ref     rundir.PackageRef
	src     string
	tools   []rundir.Entry
	outcome string
	model   string // model_directed_text result outcome
}

type testRun struct {
	t        *testing.T
	dir      string
	header   rundir.Header
	pkgs     []*testPkg
	findings []rundir.Finding
	records  []rundir.Record
	blobs    policy.MapBlobs
	// failed are packages whose fetch failed: a summary row with the
	// failure and the gate row the pipeline writes without a surface.
	failed []rundir.PackageSummary
}

func newTestRun(t *testing.T) *testRun {
	return &testRun{
		t:   t,
		dir: filepath.Join(t.TempDir(), "runs", "20261130T120000Z"),
		header: rundir.Header{
			RunID: "20261130T120000Z", StartedAt: decidedAt.Add(-time.Hour), FinishedAt: ptrTime(decidedAt.Add(-time.Minute)), Status: rundir.StatusFinished,
			CandidatesFile: "candidates.json", CandidatesSHA256: strings.Repeat("c", 64), Inputs: []rundir.InputFile{},
			MethodologyVersion: methodology.Version, MethodologySHA256: methodology.SHA256(),
			ExtractorVersion: "syntax-tree-23", VerifierVersion: "verify-3", AnalyzerModel: "offline-1",
			PromptVersion: "p-1", PromptLayout: "separated", PromptSHA256: strings.Repeat("a", 64),
			Checks: []string{vocab.CheckProvenance, vocab.CheckSurface, vocab.CheckModel}, CodeCommit: "abc",
		},
		blobs: policy.MapBlobs{},
	}
}

func ref(name string) rundir.PackageRef {
	return rundir.PackageRef{Registry: "npm", Name: name, Version: "1.0.0"}
}

// serverSource is a small server registering one tool per description.
func serverSource(header string, descs map[string]string, order []string) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString(`import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";` + "\n")
	b.WriteString(`const server = new McpServer({ name: "demo", version: "1.0.0" });` + "\n")
	for _, name := range order {
		fmt.Fprintf(&b, "server.tool(%q, %q, {}, async () => ({ content: [] }));\n", name, descs[name])
	}
	return b.String()
}

// addServer adds a parsed package whose tools are the given descriptions.
func (r *testRun) addServer(p rundir.PackageRef, header string, descs map[string]string, order []string) *testPkg {
	src := serverSource(header, descs, order)
	tp := &testPkg{ref: p, src: src, outcome: "parsed", model: "ran"}
	for _, name := range order {
		marker := fmt.Sprintf("server.tool(%q, ", name)
		m := strings.Index(src, marker)
		start := m + len(marker) + 1
		d := descs[name]
		line := strings.Count(src[:start], "\n") + 1
		tp.tools = append(tp.tools, rundir.Entry{
			Kind: "tool", Name: name, DescriptionState: vocab.StateReadable, DescriptionRaw: d,
			Spans:      []rundir.Span{{File: srcPath, Start: start, End: start + len(d), Line: line, RawStart: 0, RawEnd: len(d), Encoding: literal.JSString}},
			Holes:      []rundir.Hole{},
			SchemaKind: "json", SchemaRaw: "{}", File: srcPath, Line: line,
		})
	}
	r.pkgs = append(r.pkgs, tp)
	return tp
}

func (r *testRun) pkg(p rundir.PackageRef) *testPkg {
	for _, x := range r.pkgs {
		if x.ref == p {
			return x
		}
	}
	r.t.Fatalf("no package %s", p)
	return nil
}

// modelFinding adds a model_directed_text finding quoting excerpt from the
// package's tool.
func (r *testRun) modelFinding(p rundir.PackageRef, id, tool, tag, severity, excerpt string) {
	tp := r.pkg(p)
	at := strings.Index(tp.src, excerpt)
	if at < 0 {
		r.t.Fatalf("excerpt not in source: %q", excerpt)
	}
	line := strings.Count(tp.src[:at], "\n") + 1
	r.findings = append(r.findings, rundir.Finding{
		ID: id, Package: p, Check: vocab.CheckModel, Tag: tag, Severity: severity, Title: "Description instructs the model",
		SurfaceKind: "tool", EntryName: tool, Analyzer: "offline-1",
		Evidence: rundir.Evidence{SHA256: vocab.SHA256Hex([]byte(tp.src)), Path: srcPath, LineStart: line, LineEnd: line, Excerpt: excerpt},
	})
}

// record stores body as a blob and indexes it in records.json.
func (r *testRun) record(p rundir.PackageRef, kind, url string, body []byte) string {
	sha := r.blobs.Put(body)
	r.records = append(r.records, rundir.Record{Package: p, Kind: kind, URL: url, Status: 200, SHA256: sha, Size: int64(len(body)), Outcome: "ok", FetchedAt: decidedAt.Add(-time.Hour)})
	return sha
}

// provenanceFinding adds a publisher_provenance finding citing a record.
func (r *testRun) provenanceFinding(p rundir.PackageRef, id, tag, recordSHA, pointer, excerpt string) {
	r.findings = append(r.findings, rundir.Finding{
		ID: id, Package: p, Check: vocab.CheckProvenance, Tag: tag, Severity: vocab.SeverityLow, Title: "Provenance: " + tag,
		Evidence: rundir.Evidence{SHA256: recordSHA, Path: pointer, Excerpt: excerpt},
	})
}

// npmTarball packs files under package/ as npm does.
func npmTarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, ModTime: decidedAt}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// write writes the run directory.
func (r *testRun) write() {
	t := r.t
	var surfaces []rundir.Surface
	var results []rundir.Result
	var gradeable []rundir.Gradeable
	summary := rundir.Summary{Packages: []rundir.PackageSummary{}, Counts: map[string]int{}}
	for _, tp := range r.pkgs {
		fileSHA := r.blobs.Put([]byte(tp.src))
		tgz := npmTarball(t, map[string]string{srcPath: tp.src})
		artSHA := r.record(tp.ref, "npm_tarball", "https://registry.test/"+tp.ref.Name+"/-/"+tp.ref.Name+"-"+tp.ref.Version+".tgz", tgz)
		s := rundir.Surface{
			Package: tp.ref, ArtifactSHA256: artSHA, Outcome: tp.outcome, OutcomeEvidence: []rundir.Site{},
			ExtractorVersion: "syntax-tree-23", Tools: tp.tools, Prompts: []rundir.Entry{}, PromptTexts: []rundir.Entry{},
			Resources: []rundir.Entry{}, ResourceTemplates: []rundir.Entry{}, Instructions: []rundir.Entry{},
			ParameterDescriptions: []rundir.Entry{}, Vendored: []rundir.Vendored{}, AdvertisedTools: []rundir.Advertised{},
			Unresolved: []rundir.Unresolved{}, ReassignedAtRuntime: []rundir.Site{}, Capabilities: []rundir.Capability{},
			Files:  []rundir.SourceFile{{Path: srcPath, SHA256: fileSHA, Size: int64(len(tp.src)), Language: "javascript"}},
			Budget: rundir.Budget{WallMs: 5, RSSBytes: 1 << 20, WallMsLimit: 30000, RSSBytesLimit: 1 << 30},
		}
		if tp.tools == nil {
			s.Tools = []rundir.Entry{}
		}
		surfaces = append(surfaces, s)
		for _, c := range policy.RunningChecks {
			out := "ran"
			if c == vocab.CheckModel {
				out = tp.model
			}
			results = append(results, rundir.Result{Package: tp.ref, Check: c, Outcome: out})
		}
		summary.Packages = append(summary.Packages, rundir.PackageSummary{Package: tp.ref, Stages: []rundir.StageTiming{}, Failures: []rundir.Failure{}})
	}
	for i := range surfaces {
		ok, reasons := policy.Gradeability(results, &surfaces[i], r.findings)
		if reasons == nil {
			reasons = []string{}
		}
		gradeable = append(gradeable, rundir.Gradeable{Package: surfaces[i].Package, OK: ok, Reasons: reasons})
	}
	for _, f := range r.failed {
		summary.Packages = append(summary.Packages, f)
		gradeable = append(gradeable, rundir.Gradeable{Package: f.Package, OK: false, Reasons: []string{vocab.CodeGateNotRecomputable}})
	}
	findings := r.findings
	if findings == nil {
		findings = []rundir.Finding{}
	}
	records := r.records
	if records == nil {
		records = []rundir.Record{}
	}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		v    any
	}{
		{rundir.HeaderFile, r.header}, {rundir.FindingsFile, findings}, {rundir.ResultsFile, results},
		{rundir.GradeableFile, gradeable}, {rundir.SurfacesFile, surfaces}, {rundir.RecordsFile, records},
		{rundir.NotAnalyzedFile, []rundir.NotAnalyzed{}}, {rundir.SummaryFile, summary},
	} {
		if err := rundir.WriteJSON(r.dir, f.name, f.v); err != nil {
			t.Fatal(err)
		}
	}
}

// decide writes the run, decides it at decidedAt and writes the decisions.
func (r *testRun) decide() *policy.Decisions {
	r.t.Helper()
	r.write()
	d, err := policy.Decide(context.Background(), r.dir, r.blobs, policy.Options{Now: func() time.Time { return decidedAt }, CodeCommit: "deadbeef"})
	if err != nil {
		r.t.Fatalf("Decide: %v", err)
	}
	if err := policy.WriteDecisions(r.dir, d); err != nil {
		r.t.Fatal(err)
	}
	return d
}

// decideAndNotice decides and writes the day-0 notices at noticedAt.
func (r *testRun) decideAndNotice() *policy.Decisions {
	r.t.Helper()
	d := r.decide()
	if _, err := Notices(context.Background(), r.dir, d, noticedAt, NoticeOptions{Blobs: r.blobs, RegistryContacts: map[string]string{"npm": "security-contact@registry.test"}}); err != nil {
		r.t.Fatalf("Notices: %v", err)
	}
	return d
}

func (r *testRun) home() string {
	return filepath.Join(filepath.Dir(filepath.Dir(r.dir)), "publications")
}

func (r *testRun) options(now time.Time) Options {
	return Options{RunDir: r.dir, Home: r.home(), Blobs: r.blobs, Now: func() time.Time { return now }}
}

func (r *testRun) publish(now time.Time) *Result {
	r.t.Helper()
	res, err := Publish(context.Background(), r.options(now))
	if err != nil {
		r.t.Fatalf("Publish: %v", err)
	}
	return res
}

func pubPackage(t *testing.T, p *Publication, ref rundir.PackageRef) Package {
	t.Helper()
	for _, x := range p.Packages {
		if x.Package == ref {
			return x
		}
	}
	t.Fatalf("no published package %s", ref)
	return Package{}
}

func pubFinding(p *Publication, id string) (Finding, bool) {
	for _, f := range p.Findings {
		if f.ID == id {
			return f, true
		}
	}
	return Finding{}, false
}

func decidedFinding(t *testing.T, d *policy.Decisions, id string) policy.FindingRow {
	t.Helper()
	for _, f := range d.Findings {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no decided finding %s", id)
	return policy.FindingRow{}
}

func ptrTime(t time.Time) *time.Time { return &t }
