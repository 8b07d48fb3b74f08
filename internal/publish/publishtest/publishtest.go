// Package publishtest writes real run directories for tests outside
// internal/publish: a small server source per package, its blobs stored
// under their hashes, tool spans computed from the text, gate rows computed
// by the policy's own gate. The caller then decides, writes notices,
// publishes and loads them with the real functions, so what a test checks
// went through the projections that really run.
//
// It imports no publication code (so internal/publish's own tests may use
// it) and is for tests only.
package publishtest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/verify"
	"github.com/attestari/attestari/internal/vocab"
)

// SourcePath is the one source file of every package a Run writes.
const SourcePath = "index.js"

// Run is a run directory being built.
type Run struct {
	Dir      string
	Header   rundir.Header
	Blobs    policy.MapBlobs
	pkgs     []*Package
	findings []rundir.Finding
	records  []rundir.Record
}

// Package is one package of a Run.
type Package struct {
	Ref rundir.PackageRef
	// Source is the package's index.js.
	Source string
	// Outcome is the surface outcome (default "parsed"); Model the outcome
	// of the model_directed_text result (default "ran").
	Outcome, Model string
	tools          []rundir.Entry
}

// Tool is one registered tool: its name and description.
type Tool struct{ Name, Description string }

// NewRun starts a run at dir over candidates.json, finished at start.
func NewRun(dir, runID string, start time.Time) *Run {
	return &Run{
		Dir: dir,
		Header: rundir.Header{
			RunID: runID, StartedAt: start, Status: rundir.StatusFinished,
			CandidatesFile: "candidates.json", CandidatesSHA256: strings.Repeat("c", 64), Inputs: []rundir.InputFile{},
			MethodologyVersion: methodology.Version, MethodologySHA256: methodology.SHA256(),
			ExtractorVersion: extractorVersion(), VerifierVersion: verify.VerifierVersion, AnalyzerModel: "offline-1",
			PromptVersion: "p-1", PromptLayout: "separated", PromptSHA256: strings.Repeat("a", 64),
			Checks: []string{vocab.CheckProvenance, vocab.CheckSurface, vocab.CheckModel}, CodeCommit: "abc",
		},
		Blobs: policy.MapBlobs{},
	}
}

// Ref is an npm package at 1.0.0.
func Ref(name string) rundir.PackageRef {
	return rundir.PackageRef{Registry: vocab.RegistryNPM, Name: name, Version: "1.0.0"}
}

// AddServer adds a parsed package registering tools, its source starting
// with header (a comment, say).
func (r *Run) AddServer(ref rundir.PackageRef, header string, tools ...Tool) *Package {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString(`import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";` + "\n")
	b.WriteString(`const server = new McpServer({ name: "demo", version: "1.0.0" });` + "\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "server.tool(%q, %q, {}, async () => ({ content: [] }));\n", t.Name, t.Description)
	}
	p := &Package{Ref: ref, Source: b.String(), Outcome: vocab.OutcomeParsed, Model: vocab.ResultRan, tools: []rundir.Entry{}}
	for _, t := range tools {
		marker := fmt.Sprintf("server.tool(%q, ", t.Name)
		start := strings.Index(p.Source, marker) + len(marker) + 1
		line := strings.Count(p.Source[:start], "\n") + 1
		p.tools = append(p.tools, rundir.Entry{
			Kind: vocab.EntryTool, Name: t.Name, DescriptionState: vocab.StateReadable, DescriptionRaw: t.Description,
			Spans:      []rundir.Span{{File: SourcePath, Start: start, End: start + len(t.Description), Line: line, RawStart: 0, RawEnd: len(t.Description), Encoding: literal.JSString}},
			Holes:      []rundir.Hole{},
			SchemaKind: vocab.SchemaJSON, SchemaRaw: "{}", File: SourcePath, Line: line,
		})
	}
	r.pkgs = append(r.pkgs, p)
	return p
}

func (r *Run) pkg(ref rundir.PackageRef) (*Package, error) {
	for _, p := range r.pkgs {
		if p.Ref == ref {
			return p, nil
		}
	}
	return nil, fmt.Errorf("publishtest: no package %s", ref)
}

// ModelFinding adds a model_directed_text finding quoting excerpt, which
// must occur in the package's source.
func (r *Run) ModelFinding(ref rundir.PackageRef, id, tool, tag, severity, title, excerpt string) error {
	p, err := r.pkg(ref)
	if err != nil {
		return err
	}
	at := strings.Index(p.Source, excerpt)
	if at < 0 {
		return fmt.Errorf("publishtest: excerpt %q is not in the source of %s", excerpt, ref)
	}
	line := strings.Count(p.Source[:at], "\n") + 1
	r.findings = append(r.findings, rundir.Finding{
		ID: id, Package: ref, Check: vocab.CheckModel, Tag: tag, Severity: severity, Title: title,
		SurfaceKind: vocab.EntryTool, EntryName: tool, Analyzer: "offline-1",
		Evidence: rundir.Evidence{SHA256: vocab.SHA256Hex([]byte(p.Source)), Path: SourcePath, LineStart: line, LineEnd: line, Excerpt: excerpt},
	})
	return nil
}

