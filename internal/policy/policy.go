// Package policy owns the decision rules of docs/methodology.md §9–§12: the
// version-table check, the fail-closed gate and guards G1–G7, decisions
// D1–D6 with MEASURED_CHECKS, the grade ladder, the gate map (GATE_MAP) and
// the decision rows.
//
// It reads a run directory (internal/rundir) and the blobs it cites, and
// nothing else: no network, no model, no database, no clock it was not given.
// It must not change a run's files; it writes only decisions.* and
// gate_map.json beside them.
package policy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/verify"
	"github.com/attestari/attestari/internal/vocab"
)

// ErrMethodologyMismatch is returned when the embedded methodology document's
// version line differs from methodology.Version: the policy refuses to decide
// beside a document it does not match (§21).
var ErrMethodologyMismatch = errors.New("methodology document and code disagree")

// ErrNotARunDirectory is returned when a directory holds none of a run's files.
var ErrNotARunDirectory = errors.New("not a run directory")

// InvalidRowError reports a run-file row the policy cannot decide on at all
// (a finding with no id, or a severity outside §6). It fails the whole
// decision with one clear error instead of guessing.
type InvalidRowError struct {
	File   string
	Row    int
	Reason string
}

func (e *InvalidRowError) Error() string {
	return fmt.Sprintf("%s row %d: %s", e.File, e.Row, e.Reason)
}

// Decide decides every package of the run in runDir under the methodology
// in force, reading blobs through blobs. A run file that is missing is a
// recorded reason on every package it concerns; a file that is not JSON of
// the expected shape, or a row that cannot be decided, is an error.
func Decide(ctx context.Context, runDir string, blobs Blobs, opts Options) (*Decisions, error) {
	if opts.Now == nil {
		return nil, errors.New("policy: decide: Options.Now is required")
	}
	if v, err := methodology.ParseVersionLine(methodology.Document()); err != nil || v != methodology.Version {
		return nil, fmt.Errorf("policy: decide: %w: the document says %q (%v), the code says %s", ErrMethodologyMismatch, v, err, methodology.Version)
	}
	files, err := rundir.Read(runDir)
	if err != nil {
		return nil, fmt.Errorf("policy: decide %s: %w", runDir, err)
	}
	if len(files.Missing) == len(rundir.SevenFiles)+1 {
		return nil, fmt.Errorf("policy: decide %s: %w: none of run.json and the seven run files exists", runDir, ErrNotARunDirectory)
	}
	if err := validate(files); err != nil {
		return nil, fmt.Errorf("policy: decide %s: %w", runDir, err)
	}
	d := newDecider(ctx, files, blobs, opts)
	return d.run()
}

// validate rejects rows that no rule can decide.
func validate(f *rundir.Files) error {
	seen := map[string]bool{}
	for i, x := range f.Findings {
		if x.ID == "" {
			return &InvalidRowError{File: rundir.FindingsFile, Row: i, Reason: "finding has no id"}
		}
		if seen[x.ID] {
			return &InvalidRowError{File: rundir.FindingsFile, Row: i, Reason: fmt.Sprintf("duplicate finding id %q", x.ID)}
		}
		seen[x.ID] = true
		if _, ok := severityRank[x.Severity]; !ok {
			return &InvalidRowError{File: rundir.FindingsFile, Row: i, Reason: fmt.Sprintf("finding %s has severity %q, not one of high, medium, low, info", x.ID, x.Severity)}
		}
	}
	return nil
}

func has(missing []string, name string) bool { return slices.Contains(missing, name) }

// perPackage holds one package's rows of every run file.
type perPackage struct {
	ref         rundir.PackageRef
	surfaces    []*rundir.Surface
	gradeable   []rundir.Gradeable
	results     []rundir.Result
	findings    []rundir.Finding
	notAnalyzed []rundir.NotAnalyzed
	failures    []rundir.Failure
	records     []rundir.Record
	// joined: the package is in the run because a package of it delegates
	// to it (summary.json joined_by), not because the candidates file lists it.
	joined bool
}

// grouped is a run's rows by package, in key order, and who delegates to whom.
type grouped struct {
	pkgs      map[string]*perPackage
	keys      []string
	delegated map[string][]rundir.PackageRef
}

// groupRun sorts every row of the run files by package.
func groupRun(f *rundir.Files) grouped {
	g := grouped{pkgs: map[string]*perPackage{}, delegated: map[string][]rundir.PackageRef{}}
	get := func(ref rundir.PackageRef) *perPackage {
		k := ref.Key()
		p, ok := g.pkgs[k]
		if !ok {
			p = &perPackage{ref: ref}
			g.pkgs[k] = p
			g.keys = append(g.keys, k)
		}
		return p
	}
	for i := range f.Surfaces {
		s := &f.Surfaces[i]
		p := get(s.Package)
		p.surfaces = append(p.surfaces, s)
		if t := s.DelegatesTo; t != nil && t.ResolvedVersion != "" {
			target := rundir.PackageRef{Registry: t.Registry, Name: t.Name, Version: t.ResolvedVersion}.Key()
			g.delegated[target] = append(g.delegated[target], s.Package)
		}
	}
	for _, x := range f.Gradeable {
		p := get(x.Package)
		p.gradeable = append(p.gradeable, x)
	}
	for _, r := range f.Results {
		p := get(r.Package)
		p.results = append(p.results, r)
	}
	for _, x := range f.Findings {
		p := get(x.Package)
		p.findings = append(p.findings, x)
	}
	for _, n := range f.NotAnalyzed {
		p := get(n.Package)
		p.notAnalyzed = append(p.notAnalyzed, n)
	}
	for _, s := range f.Summary.Packages {
		p := get(s.Package)
		p.failures = append(p.failures, s.Failures...)
		p.joined = p.joined || s.JoinedBy != ""
	}
	for _, r := range f.Records {
		p := get(r.Package)
		p.records = append(p.records, r)
	}
	sort.Strings(g.keys)
	return g
}

