package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/attestari/attestari/api/attest"
	"github.com/attestari/attestari/internal/appeals"
	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/checks/declared"
	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/verify"
	"github.com/attestari/attestari/internal/vocab"
)

// Evidence kinds of a publication.
const (
	EvidenceKindFile       = vocab.EvidenceKindFile
	EvidenceKindProjection = vocab.EvidenceKindProjection
)

// Withheld reasons at publication: why a text or a finding is left out.
const (
	WithheldPersonalData = "personal_data"
)

// NotAssessed returns the ids of the declared checks that do not run
// (docs/methodology.md §5.7; internal/checks declares them), listed on every
// published package as not assessed.
func NotAssessed() []string {
	var ids []string
	for _, c := range declared.NotAssessed() {
		ids = append(ids, c.ID)
	}
	return ids
}

// DiffFileName is the run's diff against the previous decided run, copied
// into the publication when present.
const DiffFileName = "diff.json"

// Options configure Publish. RunDir, Home, Blobs and Now are required.
type Options struct {
	// RunDir is the decided run: runs/<run-id>/ holding decisions.json.
	RunDir string
	// Home is the publications root ($ATTESTARI_HOME/publications); the
	// publication is written at Home/<id>/.
	Home string
	// Blobs is the evidence store the run cites.
	Blobs policy.Blobs
	// Now is the clock. The CLI passes the wall clock, or an injected
	// instant: the demo cycle's (then Demo is set), or that of
	// 'publish --now --override-disclosure-period' (then
	// DisclosurePeriodOverridden is set). Either way the publication says
	// so (methodology §19).
	Now  func() time.Time
	Demo bool
	// DisclosurePeriodOverridden says Now is not the wall clock; Demo
	// implies it.
	DisclosurePeriodOverridden bool
	// AppealsPath is the run's appeal log; default RunDir/appeals.json.
	AppealsPath string
	// Previous is the id of the publication this one supersedes. Empty: the
	// latest publication (by published_at) of the same run or of the same
	// candidates file, if any. "-" supersedes nothing.
	Previous string
	// Load, when set, is called with the written publication (the CLI wires
	// internal/store's loader, which loads it in one transaction). An error
	// leaves the publication written and not loaded; Result says which.
	Load func(ctx context.Context, p *Publication) error
	// SigningKey, when set, signs one attestation for every published
	// package version (docs/attestations.md), carried in the publication's
	// attestations.jsonl. Nil: the publication carries none.
	SigningKey *attest.PrivateKey
	// ArtifactLimits bound reading a stored artifact to recover a file.
	ArtifactLimits artifact.Limits
	// IsLoaded, when set with Load, reports whether a publication id is
	// loaded (the CLI wires internal/store's PublicationLoaded). Publish
	// then first loads the publications of this run and of its candidates
	// file that were written and never loaded (a process killed between
	// writing and loading), oldest first; when the run's latest publication
	// is one of them, Publish stops there and returns it: the interrupted
	// publication is completed, never superseded by a new one.
	IsLoaded func(ctx context.Context, id string) (bool, error)
}

// Result is what Publish did.
type Result struct {
	ID          string
	Dir         string
	Supersedes  string
	Publication *Publication
	// Withheld lists the findings withheld at publication, with the reason
	// (never the personal data itself).
	Withheld []WithheldFinding
	// Warnings are facts an operator should read (an appeal against a
	// finding the run does not publish, a diff left out).
	Warnings []string
	Loaded   bool
	// Recovered is set when Publish wrote nothing and loaded this run's
	// publication that an earlier publish wrote and did not load.
	Recovered bool
}

// WithheldFinding is one finding withheld at publication.
type WithheldFinding struct {
	FindingID string
	Package   rundir.PackageRef
	Reason    string
}

// ErrMethodologyMismatch: the run was decided under another methodology
// version or document than the one in force.
var ErrMethodologyMismatch = errors.New("decided under another methodology")

// ErrRunChanged: a run file the decision read no longer has the hash the
// decision recorded, so the decision no longer describes the run.
var ErrRunChanged = errors.New("run files changed since the decision")

// ErrNotDecided: the run has no decisions.json.
var ErrNotDecided = errors.New("run is not decided")

// ErrAppealsRewritten: the appeal log no longer holds the events an earlier
// publication of the run applied.
var ErrAppealsRewritten = errors.New("appeal log rewritten since an earlier publication")

// ErrTooEarly is matched by *TooEarlyError.
var ErrTooEarly = errors.New("disclosure period not over")

// TooEarlyError: publication was asked for before day 30.
type TooEarlyError struct {
	Day0, Day30, Now time.Time
}

