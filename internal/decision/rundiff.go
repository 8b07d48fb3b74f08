// diff.json: what a decided run changed against the previous decided run
// (internal/policy.Diff computes it; a cycle writes it into the run).

package decision

import "github.com/attestari/attestari/internal/rundir"

// DiffFile is the name of the diff a cycle writes into the run.
const DiffFile = "diff.json"

// RunDiff is diff.json: what a decided run changed against the previous
// decided run over the same candidates file (methodology §14).
type RunDiff struct {
	RunID           string              `json:"run_id"`
	PreviousRunID   string              `json:"previous_run_id,omitempty"`
	PackagesAdded   []rundir.PackageRef `json:"packages_added"`
	PackagesRemoved []rundir.PackageRef `json:"packages_removed"`
	// PackagesNotExamined lists the packages of the previous run whose name
	// this run could not examine as asked (§4: a misspelt name, a version no
	// longer published, a registry not configured). They are not removals,
	// and their findings are not removed findings: nothing was examined.
	// The operator reads it here; a publication never carries it.
	PackagesNotExamined []rundir.PackageRef `json:"packages_not_examined"`
	Changes             []PackageChange     `json:"changes"`
	FindingsAdded       []FindingRef        `json:"findings_added"`
	FindingsRemoved     []FindingRef        `json:"findings_removed"`
	// Manifests lists, per package name, the manifest changes between the
	// version the previous run examined and the one this run examined: the
	// rug-pull signal.
	Manifests []ManifestChange `json:"manifests"`
}

// Outcome is a package's verdict as a diff shows it.
type Outcome struct {
	Version   string   `json:"version"`
	Verdict   string   `json:"verdict"`
	Grade     string   `json:"grade,omitempty"`
	BlockedBy []string `json:"blocked_by,omitempty"`
}

// PackageChange is a package whose grade or verdict changed.
type PackageChange struct {
	Package rundir.PackageRef `json:"package"`
	From    Outcome           `json:"from"`
	To      Outcome           `json:"to"`
}

// FindingRef names a finding in a diff.
type FindingRef struct {
	ID       string            `json:"id"`
	Package  rundir.PackageRef `json:"package"`
	Check    string            `json:"check"`
	Tag      string            `json:"tag"`
	Decision string            `json:"decision"`
}

// ToolChange is one tool that differs between two versions.
type ToolChange struct {
	Name     string `json:"name"`
	Change   string `json:"change"` // added, removed, description_changed, schema_changed, description_and_schema_changed
	FromHash string `json:"from_hash,omitempty"`
	ToHash   string `json:"to_hash,omitempty"`
}

// ManifestChange is a package name whose attested manifest changed.
type ManifestChange struct {
	Registry         string       `json:"registry"`
	Name             string       `json:"name"`
	FromVersion      string       `json:"from_version"`
	ToVersion        string       `json:"to_version"`
	FromManifestHash string       `json:"from_manifest_hash,omitempty"`
	ToManifestHash   string       `json:"to_manifest_hash,omitempty"`
	Tools            []ToolChange `json:"tools"`
}
