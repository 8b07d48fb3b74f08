// Package attestari is the module root. It exists only to embed files that
// live at the top of the repository, because Go cannot embed a file from a
// parent directory: the methodology document and its snapshots (docs.go) and
// the public contract (spec.go). It holds no logic and imports nothing of the
// project; the packages that interpret these files live under internal/.
package attestari

import "embed"

// MethodologyFS holds docs/methodology.md, the methodology in force, and
// docs/methodology/<version>.md, every published snapshot. Read it through
// internal/methodology, which checks versions and hashes; the raw FS is
// exported only because that package cannot embed files outside its folder.
//
//go:embed docs/methodology.md docs/methodology/*.md
var MethodologyFS embed.FS

// MethodologyPath is the path of the document in force inside MethodologyFS.
const MethodologyPath = "docs/methodology.md"

// MethodologySnapshotDir is the folder of snapshots inside MethodologyFS.
const MethodologySnapshotDir = "docs/methodology"
