// Package rundir owns the shape of a run directory: the Go types of the seven
// files the methodology names (findings.json, results.json, gradeable.json,
// surfaces.json, records.json, not_analyzed.json, summary.json), the run header
// (run.json), and reading and writing them.
//
// It holds no logic about what the files mean: the pipeline writes them, the
// policy reads them. It must not import the extractor, the checks or the
// database, so that every stage can depend on it.
package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// File names inside a run directory.
const (
	HeaderFile      = "run.json"
	FindingsFile    = "findings.json"
	ResultsFile     = "results.json"
	GradeableFile   = "gradeable.json"
	SurfacesFile    = "surfaces.json"
	RecordsFile     = "records.json"
	NotAnalyzedFile = "not_analyzed.json"
	SummaryFile     = "summary.json"
)

// SevenFiles lists the files a complete run directory holds, in the order the
// methodology names them.
var SevenFiles = []string{FindingsFile, ResultsFile, GradeableFile, SurfacesFile, RecordsFile, NotAnalyzedFile, SummaryFile}

// PackageRef names one subject: a version of a package on a registry.
type PackageRef struct {
	Registry string `json:"registry"` // "npm" or "pypi"
	Name     string `json:"name"`
	Version  string `json:"version"`
}

// Key is the stable identity of a subject inside a run: "npm:@scope/x@1.2.3".
func (p PackageRef) Key() string { return p.Registry + ":" + p.Name + "@" + p.Version }

func (p PackageRef) String() string { return p.Key() }

// InputFile is one file a run or a decision read, with the SHA-256 of its bytes.
type InputFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Header is run.json: what produced the run, so a decision can say what it rests on.
type Header struct {
	RunID              string      `json:"run_id"`
	StartedAt          time.Time   `json:"started_at"`
	FinishedAt         *time.Time  `json:"finished_at,omitempty"`
	Status             string      `json:"status"` // running, finished, failed, cancelled
	CandidatesFile     string      `json:"candidates_file"`
	CandidatesSHA256   string      `json:"candidates_sha256"`
	Inputs             []InputFile `json:"inputs"`
	MethodologyVersion string      `json:"methodology_version"`
	MethodologySHA256  string      `json:"methodology_sha256"`
	ExtractorVersion   string      `json:"extractor_version"`
	VerifierVersion    string      `json:"verifier_version"`
	AnalyzerModel      string      `json:"analyzer_model"`
	PromptVersion      string      `json:"prompt_version"`
	PromptLayout       string      `json:"prompt_layout"`
	PromptSHA256       string      `json:"prompt_sha256"`
	Checks             []string    `json:"checks"`
	CodeCommit         string      `json:"code_commit"`
	CodeDirty          bool        `json:"code_dirty"`
	// DecideInputs is the running machine's configuration a decision of
	// the run reads (methodology §8), recorded when the run starts. Absent
	// in a run written before methodology 2.3.5.
	DecideInputs *DecideInputs `json:"decide_inputs,omitempty"`
}

// DecideInputs is what a decision reads that is neither a run file nor a
// blob: configuration of the machine that ran, recorded in run.json so that
// any machine decides the run alike.
type DecideInputs struct {
	// SharedHosts are the entries the shared-host list of the context tags
	// adds to the code's labels (methodology §5.5): those of
	// $ATTESTARI_SHARED_HOSTS, then the hosts of the npm registry and the
	// PyPI index the machine was configured with. Empty when there were none.
	SharedHosts []string `json:"shared_hosts"`
}

// Run statuses.
const (
	StatusRunning   = "running"
	StatusFinished  = "finished"
	StatusFailed    = "failed"
	StatusCancelled = "cancelled"
)

