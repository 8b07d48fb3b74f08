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
//     The CLI's Extractor is a ChildExtractor (child.go): each package is
//     extracted in a child process, so a death no recover() catches (a
//     stack overflow, a fatal runtime error, a signal) ends that process
//     only and is the failure row extractor_crashed, with the runtime's own
//     lines as its cause and the crashing goroutine's trace, both without
//     addresses; the parent measures the child's resident memory
//     (/proc/<pid>/status VmHWM, polled, and the child's own figure at
//     exit) and its CPU time (/proc/<pid>/stat, and the kernel's account
//     at exit), ends it past the budget, and records the surface row
//     extraction_budget_exceeded with the measured figures; a child past
//     the wall backstop is the failure extractor_stalled (child_cpu.go). Each
//     worker waits for its child, so at most Concurrency children are alive.
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
// never stops the run. An extraction in the worker's own process (a
// stand-in extractor, or extractor.Surface) has no such protection against
// a fatal error: that is what ChildExtractor is for.
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
// only the packages without a file (a package whose file holds a failure
// row is finished and is not redone; the waves of delegation targets are
// recomputed from the finished files, so targets that finished are carried
// over too), then assembles the seven files. Resume
// refuses (ErrResumeMismatch) when the candidates file, the methodology,
// extractor or verifier version, the checks or the code commit differ from
// the header's: one run records one set of versions.
//
// A worker killed while a package's extraction ran leaves that package
// without a file, so resume would extract it again, and a package that
// kills the worker every time would stop every resume. The marker
// packages/<h>.attempts counts the extractions started and is removed when
// the package is saved (or abandoned on cancellation); once it reaches
// MaxExtractAttempts (2), the surface stage records the failure
// extractor_abandoned instead of starting the extraction again, and the
// package finishes. On cancellation (ctx)
// no new package starts, packages in flight are abandoned (their results may
// carry the cancellation and are not saved), and the header says cancelled.
//
// The package must not touch the database, decide grades (package policy
// does, from the files written here), or run a check that is not in the
// tree. It never executes anything from a fetched artifact, and it does not
// import tree-sitter: the surface extractor is wired in through the
// Extractor interface (package pipeline/extractor).
package pipeline
