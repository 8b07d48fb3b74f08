// Package declared lists the four declared checks that do not run
// (docs/methodology.md §5.7). It is a leaf (standard library only), so the
// publication and the pages can name them without linking the checks that
// run; package checks re-exports its names.
package declared

import "github.com/attestari/attestari/internal/vocab"

// The four declared checks that do not run (docs/methodology.md §5.7).
// Each is data: its id, the inputs it will consume (which the run already
// collects, so that the evidence exists when the check is written), and the
// line every report and page prints. They produce no result rows, and the
// gate requires rows only of the three checks that run.

// DeclaredCheck is a check declared with fixed inputs that does not run.
type DeclaredCheck struct {
	ID string `json:"id"`
	// Inputs are the run's records and surface fields the check will read,
	// each named as the run files name it.
	Inputs []string `json:"inputs"`
	// Line is the one line a report prints for it, under "not assessed".
	Line string `json:"line"`
}

// NotAssessed lists the declared checks, in the methodology's order. Every
// report and page lists them as not assessed, which means exactly that: a
// subject is never reported clean on a check that did not run. The slice
// is a fresh copy on every call.
func NotAssessed() []DeclaredCheck {
	return []DeclaredCheck{
		{
			ID: vocab.CheckUndeclaredNetworkCalls,
			Inputs: []string{
				"surfaces.json capabilities (kind network: each target host, file, line)",
				"surfaces.json tools, prompts and resources description_raw (the hosts their descriptions mention)",
				"the artifact's README (evidence blob of the stored tarball or distribution)",
			},
			Line: "Hosts the code contacts that neither the README nor the tool descriptions mention: not assessed.",
		},
		{
			ID: vocab.CheckDependencyRisk,
			Inputs: []string{
				"the artifact's manifest (package.json dependencies and scripts; pyproject.toml / PKG-INFO Requires-Dist)",
				"records.json npm_packument / pypi_json (each direct dependency's deprecation and version record, when fetched)",
				"surfaces.json capabilities (kind remote_code, tags install_script_download and install_script_download_execute)",
			},
			Line: "Known advisories, unpinned or deprecated direct dependencies, and install-time scripts: not assessed.",
		},
		{
			ID: vocab.CheckAbandonment,
			Inputs: []string{
				"records.json repository (archived, pushed_at, default_branch)",
				"records.json repository_commit (the latest commit on the default branch and its date)",
				"records.json npm_packument time / pypi_json releases (release dates)",
			},
			Line: "Archived repositories, no commits over a stated period, and growth of unanswered issues: not assessed.",
		},
		{
			ID: vocab.CheckForkDivergence,
			Inputs: []string{
				"records.json repository (fork, parent full_name)",
				"the artifact's members and their SHA-256 (surfaces.json files)",
				"the upstream's published artifact at the same version, when one exists (records.json of the parent's package)",
			},
			Line: "Packages published from forks, and the byte difference between the shipped code and its upstream: not assessed.",
		},
	}
}

// IsDeclaredNotRun reports whether id is a declared check that does not
// run (so a result row for it is an error of the caller, not a result).
func IsDeclaredNotRun(id string) bool {
	for _, d := range NotAssessed() {
		if d.ID == id {
			return true
		}
	}
	return false
}
