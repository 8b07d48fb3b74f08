package vocab

// Outcomes of the tool-surface determination (methodology §5), recorded on
// every surface row. The archive reader records OutcomeArchiveUnreadable
// itself, so the pipeline copies it through unchanged.
const (
	OutcomeParsed                   = "parsed"
	OutcomeNotAServer               = "not_a_server"
	OutcomeMinifiedOnly             = "minified_only"
	OutcomeRuntimeGenerated         = "runtime_generated"
	OutcomeDeclarationNotParsed     = "declaration_not_parsed"
	OutcomeNoRegistrationSite       = "no_registration_site"
	OutcomeArchiveUnreadable        = "archive_unreadable"
	OutcomeExtractionBudgetExceeded = "extraction_budget_exceeded"
)

// Description states of a surface entry (methodology §5.2).
const (
	StateReadable   = "readable"
	StatePartial    = "partial"
	StateUnreadable = "unreadable"
	StateAbsent     = "absent"
)

// Why an advertised tool name not parsed is stale and refuses nothing, when
// it is not that the name occurs nowhere (methodology §5.2, advertised
// tools): recorded as the advertised name's stale_by.
const (
	// StaleBySpelling: the name spells a parsed tool's name differently and
	// occurs nowhere as written (2.3.5).
	StaleBySpelling = "spelling"
	// StaleByEnvironment: an environment variable the package reads, no
	// literal of it (2.3.5).
	StaleByEnvironment = "environment"
	// StaleByPrefix: the name of a parsed tool without the prefix every
	// parsed tool of the package begins with, and no literal of it (2.3.10).
	StaleByPrefix = "prefix"
)

// HoleFilledByClientArgument is what fills a hole of a prompt's message text
// whose substitution is the client's own prompt argument, passed through
// unchanged (methodology §5.4, 2.3.7): recorded as the hole's filled_by.
const HoleFilledByClientArgument = "client_argument"

// HoleFilledByPackageAlternative marks a hole of a prompt's message text
// where one of the package's own alternatives begins: the text that follows
// it up to the next hole is one choice of a conditional, read and examined
// in place, and an empty choice adds nothing (methodology §5.4, 2.3.8).
const HoleFilledByPackageAlternative = "package_alternative"

// HoleFilledByRuntimeData is what fills a hole of a resource entry listed at
// run time whose substitution is the operator's own data, returned by an I/O
// call made while the request is answered (methodology §5.3 and §5.4,
// 2.3.8): recorded as the hole's filled_by.
const HoleFilledByRuntimeData = "runtime_data"

// ListedMemberName and ListedMemberTitle name the member of each resource a
// listing of the operator's data builds whose text a listed_at_run_time
// entry records (methodology §5.3, 2.3.11): recorded as the entry's
// listed_member. An entry without it records the resources' description.
const (
	ListedMemberName  = "name"
	ListedMemberTitle = "title"
)