type decider struct {
	ctx       context.Context
	files     *rundir.Files
	opts      Options
	blobs     *blobCache
	stamps    Stamps
	headerOK  bool
	headerWhy string
	pkgs      map[string]*perPackage
	keys      []string
	delegated map[string][]rundir.PackageRef
	capCounts map[string]int
}

func newDecider(ctx context.Context, f *rundir.Files, blobs Blobs, opts Options) *decider {
	d := &decider{ctx: ctx, files: f, opts: opts, blobs: newBlobCache(blobs), capCounts: map[string]int{}}
	h := f.Header
	d.stamps = Stamps{
		Policy:             vocab.PolicyName,
		MethodologyVersion: methodology.Version,
		MethodologySHA256:  methodology.SHA256(),
		CodeCommit:         opts.CodeCommit,
		CodeDirty:          opts.CodeDirty,
		DecidedAt:          opts.Now().UTC(),
		AnalyzerModel:      h.AnalyzerModel,
		PromptSHA256:       h.PromptSHA256,
		PromptSHA256Source: "recorded",
		VerifierVersion:    verify.VerifierVersion,
		ExtractorVersion:   h.ExtractorVersion,
	}
	if opts.ContextTags != nil && opts.SharedHostsFromMachine {
		d.stamps.SharedHostsSource = SharedHostsDecidingMachine
	}
	if h.PromptSHA256 == "" {
		d.stamps.PromptSHA256, d.stamps.PromptSHA256Source = opts.PromptSHA256, "reconstructed"
		if opts.PromptSHA256 == "" {
			d.stamps.PromptSHA256Source = "none"
		}
	}
	switch {
	case has(f.Missing, rundir.HeaderFile):
		d.headerWhy = "run.json is missing, so the extractor version of the run is unknown"
	case !methodology.ExtractorAllowed(methodology.Version, h.ExtractorVersion):
		d.headerWhy = fmt.Sprintf("the run header's extractor %q is not paired with methodology %s in the version table", h.ExtractorVersion, methodology.Version)
	default:
		d.headerOK = true
	}

	g := groupRun(f)
	d.pkgs, d.keys, d.delegated = g.pkgs, g.keys, g.delegated
	return d
}

func (d *decider) run() (*Decisions, error) {
	out := &Decisions{Packages: make([]PackageRow, 0, len(d.keys)), Findings: []FindingRow{}, NotExamined: []NotExaminedRow{}}
	counts := Counts{Grades: map[string]int{}, Reasons: map[string]int{}}
	recordsMissing := has(d.files.Missing, rundir.RecordsFile)
	for _, k := range d.keys {
		if err := d.ctx.Err(); err != nil {
			return nil, fmt.Errorf("policy: decide: %w", err)
		}
		// Before everything, the version table included: a candidate the
		// run could not examine as asked is not a subject (§4, §9).
		if fl, ok := notExamined(d.pkgs[k], recordsMissing); ok {
			out.NotExamined = append(out.NotExamined, NotExaminedRow{Row: vocab.RowNotExamined, Stamps: d.stamps,
				Package: d.pkgs[k].ref, Stage: fl.Stage, Kind: fl.Kind, Reason: fl.Message})
			counts.NotExamined++
			continue
		}
		row, frows, err := d.decidePackage(d.pkgs[k])
		if err != nil {
			return nil, err
		}
		d.blobs.reset()
		out.Packages = append(out.Packages, row)
		out.Findings = append(out.Findings, frows...)
		counts.Packages++
		switch row.Verdict {
		case vocab.VerdictGraded:
			counts.Graded++
			counts.Grades[row.Grade]++
		case vocab.VerdictNotGradeable:
			counts.NotGradeable++
			for _, c := range row.BlockedBy {
				counts.Reasons[c]++
			}
		case vocab.VerdictOutOfScope:
			counts.OutOfScope++
			counts.Reasons[row.Reason]++
		}
		counts.Findings.Confirmed += row.Findings.Confirmed
		counts.Findings.Noted += row.Findings.Noted
		counts.Findings.Withheld += row.Findings.Withheld
	}
	h := d.files.Header
	missing := d.files.Missing
	if missing == nil {
		missing = []string{}
	}
	inputs := d.files.Inputs
	if inputs == nil {
		inputs = []rundir.InputFile{}
	}
	out.Header = Header{
		Row:                   vocab.RowHeader,
		Stamps:                d.stamps,
		RunID:                 h.RunID,
		RunStatus:             h.Status,
		RunMethodologyVersion: h.MethodologyVersion,
		RunMethodologySHA256:  h.MethodologySHA256,
		RunVerifierVersion:    h.VerifierVersion,
		PromptLayout:          h.PromptLayout,
		PromptVersion:         h.PromptVersion,
		CandidatesFile:        h.CandidatesFile,
		CandidatesSHA256:      h.CandidatesSHA256,
		Inputs:                inputs,
		MissingFiles:          missing,
		VersionPairAllowed:    d.headerOK,
		MeasuredChecks:        MeasuredChecks,
		RunningChecks:         RunningChecks,
		GateMapSHA256:         vocab.SHA256Hex(ExportGateMap()),
		Counts:                counts,
		Capabilities:          d.capCounts,
		VersionTable:          methodology.VersionTable(),
	}
	return out, nil
}

