// Package vocab is the project's one vocabulary: every stable string that
// crosses a package boundary or reaches disk, the database or the wire is
// declared here once, and every package that writes or reads it refers to
// the declaration. It holds the surface outcomes and description states the
// extractor records, the check ids and result outcomes of the checks, the
// kinds and outcomes of fetch records, the reason codes with the gate map,
// the verdicts, finding decisions and severities of decision rows, and the
// failure kinds the store, the HTTP API and its client classify errors by
// (in the pattern of pkgsite's internal/derrors).
//
// A value written to a run file, a database column or a response is part of
// a published format: changing one is a format change (methodology §21), not
// a rename. Where two names stand for one value on purpose (a surface outcome
// that refuses the grade under a reason code of the same name), the second is
// declared as the first, so the sameness is in the code; the package's test
// fails on any other two constants sharing a value.
//
// It imports only the standard library, so every package of the project,
// from the archive reader to the API's wire types, may depend on it. It holds
// no rule: what a code means for a grade is internal/policy's; what an
// outcome means for a surface is internal/surface's.
package vocab