// Record is one row of records.json: an upstream response or artifact the run
// fetched, stored whole as a blob, so that a finding can cite it.
type Record struct {
	Package   PackageRef `json:"package"`
	Kind      string     `json:"kind"` // npm_packument, npm_version, npm_tarball, npm_attestations, pypi_json, pypi_simple, pypi_provenance, pypi_file, repository
	URL       string     `json:"url"`
	Status    int        `json:"status"`
	SHA256    string     `json:"sha256,omitempty"` // blob of the body, when one was stored
	Size      int64      `json:"size,omitempty"`
	Outcome   string     `json:"outcome"` // ok, not_found, gone, error, integrity_mismatch
	Error     string     `json:"error,omitempty"`
	FetchedAt time.Time  `json:"fetched_at"`
}

// Span is one literal segment of a text entry: where its bytes sit in the
// source file, and where its decoded text sits in the entry's raw text.
// Start and End are byte offsets into the file (End exclusive) covering the
// segment's source bytes without quotes; RawStart and RawEnd are byte offsets
// into DescriptionRaw. Encoding names the literal syntax the source bytes are
// decoded with (see package literal).
type Span struct {
	File     string `json:"file"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Line     int    `json:"line"`
	RawStart int    `json:"raw_start"`
	RawEnd   int    `json:"raw_end"`
	Encoding string `json:"encoding"`
}

// Hole is a substitution inside a partial text: its position in the raw text
// (where the literal text around it is joined) and the source bytes it covers.
type Hole struct {
	RawOffset int    `json:"raw_offset"`
	File      string `json:"file"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Line      int    `json:"line"`
	Source    string `json:"source"`
	// FilledBy says who supplies the hole's bytes when the extractor can
	// say: vocab.HoleFilledByClientArgument for the client's own prompt
	// argument, vocab.HoleFilledByPackageAlternative for the mark where one
	// of the package's alternatives begins (it holds no bytes: the
	// alternative's text follows it), vocab.HoleFilledByRuntimeData for the
	// operator's data a resource listing reads at run time. Empty: the hole's
	// bytes are not known (methodology §5.4).
	FilledBy string `json:"filled_by,omitempty"`
}

// Entry is one item of a server's surface: a tool, a prompt, a prompt's
// message text, a resource, a resource template, the server's instructions or
// a parameter description.
type Entry struct {
	Kind             string          `json:"kind"`
	Name             string          `json:"name"`
	NameState        string          `json:"name_state,omitempty"` // readable unless the name itself could not be read
	Parent           string          `json:"parent,omitempty"`     // the prompt of a prompt_text, the tool of a parameter_description
	URI              string          `json:"uri,omitempty"`
	DescriptionState string          `json:"description_state"`
	DescriptionRaw   string          `json:"description_raw"`
	Spans            []Span          `json:"spans"`
	Holes            []Hole          `json:"holes"`
	UnreadableReason string          `json:"unreadable_reason,omitempty"`
	SchemaKind       string          `json:"schema_kind,omitempty"` // json, source, none
	SchemaRaw        string          `json:"schema_raw,omitempty"`
	Annotations      map[string]bool `json:"annotations,omitempty"`
	File             string          `json:"file"`
	Line             int             `json:"line"`
	// Unreachable: the entry is registered in a module that no entry point
	// of the package loads (methodology §5.2, reachability). Recorded, never
	// a reason to drop the entry.
	Unreachable bool `json:"unreachable,omitempty"`
	// Configuration lists the configuration values (environment variables,
	// command-line options) read, as their stated defaults, while the
	// entry's site was read: its name or text changes with them
	// (methodology §5.2, Configuration).
	Configuration []ConfigRead `json:"configuration,omitempty"`
	// Conditions are the tests the registration is made under, each with
	// whether it holds under the default configuration.
	Conditions []Condition `json:"conditions,omitempty"`
	// ListedAtRunTime: the entry stands for the resources a resources/list
	// handler lists from the operator's own data when a client asks
	// (methodology §5.3, 2.3.8); its name is that data, and its text is read
	// from what the handler builds for each element.
	ListedAtRunTime bool `json:"listed_at_run_time,omitempty"`
	// ListedMember: on an entry listed at run time, the member of each
	// listed resource whose text the entry records, vocab.ListedMemberName
	// or vocab.ListedMemberTitle, when that member holds bytes of the
	// package's (methodology §5.3, 2.3.11); empty for the resources'
	// description.
	ListedMember string `json:"listed_member,omitempty"`
}

