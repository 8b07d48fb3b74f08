// Package pipeline owns `attestari run`: reading a candidates file
// (docs/candidates.md), passing each package through its named stages, and
// writing the run directory so that a run killed at any point resumes to the
// same files.
//
// # Stages
//
// Each package passes through, in order:
//
//   - fetch: resolve the candidate's version or range at its registry, store
//     every registry document whole as a blob and index it in records.json,
//     download the artifact and verify it against the published digest. A
//     package the registry does not have, a range nothing satisfies, or an
//     artifact whose digest does not match is a failure row (stage fetch, kind
//     the registry client's outcome), never a crash. Documents a check reads
//     but whose absence is ordinary (npm attestations, PyPI provenance) are
//     records whatever the answer, and not failures.
//   - surface: read the archive in memory and hand it to the Extractor. An
//     archive that cannot be read is the surface row archive_unreadable.
//     Every member the surface row names is stored as a blob of its own.
//   - each check of Options.Checks (DefaultChecks: only the checks that exist
//     in the tree). A check that does not exist, or whose input is missing,
//     writes no result row, so the gate refuses the package (G5,
//     check_missing); a check that fails writes a row whose outcome is
//     "error" and a failure row.
//   - gate: policy.Gradeability over the package's rows, written to
//     gradeable.json.
//   - delegation, only when the surface row names one (delegates_to):
//     resolve the target's specifier at its registry and record the
//     version and how on delegates_to. It runs after the gate, so it
//     changes nothing the package's own outcome rests on.
//
// The candidates are examined first; then, wave after wave, the delegation
// targets they resolved to that are not yet packages of the run, up to
// MaxDelegationHops from a selected package (delegation.go,
// docs/candidates.md). A target is examined exactly like a candidate; its
// summary row says joined_by delegation and its hop.
//
// A panic in any stage is recovered into a failure row with its stack
// (cleaned of what differs between executions); a failure in one package
// never stops the run.
//
// Before the first package, a run removes the temporary files that writers
// killed earlier left in the evidence store (evidence.RemoveStaleTemps:
// only old ones no live writer holds, so two processes may share a store).
//
// # The run directory
//
// Home/runs/<run-id>/ holds:
//
//	run.json            the header: inputs' SHA-256, versions, code commit, status
//	candidates.json     the candidates file as the run read it
//	packages/<h>.json   one file per finished package, <h> from its candidate identity
//	findings.json results.json gradeable.json surfaces.json
//	records.json not_analyzed.json summary.json   (once the run finishes)
//	.lock               flock'd while a process works on the run
//
// Run ids sort by start time (NewRunID). The seven files are assembled from
// the per-package files, rows sorted by package key and encoded by
// rundir.Marshal, so two runs over the same inputs differ only in
// timestamps (fetched_at, the header's times) and measured durations
// (stage ms, extraction budget figures).
//
// # Resume and cancellation
//
// A package's file is written atomically when all its stages are done. A
// run killed at any point (kill -9 included) leaves its header at running
// and its finished packages on disk; Options.Resume continues it, examining
// only the packages without a file (the waves of delegation targets are
// recomputed from the finished files, so targets that finished are carried
// over too), then assembles the seven files. Resume
// refuses (ErrResumeMismatch) when the candidates file, the methodology,
// extractor or verifier version, the checks or the code commit differ from
// the header's: one run records one set of versions. On cancellation (ctx)
// no new package starts, packages in flight are abandoned (their results may
// carry the cancellation and are not saved), and the header says cancelled.
//
// The package must not touch the database, decide grades (package policy
// does, from the files written here), or run a check that is not in the
// tree. It never executes anything from a fetched artifact, and it does not
// import tree-sitter: the surface extractor is wired in through the
// Extractor interface (package pipeline/extractor).
package pipeline
