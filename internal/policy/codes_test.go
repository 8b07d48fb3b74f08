package policy

import "github.com/attestari/attestari/internal/vocab"

// emittedCodes lists every code this package's code can write, in one place
// so the gate map test can check each has an entry. Add a code here when a
// new path records it.
var emittedCodes = []string{
	vocab.CodeVersionPairNotAllowed, vocab.CodeGateNotRecorded, vocab.CodeGateFailedAsRecorded, vocab.CodeGateNotRecomputable,
	vocab.CodeMinifiedOnly, vocab.CodeRuntimeGenerated, vocab.CodeDeclarationNotParsed, vocab.CodeNoRegistrationSite,
	vocab.CodeArchiveUnreadable, vocab.CodeExtractionBudgetExceeded, vocab.CodeAdvertisedToolsNotParsed, vocab.CodeNoSurfaceExamined,
	vocab.CodeNotAnalyzed, vocab.CodePartialDescription, vocab.CodeModelCheckSkipped, vocab.CodeNotAnalyzedRecorded,
	vocab.CodeCheckMissing, vocab.CodeCheckFailed, vocab.CodeExcerptUnverified, vocab.CodeVerifierRejected, vocab.CodeNotAServer,
}