// ConfigRead is one configuration value a server reads, read as its default.
type ConfigRead struct {
	Source  string `json:"source"`  // env (an environment variable) or cli (a command-line option)
	Name    string `json:"name"`    // the variable, or the option as written (--read-only)
	Default string `json:"default"` // the default as Python writes it: 'x', None, False, 0
	File    string `json:"file"`
	Line    int    `json:"line"`
}

// Condition is a test a registration is made under: an enclosing if (or
// its else), an earlier `if test: return`, or a FastMCP enabled= argument.
// The registration is made when Test is When; Holds says whether that is
// so under the default configuration: true, false or unknown.
type Condition struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Test  string `json:"test"`
	When  bool   `json:"when"`
	Holds string `json:"holds"`
}

// Values of Condition.Holds.
const (
	HoldsTrue    = "true"
	HoldsFalse   = "false"
	HoldsUnknown = "unknown"
)

// OffByDefault reports whether the entry is registered only under a
// configuration other than the default: one of its conditions is known not
// to hold. Such an entry is read and checked like any other; it is not
// listed by the server as installed, so it is not in the attested manifest
// (methodology §5.2, Configuration; §7).
func (e Entry) OffByDefault() bool {
	for _, c := range e.Conditions {
		if c.Holds == HoldsFalse {
			return true
		}
	}
	return false
}

// Site is a place in the source: a file, a line, and optionally the bytes.
type Site struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Detail string `json:"detail,omitempty"`
}

