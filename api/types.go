// Package api is Attestari's public wire format and a small Go client for it.
//
// The types mirror the schemas of openapi.yaml field for field: the server
// (internal/httpapi, fed by internal/store) encodes them and the Client decodes
// them, so a gateway importing this package reads exactly what the contract
// says. Client.Manifest fetches every page of a manifest and checks that
// they add up to it (tool_count, the manifest hash). VerifyTools recomputes tool hashes from a server's tools/list answer
// where docs/manifest.md allows it and reports the tools that differ from an
// attested manifest. ParsePURL reads the Package URLs the API accepts.
//
// This package holds no server logic and no storage: it must stay importable
// by any gateway without pulling in a database driver or the pipeline.
package api

import (
	"encoding/json"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// Registries the service answers for.
const (
	RegistryNPM  = vocab.RegistryNPM
	RegistryPyPI = vocab.RegistryPyPI
)

// Verdicts of a decision row. They are internal/vocab's; the names are kept
// here because a gateway imports this package and cannot import that one.
const (
	VerdictGraded       = vocab.VerdictGraded
	VerdictNotGradeable = vocab.VerdictNotGradeable
	VerdictOutOfScope   = vocab.VerdictOutOfScope
)

// Stamps say under which rules, by which code, and when a row was decided and published.
type Stamps struct {
	MethodologyVersion string    `json:"methodology_version"`
	MethodologySHA256  string    `json:"methodology_sha256"`
	ExtractorVersion   string    `json:"extractor_version"`
	DecidedAt          time.Time `json:"decided_at"`
	PublishedAt        time.Time `json:"published_at"`
	Labels
}

// Labels say how the publication a row comes from was dated (methodology
// §19). Demo: published by the demo cycle, not the scheduled pass.
// DisclosurePeriodOverridden: published with an injected clock instead of
// the wall clock (the demo, or an operator's --override-disclosure-period),
// so PublishedAt is the injected instant and the 30-day disclosure period was
// not measured against real time. Demo implies DisclosurePeriodOverridden.
type Labels struct {
	Demo                       bool `json:"demo"`
	DisclosurePeriodOverridden bool `json:"disclosure_period_overridden"`
}

// Labelled reports whether either label is set.
func (l Labels) Labelled() bool { return l.Demo || l.DisclosurePeriodOverridden }

// ToolHash is one parsed tool of an attested manifest: its name, the
// description text a client receives, and its tool hash or why it has none.
type ToolHash struct {
	Name             string  `json:"name"`
	DescriptionState string  `json:"description_state"`
	Description      *string `json:"description,omitempty"`
	SchemaKind       string  `json:"schema_kind,omitempty"`
	// Verification is what a gateway can verify of this tool against the
	// wire (docs/manifest.md, "Verification levels"): tool_hash (the whole
	// definition) or name_and_description (the schema is generated at run
	// time).
	Verification string  `json:"verification,omitempty"`
	ToolHash     *string `json:"tool_hash"`
	Reason       *string `json:"reason"`
}

// Manifest is the attested tool manifest of one published package version
// (GET /manifest/{name}/{version}).
type Manifest struct {
	Stamps
	Registry       string  `json:"registry"`
	Name           string  `json:"name"`
	Version        string  `json:"version"`
	ArtifactSHA256 string  `json:"artifact_sha256"`
	ManifestHash   *string `json:"manifest_hash"`
	ManifestReason *string `json:"manifest_reason"`
	Verdict        string  `json:"verdict,omitempty"`
	Grade          *string `json:"grade"`
	// ToolCount is the number of tools of the whole manifest; Tools holds
	// one page of them, in order, and NextCursor names the next page (nil
	// on the last). Client.Manifest fetches every page and returns them
	// joined, with NextCursor nil.
	ToolCount  int        `json:"tool_count"`
	Tools      []ToolHash `json:"tools"`
	NextCursor *string    `json:"next_cursor"`
}

// A manifest is served in pages (docs/manifest.md, "Pages"), so that no
// answer of the service is larger than a page, whatever a package
// registers: a page holds at most ManifestPageTools tools and at most
// ManifestPageBytes of tool names and descriptions, except that a tool
// larger than that is a page alone. The manifest hash covers the whole
// manifest, every page.
const (
	ManifestPageTools = 1000
	ManifestPageBytes = 256 << 10
)

// PackageKey names one package version on one registry.
type PackageKey struct {
	Registry string `json:"registry"`
	Name     string `json:"name"`
	Version  string `json:"version"`
}

// LookupRequest is the body of POST /lookup: at most MaxLookupItems items.
type LookupRequest struct {
	Items []PackageKey `json:"items"`
}

// MaxLookupItems bounds one POST /lookup.
const MaxLookupItems = 1000

// LookupItem is the summary of one requested package version; Found is false
// when nothing is published for it.
type LookupItem struct {
	PackageKey
	Found        bool       `json:"found"`
	Verdict      *string    `json:"verdict"`
	Grade        *string    `json:"grade"`
	ManifestHash *string    `json:"manifest_hash"`
	PublishedAt  *time.Time `json:"published_at"`
	// AttestationSHA256 is the SHA-256 of the version's signed attestation
	// (GET /attestations/{name}/{version} serves those bytes), nil when it
	// has none: a gateway holding an attestation with this hash holds the
	// current one.
	AttestationSHA256 *string `json:"attestation_sha256"`
	// Labels are false when nothing is published (Found false).
	Labels
}

// LookupResponse holds one item per requested package version, in request order.
type LookupResponse struct {
	Items []LookupItem `json:"items"`
}

// Tool change kinds of a VersionDiff.
const (
	ChangeAdded                = vocab.ChangeAdded
	ChangeRemoved              = vocab.ChangeRemoved
	ChangeDescription          = vocab.ChangeDescription
	ChangeSchema               = vocab.ChangeSchema
	ChangeDescriptionAndSchema = vocab.ChangeDescriptionAndSchema
)

// ToolChange is one tool that differs between two versions.
type ToolChange struct {
	Name     string  `json:"name"`
	Change   string  `json:"change"`
	FromHash *string `json:"from_hash"`
	ToHash   *string `json:"to_hash"`
}

// Capability is one fact of the capability inventory (methodology §20).
type Capability struct {
	Kind         string `json:"kind"`
	Tag          string `json:"tag"`
	Target       string `json:"target"`
	File         string `json:"file"`
	Line         int    `json:"line"`
	FileSHA256   string `json:"file_sha256"`
	Excerpt      string `json:"excerpt"`
	Count        int    `json:"count"`
	Bundle       bool   `json:"bundle,omitempty"`
	Verification string `json:"verification"`
}

// VersionDiff is what changed between two published versions of a package
// (GET /diff/{name}/{from}/{to}).
type VersionDiff struct {
	Registry            string       `json:"registry"`
	Name                string       `json:"name"`
	From                string       `json:"from"`
	To                  string       `json:"to"`
	FromManifestHash    *string      `json:"from_manifest_hash"`
	ToManifestHash      *string      `json:"to_manifest_hash"`
	Tools               []ToolChange `json:"tools"`
	CapabilitiesAdded   []Capability `json:"capabilities_added"`
	CapabilitiesRemoved []Capability `json:"capabilities_removed"`
}

// Empty reports whether the diff records no change at all.
func (d *VersionDiff) Empty() bool {
	return len(d.Tools) == 0 && len(d.CapabilitiesAdded) == 0 && len(d.CapabilitiesRemoved) == 0 &&
		equalPtr(d.FromManifestHash, d.ToManifestHash)
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// PackageSummary is one row of GET /packages.
type PackageSummary struct {
	Registry     string    `json:"registry"`
	Name         string    `json:"name"`
	Version      string    `json:"version"`
	Verdict      string    `json:"verdict"`
	Grade        *string   `json:"grade"`
	BlockedBy    []string  `json:"blocked_by"`
	Reason       *string   `json:"reason,omitempty"`
	ManifestHash *string   `json:"manifest_hash"`
	PublishedAt  time.Time `json:"published_at"`
	Labels
}

// PackageFilter selects rows of GET /packages. Empty fields do not filter.
type PackageFilter struct {
	Registry string
	Grade    string
	Verdict  string
	Reason   string
	Query    string // name search: every word a substring of the name
	Cursor   string
	Limit    int
}

// Counts are facet counts over a search: by verdict and by reason code.
// ByReason counts the versions that carry each code, so a version refused
// for two reasons is in two counts and the counts sum past the versions.
// ByFirstReason counts each refused or out-of-scope version once, under its
// first code other than gate_failed_as_recorded (G2, the run's own gate
// agreeing, which nearly every refusal carries), or under that code when it
// is the only one; it sums to the refused and out-of-scope versions.
type Counts struct {
	ByVerdict     map[string]int `json:"by_verdict"`
	ByReason      map[string]int `json:"by_reason"`
	ByFirstReason map[string]int `json:"by_first_reason"`
}

// PackageList is a page of GET /packages.
type PackageList struct {
	Items      []PackageSummary `json:"items"`
	NextCursor *string          `json:"next_cursor"`
	Counts     Counts           `json:"counts"`
}

// Evidence is where a finding's excerpt is verified: a published blob, a path
// inside it, a line range and the quoted bytes.
type Evidence struct {
	SHA256        string `json:"sha256"`
	Path          string `json:"path"`
	LineStart     int    `json:"line_start"`
	LineEnd       int    `json:"line_end"`
	Excerpt       string `json:"excerpt"`
	ExcerptSHA256 string `json:"excerpt_sha256,omitempty"`
}

// ContextTag is an informational tag on an exfiltrate_data finding.
type ContextTag struct {
	Tag     string `json:"tag"`
	Applied bool   `json:"applied"`
	Why     string `json:"why"`
}

// Public finding statuses, internal/vocab's, named here for a gateway.
const (
	StatusConfirmed         = vocab.StatusConfirmed
	StatusNoted             = vocab.StatusNoted
	StatusUnderAppeal       = vocab.StatusUnderAppeal
	StatusWithdrawnOnAppeal = vocab.StatusWithdrawnOnAppeal
)

// Finding is one published finding with its public status.
type Finding struct {
	ID               string       `json:"id"`
	Check            string       `json:"check"`
	Tag              string       `json:"tag"`
	Title            string       `json:"title,omitempty"`
	Severity         string       `json:"severity"`
	SeverityAssigned string       `json:"severity_assigned,omitempty"`
	Status           string       `json:"status"`
	Rule             string       `json:"rule"`
	SurfaceKind      *string      `json:"surface_kind"`
	EntryName        *string      `json:"entry_name"`
	Evidence         Evidence     `json:"evidence"`
	ContextTags      []ContextTag `json:"context_tags,omitempty"`
}

// BlockedBy is one reason a package version is not gradeable, with its
// guard and the gate map's plain line. Detail, served on a package version's
// own row, says what failed for this version and where.
type BlockedBy struct {
	Code   string        `json:"code"`
	Guard  string        `json:"guard"`
	Line   string        `json:"line"`
	Detail *ReasonDetail `json:"detail,omitempty"`
}

// ReasonDetail is what failed for one reason of one package version:
// Summary in one line, File and Line the first place it failed (absent when
// no place says it), Names the tools, entries, checks, files or findings
// involved, and, for partial_description, each partial description with
// its holes.
type ReasonDetail struct {
	Summary string               `json:"summary"`
	File    *string              `json:"file,omitempty"`
	Line    *int                 `json:"line,omitempty"`
	Names   []string             `json:"names"`
	Partial []PartialDescription `json:"partial,omitempty"`
}

// PartialDescription is a description with substitutions the extractor could
// not read: Text is the literal text a client would receive around them, and
// each hole's Offset is a byte offset into Text. TextWithheld
// ("personal_data") says Text and the holes' sources are left out.
type PartialDescription struct {
	Kind         string  `json:"kind"`
	Name         string  `json:"name"`
	File         string  `json:"file"`
	Line         int     `json:"line"`
	Text         string  `json:"text"`
	TextWithheld *string `json:"text_withheld,omitempty"`
	Holes        []Hole  `json:"holes"`
}

// Hole is one substitution of a partial description.
type Hole struct {
	Offset int    `json:"offset"`
	Line   int    `json:"line"`
	Source string `json:"source"`
}

// PackageDetail is the published decision row of one package version
// (GET /packages/{registry}/{name}/{version}).
type PackageDetail struct {
	Stamps
	Registry            string            `json:"registry"`
	Name                string            `json:"name"`
	Version             string            `json:"version"`
	ArtifactSHA256      string            `json:"artifact_sha256"`
	Verdict             string            `json:"verdict"`
	Grade               *string           `json:"grade"`
	BlockedBy           []BlockedBy       `json:"blocked_by"`
	Reason              *BlockedBy        `json:"reason,omitempty"`
	SurfaceOutcome      string            `json:"surface_outcome,omitempty"`
	Findings            []Finding         `json:"findings"`
	Capabilities        []Capability      `json:"capabilities"`
	CapabilitiesOmitted int               `json:"capabilities_omitted"`
	MCPSurface          json.RawMessage   `json:"mcp_surface"`
	DelegatesTo         json.RawMessage   `json:"delegates_to"`
	DelegatedFrom       []json.RawMessage `json:"delegated_from"`
	NotAssessed         []string          `json:"not_assessed"`
	ManifestHash        *string           `json:"manifest_hash"`
	ManifestReason      *string           `json:"manifest_reason"`
	Tools               []ToolHash        `json:"tools"`
	Versions            []string          `json:"versions"`
	PublicationID       string            `json:"publication_id,omitempty"`
}

// Appeal is the public part of an appeal: never its grounds or notes.
type Appeal struct {
	ID         string     `json:"id"`
	Status     string     `json:"status"`
	FiledAt    time.Time  `json:"filed_at"`
	ResolvedAt *time.Time `json:"resolved_at"`
}

// FindingDetail is GET /findings/{id}: the finding as its newest publication
// states it, the package version it is about, and the public appeal status.
type FindingDetail struct {
	Finding       Finding        `json:"finding"`
	Package       PackageSummary `json:"package"`
	PublicationID string         `json:"publication_id"`
	PublishedAt   time.Time      `json:"published_at"`
	Appeals       []Appeal       `json:"appeals"`
}

// GateMapEntry is one reason code with its guard and plain line.
type GateMapEntry struct {
	Code  string `json:"code"`
	Guard string `json:"guard"`
	Line  string `json:"line"`
}

// GateMap is GET /gate_map.json.
type GateMap struct {
	MethodologyVersion string         `json:"methodology_version"`
	Codes              []GateMapEntry `json:"codes"`
}

// Lookup returns the entry for code.
func (g *GateMap) Lookup(code string) (GateMapEntry, bool) {
	for _, e := range g.Codes {
		if e.Code == code {
			return e, true
		}
	}
	return GateMapEntry{}, false
}

// Run is one published run.
type Run struct {
	ID                 string     `json:"id"`
	StartedAt          time.Time  `json:"started_at"`
	FinishedAt         *time.Time `json:"finished_at"`
	MethodologyVersion string     `json:"methodology_version"`
	ExtractorVersion   string     `json:"extractor_version"`
	CodeCommit         string     `json:"code_commit"`
	CodeDirty          bool       `json:"code_dirty"`
	PackageCount       int        `json:"package_count"`
	Publications       []string   `json:"publications"`
	// Labels are set when any of the run's publications carries them.
	Labels
}

// RunList is a page of GET /runs.
type RunList struct {
	Items      []Run   `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

// Blob is a published evidence blob (GET /evidence/{sha256}).
type Blob struct {
	SHA256      string
	ContentType string
	Body        []byte
}

// VersionHistoryEntry is one published version of a package, for the
// website's history: its verdict and its manifest, and what changed in its
// manifest against the version before it (nil when nothing was computed).
type VersionHistoryEntry struct {
	Version      string       `json:"version"`
	Verdict      string       `json:"verdict"`
	Grade        *string      `json:"grade"`
	BlockedBy    []string     `json:"blocked_by"`
	ManifestHash *string      `json:"manifest_hash"`
	PublishedAt  time.Time    `json:"published_at"`
	Changes      *VersionDiff `json:"changes,omitempty"`
}

// Kinds of change in the change feed (GET /changes).
const (
	// ChangeVersionPublished: a package version is served for the first time.
	ChangeVersionPublished = "version_published"
	// ChangeVerdictChanged: a version's verdict changed (From, To).
	ChangeVerdictChanged = "verdict_changed"
	// ChangeGradeChanged: a graded version's grade changed (From, To).
	ChangeGradeChanged = "grade_changed"
	// ChangeManifestChanged: the manifest hash changed, for the same version
	// published again (From, To) or against the package's previous version
	// (FromVersion): the pins a gateway holds for it are stale.
	ChangeManifestChanged = "manifest_changed"
	// ChangeAppealResolved: an appeal on a finding of the version was
	// resolved (FindingID, AppealID, AppealStatus).
	ChangeAppealResolved = "appeal_resolved"
)

// Change is one effect of one publication on what is served.
type Change struct {
	Kind          string    `json:"kind"`
	Registry      string    `json:"registry"`
	Name          string    `json:"name"`
	Version       string    `json:"version"`
	PublicationID string    `json:"publication_id"`
	PublishedAt   time.Time `json:"published_at"`
	// version_published: the version's verdict, grade and manifest hash.
	Verdict      string  `json:"verdict,omitempty"`
	Grade        *string `json:"grade,omitempty"`
	ManifestHash *string `json:"manifest_hash,omitempty"`
	// verdict_changed, grade_changed, manifest_changed: what it was and is.
	From *string `json:"from,omitempty"`
	To   *string `json:"to,omitempty"`
	// manifest_changed against the package's previous version.
	FromVersion string `json:"from_version,omitempty"`
	// appeal_resolved.
	FindingID    string `json:"finding_id,omitempty"`
	AppealID     string `json:"appeal_id,omitempty"`
	AppealStatus string `json:"appeal_status,omitempty"`
}

// ChangeList is one page of the change feed. NextCursor is always set: it
// is the cursor to poll with next, the same one when nothing was new.
type ChangeList struct {
	Items      []Change `json:"items"`
	NextCursor string   `json:"next_cursor"`
	// More is true when the page was full and more changes follow at once.
	More bool `json:"more"`
}
