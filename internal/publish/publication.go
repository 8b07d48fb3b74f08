// Package publish owns the published form of a decided run (docs/publish-contract.md):
// its Go types, writing and reading a publication directory, and — in the
// files that implement `attestari publish` — the disclosure clock, appeals
// applied to the published status, projections of upstream records and of
// the run's diff (ProjectDiff: only published findings by reference, the
// rest as counts), and the personal-data scan.
//
// A publication is what the public may see, and nothing else: the loader puts
// exactly a publication into the database. This package never reads the
// network or a model, and never edits a run's decisions. What a killed
// publish leaves is picked up by the next one: a temporary directory no live
// writer holds is removed (RemoveStaleTemps), and a publication written and
// never loaded is loaded rather than superseded (Options.IsLoaded).
package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Schema names this version of the publication format.
const Schema = "attestari.publication/v1"

// Files of a publication directory.
const (
	HeaderFile   = "publication.json"
	PackagesFile = "packages.json"
	FindingsFile = "findings.json"
	EvidenceFile = "evidence.json"
	GateMapFile  = "gate_map.json"
	DiffFile     = "diff.json"
	EvidenceDir  = "evidence"
)

// Header is publication.json.
type Header struct {
	Schema      string    `json:"schema"`
	ID          string    `json:"id"`
	RunID       string    `json:"run_id"`
	Supersedes  string    `json:"supersedes,omitempty"`
	PublishedAt time.Time `json:"published_at"`
	Day0        time.Time `json:"day0"`
	Demo        bool      `json:"demo"`
	DemoNote    string    `json:"demo_note,omitempty"`
	// DisclosurePeriodOverridden: the publication was made with an injected
	// clock (the demo cycle, or 'publish --now --override-disclosure-period'),
	// so the 30-day disclosure period was not measured against real time
	// (methodology §19). A demo publication always has it set; a header
	// written before the field existed and marked demo is read as set.
	DisclosurePeriodOverridden bool   `json:"disclosure_period_overridden"`
	DisclosureNote             string `json:"disclosure_note,omitempty"`
	MethodologyVersion         string `json:"methodology_version"`
	MethodologySHA256          string `json:"methodology_sha256"`
	// Decided are the stamps of the decision the publication rests on.
	Decided policy.Stamps `json:"decided"`
	// Files lists the SHA-256 of every other file of the publication, so a
	// reader (and the loader) can check the directory is whole.
	Files []rundir.InputFile `json:"files"`

	// Day30 is Day0 plus thirty days: the earliest PublishedAt allowed.
	Day30 time.Time `json:"day30"`
	// CandidatesFile and CandidatesSHA256 are the run's candidates file:
	// publications over the same file supersede one another by default.
	CandidatesFile   string `json:"candidates_file"`
	CandidatesSHA256 string `json:"candidates_sha256"`
	// RunStartedAt is when the run began, from its run.json (one of the
	// inputs the decision hashed); zero when run.json could not be read.
	RunStartedAt time.Time `json:"run_started_at,omitzero"`
	// RunFinishedAt is when the run finished, from the same run.json; zero
	// when it could not be read or records no finish.
	RunFinishedAt time.Time `json:"run_finished_at,omitzero"`
	// DecisionsSHA256 is the SHA-256 of the decisions.json published from.
	DecisionsSHA256 string `json:"decisions_sha256"`
	// AppealsEvents is how many events of the run's appeal log were applied
	// (those dated at or before PublishedAt), and AppealsHeadSHA256 the
	// hash of the last of them: a later publication refuses a log whose
	// first AppealsEvents events no longer end in that hash.
	AppealsEvents     int    `json:"appeals_events"`
	AppealsHeadSHA256 string `json:"appeals_head_sha256,omitempty"`
	// Counts summarise what the publication holds.
	Counts Counts `json:"counts"`
}

// Counts summarise a publication: packages by published verdict, grades,
// and findings by published status. Withheld counts the findings decided
// withheld and those withheld at publication; neither is published.
type Counts struct {
	Packages          int            `json:"packages"`
	Graded            int            `json:"graded"`
	NotGradeable      int            `json:"not_gradeable"`
	OutOfScope        int            `json:"out_of_scope"`
	Grades            map[string]int `json:"grades"`
	Reasons           map[string]int `json:"reasons"`
	Findings          StatusCounts   `json:"findings"`
	WithheldAtPublish int            `json:"withheld_at_publication"`
}

// StatusCounts count findings by published status.
type StatusCounts struct {
	Confirmed         int `json:"confirmed"`
	Noted             int `json:"noted"`
	UnderAppeal       int `json:"under_appeal"`
	WithdrawnOnAppeal int `json:"withdrawn_on_appeal"`
	Withheld          int `json:"withheld"`
}

// Tool is one parsed tool as published: its text, its schema and its hash.
type Tool struct {
	Name             string `json:"name"`
	DescriptionState string `json:"description_state"`
	DescriptionRaw   string `json:"description_raw"`
	SchemaKind       string `json:"schema_kind"`
	SchemaRaw        string `json:"schema_raw"`
	ToolHash         string `json:"tool_hash,omitempty"`
	Reason           string `json:"reason,omitempty"`
	File             string `json:"file,omitempty"`
	Line             int    `json:"line,omitempty"`
	// TextWithheld is set ("personal_data") when the description and schema
	// text are left out because they carry personal data; the hash stays.
	TextWithheld string `json:"text_withheld,omitempty"`
}

