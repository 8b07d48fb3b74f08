// Package publication is the publication format (docs/publish-contract.md):
// the Go types of a publication directory's files, the names of those files,
// what a publication id may be, the run diff as a publication carries it
// and its projection onto what publications publish (ProjectDiff), and the
// split of its attestations by package. `attestari publish` writes it
// (internal/publish, which also reads and writes the directory) and the
// store loads it. A leaf: it imports only the standard library and other
// leaves (api/attest, decision, rundir), so the store and the API server
// depend on the format and not on the step that makes it.
package publication

import (
	"encoding/json"
	"regexp"
	"time"

	"github.com/attestari/attestari/internal/decision"
	"github.com/attestari/attestari/internal/rundir"
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
	Decided decision.Stamps `json:"decided"`
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
	decision.PackageRow
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
	decision.FindingRow
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