func (e *TooEarlyError) Error() string {
	return fmt.Sprintf("day 0 is %s; publication is allowed from %s, and it is %s", e.Day0.Format(time.RFC3339), e.Day30.Format(time.RFC3339), e.Now.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrTooEarly) true.
func (e *TooEarlyError) Is(t error) bool { return t == ErrTooEarly }

// ErrNoticeMissing is matched by *NoticeMissingError.
var ErrNoticeMissing = errors.New("day-0 notice missing")

// NoticeMissingError: a finding that needs a day-0 notice has none, so its
// clock never started.
type NoticeMissingError struct{ FindingIDs []string }

func (e *NoticeMissingError) Error() string {
	return "no day-0 notice for finding(s) " + strings.Join(e.FindingIDs, ", ") + " (write them with publish.Notices; day 30 counts from them)"
}

// Is makes errors.Is(err, ErrNoticeMissing) true.
func (e *NoticeMissingError) Is(t error) bool { return t == ErrNoticeMissing }

// Publish publishes the decided run in opts.RunDir at a new address under
// opts.Home (docs/publish-contract.md): it refuses a run decided under
// another methodology, a run whose files changed since the decision, a run
// missing a day-0 notice, and any time before day 30; applies the appeal log
// as it stood at Now; withholds what cannot be published without personal
// data; writes the publication whole or not at all; then calls opts.Load.
func Publish(ctx context.Context, opts Options) (*Result, error) {
	if opts.RunDir == "" || opts.Home == "" || opts.Now == nil {
		return nil, errors.New("publish: Options.RunDir, Home and Now are required")
	}
	if opts.Blobs == nil {
		return nil, errors.New("publish: Options.Blobs is required")
	}
	// What a publisher killed inside Write left; never a live writer's.
	if _, err := RemoveStaleTemps(ctx, opts.Home, StaleTempAge, opts.Now()); err != nil {
		return nil, err
	}
	if opts.Load != nil && opts.IsLoaded != nil {
		res, err := loadPending(ctx, opts)
		if err != nil || res != nil {
			return res, err
		}
	}
	pb, err := build(ctx, opts)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(opts.Home, pb.pub.Header.ID)
	if err := Write(dir, pb.pub); err != nil {
		return nil, fmt.Errorf("publish: write %s: %w", dir, err)
	}
	res := &Result{ID: pb.pub.Header.ID, Dir: dir, Supersedes: pb.pub.Header.Supersedes, Publication: pb.pub, Withheld: pb.withheld, Warnings: pb.warnings}
	if opts.Load != nil {
		if err := opts.Load(ctx, pb.pub); err != nil {
			return res, fmt.Errorf("publish: %s written, not loaded: %w", dir, err)
		}
		res.Loaded = true
	}
	return res, nil
}

// loadPending loads, oldest first, the publications of the run in
// opts.RunDir and of its candidates file that are written and not loaded,
// so the database holds every publication the operator made. When the run's
// latest publication was one of them it returns it, as a Result: the
// interrupted publish is completed. Otherwise (the run has no publication,
// or its latest was loaded) it returns nil and a new publication is made.
func loadPending(ctx context.Context, opts Options) (*Result, error) {
	d, _, err := ReadDecisions(opts.RunDir)
	if err != nil {
		return nil, err
	}
	prevs, err := List(opts.Home)
	if err != nil {
		return nil, err
	}
	var res *Result
	for _, h := range prevs {
		if h.RunID != d.Header.RunID && (d.Header.CandidatesFile == "" || h.CandidatesFile != d.Header.CandidatesFile) {
			continue
		}
		loaded, err := opts.IsLoaded(ctx, h.ID)
		if err != nil {
			return nil, fmt.Errorf("publish: is %s loaded: %w", h.ID, err)
		}
		if loaded {
			continue
		}
		dir := filepath.Join(opts.Home, h.ID)
		p, err := Read(dir)
		if err != nil {
			return nil, fmt.Errorf("publish: %s was written and not loaded, and cannot be read: %w", dir, err)
		}
		if err := opts.Load(ctx, p); err != nil {
			return nil, fmt.Errorf("publish: %s was written and not loaded, and loading it failed: %w", dir, err)
		}
		if h.RunID == d.Header.RunID {
			res = &Result{ID: h.ID, Dir: dir, Supersedes: h.Supersedes, Publication: p, Loaded: true, Recovered: true}
		}
	}
	if res != nil && res.ID != latestOfRun(prevs, d.Header.RunID) {
		return nil, nil // a later publication of the run was loaded already
	}
	return res, nil
}

// latestOfRun is the id of the run's latest publication among hs (oldest
// first), or "".
func latestOfRun(hs []Header, runID string) string {
	id := ""
	for _, h := range hs {
		if h.RunID == runID {
			id = h.ID
		}
	}
	return id
}

type built struct {
	pub      *Publication
	withheld []WithheldFinding
	warnings []string
}

// ReadDecisions reads runDir/decisions.json strictly and returns it with
// the SHA-256 of its bytes.
func ReadDecisions(runDir string) (*policy.Decisions, string, error) {
	var d policy.Decisions
	sum, err := rundir.ReadJSON(runDir, policy.DecisionsFile, &d)
	if errors.Is(err, rundir.ErrMissing) {
		return nil, "", fmt.Errorf("publish: %s: %w: no %s", runDir, ErrNotDecided, policy.DecisionsFile)
	}
	if err != nil {
		return nil, "", fmt.Errorf("publish: %s: %w", runDir, err)
	}
	return &d, sum, nil
}

// CheckMethodology refuses decisions made under any methodology version or
// document hash other than the one in force, on the header or on any row.
func CheckMethodology(d *policy.Decisions) error {
	want, sha := methodology.Version, methodology.SHA256()
	check := func(what string, s policy.Stamps) error {
		if s.MethodologyVersion != want || s.MethodologySHA256 != sha {
			return fmt.Errorf("publish: %w: %s was decided under %s (document %s); in force: %s (document %s)", ErrMethodologyMismatch, what, s.MethodologyVersion, s.MethodologySHA256, want, sha)
		}
		return nil
	}
	if err := check("the decision header", d.Header.Stamps); err != nil {
		return err
	}
	for _, p := range d.Packages {
		if err := check("package "+p.Package.Key(), p.Stamps); err != nil {
			return err
		}
	}
	for _, f := range d.Findings {
		if err := check("finding "+f.ID, f.Stamps); err != nil {
			return err
		}
	}
	return nil
}

// Day0 is the start of the disclosure clock of a decided run
// (docs/publish-contract.md, "The disclosure clock"): the decision's
// decided_at, or, when any finding needs a day-0 notice, the latest
// written_at of those notices if later. A finding needing a notice that has
// none is a *NoticeMissingError.
func Day0(d *policy.Decisions, idx *NoticeIndex) (time.Time, error) {
	day0 := d.Header.DecidedAt.UTC()
	var missing []string
	for _, f := range d.Findings {
		if !NeedsNotice(f) {
			continue
		}
		e, ok := idx.entry(f)
		if !ok {
			missing = append(missing, f.ID)
			continue
		}
		if e.WrittenAt.After(day0) {
			day0 = e.WrittenAt.UTC()
		}
	}
	if len(missing) > 0 {
		return time.Time{}, &NoticeMissingError{FindingIDs: missing}
	}
	return day0, nil
}

// checkInputs re-hashes every run file the decision read.
func checkInputs(runDir string, d *policy.Decisions) error {
	for _, in := range d.Header.Inputs {
		b, err := os.ReadFile(filepath.Join(runDir, in.Path))
		if err != nil {
			return fmt.Errorf("publish: %w: %s: %v", ErrRunChanged, in.Path, err)
		}
		if got := vocab.SHA256Hex(b); got != in.SHA256 {
			return fmt.Errorf("publish: %w: %s hashes to %s, the decision read %s", ErrRunChanged, in.Path, got, in.SHA256)
		}
	}
	return nil
}

func build(ctx context.Context, opts Options) (*built, error) {
	d, decSum, err := ReadDecisions(opts.RunDir)
	if err != nil {
		return nil, err
	}
	if err := CheckMethodology(d); err != nil {
		return nil, err
	}
	if err := checkInputs(opts.RunDir, d); err != nil {
		return nil, err
	}
	idx, err := ReadNoticeIndex(opts.RunDir)
	if err != nil {
		return nil, err
	}
	day0, err := Day0(d, idx)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	now := opts.Now().UTC()
	day30 := day0.Add(DisclosurePeriod)
	if now.Before(day30) {
		return nil, fmt.Errorf("publish: %w", &TooEarlyError{Day0: day0, Day30: day30, Now: now})
	}

	prevs, err := List(opts.Home)
	if err != nil {
		return nil, err
	}
	logPath := opts.AppealsPath
	if logPath == "" {
		logPath = filepath.Join(opts.RunDir, appeals.FileName)
	}
	alog, err := appeals.Load(logPath)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	for _, h := range prevs {
		if h.RunID != d.Header.RunID || h.AppealsEvents == 0 {
			continue
		}
		if len(alog.Events) < h.AppealsEvents || alog.Events[h.AppealsEvents-1].SHA256 != h.AppealsHeadSHA256 {
			return nil, fmt.Errorf("publish: %w: publication %s applied %d events ending in %s", ErrAppealsRewritten, h.ID, h.AppealsEvents, h.AppealsHeadSHA256)
		}
	}
	applied := alog.Until(now)

	var surfaces []rundir.Surface
	if _, err := rundir.ReadJSON(opts.RunDir, rundir.SurfacesFile, &surfaces); err != nil && !errors.Is(err, rundir.ErrMissing) {
		return nil, fmt.Errorf("publish: %w", err)
	}
	var records []rundir.Record
	if _, err := rundir.ReadJSON(opts.RunDir, rundir.RecordsFile, &records); err != nil && !errors.Is(err, rundir.ErrMissing) {
		return nil, fmt.Errorf("publish: %w", err)
	}

	b := &builder{
		ctx: ctx, opts: opts, d: d, records: records,
		surfaces: map[string][]*rundir.Surface{}, artifacts: map[string]*artifact.Artifact{},
		blobs: map[string][]byte{}, items: map[string]EvidenceItem{},
		statuses: map[string][]appeals.Status{},
	}
	for i := range surfaces {
		k := surfaces[i].Package.Key()
		b.surfaces[k] = append(b.surfaces[k], &surfaces[i])
	}
	known := map[string]bool{}
	for _, f := range d.Findings {
		known[f.ID] = true
	}
	for _, s := range applied.Statuses() {
		if !known[s.FindingID] {
			b.warnings = append(b.warnings, fmt.Sprintf("appeal %s is against finding %s, which this run's decisions do not hold", s.ID, s.FindingID))
			continue
		}
		b.statuses[s.FindingID] = append(b.statuses[s.FindingID], s)
	}

	pub := &Publication{Packages: []Package{}, Findings: []Finding{}, Evidence: []EvidenceItem{}, Blobs: map[string][]byte{}}
	byPkg := map[string][]policy.FindingRow{}
	for _, f := range d.Findings {
		byPkg[f.Package.Key()] = append(byPkg[f.Package.Key()], f)
	}
	for _, row := range d.Packages {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
		pkg, findings, items, err := b.publishPackage(row, byPkg[row.Package.Key()])
		if err != nil {
			return nil, err
		}
		pub.Packages = append(pub.Packages, pkg)
		pub.Findings = append(pub.Findings, findings...)
		for _, it := range items {
			if _, dup := pub.Blobs[it.SHA256]; dup {
				continue
			}
			pub.Evidence = append(pub.Evidence, it)
			pub.Blobs[it.SHA256] = b.blobs[it.SHA256]
		}
	}
	for _, f := range d.Findings {
		for _, s := range b.statuses[f.ID] {
			if !b.published[f.ID] {
				b.warnings = append(b.warnings, fmt.Sprintf("appeal %s is against finding %s, which is not published (withheld)", s.ID, f.ID))
			}
		}
	}
	if n := len(d.NotExamined); n > 0 {
		// The operator's to correct; nothing of them is in the publication (methodology §4).
		b.warnings = append(b.warnings, fmt.Sprintf("%d candidates the run could not examine as asked are not published (decisions.md, Not examined)", n))
	}
	pub.GateMap = policy.ExportGateMap()
	if raw, err := os.ReadFile(filepath.Join(opts.RunDir, DiffFileName)); err == nil {
		diff, warning := b.projectDiff(raw, pub, prevs)
		if warning != "" {
			b.warnings = append(b.warnings, warning)
		}
		pub.Diff = diff
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("publish: %w", err)
	}

	h := &pub.Header
	h.RunID = d.Header.RunID
	h.PublishedAt = now
	h.Day0, h.Day30 = day0, day30
	h.Demo = opts.Demo
	if opts.Demo {
		h.DemoNote = "Demonstration: published by the demo cycle with an injected clock (" + now.Format(time.RFC3339) + "). Its dates are not real and it is not a publication of the scheduled pass."
	}
	h.DisclosurePeriodOverridden = opts.Demo || opts.DisclosurePeriodOverridden
	if h.DisclosurePeriodOverridden {
		h.DisclosureNote = "Published with an injected clock reading " + now.Format(time.RFC3339) + " instead of the wall clock: the 30-day disclosure period was not measured against real time, and the publication date is the injected one."
	}
	h.MethodologyVersion, h.MethodologySHA256 = methodology.Version, methodology.SHA256()
	h.Decided = d.Header.Stamps
	h.CandidatesFile, h.CandidatesSHA256 = d.Header.CandidatesFile, d.Header.CandidatesSHA256
	var run rundir.Header
	if _, err := rundir.ReadJSON(opts.RunDir, rundir.HeaderFile, &run); err == nil && run.RunID == d.Header.RunID {
		h.RunStartedAt = run.StartedAt.UTC()
		if run.FinishedAt != nil {
			h.RunFinishedAt = run.FinishedAt.UTC()
		}
	}
	h.DecisionsSHA256 = decSum
	h.AppealsEvents, h.AppealsHeadSHA256 = len(applied.Events), applied.Head()
	h.Counts = countPublication(pub, d)
	h.Supersedes, err = supersedes(opts.Previous, prevs, d.Header)
	if err != nil {
		return nil, err
	}
	h.ID = newID(d.Header.RunID, prevs, func(id string) bool {
		_, err := os.Lstat(filepath.Join(opts.Home, id))
		return err == nil
	})
	if !ValidID(h.ID) {
		return nil, fmt.Errorf("publish: run id %q does not make a valid publication id", d.Header.RunID)
	}
	if opts.SigningKey != nil {
		if err := SignAttestations(ctx, pub, opts.SigningKey, opts.Blobs); err != nil {
			return nil, fmt.Errorf("publish: %w", err)
		}
	}
	return &built{pub: pub, withheld: b.withheld, warnings: b.warnings}, nil
}

// projectDiff is the run's diff.json as the publication carries it
// (ProjectDiff against the latest earlier publication of the previous run),
// or nil and the reason it is not published.
func (b *builder) projectDiff(raw []byte, pub *Publication, prevs []Header) (json.RawMessage, string) {
	rd, err := ParseRunDiff(raw)
	if err != nil {
		return nil, DiffFileName + " is not a run diff and is not published"
	}
	if rd.RunID != b.d.Header.RunID {
		return nil, DiffFileName + " is the diff of run " + rd.RunID + ", not of this run, and is not published"
	}
	var prev *DiffSide
	if rd.PreviousRunID != "" {
		for i := len(prevs) - 1; i >= 0; i-- {
			if prevs[i].RunID != rd.PreviousRunID {
				continue
			}
			side, err := publishedSide(filepath.Join(b.opts.Home, prevs[i].ID), prevs[i])
			if err != nil {
				b.warnings = append(b.warnings, "publication "+prevs[i].ID+" of the previous run cannot be read ("+err.Error()+"); the diff names no change and no removed finding")
				break
			}
			prev = &side
			break
		}
	}
	// The id is chosen later; the findings and outcomes are what count here.
	cur := SideOf("", pub.Packages, pub.Findings)
	out, err := rundir.Marshal(ProjectDiff(FromRunDiff(rd), cur, prev))
	if err != nil {
		return nil, DiffFileName + " cannot be encoded and is not published"
	}
	if hits := stringHits(out); len(hits) > 0 {
		return nil, DiffFileName + " carries personal data (" + hits[0] + ") and is not published"
	}
	return out, ""
}

// List returns the headers of the publications under home, oldest first
// (by published_at, then id). Directories that are not whole publications
// (Write's temporary directories, anything else) are skipped.
func List(home string) ([]Header, error) {
	ents, err := os.ReadDir(home)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("publish: list %s: %w", home, err)
	}
	var out []Header
	for _, e := range ents {
		if !e.IsDir() || !ValidID(e.Name()) {
			continue
		}
		var h Header
		if _, err := rundir.ReadJSON(filepath.Join(home, e.Name()), HeaderFile, &h); err != nil || h.Schema != Schema || h.ID != e.Name() {
			continue
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].PublishedAt.Equal(out[j].PublishedAt) {
			return out[i].PublishedAt.Before(out[j].PublishedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// supersedes picks the publication this one supersedes.
func supersedes(previous string, prevs []Header, dh policy.Header) (string, error) {
	switch previous {
	case "-":
		return "", nil
	case "":
		latest := ""
		for _, h := range prevs {
			if h.RunID == dh.RunID || (dh.CandidatesFile != "" && h.CandidatesFile == dh.CandidatesFile) {
				latest = h.ID
			}
		}
		return latest, nil
	}
	for _, h := range prevs {
		if h.ID == previous {
			return previous, nil
		}
	}
	return "", fmt.Errorf("publish: previous publication %q does not exist", previous)
}

// newID is the run id for a run's first publication, then <run-id>.2, .3...:
// the first not taken by a listed publication or by anything at its address
// (a directory this build cannot read is never overwritten either).
func newID(runID string, prevs []Header, exists func(id string) bool) string {
	taken := map[string]bool{}
	for _, h := range prevs {
		taken[h.ID] = true
	}
	if !taken[runID] && !exists(runID) {
		return runID
	}
	for n := 2; ; n++ {
		id := runID + "." + strconv.Itoa(n)
		if !taken[id] && !exists(id) {
			return id
		}
	}
}

type builder struct {
	ctx       context.Context
	opts      Options
	d         *policy.Decisions
	records   []rundir.Record
	surfaces  map[string][]*rundir.Surface
	artifacts map[string]*artifact.Artifact
	blobs     map[string][]byte
	items     map[string]EvidenceItem
	statuses  map[string][]appeals.Status
	published map[string]bool
	withheld  []WithheldFinding
	warnings  []string
}

var sevRank = map[string]int{vocab.SeverityInfo: 0, vocab.SeverityLow: 1, vocab.SeverityMedium: 2, vocab.SeverityHigh: 3}

// publishPackage turns one decided package and its findings into their
// published form.
func (b *builder) publishPackage(row policy.PackageRow, frows []policy.FindingRow) (Package, []Finding, []EvidenceItem, error) {
	if b.published == nil {
		b.published = map[string]bool{}
	}
	pkg := Package{PackageRow: row, DecidedVerdict: row.Verdict, DecidedGrade: row.Grade, NotAssessed: NotAssessed()}
	pkg.Tools = b.tools(row)

	var findings []Finding
	var items []EvidenceItem
	var unpublishable []string // why, per finding: never the personal data itself
	var unpublishableFindings []string
	if row.Verdict == vocab.VerdictGraded {
		for _, f := range frows {
			if f.Decision != vocab.DecisionConfirmed && f.Decision != vocab.DecisionNoted {
				continue
			}
			item, quoted, why, err := b.evidence(row, f)
			if err != nil {
				return Package{}, nil, nil, err
			}
			if why != "" {
				unpublishable = append(unpublishable, "finding "+f.ID+": "+why)
				unpublishableFindings = append(unpublishableFindings, f.ID)
				b.withheld = append(b.withheld, WithheldFinding{FindingID: f.ID, Package: f.Package, Reason: why})
				continue
			}
			items = append(items, item)
			findings = append(findings, b.finding(f, item, quoted))
		}
	}
	// Everything else the package's rows would publish is scanned too: a
	// tool's text, a capability's excerpt, a finding's context tags.
	if where := rowPersonalData(pkg, findings); len(where) > 0 {
		unpublishable = append(unpublishable, "the package's published rows carry personal data ("+strings.Join(where, "; ")+")")
		stripText(&pkg)
		if row.Verdict == vocab.VerdictGraded {
			for _, f := range findings {
				b.withheld = append(b.withheld, WithheldFinding{FindingID: f.ID, Package: f.Package, Reason: "the package's published rows carry personal data"})
			}
		}
	}
	if len(unpublishable) > 0 && row.Verdict != vocab.VerdictOutOfScope {
		pkg.Verdict, pkg.Grade, pkg.HighestConfirmed = vocab.VerdictNotGradeable, "", ""
		pkg.BlockedBy = append(append([]string(nil), row.BlockedBy...), vocab.CodeEvidenceUnpublishable)
		g, _ := vocab.GateEntryFor(vocab.CodeEvidenceUnpublishable)
		pkg.Blocking = append(append([]policy.Blocking(nil), pkg.Blocking...), policy.Blocking{Code: vocab.CodeEvidenceUnpublishable, Guard: g.Guard, Detail: strings.Join(unpublishable, "; "), Findings: unpublishableFindings})
		for _, f := range findings {
			if !containsWithheld(b.withheld, f.ID) {
				b.withheld = append(b.withheld, WithheldFinding{FindingID: f.ID, Package: f.Package, Reason: "withheld with its package (" + vocab.CodeEvidenceUnpublishable + ")"})
			}
		}
		findings, items = nil, nil
	}
	if len(unpublishable) > 0 {
		if row.Verdict == vocab.VerdictOutOfScope {
			// Out of scope is neither a grade nor a refusal (D4): the verdict
			// stands and only the text is withheld.
			b.warnings = append(b.warnings, "package "+row.Package.Key()+" (out of scope): text withheld: "+strings.Join(unpublishable, "; "))
		}
		if where := rowPersonalData(pkg, findings); len(where) > 0 {
			return Package{}, nil, nil, fmt.Errorf("publish: package %s: personal data remains after its text is withheld (%s); nothing is published", row.Package.Key(), strings.Join(where, "; "))
		}
	}

	// Appeals, and the grade they leave.
	if pkg.Verdict == vocab.VerdictGraded {
		highest := -1
		pkg.HighestConfirmed = ""
		for _, f := range findings {
			if f.Decision == vocab.DecisionConfirmed && f.Status != vocab.StatusWithdrawnOnAppeal && sevRank[f.SeverityDecided] > highest {
				highest, pkg.HighestConfirmed = sevRank[f.SeverityDecided], f.SeverityDecided
			}
		}
		pkg.Grade = policy.Grade(pkg.HighestConfirmed)
	}
	pkg.PublishedFindings = StatusCounts{Withheld: row.Findings.Withheld + row.Findings.Confirmed + row.Findings.Noted - len(findings)}
	for _, f := range findings {
		b.published[f.ID] = true
		switch f.Status {
		case vocab.StatusConfirmed:
			pkg.PublishedFindings.Confirmed++
		case vocab.StatusNoted:
			pkg.PublishedFindings.Noted++
		case vocab.StatusUnderAppeal:
			pkg.PublishedFindings.UnderAppeal++
		case vocab.StatusWithdrawnOnAppeal:
			pkg.PublishedFindings.WithdrawnOnAppeal++
		}
	}
	return pkg, findings, items, nil
}

func containsWithheld(ws []WithheldFinding, id string) bool {
	for _, w := range ws {
		if w.FindingID == id {
			return true
		}
	}
	return false
}

// finding is the published form of a decided finding with its appeals.
func (b *builder) finding(f policy.FindingRow, item EvidenceItem, quoted string) Finding {
	out := Finding{FindingRow: f, Appeals: []AppealStatus{}, PublishedEvidence: EvidenceRef{SHA256: item.SHA256, Kind: item.Kind}}
	if quoted != f.Evidence.Excerpt {
		out.PublishedEvidence.Excerpt = quoted
	}
	out.Status = vocab.StatusConfirmed
	if f.Decision == vocab.DecisionNoted {
		out.Status = vocab.StatusNoted
	}
	upheld, open := false, false
	for _, s := range b.statuses[f.ID] {
		out.Appeals = append(out.Appeals, AppealStatus{ID: s.ID, Status: s.Status, FiledAt: s.FiledAt, ResolvedAt: s.ResolvedAt})
		upheld = upheld || s.Status == appeals.Upheld
		open = open || s.Status == appeals.Open
	}
	switch {
	case upheld:
		out.Status = vocab.StatusWithdrawnOnAppeal
	case open:
		out.Status = vocab.StatusUnderAppeal
	}
	return out
}

// tools are the package's parsed tools from surfaces.json, with the hash
// (or the reason for none) from the decision row.
func (b *builder) tools(row policy.PackageRow) []Tool {
	out := []Tool{}
	ss := b.surfaces[row.Package.Key()]
	if len(ss) != 1 {
		return out
	}
	for i, e := range ss[0].Tools {
		var th manifest.ToolHash
		if i < len(row.ToolHashes) && row.ToolHashes[i].Name == e.Name && row.ToolHashes[i].Line == e.Line {
			th = row.ToolHashes[i]
		} else {
			th = manifest.HashTool(e)
		}
		out = append(out, Tool{
			Name: e.Name, DescriptionState: e.DescriptionState, DescriptionRaw: e.DescriptionRaw,
			SchemaKind: e.SchemaKind, SchemaRaw: e.SchemaRaw, ToolHash: th.Hash, Reason: th.Reason, File: e.File, Line: e.Line,
		})
	}
	return out
}

// evidence builds the published evidence of one finding and returns the
// bytes a reader finds in it (the excerpt, or for a projection its canonical
// form), or says why it cannot be published (personal data, or no form that
// carries the excerpt). An error is a failure to read, not a property of the
// evidence.
func (b *builder) evidence(row policy.PackageRow, f policy.FindingRow) (EvidenceItem, string, string, error) {
	ev := f.Evidence
	rec, isRecord := b.record(ev.SHA256)
	var item EvidenceItem
	var data []byte
	quoted := ev.Excerpt
	switch {
	case isRecord && artifactKind(rec.Kind):
		// A finding citing the artifact itself: publish the member it names.
		m, why, err := b.member(ev.SHA256, rec, ev.Path)
		if err != nil || why != "" {
			return item, "", why, err
		}
		data = m
		item = EvidenceItem{Kind: EvidenceKindFile, Path: ev.Path}
	case isRecord || IsPointer(ev.Path):
		up, err := b.opts.Blobs.Get(b.ctx, ev.SHA256)
		if err != nil || vocab.SHA256Hex(up) != ev.SHA256 {
			if b.ctx.Err() != nil {
				return item, "", "", b.ctx.Err()
			}
			return item, "", "the cited record cannot be read from the evidence store", nil
		}
		proj, ptr, found, err := Project(up, ev.SHA256, ev.Path, ev.Excerpt)
		if err != nil {
			if errors.Is(err, ErrNotProjectable) {
				return item, "", strings.TrimPrefix(err.Error(), ErrNotProjectable.Error()+": "), nil
			}
			return item, "", "", err
		}
		data, quoted = proj, found
		item = EvidenceItem{Kind: EvidenceKindProjection, ContentType: "application/json", SourceSHA256: ev.SHA256, Pointer: ptr}
	default:
		got, why, err := b.file(row, ev)
		if err != nil || why != "" {
			return item, "", why, err
		}
		data = got
		item = EvidenceItem{Kind: EvidenceKindFile, Path: ev.Path}
	}
	item.SHA256, item.Size = vocab.SHA256Hex(data), int64(len(data))
	if item.ContentType == "" {
		item.ContentType = contentType(ev.Path, data)
	}
	// The published finding must verify against the published bytes.
	lo, hi := 0, len(data)
	if item.Kind == EvidenceKindFile && ev.LineStart > 0 {
		lo, hi = verify.LineRange(data, ev.LineStart, ev.LineEnd)
	}
	if quoted == "" || !bytes.Contains(data[lo:hi], []byte(quoted)) {
		return item, "", "the excerpt does not occur in the evidence as published", nil
	}
	if hits := ScanPersonalData(data); len(hits) > 0 {
		return item, "", fmt.Sprintf("its evidence contains %s (line %d)", kindPhrase(hits[0].Kind), hits[0].Line), nil
	}
	b.blobs[item.SHA256] = data
	return item, quoted, "", nil
}

func kindPhrase(kind string) string {
	switch kind {
	case KindEmail:
		return "an email address"
	case KindPhone:
		return "a phone number"
	case KindStreetAddress:
		return "a street address"
	}
	return kind
}

// record returns the records.json row whose blob is sha.
func (b *builder) record(sha string) (rundir.Record, bool) {
	for _, r := range b.records {
		if r.SHA256 == sha && sha != "" {
			return r, true
		}
	}
	return rundir.Record{}, false
}

func artifactKind(kind string) bool {
	return kind == vocab.KindNPMTarball || kind == vocab.KindPyPIFile
}

// file returns the bytes of an artifact file a finding cites: the blob it
// names, or, when the store holds only the artifact, the member at its path
// in the package's artifact, checked against the cited hash.
func (b *builder) file(row policy.PackageRow, ev rundir.Evidence) ([]byte, string, error) {
	data, err := b.opts.Blobs.Get(b.ctx, ev.SHA256)
	if err == nil && vocab.SHA256Hex(data) == ev.SHA256 {
		return data, "", nil
	}
	if b.ctx.Err() != nil {
		return nil, "", b.ctx.Err()
	}
	art := row.ArtifactSHA256
	if art == "" {
		return nil, "the cited file is not in the evidence store and the package names no artifact", nil
	}
	rec, _ := b.record(art)
	m, why, err := b.member(art, rec, ev.Path)
	if err != nil || why != "" {
		return nil, why, err
	}
	if vocab.SHA256Hex(m) != ev.SHA256 {
		return nil, "the artifact's " + ev.Path + " does not hash to the cited evidence", nil
	}
	return m, "", nil
}

// member reads path from the stored artifact artSHA (once per artifact).
func (b *builder) member(artSHA string, rec rundir.Record, p string) ([]byte, string, error) {
	a, ok := b.artifacts[artSHA]
	if !ok {
		data, err := b.opts.Blobs.Get(b.ctx, artSHA)
		if err != nil || vocab.SHA256Hex(data) != artSHA {
			if b.ctx.Err() != nil {
				return nil, "", b.ctx.Err()
			}
			return nil, "the package's artifact cannot be read from the evidence store", nil
		}
		name := ""
		if rec.URL != "" {
			name = path.Base(rec.URL)
		}
		a, err = artifact.Read(b.ctx, data, artifact.DetectFormat(name, data), b.opts.ArtifactLimits)
		if err != nil {
			return nil, "", fmt.Errorf("publish: read artifact %s: %w", artSHA, err)
		}
		b.artifacts[artSHA] = a
	}
	if a.Outcome != artifact.OutcomeOK {
		return nil, "the package's artifact is unreadable (" + a.Reason + ")", nil
	}
	m, ok := a.Bytes(p)
	if !ok {
		return nil, "the artifact has no file " + p, nil
	}
	return bytes.Clone(m), "", nil
}

func contentType(p string, data []byte) string {
	if !utf8.Valid(data) {
		return "application/octet-stream"
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".json":
		return "application/json"
	case ".md":
		return "text/markdown; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

// rowPersonalData scans every string the package's published rows carry
// and says where personal data is, by field, never by content.
func rowPersonalData(pkg Package, findings []Finding) []string {
	var where []string
	for _, v := range []struct {
		name string
		v    any
	}{{"package", pkg}, {"findings", findings}} {
		b, err := json.Marshal(v.v)
		if err != nil {
			return []string{v.name + ": not encodable"}
		}
		for _, h := range stringHits(b) {
			where = append(where, v.name+" "+h)
		}
	}
	return where
}

// stringHits walks a JSON document's strings (keys and values) and returns
// "at PATH: KIND" for each that holds personal data.
func stringHits(doc []byte) []string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return []string{"not JSON"}
	}
	var out []string
	var walk func(p string, v any)
	walk = func(p string, v any) {
		switch x := v.(type) {
		case string:
			if hits := ScanPersonalData([]byte(x)); len(hits) > 0 {
				out = append(out, "at "+p+": "+kindPhrase(hits[0].Kind))
			}
		case []any:
			for i, e := range x {
				walk(p+"/"+strconv.Itoa(i), e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if hits := ScanPersonalData([]byte(k)); len(hits) > 0 {
					out = append(out, "at "+p+" (a key): "+kindPhrase(hits[0].Kind))
				}
				walk(p+"/"+formatPointer([]string{k})[1:], x[k])
			}
		}
	}
	walk("", v)
	return out
}

// stripText withholds the free text of a package's row: tools' description
// and schema text, capability excerpts and targets, and the text and hole
// sources of a refusal's partial descriptions. Names, states, hashes, files,
// lines and hole offsets stay.
func stripText(pkg *Package) {
	blocking := make([]policy.Blocking, len(pkg.Blocking))
	copy(blocking, pkg.Blocking)
	for i := range blocking {
		if len(blocking[i].Partial) == 0 {
			continue
		}
		partial := make([]policy.PartialEntry, len(blocking[i].Partial))
		for j, e := range blocking[i].Partial {
			e.Text, e.TextWithheld = "", WithheldPersonalData
			holes := make([]policy.PartialHole, len(e.Holes))
			for k, h := range e.Holes {
				h.Offset, h.Source = 0, ""
				holes[k] = h
			}
			e.Holes = holes
			partial[j] = e
		}
		blocking[i].Partial = partial
	}
	if len(blocking) > 0 {
		pkg.Blocking = blocking
	}
	for i := range pkg.Tools {
		pkg.Tools[i].DescriptionRaw, pkg.Tools[i].SchemaRaw, pkg.Tools[i].TextWithheld = "", "", WithheldPersonalData
	}
	caps := make([]policy.CapabilityRow, len(pkg.Capabilities))
	copy(caps, pkg.Capabilities)
	for i := range caps {
		caps[i].Excerpt, caps[i].Target = "", WithheldPersonalData
	}
	pkg.Capabilities = caps
}

func countPublication(p *Publication, d *policy.Decisions) Counts {
	c := Counts{Grades: map[string]int{}, Reasons: map[string]int{}}
	for _, pkg := range p.Packages {
		c.Packages++
		switch pkg.Verdict {
		case vocab.VerdictGraded:
			c.Graded++
			c.Grades[pkg.Grade]++
		case vocab.VerdictNotGradeable:
			c.NotGradeable++
			for _, r := range pkg.BlockedBy {
				c.Reasons[r]++
			}
		case vocab.VerdictOutOfScope:
			c.OutOfScope++
			c.Reasons[pkg.Reason]++
		}
		c.Findings.Confirmed += pkg.PublishedFindings.Confirmed
		c.Findings.Noted += pkg.PublishedFindings.Noted
		c.Findings.UnderAppeal += pkg.PublishedFindings.UnderAppeal
		c.Findings.WithdrawnOnAppeal += pkg.PublishedFindings.WithdrawnOnAppeal
		c.Findings.Withheld += pkg.PublishedFindings.Withheld
	}
	c.WithheldAtPublish = c.Findings.Withheld - d.Header.Counts.Findings.Withheld
	return c
}
