package vocab

// Entry kinds of a surface row (methodology §5.1): what each entry of
// surfaces.json is, recorded as its kind, as a finding's surface_kind, in
// the analyzer's evidence and in the database's tools and findings.
const (
	EntryTool                 = "tool"
	EntryPrompt               = "prompt"
	EntryPromptText           = "prompt_text"
	EntryResource             = "resource"
	EntryResourceTemplate     = "resource_template"
	EntryInstructions         = "instructions"
	EntryParameterDescription = "parameter_description"
)

// Schema kinds of an entry (methodology §5.3, docs/manifest.md): what its
// schema_raw holds, and so how the tool hash reads it.
const (
	SchemaJSON   = "json"   // a JSON literal: hashed as its RFC 8785 canonical form
	SchemaSource = "source" // any other expression: hashed as its exact source bytes
	SchemaNone   = "none"   // no schema declared: the component is empty
)

// Registries a candidate, a package reference and an API lookup name.
const (
	RegistryNPM  = "npm"
	RegistryPyPI = "pypi"
)

// SharedHostsDecidingMachine is a decision row's shared_hosts_source when
// its context tags read the deciding machine's shared hosts (a run written
// before run.json recorded them; methodology §8).
const SharedHostsDecidingMachine = "deciding_machine"

// Tool changes between two versions of a package (diff.json's manifests,
// the API's version diffs).
const (
	ChangeAdded                = "added"
	ChangeRemoved              = "removed"
	ChangeDescription          = "description_changed"
	ChangeSchema               = "schema_changed"
	ChangeDescriptionAndSchema = "description_and_schema_changed"
)

// Evidence kinds of a publication: a published blob is the artifact's file
// itself, or the projection of an upstream record.
const (
	EvidenceKindFile       = "file"
	EvidenceKindProjection = "projection"
)

// Row kinds of decisions.jsonl (and the "row" member of each row of
// decisions.json): what a line is.
const (
	RowHeader      = "header"
	RowPackage     = "package"
	RowFinding     = "finding"
	RowNotExamined = "not_examined"
)