// Package is one package version as published: the decision row, with the
// verdict and grade after appeals (DecidedVerdict/DecidedGrade keep what the
// decision said), and its tools.
type Package struct {
	policy.PackageRow
	DecidedVerdict string   `json:"decided_verdict"`
	DecidedGrade   string   `json:"decided_grade,omitempty"`
	Tools          []Tool   `json:"tools"`
	NotAssessed    []string `json:"not_assessed"`
	// PublishedFindings counts this package's findings by published status
	// (the embedded findings counts are the decision's).
	PublishedFindings StatusCounts `json:"published_findings"`
}

// AppealStatus is the public part of an appeal: never its grounds or notes.
type AppealStatus struct {
	ID         string     `json:"id"`
	Status     string     `json:"status"` // open, upheld, dismissed, withdrawn
	FiledAt    time.Time  `json:"filed_at"`
	ResolvedAt *time.Time `json:"resolved_at,omitempty"`
}

// Finding is one published finding: a confirmed or noted decision row with
// its public status. Withheld findings are never published.
type Finding struct {
	policy.FindingRow
	Status  string         `json:"status"`
	Appeals []AppealStatus `json:"appeals"`
	// PublishedEvidence is the blob a reader verifies the excerpt against: the
	// artifact file itself, or the projection of the upstream record.
	PublishedEvidence EvidenceRef `json:"published_evidence"`
}

// EvidenceRef points at a published blob.
type EvidenceRef struct {
	SHA256 string `json:"sha256"`
	Kind   string `json:"kind"` // file, projection
	// Excerpt, when present, is what a reader finds in the published blob in
	// place of the finding's evidence.excerpt: the RFC 8785 form of a quoted
	// JSON value whose upstream bytes canonical form changed.
	Excerpt string `json:"excerpt,omitempty"`
}

// EvidenceItem describes one blob under evidence/.
type EvidenceItem struct {
	SHA256       string `json:"sha256"`
	ContentType  string `json:"content_type"`
	Size         int64  `json:"size"`
	Kind         string `json:"kind"` // file, projection
	Path         string `json:"path,omitempty"`
	SourceSHA256 string `json:"source_sha256,omitempty"`
	Pointer      string `json:"pointer,omitempty"`
}

// Publication is a whole publication directory, read or about to be written.
type Publication struct {
	Header   Header
	Packages []Package
	Findings []Finding
	Evidence []EvidenceItem
	GateMap  json.RawMessage
	Diff     json.RawMessage // nil when the run has no diff
	// Attestations is attestations.jsonl: one signed attestation a package,
	// in the order of Packages (attest.go); nil when publish had no
	// signing key.
	Attestations []byte
	// Blobs holds the bytes of every evidence item, by SHA-256.
	Blobs map[string][]byte
}

// idPattern starts with a letter or digit, so no id is a hidden name or
// looks like Write's temporary directories (".tmp-...").
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)

// ValidID reports whether id may name a publication (it is a directory name and a URL segment).
func ValidID(id string) bool { return idPattern.MatchString(id) }

// writeStep, when set (by tests), is called after each file Write puts in
// the temporary directory; an error from it aborts Write there, as a crash
// would, so a test can check nothing partial is left at the publication's
// address.
var writeStep func(name string) error

func step(name string) error {
	if writeStep == nil {
		return nil
	}
	return writeStep(name)
}

// tempPrefix starts the name of Write's temporary directories: hidden, and
// never a valid id.
const tempPrefix = ".tmp-"

// lockDir opens dir and takes an exclusive flock on it; closing the file
// releases it, as the kernel does when the process dies.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
}

// StaleTempAge is how old a temporary publication directory must be before
// RemoveStaleTemps considers it; its lock already protects a live writer of
// this build, and the age also protects one that takes no lock.
const StaleTempAge = time.Hour

