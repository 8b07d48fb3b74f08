// Package neighbour measures Attestari against its neighbouring tool, Agents
// Shipgate, on the same ground. It is test-only: every file is a _test.go
// file, nothing of the product imports it, and no code of the neighbour is
// in it. shipgateRead and shipgateFlags are this project's own transcription
// of the neighbour's documented behaviour (docs/check-neighbour.md cites the
// source of each rule); the opt-in measurement (ATTESTARI_NEIGHBOUR=1,
// measure_test.go) runs them beside Attestari's extractor and analyzers.
package neighbour

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// The rules below are transcribed from the neighbour's documentation of its
// MCP-server-source reader (`mcp_server_source`, the "lexical idioms"):
// seed 002 ("Should I run Shipgate on this PR?", "SHIP-DOC-MISSING-
// DESCRIPTION") and its published survey docs/mcp-registration-idioms.md
// ("What the reader does and does not read", "What the reader excludes"),
// whose rules the registry module's documentation restates
// (docs/check-neighbour.md §1 names the commits read).

// sgExtensions: the TypeScript idioms are read from these suffixes; JSX
// (.tsx, .jsx) is deliberately not read ("What the reader excludes").
var sgExtensions = []string{".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"}

// sgSkipDirs: directory names never walked, at any depth: vendored
// dependencies and build output ("Vendored and built code").
var sgSkipDirs = map[string]bool{
	".eggs": true, ".git": true, ".hg": true, ".mypy_cache": true, ".next": true, ".nuxt": true,
	".pytest_cache": true, ".ruff_cache": true, ".svn": true, ".tox": true, ".turbo": true, ".venv": true,
	"__pycache__": true, "bin": true, "build": true, "coverage": true, "dist": true, "node_modules": true,
	"obj": true, "out": true, "site-packages": true, "target": true, "vendor": true, "venv": true,
}

// sgTestDirs and sgTestSuffixes: test files are not the published surface
// ("Test files").
var sgTestDirs = map[string]bool{
	"__mocks__": true, "__tests__": true, "e2e": true, "fixtures": true, "test": true,
	"test-fixtures": true, "testdata": true, "tests": true,
}

var sgTestSuffixes = []string{".test.ts", ".test.js", ".test.mts", ".test.mjs", ".spec.ts", ".spec.js", ".spec.mts", ".spec.mjs"}

// sgMaxFileBytes: the largest source file the reader opens; a larger one is
// recorded, not read.
const sgMaxFileBytes = 8 << 20

// sgToolName: a literal not shaped like a tool name is recorded as an
// implausible name, never entered as a tool.
var sgToolName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// sgTool is one tool the documented idioms read.
type sgTool struct {
	Name        string
	Description string
	HasDesc     bool // a description literal was read beside the name
	File        string
	Idiom       string // sdk_call (.tool( / .registerTool() or static_tool_name
}

// sgRead is what shipgateRead found in one unpacked package.
type sgRead struct {
	Tools          []sgTool // in file order; a name registered twice is kept once (the first)
	FilesRead      int
	FilesSkipped   int // under a skipped or test directory, a test file, or another suffix
	Unenumerated   int // registration sites whose name is not a literal, or not shaped like a name
	PartialFiles   []string
	OversizedFiles []string
}

const (
	idiomSDKCall    = "sdk_call"
	idiomStaticName = "static_tool_name"
)

// shipgateRead lists the tools the neighbour's documented TypeScript/JavaScript
// idioms would find in fsys, an unpacked npm package (the artifact's root).
func shipgateRead(fsys fs.FS) sgRead {
	var r sgRead
	seen := map[string]bool{}
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && (sgSkipDirs[d.Name()] || sgTestDirs[d.Name()]) {
				return fs.SkipDir
			}
			return nil
		}
		if !sgReadable(p) {
			r.FilesSkipped++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if info.Size() > sgMaxFileBytes {
			r.OversizedFiles = append(r.OversizedFiles, p)
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil
		}
		r.FilesRead++
		tools, unenum, err := sgScan(data)
		if err != nil {
			r.PartialFiles = append(r.PartialFiles, p)
			return nil
		}
		r.Unenumerated += unenum
		for _, t := range tools {
			if seen[t.Name] {
				continue
			}
			seen[t.Name] = true
			t.File = p
			r.Tools = append(r.Tools, t)
		}
		return nil
	})
	return r
}

// sgReadable reports whether the reader opens the file at p: one of the
// TypeScript idioms' suffixes, and not a test file.
func sgReadable(p string) bool {
	base := path.Base(p)
	for _, s := range sgTestSuffixes {
		if strings.HasSuffix(base, s) {
			return false
		}
	}
	return slices.Contains(sgExtensions, path.Ext(base))
}

