package check

import (
	"fmt"
	"sort"

	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Report is what `attestari check` tells a publisher, in the schema
// SchemaName (docs/check.schema.json). Every field is built
// from the rows the pass's own stages and policy wrote; none decides.
type Report struct {
	// Notice says, every time, that the result is not a grade and is not
	// published (methodology §17); it is the first key, on the first line.
	Notice   string   `json:"notice"`
	Schema   string   `json:"schema"`
	Target   Target   `json:"target"`
	Versions Versions `json:"versions"`
	Verdict  Verdict  `json:"verdict"`
	// Reasons are the package's blocking reasons in the order of
	// methodology §9, each with its gate-map line and a remedy.
	Reasons  []Reason  `json:"reasons"`
	Findings []Finding `json:"findings"`
	Surface  Surface   `json:"surface"`
	// Capabilities is the capability inventory (methodology §20), verified
	// at decision time; it has no effect on any grade.
	Capabilities        []Capability `json:"capabilities"`
	CapabilitiesOmitted int          `json:"capabilities_omitted"`
	Manifest            Manifest     `json:"manifest"`
	// Against is the comparison with a published version; nil when none
	// was made (AgainstNote says why).
	Against     *Against `json:"against"`
	AgainstNote string   `json:"against_note,omitempty"`
	// Failures are the stages that failed on the package (summary.json).
	Failures []rundir.Failure `json:"failures"`
	Exit     Exit             `json:"exit"`
}

// Target is what was checked.
type Target struct {
	Spec           string `json:"spec"` // as given on the command line
	Kind           string `json:"kind"` // TargetKind*
	Registry       string `json:"registry"`
	Name           string `json:"name"`
	Version        string `json:"version"`
	ArtifactSHA256 string `json:"artifact_sha256,omitempty"`
}

// Target kinds.
const (
	TargetTarball   = "npm_tarball"
	TargetWheel     = "wheel"
	TargetSdist     = "sdist"
	TargetDirectory = "directory"
	TargetRegistry  = "registry"
)

// Versions are the versions the result was reached under: the ones the
// scheduled pass records on its rows.
type Versions struct {
	Methodology string `json:"methodology"`
	Extractor   string `json:"extractor"`
	Verifier    string `json:"verifier"`
	Analyzer    string `json:"analyzer"`
	PromptSHA   string `json:"prompt_sha256"`
	Policy      string `json:"policy"`
}

// Verdict is what the pass would conclude.
type Verdict struct {
	Verdict          string   `json:"verdict"` // graded, not_gradeable, out_of_scope, not_examined
	Grade            string   `json:"grade,omitempty"`
	HighestConfirmed string   `json:"highest_confirmed_severity,omitempty"`
	BlockedBy        []string `json:"blocked_by"`
	Confirmed        int      `json:"confirmed"`
	Noted            int      `json:"noted"`
	Withheld         int      `json:"withheld"`
}

// VerdictNotExamined is Verdict.Verdict when the pass could not examine the
// target as asked (methodology §4): nothing of it would be decided.
const VerdictNotExamined = "not_examined"

// Reason is one blocking reason with what to change.
type Reason struct {
	Code        string   `json:"code"`
	Guard       string   `json:"guard"`
	GateMapLine string   `json:"gate_map_line"`
	Detail      string   `json:"detail,omitempty"`
	File        string   `json:"file,omitempty"`
	Line        int      `json:"line,omitempty"`
	Names       []string `json:"names,omitempty"`
	Remedy      string   `json:"remedy"`
	// Tolerated: the code is one --fail-on leaves out (advisory mode).
	Tolerated bool `json:"tolerated,omitempty"`
}

// Finding is one finding with its quoted span and its place.
type Finding struct {
	ID               string `json:"id"`
	Check            string `json:"check"`
	Tag              string `json:"tag"`
	Title            string `json:"title"`
	Decision         string `json:"decision"` // confirmed, noted, withheld
	SeverityAssigned string `json:"severity_assigned"`
	SeverityDecided  string `json:"severity_decided,omitempty"`
	Kind             string `json:"surface_kind,omitempty"`
	Entry            string `json:"entry_name,omitempty"`
	File             string `json:"file"`
	// InRecord: File is a JSON pointer into the version's registry
	// document (a provenance finding), not a member of the artifact.
	InRecord     bool   `json:"in_registry_record,omitempty"`
	LineStart    int    `json:"line_start"`
	LineEnd      int    `json:"line_end"`
	Excerpt      string `json:"excerpt"`
	Verification string `json:"verification"`
}

// Surface is what the extractor read.
type Surface struct {
	Outcome       string       `json:"outcome"`
	OutcomeDetail string       `json:"outcome_detail,omitempty"`
	Entries       []Entry      `json:"entries"`
	Counts        Counts       `json:"counts"`
	Advertised    []Advertised `json:"advertised_tools"`
	Unresolved    []Place      `json:"unresolved"`
}

// Counts count the surface's entries by state.
type Counts struct {
	Tools                 int `json:"tools"`
	Prompts               int `json:"prompts"`
	PromptTexts           int `json:"prompt_texts"`
	Resources             int `json:"resources"`
	ResourceTemplates     int `json:"resource_templates"`
	Instructions          int `json:"instructions"`
	ParameterDescriptions int `json:"parameter_descriptions"`
	Readable              int `json:"readable"`
	Partial               int `json:"partial"`
	Unreadable            int `json:"unreadable"`
	Absent                int `json:"absent"`
}

// Entry is one entry of the surface.
type Entry struct {
	Kind             string `json:"kind"`
	Name             string `json:"name"`
	Parent           string `json:"parent,omitempty"`
	URI              string `json:"uri,omitempty"`
	State            string `json:"state"`
	Description      string `json:"description"`
	UnreadableReason string `json:"unreadable_reason,omitempty"`
	SchemaKind       string `json:"schema_kind,omitempty"`
	File             string `json:"file"`
	Line             int    `json:"line"`
	Holes            []Hole `json:"holes,omitempty"`
	OffByDefault     bool   `json:"off_by_default,omitempty"`
	Unreachable      bool   `json:"unreachable,omitempty"`
}

// Hole is a substitution of a partial text.
type Hole struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Source string `json:"source"`
}