// Unresolved is a value the extractor could not carry to literal text.
type Unresolved struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Vendored is a region of bundled third-party code.
type Vendored struct {
	File      string `json:"file"`
	Library   string `json:"library"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Reason    string `json:"reason"`
}

// Advertised is a tool name the artifact declares outside its registration code.
type Advertised struct {
	Name   string `json:"name"`
	Source string `json:"source"` // manifest.json, server.json, README.md
	Line   int    `json:"line,omitempty"`
	// Stale: the name occurs nowhere in the package's source (methodology
	// §5.2, advertised tools), so it cannot be a tool of this artifact; the
	// advertisement is recorded and refuses nothing.
	Stale bool `json:"stale,omitempty"`
	// StaleBy says why, when it is not that the name occurs nowhere
	// (methodology §5.2, since 2.3.5): "spelling", the name spells a parsed
	// tool's name differently and occurs nowhere byte for byte;
	// "environment", it is an environment variable the package reads and no
	// literal of the package; "prefix" (2.3.10), it is a parsed tool's name
	// without the prefix all the package's tools share, and no literal of
	// it. The values are vocab.StaleBy*.
	StaleBy string `json:"stale_by,omitempty"`
}

// Reach says what the extractor concluded about the modules the entry
// points load (methodology §5.2, reachability), when an entry lies outside
// the import closure: how many entries were marked unreachable, or the
// sites that leave the closure open (a module named at run time), in which
// case no entry is marked.
type Reach struct {
	Unreachable  int    `json:"unreachable,omitempty"`
	Undetermined []Site `json:"undetermined,omitempty"`
	// Uncalled are the functions holding marked entries that nothing in
	// the package can call, in a package run as its bin (since 2.3.8).
	Uncalled []Site `json:"uncalled,omitempty"`
}

// Delegation records that a package's server lives in another package.
// The extractor fills Registry, Name, Specifier and Evidence; the run
// resolves the specifier at the registry (methodology §4) and fills
// ResolvedVersion and ResolvedHow, or NotFollowed when the target did not
// join the run.
type Delegation struct {
	Registry        string `json:"registry"`
	Name            string `json:"name"`
	Specifier       string `json:"specifier"`
	ResolvedVersion string `json:"resolved_version,omitempty"`
	ResolvedHow     string `json:"resolved_how,omitempty"`
	Evidence        Site   `json:"evidence"`
	// NotFollowed says why the target is not a package of the run: a
	// resolution failure's kind (no_matching_version, unsupported_specifier,
	// not_found, registry_not_configured, ...) or hop_limit (the chain is
	// longer than the methodology follows). Empty when the target joined.
	NotFollowed       string `json:"not_followed,omitempty"`
	NotFollowedDetail string `json:"not_followed_detail,omitempty"`
}

// JoinedByDelegation is PackageSummary.JoinedBy of a package that is in the
// run because a package of the run delegates to it (methodology §4).
const JoinedByDelegation = "delegation"

// Budget is the per-package extraction budget and what was measured against it.
type Budget struct {
	WallMs        int64 `json:"wall_ms"`
	RSSBytes      int64 `json:"rss_bytes"`
	WallMsLimit   int64 `json:"wall_ms_limit"`
	RSSBytesLimit int64 `json:"rss_bytes_limit"`
	// CPUMs is the CPU time (user and system) of the process that extracted
	// the package and CPUMsLimit the budget's time part it was held to
	// (methodology 2.3.11 §5.2). Both are absent on a row extracted with no
	// CPU clock (an earlier methodology, or an in-process extraction held
	// to wall time): there WallMsLimit is the time part. With CPUMsLimit
	// set, WallMsLimit is the wall backstop, a failure of the run's machine
	// when passed, never a refusal of the package.
	CPUMs      int64 `json:"cpu_ms,omitempty"`
	CPUMsLimit int64 `json:"cpu_ms_limit,omitempty"`
}

// Capability is one fact of the capability inventory (methodology §20).
type Capability struct {
	Kind         string `json:"kind"` // network, filesystem, process, environment, credentials, remote_code
	Tag          string `json:"tag"`  // e.g. read/write, spawn/exec, dynamic_evaluation
	Target       string `json:"target"`
	File         string `json:"file"`
	Line         int    `json:"line"`
	FileSHA256   string `json:"file_sha256"`
	Start        int    `json:"start"`
	End          int    `json:"end"`
	Excerpt      string `json:"excerpt"`
	Count        int    `json:"count"`
	Bundle       bool   `json:"bundle,omitempty"`
	Verification string `json:"verification,omitempty"` // set at decision time
}

// SourceFile is one member the extractor read.
type SourceFile struct {
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	Language string `json:"language"`
	Minified bool   `json:"minified,omitempty"`
	Vendored bool   `json:"vendored,omitempty"`
}

// Surface is one row of surfaces.json: what the extractor read of one package.
type Surface struct {
	Package               PackageRef   `json:"package"`
	ArtifactSHA256        string       `json:"artifact_sha256"`
	Outcome               string       `json:"outcome"`
	OutcomeDetail         string       `json:"outcome_detail,omitempty"`
	OutcomeEvidence       []Site       `json:"outcome_evidence"`
	ExtractorVersion      string       `json:"extractor_version"`
	Tools                 []Entry      `json:"tools"`
	Prompts               []Entry      `json:"prompts"`
	PromptTexts           []Entry      `json:"prompt_texts"`
	Resources             []Entry      `json:"resources"`
	ResourceTemplates     []Entry      `json:"resource_templates"`
	Instructions          []Entry      `json:"instructions"`
	ParameterDescriptions []Entry      `json:"parameter_descriptions"`
	Sampling              *Site        `json:"sampling"`
	Elicitation           *Site        `json:"elicitation"`
	Vendored              []Vendored   `json:"vendored"`
	AdvertisedTools       []Advertised `json:"advertised_tools"`
	DelegatesTo           *Delegation  `json:"delegates_to"`
	Reach                 *Reach       `json:"reach,omitempty"`
	Unresolved            []Unresolved `json:"unresolved"`
	ReassignedAtRuntime   []Site       `json:"reassigned_at_runtime"`
	Capabilities          []Capability `json:"capabilities"`
	CapabilitiesOmitted   int          `json:"capabilities_omitted"`
	Files                 []SourceFile `json:"files"`
	Budget                Budget       `json:"budget"`
}

// Add appends e to the list of its kind ("tool", "prompt", "prompt_text",
// "resource", "resource_template", "instructions", "parameter_description")
// and reports whether the kind is one of those.
func (s *Surface) Add(kind string, e Entry) bool {
	var list *[]Entry
	switch kind {
	case vocab.EntryTool:
		list = &s.Tools
	case vocab.EntryPrompt:
		list = &s.Prompts
	case vocab.EntryPromptText:
		list = &s.PromptTexts
	case vocab.EntryResource:
		list = &s.Resources
	case vocab.EntryResourceTemplate:
		list = &s.ResourceTemplates
	case vocab.EntryInstructions:
		list = &s.Instructions
	case vocab.EntryParameterDescription:
		list = &s.ParameterDescriptions
	default:
		return false
	}
	*list = append(*list, e)
	return true
}

// AllEntries returns every text entry of the surface, of every kind, in a fixed order.
func (s *Surface) AllEntries() []Entry {
	var out []Entry
	for _, list := range [][]Entry{s.Tools, s.Prompts, s.PromptTexts, s.Resources, s.ResourceTemplates, s.Instructions, s.ParameterDescriptions} {
		out = append(out, list...)
	}
	return out
}

// Evidence is what a finding quotes and where it sits.
type Evidence struct {
	SHA256    string `json:"sha256"` // the blob the excerpt is verified against
	Path      string `json:"path"`   // member path inside the artifact, or a JSON pointer in a record
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
	Excerpt   string `json:"excerpt"`
}

// ContextTag is an informational tag on an exfiltrate_data finding.
type ContextTag struct {
	Tag      string `json:"tag"`
	Applied  bool   `json:"applied"`
	Why      string `json:"why"`
	Evidence string `json:"evidence,omitempty"`
}

// Finding is one row of findings.json.
type Finding struct {
	ID          string       `json:"id"`
	Package     PackageRef   `json:"package"`
	Check       string       `json:"check"`
	Tag         string       `json:"tag"` // the category or provenance tag
	Severity    string       `json:"severity"`
	Title       string       `json:"title"`
	SurfaceKind string       `json:"surface_kind,omitempty"`
	EntryName   string       `json:"entry_name,omitempty"`
	Evidence    Evidence     `json:"evidence"`
	ContextTags []ContextTag `json:"context_tags,omitempty"`
	Analyzer    string       `json:"analyzer,omitempty"`
}

// Result is one row of results.json: that a check ran on a package, and what it concluded.
type Result struct {
	Package     PackageRef     `json:"package"`
	Check       string         `json:"check"`
	Outcome     string         `json:"outcome"` // e.g. ran, skipped, error, or a check-specific outcome
	Detail      string         `json:"detail,omitempty"`
	NotAnalyzed []NotAnalyzed  `json:"not_analyzed,omitempty"`
	Counts      map[string]int `json:"counts,omitempty"`
	// Usage is what a check that calls a model spent on this package.
	Usage *AnalyzerUsage `json:"usage,omitempty"`
	// Audit keeps what a check set aside without deciding on it (the model
	// check's rejected proposals and routing-guidance counts), for a reader
	// to audit; nothing that decides reads it.
	Audit json.RawMessage `json:"audit,omitempty"`
}

// NotAnalyzed is one entry a check could not examine (not_analyzed.json, and inside results).
type NotAnalyzed struct {
	Package PackageRef `json:"package"`
	Check   string     `json:"check"`
	Kind    string     `json:"kind"`
	Name    string     `json:"name"`
	File    string     `json:"file,omitempty"`
	Line    int        `json:"line,omitempty"`
	Reason  string     `json:"reason"`
}

// Gradeable is one row of gradeable.json: the gate as the run recorded it.
type Gradeable struct {
	Package PackageRef `json:"package"`
	OK      bool       `json:"ok"`
	Reasons []string   `json:"reasons"`
}

// Failure is a package stage that failed, recorded in summary.json.
type Failure struct {
	Stage   string `json:"stage"` // fetch, surface, a check id, gate
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

// StageTiming is how long a stage took for one package.
type StageTiming struct {
	Stage  string `json:"stage"`
	Status string `json:"status"` // ok, failed, skipped
	Ms     int64  `json:"ms"`
}

// PackageSummary is one package's line in summary.json.
type PackageSummary struct {
	Package  PackageRef    `json:"package"`
	Stages   []StageTiming `json:"stages"`
	Failures []Failure     `json:"failures"`
	// JoinedBy is JoinedByDelegation for a package the candidates file does
	// not list, empty for a selected one; Hop is then how many delegations
	// separate it from the selected package whose chain brought it in (1 to
	// 3).
	JoinedBy string `json:"joined_by,omitempty"`
	Hop      int    `json:"hop,omitempty"`
	// DelegatedFrom lists every package of the run that delegates to this
	// one, with its version, whether this one was selected or joined.
	DelegatedFrom []PackageRef `json:"delegated_from,omitempty"`
}

// AnalyzerUsage counts what the model check spent.
type AnalyzerUsage struct {
	Analyzer     string `json:"analyzer"`
	Calls        int    `json:"calls"`
	CacheHits    int    `json:"cache_hits"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	Rejected     int    `json:"rejected_proposals"`
}

