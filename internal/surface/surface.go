// Package surface owns the extractor (EXTRACTOR_VERSION syntax-tree-23): it
// parses every JavaScript, TypeScript, TSX and Python member of a package
// artifact with tree-sitter, finds the places where a server registers its
// tools, prompts, resources and resource templates (methodology §5), follows
// names, descriptions and schemas written elsewhere to their text through the
// syntax trees, and records the outcome — parsed, or the exact reason the
// surface could not be read.
//
// It is the only importer of tree-sitter. Each file is parsed, flattened into
// a compact Go copy of its nodes by one cursor walk in C and its tree deleted
// before parseFile returns, so no tree outlives its file; what resolution needs across files is that copy
// and the facts computed from it (imports, exports, declarations, call
// sites). It never guesses: a value it cannot carry to literal text is
// recorded as unresolved with its reason.
//
// Everything it reads is hostile, so every recursion is bounded: each
// evaluation, cross-module lookup and value reading counts against a depth
// (MaxDepth) and the package's steps, and is held in an in-progress set
// keyed by (module, name) or (node, reading), so a cycle ends at its first
// repetition as unresolved; no file whose tree nests past MaxNesting is
// read, which bounds every walk over a tree; and a surface past the entries
// cap is not presented at all (methodology §5.2, §9; docs/extractor.md).
//
// It must not know about checks, policy, storage, HTTP or the network, and
// it never executes the code it reads.
package surface

import (
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// ExtractorVersion is EXTRACTOR_VERSION, recorded on every surface row.
const ExtractorVersion = "syntax-tree-23"

// The outcomes of the tool-surface determination (methodology §5) and the
// description states are the project's vocabulary: vocab.Outcome* and
// vocab.State*.

// Entry kinds.
const (
	KindTool                 = vocab.EntryTool
	KindPrompt               = vocab.EntryPrompt
	KindPromptText           = vocab.EntryPromptText
	KindResource             = vocab.EntryResource
	KindResourceTemplate     = vocab.EntryResourceTemplate
	KindInstructions         = vocab.EntryInstructions
	KindParameterDescription = vocab.EntryParameterDescription
)

// Schema kinds.
const (
	SchemaJSON   = vocab.SchemaJSON
	SchemaSource = vocab.SchemaSource
	SchemaNone   = vocab.SchemaNone
)

// MemberInfo describes one member of the artifact as the archive reader
// classified it. Extract reads the member's bytes from the fs.FS it is given.
type MemberInfo struct {
	Path     string
	SHA256   string
	Size     int64
	Minified bool
	// Vendored marks a whole member as bundled third-party code.
	Vendored bool
	// VendoredRegions marks bundled third-party code inside a member.
	VendoredRegions []VendoredRegion
	// VendoredLibrary and VendoredReason describe a wholly vendored member.
	VendoredLibrary string
	VendoredReason  string
}

// VendoredRegion is a line range of bundled third-party code in a member.
type VendoredRegion struct {
	Library   string
	StartLine int
	EndLine   int
	Reason    string
}

type vendoredRegion = VendoredRegion

// Options bounds one package's extraction.
type Options struct {
	// WallBudget is the per-package wall-time budget (default 60s) when no
	// CPU clock is given. With CPUTime set it is only the wall backstop
	// (cpubudget.go): 0 leaves the wall unchecked, for a caller that ends
	// the extraction from outside (the child extraction's parent).
	WallBudget time.Duration
	// CPUTime is the CPU clock (user and system time) of the process that
	// extracts; nil applies no CPU part. CPUBudget is the time part of the
	// budget it is held to (default DefaultCPUBudget), methodology §5.2.
	CPUTime   func() time.Duration
	CPUBudget time.Duration
	// RSSBudget is the per-package memory budget in bytes (default 1 GiB),
	// counted as the bytes the extraction holds: sources and node copies.
	RSSBudget int64
	// MaxDepth bounds identifier resolution depth (default 64).
	MaxDepth int
	// MaxVisited bounds the resolution steps of one package (default 2,000,000).
	MaxVisited int
	// MaxSiteSteps bounds the resolution steps of one registration site
	// (default 250,000); a site past it is recorded as not read.
	MaxSiteSteps int
	// MaxInstances bounds the environments one registration site is
	// enumerated under: call sites times loop elements (default 4096).
	MaxInstances int
	// MaxEntries caps the tools, prompts, resources and resource templates
	// a surface may list, each kind counted alone (default 10,000: 50 times
	// the most a corpus server lists at run time, 198 tools). A surface
	// past it is extraction_budget_exceeded (methodology §9).
	MaxEntries int
	// MaxAllEntries caps the entries of every kind together, parameter
	// descriptions and prompt texts included (default 100,000: 22 times the
	// largest corpus surface, 4,252 parameter descriptions on 188 tools).
	MaxAllEntries int
	// MaxNesting bounds the depth of one file's syntax tree (default
	// 10,000: 38 times the deepest file of the real-server corpus, 260
	// levels, a bundled third-party library). A deeper file ends the
	// extraction as extraction_budget_exceeded, so no walk over a tree,
	// recursive or not, goes deeper than this (methodology §5.2).
	MaxNesting int
	// MaxFileNodes bounds the nodes kept for one file (default 8,000,000).
	MaxFileNodes int
	// Now is the clock; tests inject one. Default time.Now.
	Now func() time.Time
}

// defaultMaxNesting is MaxNesting's default.
const defaultMaxNesting = 10_000

func (o Options) withDefaults() Options {
	if o.WallBudget <= 0 && o.CPUTime == nil {
		o.WallBudget = 60 * time.Second
	}
	if o.CPUTime != nil && o.CPUBudget <= 0 {
		o.CPUBudget = DefaultCPUBudget
	}
	if o.RSSBudget <= 0 {
		o.RSSBudget = 1 << 30
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 64
	}
	if o.MaxVisited <= 0 {
		o.MaxVisited = 2_000_000
	}
	if o.MaxSiteSteps <= 0 {
		o.MaxSiteSteps = 250_000
	}
	if o.MaxInstances <= 0 {
		o.MaxInstances = 4096
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = 10_000
	}
	if o.MaxAllEntries <= 0 {
		o.MaxAllEntries = 100_000
	}
	if o.MaxNesting <= 0 {
		o.MaxNesting = defaultMaxNesting
	}
	if o.MaxFileNodes <= 0 {
		o.MaxFileNodes = 8_000_000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