var (
	sgCallRe   = regexp.MustCompile(`\.(tool|registerTool)\s*\(\s*`)
	sgStaticRe = regexp.MustCompile(`\bstatic\s+(?:readonly\s+)?toolName\s*(?::[^=;{}()]*)?=\s*`)
	sgDescRe   = regexp.MustCompile(`\bdescription\s*(?::[^=;{}()]*)?=\s*`)
	// sgKeyRe is an object's description key; a quoted key is read from
	// the literals (topLevelDescription).
	sgKeyRe = regexp.MustCompile(`\bdescription\s*:\s*`)
)

// sgScan reads one source file. A file the masking pass cannot finish (an
// unterminated string or comment) is an error: the neighbour reports it
// partial rather than reading the rest as code.
func sgScan(src []byte) ([]sgTool, int, error) {
	lx, err := sgLex(src)
	if err != nil {
		return nil, 0, err
	}
	var tools []sgTool
	unenum := 0
	name := func(at int) (string, bool) {
		lit, ok := lx.literalAt(at)
		if !ok || !lit.ok || !sgToolName.MatchString(lit.value) {
			unenum++
			return "", false
		}
		return lit.value, true
	}
	for _, m := range sgCallRe.FindAllSubmatchIndex(lx.masked, -1) {
		n, ok := name(m[1])
		if !ok {
			continue
		}
		t := sgTool{Name: n, Idiom: idiomSDKCall}
		lit, _ := lx.literalAt(m[1])
		t.Description, t.HasDesc = lx.sdkDescription(string(lx.masked[m[2]:m[3]]), lit.end)
		tools = append(tools, t)
	}
	for _, m := range sgStaticRe.FindAllIndex(lx.masked, -1) {
		n, ok := name(m[1])
		if !ok {
			continue
		}
		t := sgTool{Name: n, Idiom: idiomStaticName}
		t.Description, t.HasDesc = lx.classDescription(m[0])
		tools = append(tools, t)
	}
	return tools, unenum, nil
}

// sdkDescription reads the description beside the name of a .tool( or
// .registerTool( call, from the end of the name literal: the second
// argument when it is one string literal (.tool(name, "…", …)), or the
// top-level description key of the options object (.registerTool(name,
// {description: "…"})). A description nested deeper (a parameter's, inside
// inputSchema) is never the tool's.
func (lx *sgLexed) sdkDescription(method string, from int) (string, bool) {
	i := lx.skipSpace(from)
	if i >= len(lx.masked) || lx.masked[i] != ',' {
		return "", false
	}
	i = lx.skipSpace(i + 1)
	if method == "tool" {
		lit, ok := lx.literalAt(i)
		if !ok || !lit.ok {
			return "", false
		}
		if j := lx.skipSpace(lit.end); j >= len(lx.masked) || (lx.masked[j] != ',' && lx.masked[j] != ')') {
			return "", false // a concatenation or another expression: not one literal
		}
		return lit.value, true
	}
	if i >= len(lx.masked) || lx.masked[i] != '{' {
		return "", false
	}
	return lx.topLevelDescription(i, sgKeyRe, false)
}

// classDescription reads the sibling description literal of a static
// toolName field from the same class body.
func (lx *sgLexed) classDescription(site int) (string, bool) {
	open := lx.enclosingBrace(site)
	if open < 0 {
		return "", false
	}
	return lx.topLevelDescription(open, sgDescRe, true)
}

// topLevelDescription finds, at depth 1 inside the brace at open, the last
// description key (field=true: a class field assignment) and returns its
// value when that value is one literal. A spread at depth 1 of an object
// could carry a description decided at run time: then none is read.
func (lx *sgLexed) topLevelDescription(open int, keyRe *regexp.Regexp, field bool) (string, bool) {
	closeAt := lx.matchingBrace(open)
	if closeAt < 0 {
		return "", false
	}
	var val string
	var have bool
	depth := 0
	for i := open; i < closeAt; i++ {
		switch lx.masked[i] {
		case '{', '(', '[':
			depth++
			continue
		case '}', ')', ']':
			depth--
			continue
		}
		if depth != 1 {
			continue
		}
		if !field && strings.HasPrefix(string(lx.masked[i:min(i+3, len(lx.masked))]), "...") {
			return "", false
		}
		if i > 0 && isIdent(lx.masked[i-1]) {
			continue
		}
		at := -1
		if k, ok := lx.literalAt(i); ok && !field {
			if j := lx.skipSpace(k.end); k.ok && k.value == "description" && j < closeAt && lx.masked[j] == ':' {
				at = lx.skipSpace(j + 1)
			} else if j < closeAt && lx.masked[j] == ':' {
				// Another quoted key, or one whose spelling cannot be read:
				// an unreadable key may be description, so it overrides.
				if !k.ok {
					val, have = "", false
				}
				i = k.end - 1
				continue
			}
		}
		if at < 0 {
			loc := keyRe.FindIndex(lx.masked[i:min(closeAt, i+256)])
			if loc == nil || loc[0] != 0 {
				continue
			}
			at = i + loc[1]
		}
		lit, ok := lx.literalAt(at)
		end := at
		if ok {
			end = lit.end
		}
		j := lx.skipSpace(end)
		if ok && lit.ok && j < len(lx.masked) && (lx.masked[j] == ',' || lx.masked[j] == '}' || lx.masked[j] == ';' || lx.masked[j] == '\n' || j == closeAt) {
			val, have = lit.value, true
		} else {
			val, have = "", false // a later key overrides an earlier literal
		}
		i = at - 1
	}
	return val, have
}