func (d *decider) decidePackage(p *perPackage) (PackageRow, []FindingRow, error) {
	var surface *rundir.Surface
	if len(p.surfaces) == 1 {
		surface = p.surfaces[0]
	}
	att := manifest.Compute(surface)
	stamps := d.stamps
	row := PackageRow{
		Row: vocab.RowPackage, Stamps: stamps, Package: p.ref,
		Subject:      Subject{ToolHashes: att.Tools, ManifestHash: att.ManifestHash, ManifestReason: att.Reason},
		Capabilities: []CapabilityRow{},
	}
	if surface != nil {
		row.ExtractorVersion = surface.ExtractorVersion
		row.SurfaceOutcome = surface.Outcome
		row.ArtifactSHA256 = surface.ArtifactSHA256
		row.MCPSurface = &MCPSurface{
			Tools: len(surface.Tools), Prompts: len(surface.Prompts), PromptTexts: len(surface.PromptTexts),
			Resources: len(surface.Resources), ResourceTemplates: len(surface.ResourceTemplates),
			Instructions: len(surface.Instructions), ParameterDescriptions: len(surface.ParameterDescriptions),
			Sampling: surface.Sampling != nil, Elicitation: surface.Elicitation != nil,
		}
		row.DelegatesTo = surface.DelegatesTo
		b := surface.Budget
		row.Budget = &b
		row.CapabilitiesOmitted = surface.CapabilitiesOmitted
	}
	// Every package of the run that delegates to this one (methodology §4),
	// once each, in key order whatever order the surfaces came in.
	if from := d.delegated[p.ref.Key()]; len(from) > 0 {
		from = slices.Clone(from)
		slices.SortFunc(from, func(a, b rundir.PackageRef) int { return strings.Compare(a.Key(), b.Key()) })
		row.DelegatedFrom = slices.Compact(from)
	}
	if len(p.gradeable) > 0 {
		g := &GateRecord{OK: true, Reasons: []string{}}
		for _, r := range p.gradeable {
			g.OK = g.OK && r.OK
			for _, c := range r.Reasons {
				if !slices.Contains(g.Reasons, c) {
					g.Reasons = append(g.Reasons, c)
				}
			}
		}
		row.GateRecorded = g
	}

	var art *artifactMembers
	if surface != nil {
		art = &artifactMembers{d: d, sha: surface.ArtifactSHA256}
		caps, err := d.verifyCapabilities(surface, art)
		if err != nil {
			return row, nil, err
		}
		row.Capabilities = caps
	}

	// Before the guards: the version table, then scope (§9).
	var b blocker
	evaluated := false
	switch {
	case !d.headerOK:
		b.add(vocab.CodeVersionPairNotAllowed, d.headerWhy)
	case surface != nil && !methodology.ExtractorAllowed(methodology.Version, surface.ExtractorVersion):
		b.add(vocab.CodeVersionPairNotAllowed, fmt.Sprintf("the surface row's extractor %q is not paired with methodology %s in the version table", surface.ExtractorVersion, methodology.Version))
	case surface != nil && surface.Outcome == vocab.OutcomeNotAServer:
		row.Verdict, row.Reason = vocab.VerdictOutOfScope, vocab.CodeNotAServer
	default:
		evaluated = true
	}

	verifs := make([]Verification, len(p.findings))
	for i := range verifs {
		verifs[i] = Verification{Outcome: NotEvaluated, Excerpt: NotEvaluated, Verifier: NotEvaluated}
	}
	if evaluated {
		if err := d.guards(p, surface, &b, &row, verifs, art); err != nil {
			return row, nil, err
		}
	}

	if row.Verdict == "" {
		if len(b.list) == 0 {
			row.Verdict = vocab.VerdictGraded
		} else {
			row.Verdict = vocab.VerdictNotGradeable
			row.BlockedBy = b.codes()
			row.Blocking = b.list
		}
	}

	frows, err := d.decideFindings(p, surface, &row, verifs, art)
	if err != nil {
		return row, nil, err
	}
	return row, frows, nil
}
