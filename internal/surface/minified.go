package surface

import (
	"errors"
	"fmt"
	"sort"
	"time"
)

// The minified rule of methodology §5.2 (2.3.4). A member is a minified or
// obfuscated bundle when its code, not its text, is uninspectable:
//
//   - packed: most of its separators (a comma or semicolon with more code
//     after it on the same line; at least PackedMinSeparators of them) have
//     no whitespace after them, or a line of more than PackedLineBytes code
//     bytes is so; or
//   - mangled: at least MangledShare of the names it declares (variables,
//     functions, classes, parameters; at least MangledMinBindings of them)
//     are one or two characters, or _0x and hex digits; or
//   - its tree has a syntax error, so where its tokens are is not known.
//
// Code bytes are the bytes that are not string or template-literal text (a
// template's substitutions are code), regex literals, JSX text or comments,
// so a line long only because of one long string (an embedded icon, a long
// description, a JSON blob) is not packed. Every printer of readable output
// (tsc, esbuild and tsup without --minify, webpack in development, babel,
// prettier) writes a space or a newline after each separator; a minifier
// writes none. A minifier that keeps whitespace but renames (a library
// build with identifier mangling only) leaves names no one can read. Lines
// inside a vendored region (a bundler's module comment naming
// node_modules) are not counted: they are never a source of entries.
//
// The archive reader's line rule (longest line over 800 bytes or average
// over 200, internal/artifact) is the candidate test, the rule of 2.3.3: a
// member it passes as readable is readable without a parse.
const (
	PackedLineBytes     = 800
	PackedMinSeparators = 10
	MangledMinBindings  = 20
	MangledShare        = 0.8
	// lineRuleAverage is the line rule's average clause.
	lineRuleAverage = 200
)

// MinifiedFigures are the measures of one member that the rule and its
// published measurement (attestari-probe minified-scan) read.
type MinifiedFigures struct {
	Lines       int     `json:"lines"`
	LongestLine int     `json:"longest_line"` // raw bytes, newline and CR excluded
	AverageLine float64 `json:"average_line"`
	// The code figures leave out lines in vendored regions.
	CodeLongestLine int     `json:"code_longest_line"`
	CodeAverageLine float64 `json:"code_average_line"`
	CodeBytes       int     `json:"code_bytes"`
	CodeSpace       int     `json:"code_space"` // spaces and tabs among CodeBytes
	// LongCodeLines have more than PackedLineBytes code bytes; PackedLines
	// are those of them whose separators are mostly tight.
	LongCodeLines int `json:"long_code_lines"`
	PackedLines   int `json:"packed_lines"`
	Separators    int `json:"separators"`
	Tight         int `json:"tight"` // separators with no whitespace after them
	// Identifiers counts identifier tokens and ShortIdentifiers the mangled
	// ones among them (informative: an import named z is one of them).
	Identifiers      int `json:"identifiers"`
	ShortIdentifiers int `json:"short_identifiers"`
	// Bindings counts declared names and ShortBindings the mangled ones.
	Bindings      int  `json:"bindings"`
	ShortBindings int  `json:"short_bindings"`
	SyntaxError   bool `json:"syntax_error,omitempty"`
}

// LineRule is the archive reader's rule: the rule of 2.3.3 and the
// candidate test of 2.3.4.
func (m MinifiedFigures) LineRule() bool {
	return m.LongestLine > PackedLineBytes || m.AverageLine > lineRuleAverage
}

// Packed reports packed code (above).
func (m MinifiedFigures) Packed() bool {
	return m.PackedLines > 0 || m.Separators >= PackedMinSeparators && 2*m.Tight > m.Separators
}

// Mangled reports mangled names (above).
func (m MinifiedFigures) Mangled() bool {
	return m.Bindings >= MangledMinBindings && float64(m.ShortBindings) >= MangledShare*float64(m.Bindings)
}

// Bundle is the rule of 2.3.4: a line-rule candidate whose code is packed
// or whose names are mangled, or whose tree does not parse cleanly.
func (m MinifiedFigures) Bundle() bool {
	return m.LineRule() && (m.SyntaxError || m.Packed() || m.Mangled())
}

