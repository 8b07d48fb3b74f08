package surface

import (
	"regexp"
	"strings"
)

// A README can document one tool in a collapsible block: a `<details>`
// element whose `<summary>` begins with the tool's name in code
// (`<summary><code>search</code> — find pages</summary>`, or a code span).
// Like the section under a subheading that is one code span (2.3.2), what
// the block holds describes that tool (its parameters, what it returns, the
// tools of another program it reaches) and gives no names, up to the
// block's closing `</details>` (methodology §5.2, advertised tools, rule 3,
// since 2.3.10). A summary that also names tools ("`github` tools") heads a
// group, and the names in its block are taken as before; a summary that
// does not begin with code is not read either way.

var (
	detailsOpenTag  = regexp.MustCompile(`(?i)<details\b`)
	detailsCloseTag = regexp.MustCompile(`(?i)</details\s*>`)
	summaryOpenTag  = regexp.MustCompile(`(?i)<summary\b[^>]*>`)
	summaryClose    = regexp.MustCompile(`(?i)</summary\s*>`)
	leadingEmphasis = regexp.MustCompile(`(?i)^(?:\s*<(?:b|strong|em|i)>)*\s*`)
	codeElement     = regexp.MustCompile(`(?i)^<code>([^<]*)</code>`)
)

// detailsScope follows the `<details>` block that documents one tool.
type detailsScope struct {
	depth int // the documenting block and the blocks open inside it, 0 when none
}

// active reports that the line being read is inside a block documenting a
// tool: it gives no names.
func (d *detailsScope) active() bool {
	return d.depth > 0
}

// reset ends any block at the end of the tools section.
func (d *detailsScope) reset() {
	d.depth = 0
}

// line reads one line outside a fenced code block.
func (d *detailsScope) line(l string) {
	if d.depth > 0 {
		d.depth += len(detailsOpenTag.FindAllStringIndex(l, -1)) - len(detailsCloseTag.FindAllStringIndex(l, -1))
		if d.depth < 0 {
			d.depth = 0
		}
		return
	}
	loc := summaryOpenTag.FindStringIndex(l)
	if loc == nil {
		return
	}
	rest := l[loc[1]:]
	if c := summaryClose.FindStringIndex(rest); c != nil {
		rest = rest[:c[0]]
	}
	rest = rest[len(leadingEmphasis.FindString(rest)):]
	name, after := "", ""
	if m := codeElement.FindStringSubmatch(rest); m != nil {
		name, after = strings.TrimSpace(m[1]), rest[len(m[0]):]
	} else if n, ok := leadingCodeSpan(rest); ok {
		name = n
		ticks := len(rest) - len(strings.TrimLeft(rest, "`"))
		if j := strings.Index(rest[ticks:], rest[:ticks]); j >= 0 {
			after = rest[ticks+j+ticks:]
		}
	}
	if name == "" || len(name) > 128 || !toolNameRule.MatchString(name) || toolsWord.MatchString(stripMarkdown(after)) {
		return
	}
	// The block opened at or before its summary; a close after the summary
	// on the same line ends it there.
	tail := l[loc[1]:]
	d.depth = 1 + len(detailsOpenTag.FindAllStringIndex(tail, -1)) - len(detailsCloseTag.FindAllStringIndex(tail, -1))
	if d.depth < 0 {
		d.depth = 0
	}
}