func isIdent(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// sgLiteral is one string literal of a file: its bytes [start, end) in the
// source, quotes included, and its decoded value; ok is false when the
// value cannot be read exactly (a template with a substitution, an escape
// the language's grammar does not define for a string, a lone surrogate).
type sgLiteral struct {
	start, end int
	value      string
	ok         bool
}

// sgLexed is a file masked for matching: comments and string bodies are
// spaces, so an idiom is never found inside either, and a name is a name
// only where the masking pass recorded a literal.
type sgLexed struct {
	masked   []byte
	literals []sgLiteral // by start
}

func (lx *sgLexed) literalAt(i int) (sgLiteral, bool) {
	k, found := slices.BinarySearchFunc(lx.literals, i, func(l sgLiteral, i int) int { return l.start - i })
	if !found {
		return sgLiteral{}, false
	}
	return lx.literals[k], true
}

func (lx *sgLexed) skipSpace(i int) int {
	for i < len(lx.masked) && (lx.masked[i] == ' ' || lx.masked[i] == '\t' || lx.masked[i] == '\n' || lx.masked[i] == '\r') {
		i++
	}
	return i
}

// matchingBrace is the index of the brace closing the one at open, over the
// masked text (no brace inside a string or comment counts), or -1.
func (lx *sgLexed) matchingBrace(open int) int {
	depth := 0
	for i := open; i < len(lx.masked); i++ {
		switch lx.masked[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// enclosingBrace is the index of the innermost unclosed '{' before at, or -1.
func (lx *sgLexed) enclosingBrace(at int) int {
	depth := 0
	for i := at - 1; i >= 0; i-- {
		switch lx.masked[i] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

var errUnterminated = errors.New("neighbour: unterminated string, comment or template")

// sgMaxNesting bounds template substitutions inside templates.
const sgMaxNesting = 256

// sgLex masks src. Regular-expression literals are told from division by
// the previous significant character, as a masking lexer must.
func sgLex(src []byte) (*sgLexed, error) {
	lx := &sgLexed{masked: slices.Clone(src)}
	blank := func(a, b int) {
		for k := a; k < b; k++ {
			if lx.masked[k] != '\n' {
				lx.masked[k] = ' '
			}
		}
	}
	// braces counts open braces of each template substitution being lexed.
	var braces []int
	prev := byte(0) // previous significant byte of code
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(string(src[i+2:]), "*/")
			if j < 0 {
				return nil, errUnterminated
			}
			blank(i, i+2+j+2)
			i += 2 + j + 2
		case c == '/' && regexAllowed(prev):
			j, ok := regexEnd(src, i)
			if !ok {
				prev = c
				i++
				continue
			}
			blank(i+1, j-1)
			prev = 'a'
			i = j
		case c == '"' || c == '\'':
			j, val, ok, err := quoted(src, i)
			if err != nil {
				return nil, err
			}
			lx.literals = append(lx.literals, sgLiteral{start: i, end: j, value: val, ok: ok})
			blank(i+1, j-1)
			prev = 'a'
			i = j
		case c == '`':
			j, val, ok, subst := templateChunk(src, i+1)
			if j < 0 {
				return nil, errUnterminated
			}
			if !subst {
				lx.literals = append(lx.literals, sgLiteral{start: i, end: j, value: val, ok: ok})
				blank(i+1, j-1)
				prev = 'a'
				i = j
				continue
			}
			// A template with a substitution is never a literal value.
			lx.literals = append(lx.literals, sgLiteral{start: i, end: j, ok: false})
			blank(i+1, j-2)
			if len(braces) >= sgMaxNesting {
				return nil, errUnterminated
			}
			braces = append(braces, 0)
			prev = '('
			i = j
		case c == '{':
			if len(braces) > 0 {
				braces[len(braces)-1]++
			}
			prev = c
			i++
		case c == '}' && len(braces) > 0 && braces[len(braces)-1] == 0:
			// The end of a substitution: the template continues.
			braces = braces[:len(braces)-1]
			j, _, _, subst := templateChunk(src, i+1)
			if j < 0 {
				return nil, errUnterminated
			}
			if subst {
				blank(i+1, j-2)
				braces = append(braces, 0)
				prev = '('
			} else {
				blank(i+1, j-1)
				prev = 'a'
			}
			i = j
		case c == '}':
			if len(braces) > 0 {
				braces[len(braces)-1]--
			}
			prev = c
			i++
		default:
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				if isIdent(c) {
					// A keyword before a slash starts a regular expression.
					j := i
					for j < len(src) && isIdent(src[j]) {
						j++
					}
					switch string(src[i:j]) {
					case "return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await", "delete", "throw", "new":
						prev = '('
					default:
						prev = 'a'
					}
					i = j
					continue
				}
				prev = c
			}
			i++
		}
	}
	if len(braces) > 0 {
		return nil, errUnterminated
	}
	return lx, nil
}

func regexAllowed(prev byte) bool {
	return prev == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0
}

// regexEnd is the index after the regular-expression literal at i (and its
// flags), or false when none closes on the line.
func regexEnd(src []byte, i int) (int, bool) {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			return 0, false
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j++
				for j < len(src) && isIdent(src[j]) {
					j++
				}
				return j, true
			}
		}
	}
	return 0, false
}

