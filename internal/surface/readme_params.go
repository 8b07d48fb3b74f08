package surface

import (
	"regexp"
	"strings"
)

// The README's own structure says where it documents a tool's parameters,
// results or settings rather than name tools (methodology §5.2, advertised
// tools, rule 3, since 2.3.5). Inside a section that names tools, a list or
// a table gives no names when what introduces it names such things:
//
//   - a list whose lead-in, the paragraph line right before it (blank lines
//     between them allowed, nothing else), ends with a colon and names
//     parameters, arguments, inputs, options, fields, properties, headers,
//     variables, values, settings, flags, results or outputs, without the
//     word "tool" or "tools" ("**Parameters:**", "Input:", "**Returns:** an
//     object with:");
//   - a table under such a lead-in, or whose header's first cell names one
//     of those things ("| Variable | Description |", "| Parameter | Type |").
//
// A lead-in or header that also names tools ("Available tools and their
// options:") gives names as before. Nothing here makes a name: it only keeps
// names out that the rule of 2.3.4 took from a tool's own documentation.

// paramWords are the words that name what documents a tool rather than
// names one.
var paramWords = regexp.MustCompile(`(?i)\b(?:parameters?|params?|arguments?|args|inputs?|options?|fields?|propert(?:y|ies)|headers?|variables?|env|vars?|values?|settings?|flags?|returns?|results?|outputs?)\b`)

// docScope follows what introduces the list or table being read.
type docScope struct {
	lead    string // the last paragraph line before the current block, "" when none
	inTable bool   // the previous line was a table row
	list    bool   // the current list documents a tool: it gives no names
	table   bool   // the current table documents a tool: it gives no names
}

// block ends whatever came before: a heading or a fenced code block at the
// margin is not a lead-in.
func (d *docScope) block() {
	d.lead, d.inTable, d.table = "", false, false
}

// blank is called at a blank line: it ends a table, and keeps a lead-in.
func (d *docScope) blank() {
	d.inTable, d.table = false, false
}

// startList is called at a list's first item.
func (d *docScope) startList() {
	d.list = leadInDocuments(d.lead)
	d.lead, d.inTable = "", false
}

// line is called for every line outside a list that is not blank, a
// heading or a list item: a paragraph line or a table row.
func (d *docScope) line(t string) {
	if strings.HasPrefix(t, "|") {
		if !d.inTable {
			d.inTable = true
			cells := strings.Split(strings.TrimPrefix(t, "|"), "|")
			d.table = leadInDocuments(d.lead) || headerDocuments(cells[0]) || headerGroups(cells[0])
		}
		d.lead = ""
		return
	}
	d.inTable, d.table = false, false
	d.lead = t
}

// leadInDocuments reports a lead-in that introduces a tool's documentation:
// it ends with a colon, names parameters (paramWords) and does not name
// tools.
func leadInDocuments(lead string) bool {
	t := strings.TrimSpace(stripMarkdown(lead))
	if !strings.HasSuffix(t, ":") {
		return false
	}
	return paramWords.MatchString(t) && !toolsWord.MatchString(t)
}

// headerDocuments reports a table header whose first cell names parameters
// (paramWords) and not tools.
func headerDocuments(cell string) bool {
	t := strings.TrimSpace(stripMarkdown(cell))
	return paramWords.MatchString(t) && !toolsWord.MatchString(t)
}

// groupWords name what a table of groups lists (2.3.10): a table whose
// header's first cell is "Group", "Group ID", "Toolset" or "Category" lists
// the groups a server's tools are selected by, and its rows give no names.
var groupWords = regexp.MustCompile(`(?i)\b(?:groups?|toolsets?|categor(?:y|ies)|bundles?)\b`)

// headerGroups reports a table header whose first cell names groups.
func headerGroups(cell string) bool {
	return groupWords.MatchString(stripMarkdown(cell))
}