// Advertised is a tool name declared outside the registration code.
type Advertised struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Line   int    `json:"line,omitempty"`
	Parsed bool   `json:"parsed"`
	Stale  bool   `json:"stale,omitempty"`
}

// Place is a file, a line and why.
type Place struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Capability is one capability inventory entry.
type Capability struct {
	Kind         string `json:"kind"`
	Tag          string `json:"tag"`
	Target       string `json:"target"`
	File         string `json:"file"`
	Line         int    `json:"line"`
	Excerpt      string `json:"excerpt"`
	Count        int    `json:"count"`
	Verification string `json:"verification"`
}

// Manifest is the attested manifest a gateway pins.
type Manifest struct {
	ManifestHash   string              `json:"manifest_hash,omitempty"`
	ManifestReason string              `json:"manifest_reason,omitempty"`
	Tools          []manifest.ToolHash `json:"tool_hashes"`
}

// Exit is the exit code and why.
type Exit struct {
	Code int    `json:"code"`
	Why  string `json:"why"`
}

// Exit codes of `attestari check`.
const (
	ExitClean   = 0 // would be graded with no confirmed finding (and at or above --fail-below)
	ExitFinding = 1 // a confirmed finding, or a grade below --fail-below
	ExitRefused = 2 // would be refused (not gradeable, out of scope, not examined)
	ExitUsage   = 3 // usage or input error
)