// quoted reads the '…' or "…" literal at i: the index after it, its decoded
// value, and whether the value was decoded exactly.
func quoted(src []byte, i int) (int, string, bool, error) {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\n':
			return 0, "", false, errUnterminated
		case q:
			v, ok := decodeJS(src[i+1 : j])
			return j + 1, v, ok, nil
		}
	}
	return 0, "", false, errUnterminated
}

// templateChunk reads a template from i (just after ` or a substitution's
// closing }) to its closing backtick (subst false) or to the next "${"
// (subst true), returning the index after the delimiter, or -1.
func templateChunk(src []byte, i int) (int, string, bool, bool) {
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			v, ok := decodeJS(src[i:j])
			return j + 1, v, ok, false
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				return j + 2, "", false, true
			}
		}
	}
	return -1, "", false, false
}

// decodeJS decodes a string literal's body by the language's escapes; a
// legacy octal escape, \8, \9 or a lone surrogate is refused, never
// guessed.
func decodeJS(b []byte) (string, bool) {
	if !utf8.Valid(b) {
		return "", false
	}
	var out strings.Builder
	var pendingHigh rune = -1
	flush := func() bool { return pendingHigh < 0 }
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			if !flush() {
				return "", false
			}
			out.WriteByte(c)
			continue
		}
		i++
		if i >= len(b) {
			return "", false
		}
		var r rune = -1
		switch e := b[i]; e {
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'v':
			r = '\v'
		case '0':
			if i+1 < len(b) && b[i+1] >= '0' && b[i+1] <= '9' {
				return "", false
			}
			r = 0
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return "", false
		case '\n':
			continue
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			continue
		case 'x':
			if i+2 >= len(b) {
				return "", false
			}
			v, ok := hexVal(b[i+1 : i+3])
			if !ok {
				return "", false
			}
			r = v
			i += 2
		case 'u':
			var v rune
			var ok bool
			if i+1 < len(b) && b[i+1] == '{' {
				end := strings.IndexByte(string(b[i+2:]), '}')
				if end < 1 || end > 6 {
					return "", false
				}
				v, ok = hexVal(b[i+2 : i+2+end])
				i += 2 + end
			} else {
				if i+4 >= len(b) {
					return "", false
				}
				v, ok = hexVal(b[i+1 : i+5])
				i += 4
			}
			if !ok || v > utf8.MaxRune {
				return "", false
			}
			if v >= 0xD800 && v < 0xDC00 {
				if pendingHigh >= 0 {
					return "", false
				}
				pendingHigh = v
				continue
			}
			if v >= 0xDC00 && v < 0xE000 {
				if pendingHigh < 0 {
					return "", false
				}
				v = (pendingHigh-0xD800)<<10 + (v - 0xDC00) + 0x10000
				pendingHigh = -1
				out.WriteRune(v)
				continue
			}
			r = v
		default:
			// An identity escape: \' \" \\ \` and any other character.
			if !flush() {
				return "", false
			}
			_, size := utf8.DecodeRune(b[i:])
			out.Write(b[i : i+size])
			i += size - 1
			continue
		}
		if !flush() {
			return "", false
		}
		out.WriteRune(r)
	}
	if !flush() {
		return "", false
	}
	return out.String(), true
}

func hexVal(b []byte) (rune, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v*16 + rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
