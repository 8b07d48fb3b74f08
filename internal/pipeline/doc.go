// Package pipeline owns `attestari run`: reading a candidates file, passing
// each package through its named stages (fetch, surface, each check, gate),
// and writing the run directory runs/<run-id>/ — the header run.json and the
// methodology's seven files — so that a run killed at any point resumes to
// the same files.
//
// Each package's stages are pure functions of what the registry served and
// the stored blobs; their outcome, whatever it is, is data: a failure in one
// package (an HTTP error, an integrity mismatch, a panic in a check) is a row
// of summary.json and never stops the run. Every package's rows are written
// atomically to runs/<id>/packages/ the moment it finishes, so a resumed run
// redoes only the packages that had not finished, and the seven files are
// assembled from those per-package files at the end, sorted by package key,
// in the encoding of package rundir: two runs over the same inputs differ
// only in timestamps and measured durations.
//
// The package must not touch the database, decide grades (package policy
// does, from the files written here), or run a check that is not in the
// tree: a check that did not run has no result row, and the gate refuses
// the package for it (G5, check_missing). It never executes anything from a
// fetched artifact.
package pipeline
