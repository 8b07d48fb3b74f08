package artifact

import (
	"bytes"
	"path"
	"strings"
)

// Language is the tree-sitter grammar a member is parsed with; empty for
// members that are not source.
type Language string

const (
	LanguageNone       Language = ""
	LanguageJavaScript Language = "javascript" // .js .mjs .cjs .jsx (the JavaScript grammar reads JSX)
	LanguageTypeScript Language = "typescript" // .ts .mts .cts
	LanguageTSX        Language = "tsx"        // .tsx
	LanguagePython     Language = "python"     // .py .pyi
)

// The line rule of methodology §5.2: a member whose longest line exceeds
// MinifiedLongestLine bytes, or whose lines average more than
// MinifiedAverageLine bytes, is a candidate minified bundle (Minified). Since
// 2.3.4 the extractor decides on the candidate's syntax tree whether its code
// is packed or its names mangled (internal/surface, minified.go); a member
// the line rule passes is readable.
const (
	MinifiedLongestLine = 800
	MinifiedAverageLine = 200
)

// vendorSegments are the directory names that mark third-party code copied
// into an artifact (methodology §5, "a vendor-style path segment").
var vendorSegments = []string{
	"node_modules", "bower_components", // npm bundledDependencies, bower
	"vendor", "vendored", "_vendor", "third_party", // the usual conventions; pip itself ships pip/_vendor
	"site-packages", // a virtualenv copied into an sdist
}

// VendorSegments returns the directory names that mark a member as
// vendored, for documentation and for callers that classify other paths.
func VendorSegments() []string { return append([]string(nil), vendorSegments...) }

// Classification is what the reader concludes about one member from its
// path and bytes alone.
type Classification struct {
	Language Language `json:"language,omitempty"`
	// Declaration marks a type-declaration file (.d.ts, .d.mts, .d.cts,
	// .pyi): it describes an API and registers nothing.
	Declaration bool `json:"declaration,omitempty"`

	// Line figures, recorded for source members only. LongestLine and
	// AverageLine are in bytes, newline excluded (and a CR before it).
	Lines       int     `json:"lines,omitempty"`
	LongestLine int     `json:"longest_line,omitempty"`
	AverageLine float64 `json:"average_line,omitempty"`
	Minified    bool    `json:"minified,omitempty"`

	// Vendored is set when a directory of the member's path is a vendor
	// segment; VendorSegment names it and VendoredLibrary is the library
	// the path names after it (the last such segment wins, so pnpm's
	// node_modules/.pnpm/x@1/node_modules/x yields x).
	Vendored        bool   `json:"vendored,omitempty"`
	VendorSegment   string `json:"vendor_segment,omitempty"`
	VendoredLibrary string `json:"vendored_library,omitempty"`
	// VendoredRegions are the line ranges of a bundle that its bundler
	// marked as coming from vendored modules.
	VendoredRegions []Region `json:"vendored_regions,omitempty"`
}

// Region is a line range (1-based, inclusive) of a bundle that a bundler's
// module comment attributes to a vendored module.
type Region struct {
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Library   string `json:"library"`
	Module    string `json:"module"` // the module path as the bundler wrote it
	Marker    string `json:"marker"` // MarkerWebpack, MarkerWebpackConcatenated or MarkerEsbuild
}

// Bundler comment kinds a Region can come from.
const (
	// MarkerWebpack: a module key of webpack's module table,
	// `/***/ "./node_modules/x/index.js":`, or a numeric key followed by
	// its `!*** ./node_modules/x/index.js ***!` banner.
	MarkerWebpack = "webpack"
	// MarkerWebpackConcatenated: `// CONCATENATED MODULE: ./node_modules/x/index.js`.
	MarkerWebpackConcatenated = "webpack_concatenated"
	// MarkerEsbuild: the `// node_modules/x/index.js` line esbuild (and
	// tsup, Bun) writes before each module's code.
	MarkerEsbuild = "esbuild"
)

// LanguageOf names the grammar for a path by its extension, and whether the
// file is a type declaration.
func LanguageOf(p string) (Language, bool) {
	base := strings.ToLower(path.Base(p))
	for _, d := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(base, d) && len(base) > len(d) {
			return LanguageTypeScript, true
		}
	}
	switch path.Ext(base) {
	case ".js", ".mjs", ".cjs", ".jsx":
		return LanguageJavaScript, false
	case ".ts", ".mts", ".cts":
		return LanguageTypeScript, false
	case ".tsx":
		return LanguageTSX, false
	case ".py":
		return LanguagePython, false
	case ".pyi":
		return LanguagePython, true
	}
	return LanguageNone, false
}

// Classify classifies one member from its FS path and bytes.
func Classify(p string, data []byte) Classification {
	var c Classification
	c.Language, c.Declaration = LanguageOf(p)
	elems := strings.Split(p, "/")
	if seg, lib, ok := vendorOf(elems); ok {
		c.Vendored, c.VendorSegment, c.VendoredLibrary = true, seg, lib
	}
	if c.Language == LanguageNone {
		return c
	}
	var rs *regionScanner
	if c.Language == LanguageJavaScript {
		rs = &regionScanner{}
	}
	var total int
	for line, rest, n := data, data, 0; len(rest) > 0; n++ {
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, nil
		}
		if l := len(line); l > 0 && line[l-1] == '\r' {
			line = line[:l-1]
		}
		c.Lines++
		total += len(line)
		c.LongestLine = max(c.LongestLine, len(line))
		if rs != nil {
			rs.line(n+1, line)
		}
	}
	if c.Lines > 0 {
		c.AverageLine = float64(total) / float64(c.Lines)
	}
	c.Minified = c.LongestLine > MinifiedLongestLine || c.AverageLine > MinifiedAverageLine
	if rs != nil {
		rs.end()
		c.VendoredRegions = rs.regions
	}
	return c
}