// BuildInput is what Build reads: the run the pipeline made of the target
// and the decision the policy wrote for it.
type BuildInput struct {
	Target    Target
	Package   rundir.PackageRef
	Files     *rundir.Files
	Decisions *policy.Decisions
}

// Build assembles the report of in.Package. It reads rows; it decides
// nothing (the verdict and every reason are the policy's).
func Build(in BuildInput) Report {
	r := Report{
		Schema: SchemaName, Notice: Notice, Target: in.Target,
		Reasons: []Reason{}, Findings: []Finding{}, Capabilities: []Capability{}, Failures: []rundir.Failure{},
		Manifest: Manifest{Tools: []manifest.ToolHash{}},
		Surface:  Surface{Entries: []Entry{}, Advertised: []Advertised{}, Unresolved: []Place{}},
		Verdict:  Verdict{BlockedBy: []string{}},
	}
	h := in.Decisions.Header
	r.Versions = Versions{Methodology: h.MethodologyVersion, Extractor: h.ExtractorVersion, Verifier: h.VerifierVersion,
		Analyzer: h.AnalyzerModel, PromptSHA: h.PromptSHA256, Policy: h.Policy}
	var surf *rundir.Surface
	for i := range in.Files.Surfaces {
		if in.Files.Surfaces[i].Package == in.Package {
			surf = &in.Files.Surfaces[i]
		}
	}
	for _, p := range in.Files.Summary.Packages {
		if p.Package == in.Package {
			r.Failures = append(r.Failures, p.Failures...)
		}
	}
	var row *policy.PackageRow
	for i := range in.Decisions.Packages {
		if in.Decisions.Packages[i].Package == in.Package {
			row = &in.Decisions.Packages[i]
		}
	}
	if row == nil {
		r.Verdict.Verdict = VerdictNotExamined
		detail := "the pass could not examine the target as asked"
		if len(r.Failures) > 0 {
			f := r.Failures[0]
			detail = fmt.Sprintf("%s %s: %s", f.Stage, f.Kind, f.Message)
		}
		r.Reasons = append(r.Reasons, Reason{Code: VerdictNotExamined, Guard: "§4", GateMapLine: "The candidate could not be examined as asked, so it is neither graded nor refused.",
			Detail: detail, Remedy: "Correct the target (name, version, registry configuration) so the pass can fetch and read it, then check again."})
		r.Target.ArtifactSHA256 = orSurfaceSHA(r.Target.ArtifactSHA256, surf)
		if surf != nil {
			r.Surface = surfaceOf(surf)
		}
		return r
	}
	r.Target.ArtifactSHA256 = row.ArtifactSHA256
	r.Verdict = Verdict{Verdict: row.Verdict, Grade: row.Grade, HighestConfirmed: row.HighestConfirmed, BlockedBy: append([]string{}, row.BlockedBy...),
		Confirmed: row.Findings.Confirmed, Noted: row.Findings.Noted, Withheld: row.Findings.Withheld}
	if row.Verdict == vocab.VerdictOutOfScope {
		r.Reasons = append(r.Reasons, reasonOf(policy.Blocking{Code: vocab.CodeNotAServer, Guard: vocab.GuardD4, Detail: surfOutcomeDetail(surf)}, surf))
	}
	for _, b := range row.Blocking {
		r.Reasons = append(r.Reasons, reasonOf(b, surf))
	}
	for _, f := range in.Decisions.Findings {
		if f.Package != in.Package {
			continue
		}
		r.Findings = append(r.Findings, Finding{ID: f.ID, Check: f.Check, Tag: f.Tag, Title: f.Title, Decision: f.Decision,
			SeverityAssigned: f.SeverityAssigned, SeverityDecided: f.SeverityDecided, Kind: f.SurfaceKind, Entry: f.EntryName,
			File: f.Evidence.Path, InRecord: !memberPath(f.Evidence.Path), LineStart: f.Evidence.LineStart, LineEnd: f.Evidence.LineEnd, Excerpt: f.Evidence.Excerpt,
			Verification: f.Verification.Outcome})
	}
	sort.SliceStable(r.Findings, func(i, j int) bool {
		return decisionRank(r.Findings[i].Decision) < decisionRank(r.Findings[j].Decision)
	})
	for _, c := range row.Capabilities {
		r.Capabilities = append(r.Capabilities, Capability{Kind: c.Kind, Tag: c.Tag, Target: c.Target, File: c.File, Line: c.Line,
			Excerpt: c.Excerpt, Count: c.Count, Verification: c.Verification})
	}
	r.CapabilitiesOmitted = row.CapabilitiesOmitted
	r.Manifest = Manifest{ManifestHash: row.ManifestHash, ManifestReason: row.ManifestReason, Tools: append([]manifest.ToolHash{}, row.ToolHashes...)}
	if surf != nil {
		r.Surface = surfaceOf(surf)
	}
	return r
}