// ShortIdentifierShare is ShortIdentifiers over Identifiers (0 with none).
func (m MinifiedFigures) ShortIdentifierShare() float64 {
	return share(m.ShortIdentifiers, m.Identifiers)
}

// ShortBindingShare is ShortBindings over Bindings (0 with none).
func (m MinifiedFigures) ShortBindingShare() float64 { return share(m.ShortBindings, m.Bindings) }

// SpaceShare is CodeSpace over CodeBytes (0 with none).
func (m MinifiedFigures) SpaceShare() float64 { return share(m.CodeSpace, m.CodeBytes) }

// TightShare is Tight over Separators (0 with none).
func (m MinifiedFigures) TightShare() float64 { return share(m.Tight, m.Separators) }

func share(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// MeasureMinified parses src (its grammar chosen by path) and measures it,
// for the published measurement; regions are the member's vendored line
// ranges. A member that is not source, or that does not parse within
// timeout, is an error.
func MeasureMinified(path string, src []byte, regions []VendoredRegion, timeout time.Duration) (MinifiedFigures, error) {
	lang := languageOf(path)
	if lang == "" {
		return MinifiedFigures{}, errors.New("measure " + path + ": not a source member")
	}
	p, err := parseFile(lang, src, timeout, 8_000_000)
	if err != nil {
		return MinifiedFigures{}, fmt.Errorf("measure %s: %w", path, err)
	}
	return measureMinified(&file{path: path, lang: lang, src: src, parsed: p, vregions: regions}), nil
}

// span is a half-open byte range of a file.
type span struct{ start, end int }

// textSpans are the byte ranges of a parsed file that are text, not code:
// string and template-literal tokens without their substitutions, regex
// literals, JSX text. The flat copy is one preorder array, so this is one
// loop with no recursion; a substitution's own strings come later in the
// array and fall inside the gap its template left.
func textSpans(f *file) []span {
	var out []span
	for i := range f.nodes {
		n := nid(i)
		switch f.kind(n) {
		case "string", "template_string":
			// Python's f-string and JS's template keep their
			// substitutions as children; those are code.
			at := f.start(n)
			for c := f.nodes[n].first; c >= 0; c = f.nodes[c].next {
				if k := f.kind(c); k == "template_substitution" || k == "interpolation" {
					out = append(out, span{at, f.start(c)})
					at = f.end(c)
				}
			}
			out = append(out, span{at, f.end(n)})
		case "regex", "jsx_text", "hash_bang_line":
			out = append(out, span{f.start(n), f.end(n)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// vendoredLines answers, for increasing line numbers, whether a line lies
// in one of the member's vendored regions (which do not overlap: each
// bundler module comment ends the region before it).
type vendoredLines struct {
	rs []VendoredRegion
	at int
}

func newVendoredLines(rs []VendoredRegion) *vendoredLines {
	c := append([]VendoredRegion(nil), rs...)
	sort.Slice(c, func(i, j int) bool { return c[i].StartLine < c[j].StartLine })
	return &vendoredLines{rs: c}
}

func (v *vendoredLines) in(line int) bool {
	for v.at < len(v.rs) && v.rs[v.at].EndLine < line {
		v.at++
	}
	return v.at < len(v.rs) && v.rs[v.at].StartLine <= line
}

// measureMinified computes the figures of a parsed file in one pass over
// its bytes and one over its flat node copy. Comments are not in the flat
// copy; outside text spans they are found by their opening bytes, which
// outside a string, template, regex or JSX text can only open a comment.
func measureMinified(f *file) MinifiedFigures {
	m := MinifiedFigures{SyntaxError: f.hasError}
	spans := textSpans(f)
	src := f.src
	py := f.lang == LangPython
	vend := newVendoredLines(f.vregions)
	var (
		line, code, seps, tight  int
		totalRaw, totalCode, nco int  // nco: lines outside vendored regions
		si                       int  // next text span
		inBlock                  bool // inside /* */
	)
	endLine := func() {
		m.Lines++
		totalRaw += line
		m.LongestLine = max(m.LongestLine, line)
		if !vend.in(m.Lines) {
			nco++
			totalCode += code
			m.CodeLongestLine = max(m.CodeLongestLine, code)
			m.Separators += seps
			m.Tight += tight
			if code > PackedLineBytes {
				m.LongCodeLines++
				if seps >= PackedMinSeparators && 2*tight > seps {
					m.PackedLines++
				}
			}
		}
		line, code, seps, tight = 0, 0, 0, 0
	}
	for i := 0; i < len(src); i++ {
		b := src[i]
		if b == '\n' {
			endLine()
			continue
		}
		if crlf(src, i) {
			continue // a CR before the newline is not part of the line
		}
		line++
		for si < len(spans) && spans[si].end <= i {
			si++
		}
		if si < len(spans) && spans[si].start <= i {
			continue // text
		}
		if inBlock {
			if b == '*' && i+1 < len(src) && src[i+1] == '/' {
				inBlock = false
				i++
				line++
			}
			continue
		}
		switch {
		case py && b == '#', !py && b == '/' && i+1 < len(src) && src[i+1] == '/':
			// A line comment: the rest of the line is text.
			for i+1 < len(src) && src[i+1] != '\n' && !crlf(src, i+1) {
				i++
				line++
			}
			continue
		case !py && b == '/' && i+1 < len(src) && src[i+1] == '*':
			inBlock = true
			i++
			line++
			continue
		}
		code++
		m.CodeBytes++
		switch b {
		case ' ', '\t':
			m.CodeSpace++
		case ',', ';':
			if i+1 >= len(src) {
				break
			}
			switch src[i+1] {
			case '\n', '\r', ')', ']', '}', ',', ';':
				// The end of a line or a list (`for(;;)`, `[,a]`): no
				// code follows on the line to be spaced from.
			case ' ', '\t':
				seps++
			default:
				seps++
				tight++
			}
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		endLine()
	}
	if m.Lines > 0 {
		m.AverageLine = float64(totalRaw) / float64(m.Lines)
	}
	if nco > 0 {
		m.CodeAverageLine = float64(totalCode) / float64(nco)
	}
	countNames(f, &m)
	return m
}

// countNames counts identifier tokens and declared names outside vendored
// regions, over the flat copy (one loop, no recursion).
func countNames(f *file, m *MinifiedFigures) {
	for i := range f.nodes {
		n := nid(i)
		if f.kind(n) != "identifier" {
			continue
		}
		if len(f.vregions) > 0 && f.inVendoredRegion(n) {
			continue
		}
		short := mangledName(f.bytesOf(n))
		m.Identifiers++
		if short {
			m.ShortIdentifiers++
		}
		if declaresName(f, n) {
			m.Bindings++
			if short {
				m.ShortBindings++
			}
		}
	}
}

// declaresName reports an identifier that a minifier may rename: the name
// of a variable, function or class declaration, or a parameter. Property
// names, which minifiers keep, are other node kinds.
func declaresName(f *file, n nid) bool {
	p := f.parent(n)
	switch f.kind(p) {
	case "variable_declarator", "function_declaration", "function_expression", "function", "class_declaration",
		"class", "generator_function_declaration", "generator_function", "function_definition", "class_definition":
		return f.field(p, "name") == n
	case "formal_parameters", "parameters", "lambda_parameters":
		return true
	case "arrow_function":
		return f.field(p, "parameter") == n
	case "required_parameter", "optional_parameter":
		return f.field(p, "pattern") == n
	case "assignment_pattern", "default_parameter", "typed_parameter", "typed_default_parameter":
		return f.nodes[p].first == n && (f.kind(f.parent(p)) == "formal_parameters" || f.kind(f.parent(p)) == "parameters")
	case "catch_clause":
		return f.field(p, "parameter") == n
	}
	return false
}

// crlf reports a CR that ends a line.
func crlf(src []byte, i int) bool { return src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' }

// mangledName reports an identifier of the shape a mangler or obfuscator
// writes: one or two characters, or _0x followed by hex digits.
func mangledName(b []byte) bool {
	if len(b) <= 2 {
		return true
	}
	if len(b) < 4 || b[0] != '_' || b[1] != '0' || b[2] != 'x' {
		return false
	}
	for _, c := range b[3:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