// Summary is summary.json.
type Summary struct {
	Packages []PackageSummary `json:"packages"`
	Analyzer AnalyzerUsage    `json:"analyzer"`
	Counts   map[string]int   `json:"counts"`
}

// Files is the whole content of a run directory, as read.
type Files struct {
	Header      Header
	Findings    []Finding
	Results     []Result
	Gradeable   []Gradeable
	Surfaces    []Surface
	Records     []Record
	NotAnalyzed []NotAnalyzed
	Summary     Summary
	// Missing lists the files that were absent; Inputs the SHA-256 of each file read.
	Missing []string
	Inputs  []InputFile
}

// ErrMissing reports that a run-directory file does not exist.
var ErrMissing = errors.New("run directory file missing")

// FileError says which file of a run directory could not be read and why.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("run file %s: %v", e.File, e.Err) }
func (e *FileError) Unwrap() error { return e.Err }

// ReadJSON reads one file of dir into v, returning the SHA-256 of its bytes.
// A missing file wraps ErrMissing; malformed JSON is a *FileError naming the file.
func ReadJSON(dir, name string, v any) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return "", &FileError{File: name, Err: ErrMissing}
	}
	if err != nil {
		return "", &FileError{File: name, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return "", &FileError{File: name, Err: fmt.Errorf("not valid JSON of the expected shape: %w", err)}
	}
	return vocab.SHA256Hex(b), nil
}