func orSurfaceSHA(sha string, s *rundir.Surface) string {
	if sha == "" && s != nil {
		return s.ArtifactSHA256
	}
	return sha
}

func surfOutcomeDetail(s *rundir.Surface) string {
	if s == nil {
		return ""
	}
	return s.OutcomeDetail
}

func decisionRank(d string) int {
	switch d {
	case vocab.DecisionConfirmed:
		return 0
	case vocab.DecisionNoted:
		return 1
	}
	return 2
}

func reasonOf(b policy.Blocking, s *rundir.Surface) Reason {
	ge, _ := vocab.GateEntryFor(b.Code)
	guard := b.Guard
	if guard == "" {
		guard = ge.Guard
	}
	return Reason{Code: b.Code, Guard: guard, GateMapLine: ge.Line, Detail: b.Detail, File: b.File, Line: b.Line,
		Names: append([]string(nil), b.Names...), Remedy: Remedy(b, s)}
}

func surfaceOf(s *rundir.Surface) Surface {
	out := Surface{Outcome: s.Outcome, OutcomeDetail: s.OutcomeDetail, Entries: []Entry{}, Advertised: []Advertised{}, Unresolved: []Place{}}
	c := &out.Counts
	c.Tools, c.Prompts, c.PromptTexts, c.Resources = len(s.Tools), len(s.Prompts), len(s.PromptTexts), len(s.Resources)
	c.ResourceTemplates, c.Instructions, c.ParameterDescriptions = len(s.ResourceTemplates), len(s.Instructions), len(s.ParameterDescriptions)
	parsed := map[string]bool{}
	for _, e := range s.AllEntries() {
		if e.Kind == "tool" || e.Kind == "" {
			parsed[e.Name] = true
		}
		switch e.DescriptionState {
		case vocab.StateReadable:
			c.Readable++
		case vocab.StatePartial:
			c.Partial++
		case vocab.StateAbsent:
			c.Absent++
		default:
			c.Unreadable++
		}
		en := Entry{Kind: e.Kind, Name: e.Name, Parent: e.Parent, URI: e.URI, State: e.DescriptionState, Description: e.DescriptionRaw,
			UnreadableReason: e.UnreadableReason, SchemaKind: e.SchemaKind, File: e.File, Line: e.Line,
			OffByDefault: e.OffByDefault(), Unreachable: e.Unreachable}
		for _, h := range e.Holes {
			en.Holes = append(en.Holes, Hole{File: h.File, Line: h.Line, Source: h.Source})
		}
		out.Entries = append(out.Entries, en)
	}
	for _, a := range s.AdvertisedTools {
		out.Advertised = append(out.Advertised, Advertised{Name: a.Name, Source: a.Source, Line: a.Line, Parsed: parsed[a.Name], Stale: a.Stale})
	}
	for _, u := range s.Unresolved {
		out.Unresolved = append(out.Unresolved, Place{File: u.File, Line: u.Line, Reason: u.Reason})
	}
	return out
}