func (r *Run) record(ref rundir.PackageRef, kind, url string, body []byte) string {
	sha := r.Blobs.Put(body)
	r.records = append(r.records, rundir.Record{Package: ref, Kind: kind, URL: url, Status: 200, SHA256: sha, Size: int64(len(body)), Outcome: vocab.RecordOK, FetchedAt: r.Header.StartedAt})
	return sha
}

// Write writes the run directory: run.json and the seven files.
func (r *Run) Write() error {
	var surfaces []rundir.Surface
	var results []rundir.Result
	var gradeable []rundir.Gradeable
	summary := rundir.Summary{Packages: []rundir.PackageSummary{}, Counts: map[string]int{}}
	for _, p := range r.pkgs {
		fileSHA := r.Blobs.Put([]byte(p.Source))
		tgz, err := npmTarball(map[string]string{SourcePath: p.Source}, r.Header.StartedAt)
		if err != nil {
			return err
		}
		art := r.record(p.Ref, vocab.KindNPMTarball, "https://registry.test/"+p.Ref.Name+"/-/"+p.Ref.Name+"-"+p.Ref.Version+".tgz", tgz)
		surfaces = append(surfaces, rundir.Surface{
			Package: p.Ref, ArtifactSHA256: art, Outcome: p.Outcome, OutcomeEvidence: []rundir.Site{},
			ExtractorVersion: extractorVersion(), Tools: p.tools, Prompts: []rundir.Entry{}, PromptTexts: []rundir.Entry{},
			Resources: []rundir.Entry{}, ResourceTemplates: []rundir.Entry{}, Instructions: []rundir.Entry{},
			ParameterDescriptions: []rundir.Entry{}, Vendored: []rundir.Vendored{}, AdvertisedTools: []rundir.Advertised{},
			Unresolved: []rundir.Unresolved{}, ReassignedAtRuntime: []rundir.Site{}, Capabilities: []rundir.Capability{},
			Files:  []rundir.SourceFile{{Path: SourcePath, SHA256: fileSHA, Size: int64(len(p.Source)), Language: "javascript"}},
			Budget: rundir.Budget{WallMs: 5, RSSBytes: 1 << 20, WallMsLimit: 30000, RSSBytesLimit: 1 << 30},
		})
		for _, c := range policy.RunningChecks {
			out := vocab.ResultRan
			if c == vocab.CheckModel {
				out = p.Model
			}
			results = append(results, rundir.Result{Package: p.Ref, Check: c, Outcome: out})
		}
		summary.Packages = append(summary.Packages, rundir.PackageSummary{Package: p.Ref, Stages: []rundir.StageTiming{}, Failures: []rundir.Failure{}})
	}
	findings := r.findings
	if findings == nil {
		findings = []rundir.Finding{}
	}
	for i := range surfaces {
		ok, reasons := policy.Gradeability(results, &surfaces[i], findings)
		if reasons == nil {
			reasons = []string{}
		}
		gradeable = append(gradeable, rundir.Gradeable{Package: surfaces[i].Package, OK: ok, Reasons: reasons})
	}
	records := r.records
	if records == nil {
		records = []rundir.Record{}
	}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    any
	}{
		{rundir.HeaderFile, r.Header}, {rundir.FindingsFile, findings}, {rundir.ResultsFile, results},
		{rundir.GradeableFile, gradeable}, {rundir.SurfacesFile, surfaces}, {rundir.RecordsFile, records},
		{rundir.NotAnalyzedFile, []rundir.NotAnalyzed{}}, {rundir.SummaryFile, summary},
	} {
		if err := rundir.WriteJSON(r.Dir, f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// npmTarball packs files under package/ as npm does.
func npmTarball(files map[string]string, at time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, ModTime: at}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AddRecord stores body as a blob and indexes it in records.json as a
// registry document of the package (kind npm_version, say).
func (r *Run) AddRecord(ref rundir.PackageRef, kind, url string, body []byte) string {
	return r.record(ref, kind, url, body)
}

// extractorVersion is the extractor the current methodology's version-table
// row allows, so the runs built here stay decidable when the methodology
// moves (a stale pair would withhold every finding as version_pair_not_allowed).
func extractorVersion() string {
	for _, p := range methodology.VersionTable() {
		if p.Methodology == methodology.Version {
			return p.Extractor
		}
	}
	panic("publishtest: the version table has no row for methodology " + methodology.Version)
}