// vendorOf finds the last vendor segment among the directories of elems
// and the library named after it.
func vendorOf(elems []string) (segment, library string, ok bool) {
	dirs := len(elems) - 1
	at := -1
	for i := 0; i < dirs; i++ {
		for _, s := range vendorSegments {
			if elems[i] == s {
				at = i
			}
		}
	}
	if at < 0 {
		return "", "", false
	}
	segment = elems[at]
	next := elems[at+1:]
	switch {
	case len(next) >= 3 && strings.HasPrefix(next[0], "@"):
		library = next[0] + "/" + next[1]
	case len(next) >= 2:
		library = next[0]
	default:
		// A file straight under the segment (vendor/jquery.min.js).
		library = strings.TrimSuffix(strings.TrimSuffix(next[0], path.Ext(next[0])), ".min")
	}
	return segment, library, true
}

// regionScanner follows a bundle line by line, opening a region at each
// bundler module comment and closing it at the next (or at webpack's
// runtime, or at the end of the file).
type regionScanner struct {
	regions []Region

	open      bool
	cur       Region
	lastText  int // last non-blank line of the open region
	lastClose int // last `/***/ })` line of the open region (webpack)
}

func (s *regionScanner) line(n int, line []byte) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	t := line[i:]
	if len(t) == 0 {
		return
	}
	if t[0] == '/' || t[0] == ';' || t[0] == '!' {
		if s.marker(n, t) {
			return
		}
	}
	if s.open {
		s.lastText = n
	}
}

// marker handles a line that may be a bundler comment and reports whether
// it was one.
func (s *regionScanner) marker(n int, t []byte) bool {
	switch {
	case bytes.HasPrefix(t, []byte("/******/")):
		// webpack's runtime: no module's code.
		s.close()
		return true
	case bytes.HasPrefix(t, []byte("/***/")):
		rest := bytes.TrimLeft(t[len("/***/"):], " \t")
		if mod, ok := webpackKey(rest); ok {
			s.start(n, mod, MarkerWebpack)
			return true
		}
		if bytes.HasPrefix(rest, []byte("})")) && s.open {
			s.lastClose = n
			s.lastText = n
			return true
		}
	case bytes.HasPrefix(t, []byte("!*** ")) && bytes.HasSuffix(t, []byte(" ***!")):
		// The banner under a numeric webpack key names the module.
		if s.open && s.cur.Marker == MarkerWebpack && s.cur.Module == "" && n-s.cur.StartLine <= 4 {
			s.cur.Module = string(bytes.TrimSpace(t[len("!*** ") : len(t)-len(" ***!")]))
			s.lastText = n
			return true
		}
	case bytes.HasPrefix(bytes.TrimLeft(t, ";"), []byte("// CONCATENATED MODULE: ")):
		rest := bytes.TrimPrefix(bytes.TrimLeft(t, ";"), []byte("// CONCATENATED MODULE: "))
		if f := bytes.Fields(rest); len(f) > 0 {
			s.start(n, string(f[0]), MarkerWebpackConcatenated)
			return true
		}
	case bytes.HasPrefix(t, []byte("// ")):
		if mod, ok := esbuildPath(t[len("// "):]); ok {
			s.start(n, mod, MarkerEsbuild)
			return true
		}
	}
	return false
}

// webpackKey parses a module-table key: a quoted path or a number, then ':'.
func webpackKey(rest []byte) (string, bool) {
	if len(rest) == 0 {
		return "", false
	}
	if q := rest[0]; q == '"' || q == '\'' {
		end := bytes.IndexByte(rest[1:], q)
		if end < 0 || !bytes.HasPrefix(bytes.TrimLeft(rest[1+end+1:], " \t"), []byte(":")) {
			return "", false
		}
		return string(rest[1 : 1+end]), true
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i > 0 && bytes.HasPrefix(bytes.TrimLeft(rest[i:], " \t"), []byte(":")) {
		return "", true // numeric id; a banner may name it
	}
	return "", false
}

// esbuildPath recognises esbuild's module comment: a single path token
// ending in a module extension. Anything with spaces or a URL scheme is an
// ordinary comment.
func esbuildPath(rest []byte) (string, bool) {
	rest = bytes.TrimRight(rest, " \t")
	rest = bytes.TrimPrefix(rest, []byte("(disabled):"))
	if len(rest) == 0 || bytes.ContainsAny(rest, " \t\"'`") || bytes.Contains(rest, []byte("://")) {
		return "", false
	}
	switch path.Ext(string(rest)) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".json", ".node":
		return string(rest), true
	}
	return "", false
}

func (s *regionScanner) start(n int, module, marker string) {
	s.close()
	s.open = true
	s.cur = Region{StartLine: n, Module: module, Marker: marker}
	s.lastText, s.lastClose = n, 0
}

func (s *regionScanner) close() {
	if !s.open {
		return
	}
	s.open = false
	r := s.cur
	r.EndLine = s.lastText
	if r.Marker == MarkerWebpack && s.lastClose >= r.StartLine {
		r.EndLine = s.lastClose
	}
	elems := strings.FieldsFunc(r.Module, func(c rune) bool { return c == '/' })
	// The module path's last element is a file; vendorOf wants that shape.
	if _, lib, ok := vendorOf(elems); ok {
		r.Library = lib
		s.regions = append(s.regions, r)
	}
}

func (s *regionScanner) end() { s.close() }