// RemoveStaleTemps removes the temporary directories (".tmp-*") that a
// Write killed midway left under home: those last modified at least minAge
// before now whose lock no live writer holds. It returns how many it
// removed. Publish calls it before writing.
func RemoveStaleTemps(ctx context.Context, home string, minAge time.Duration, now time.Time) (int, error) {
	ents, err := os.ReadDir(home)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("publish: temporary directories under %s: %w", home, err)
	}
	n := 0
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return n, fmt.Errorf("publish: %w", err)
		}
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		ok, err := evidence.RemoveStale(filepath.Join(home, e.Name()), minAge, now, os.RemoveAll)
		if err != nil {
			return n, fmt.Errorf("publish: %w", err)
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// ErrIncomplete reports a publication directory whose files do not match its header.
var ErrIncomplete = errors.New("publication is incomplete or altered")

// Write writes p into dir, which must not exist yet: a publication is never
// overwritten. Files are written into a temporary sibling and renamed into
// place at the end, so dir either appears whole or not at all.
func Write(dir string, p *Publication) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("publication %s exists already: publications are never overwritten", dir)
	}
	if !ValidID(p.Header.ID) {
		return fmt.Errorf("publication id %q is not valid", p.Header.ID)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, tempPrefix+filepath.Base(dir)+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// Locked until Write returns (after the rename), so RemoveStaleTemps
	// never removes the directory of a live writer.
	lock, err := lockDir(tmp)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := os.Mkdir(filepath.Join(tmp, EvidenceDir), 0o755); err != nil {
		return err
	}
	sort.Slice(p.Evidence, func(i, j int) bool { return p.Evidence[i].SHA256 < p.Evidence[j].SHA256 })
	for _, e := range p.Evidence {
		b, ok := p.Blobs[e.SHA256]
		if !ok {
			return fmt.Errorf("evidence %s has no bytes", e.SHA256)
		}
		if vocab.SHA256Hex(b) != e.SHA256 {
			return fmt.Errorf("evidence %s: bytes hash to %s", e.SHA256, vocab.SHA256Hex(b))
		}
		if err := rundir.WriteFileAtomic(filepath.Join(tmp, EvidenceDir, e.SHA256), b); err != nil {
			return err
		}
		if err := step(EvidenceDir + "/" + e.SHA256); err != nil {
			return err
		}
	}
	files := []struct {
		name string
		v    any
	}{{PackagesFile, p.Packages}, {FindingsFile, p.Findings}, {EvidenceFile, p.Evidence}}
	var sums []rundir.InputFile
	for _, f := range files {
		b, err := rundir.Marshal(f.v)
		if err != nil {
			return err
		}
		if err := rundir.WriteFileAtomic(filepath.Join(tmp, f.name), b); err != nil {
			return err
		}
		if err := step(f.name); err != nil {
			return err
		}
		sums = append(sums, rundir.InputFile{Path: f.name, SHA256: vocab.SHA256Hex(b)})
	}
	for _, raw := range []struct {
		name string
		b    json.RawMessage
	}{{GateMapFile, p.GateMap}, {DiffFile, p.Diff}, {AttestationsFile, p.Attestations}} {
		if raw.b == nil {
			continue
		}
		if err := rundir.WriteFileAtomic(filepath.Join(tmp, raw.name), raw.b); err != nil {
			return err
		}
		if err := step(raw.name); err != nil {
			return err
		}
		sums = append(sums, rundir.InputFile{Path: raw.name, SHA256: vocab.SHA256Hex(raw.b)})
	}
	p.Header.Schema = Schema
	p.Header.Files = sums
	if err := rundir.WriteJSON(tmp, HeaderFile, p.Header); err != nil {
		return err
	}
	if err := step(HeaderFile); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("move publication into place: %w", err)
	}
	// The rename is durable only once the parent directory is synced.
	if d, err := os.Open(parent); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Read reads a publication directory and checks it is whole: every file the
// header lists hashes as listed, and every evidence blob hashes to its name.
func Read(dir string) (*Publication, error) {
	p := &Publication{Blobs: map[string][]byte{}}
	if _, err := rundir.ReadJSON(dir, HeaderFile, &p.Header); err != nil {
		return nil, err
	}
	if p.Header.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %q, this build reads %q", dir, p.Header.Schema, Schema)
	}
	// Every demo publication was made with an injected clock, including
	// those written before the header said so.
	if p.Header.Demo {
		p.Header.DisclosurePeriodOverridden = true
	}
	listed := map[string]string{}
	for _, f := range p.Header.Files {
		listed[f.Path] = f.SHA256
	}
	read := func(name string) ([]byte, error) {
		want, ok := listed[name]
		if !ok {
			return nil, nil
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrIncomplete, name, err)
		}
		if vocab.SHA256Hex(b) != want {
			return nil, fmt.Errorf("%w: %s does not hash to %s", ErrIncomplete, name, want)
		}
		return b, nil
	}
	for _, f := range []struct {
		name string
		v    any
	}{{PackagesFile, &p.Packages}, {FindingsFile, &p.Findings}, {EvidenceFile, &p.Evidence}} {
		b, err := read(f.name)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return nil, fmt.Errorf("%w: %s is not listed", ErrIncomplete, f.name)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(f.v); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	var err error
	if p.GateMap, err = read(GateMapFile); err != nil {
		return nil, err
	}
	if p.Diff, err = read(DiffFile); err != nil {
		return nil, err
	}
	if p.Attestations, err = read(AttestationsFile); err != nil {
		return nil, err
	}
	if _, err := p.AttestationsByPackage(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrIncomplete, err)
	}
	for _, e := range p.Evidence {
		b, err := os.ReadFile(filepath.Join(dir, EvidenceDir, e.SHA256))
		if err != nil {
			return nil, fmt.Errorf("%w: evidence %s: %v", ErrIncomplete, e.SHA256, err)
		}
		if vocab.SHA256Hex(b) != e.SHA256 {
			return nil, fmt.Errorf("%w: evidence %s is corrupt", ErrIncomplete, e.SHA256)
		}
		p.Blobs[e.SHA256] = b
	}
	return p, nil
}
