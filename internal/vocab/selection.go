package vocab

// Exclusion reasons: the `reason` of an entry under `excluded` in a
// candidates file (docs/candidates.md), written by `attestari select` and
// read by internal/pipeline. A report counts what selection passed over by
// these codes, so they are codes, not prose; the prose is the entry's
// `detail`.
const (
	// ExcludedBelowCut: ranked below the selection cut (--top).
	ExcludedBelowCut = "below_cut"
	// ExcludedDuplicateOfScoped: an unscoped package whose scoped variant
	// (the same name after the scope, the same declared repository) also
	// surfaced.
	ExcludedDuplicateOfScoped = "duplicate_of_scoped_variant"
	// ExcludedNoDownloadFigure: nothing selection may rank by gave a figure.
	ExcludedNoDownloadFigure = "no_download_figure"
	// ExcludedConflictOfInterest: published by Attestari or an account it
	// controls (methodology §4), written by hand without the field.
	ExcludedConflictOfInterest = "conflict_of_interest"
	// ExcludedNotFoundAtRegistry: surfaced, but the registry has no such
	// package (404 or 410 on its document).
	ExcludedNotFoundAtRegistry = "not_found_at_registry"
	// ExcludedDuplicateCandidate: surfaced twice under spellings of one name.
	ExcludedDuplicateCandidate = "duplicate_candidate"
	// ExcludedUnsupportedRegistry: not on a registry this version examines.
	ExcludedUnsupportedRegistry = "unsupported_registry"
	// ExcludedNoReleaseVersion: the registry lists no version that is not a
	// pre-release (or, on PyPI, every such release is yanked or has no
	// file; or the package is unpublished).
	ExcludedNoReleaseVersion = "no_release_version"
	// ExcludedMalformedAtRegistry: the registry's document about the
	// package is not the document it should be, so nothing in it (its
	// versions, its people) can be read exactly.
	ExcludedMalformedAtRegistry = "malformed_at_registry"
)

// The conflicts rule (methodology §4), one code per field of the rule, in
// the rule's order: the first field that matches names the exclusion, and
// its detail lists every field that matched.
const (
	ExcludedConflictName       = "conflict_of_interest_name"
	ExcludedConflictScope      = "conflict_of_interest_scope"
	ExcludedConflictMaintainer = "conflict_of_interest_maintainer"
	ExcludedConflictPublisher  = "conflict_of_interest_publisher"
	ExcludedConflictAuthor     = "conflict_of_interest_author"
	ExcludedConflictContact    = "conflict_of_interest_contact"
	ExcludedConflictRepository = "conflict_of_interest_repository"
)

// ExclusionReasons is every exclusion reason, in the order docs/candidates.md
// lists them.
var ExclusionReasons = []string{
	ExcludedBelowCut, ExcludedDuplicateOfScoped, ExcludedNoDownloadFigure, ExcludedConflictOfInterest,
	ExcludedConflictName, ExcludedConflictScope, ExcludedConflictMaintainer, ExcludedConflictPublisher,
	ExcludedConflictAuthor, ExcludedConflictContact, ExcludedConflictRepository,
	ExcludedNotFoundAtRegistry, ExcludedDuplicateCandidate, ExcludedUnsupportedRegistry,
	ExcludedNoReleaseVersion, ExcludedMalformedAtRegistry,
}

// Kinds of the exchanges a selection recording holds (internal/selection):
// what was asked, so a replay answers the same question with the same bytes.
const (
	// KindNPMSearch is one page of the npm registry's search API.
	KindNPMSearch = "npm_search"
	// KindNPMDownloads is one answer of the npm downloads API.
	KindNPMDownloads = "npm_downloads"
	// KindPyPIIndex is the PyPI simple index's project list.
	KindPyPIIndex = "pypi_index"
	// KindSelectionInput is a local file selection read: a name list, a
	// download dataset, the conflicts list.
	KindSelectionInput = "selection_input"
)