// Read reads every file of a run directory. A missing file is listed in
// Missing and is not an error (the policy decides what absence means); a file
// that exists but does not parse is an error.
func Read(dir string) (*Files, error) {
	f := &Files{}
	targets := []struct {
		name string
		v    any
	}{
		{HeaderFile, &f.Header}, {FindingsFile, &f.Findings}, {ResultsFile, &f.Results},
		{GradeableFile, &f.Gradeable}, {SurfacesFile, &f.Surfaces}, {RecordsFile, &f.Records},
		{NotAnalyzedFile, &f.NotAnalyzed}, {SummaryFile, &f.Summary},
	}
	for _, t := range targets {
		sum, err := ReadJSON(dir, t.name, t.v)
		if errors.Is(err, ErrMissing) {
			f.Missing = append(f.Missing, t.name)
			continue
		}
		if err != nil {
			return nil, err
		}
		f.Inputs = append(f.Inputs, InputFile{Path: t.name, SHA256: sum})
	}
	sort.Strings(f.Missing)
	return f, nil
}

// WriteJSON writes v as indented JSON to dir/name atomically (temp file,
// fsync, rename), so a reader never sees half a file.
func WriteJSON(dir, name string, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	return WriteFileAtomic(filepath.Join(dir, name), b)
}

// Marshal encodes v the way every run file is encoded: two-space indent, no
// HTML escaping, a trailing newline. Byte-identical reruns depend on it.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteFileAtomic writes b to path through a temporary file in the same
// directory, synced and renamed into place.
func WriteFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
