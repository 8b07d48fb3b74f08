package surface

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestReadmeToolsRule pins each clause of methodology §5.2's README rule.
func TestReadmeToolsRule(t *testing.T) {
	md := strings.Join([]string{
		"# server",                             // 1
		"- `not_in_a_tools_section`",           // 2
		"## Available **Tool** list",           // 3: "tool" as a whole word, formatting removed
		"1. `ordered_item` reads a page",       // 4
		"2) ``double`ticks`` is not a name",    // 5: backtick inside, not a name shape
		"- [`linked`](#linked) is a link",      // 6
		"- **bold_name** is prose",             // 7
		"- `9starts_with_digit`",               // 8
		"- `_private/path.name-x`",             // 9
		"- `" + strings.Repeat("a", 129) + "`", // 10: over 128 bytes
		"```",                                  // 11
		"- `fenced`",                           // 12
		"```",                                  // 13
		"",                                     // 14
		"    - `indented_code`",                // 15: an indented code block
		"",                                     // 16
		"### `subheading_name`",                // 17
		"### Parameters of `x`",                // 18: not a whole code span
		"| Name | What |",                      // 19
		"| --- | --- |",                        // 20
		"| `table_name` | reads |",             // 21
		"| **bold** | no |",                    // 22
		"## Toolsmith notes",                   // 23: "Toolsmith" is not the word
		"- `after_section`",                    // 24
		"",                                     // 25
		"Tools",                                // 26: a setext heading
		"-----",                                // 27
		"- `setext_item`",                      // 28
		"## Install",                           // 29
		"- `npm`",                              // 30
	}, "\n")
	var got []string
	for _, a := range readmeTools(md) {
		got = append(got, a.Name+":"+itoa(a.Line))
	}
	want := []string{"ordered_item:4", "_private/path.name-x:9", "subheading_name:17", "table_name:21", "setext_item:28"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readmeTools = %v\nwant %v", got, want)
	}
}

// TestReadmeToolsRuleSkipsWhatDocumentsATool: since 2.3.2 a list item nested
// in another, and anything under a subheading that is one code span, gives
// no name: both are how READMEs document a tool's parameters.
func TestReadmeToolsRuleSkipsWhatDocumentsATool(t *testing.T) {
	md := strings.Join([]string{
		"## Tools",                       // 1
		"- `read_file` reads a file",     // 2
		"  - `path` (string): the file",  // 3: nested under read_file
		"    - `encoding`: deeper still", // 4
		"- `write_file`",                 // 5: back at the list's margin
		"",                               // 6
		" * `indented_list_first`",       // 7: a new list whose first item is indented one column
		"   * `its_child`",               // 8: nested relative to that first item
		" * `indented_list_second`",      // 9
		"",                               // 10
		"### `search`",                   // 11: a tool named by its subheading
		"- `query`: what to find",        // 12: documents search
		"| `limit` | how many |",         // 13: documents search
		"#### `deeper_code_heading`",     // 14: still inside search's section
		"### `delete`",                   // 15: the next tool
		"- `id`",                         // 16
		"### Other tools",                // 17: ends delete's section
		"- `ping`",                       // 18
		"| `stats` | usage |",            // 19
	}, "\n")
	var got []string
	for _, a := range readmeTools(md) {
		got = append(got, a.Name+":"+itoa(a.Line))
	}
	want := []string{"read_file:2", "write_file:5", "indented_list_first:7", "indented_list_second:9", "search:11", "delete:15", "ping:18", "stats:19"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readmeTools = %v\nwant %v", got, want)
	}
}

func TestManifestToolNames(t *testing.T) {
	cases := []struct {
		doc  string
		mcpb bool
		want []string
	}{
		{`{"tools":[{"name":"a"}]}`, true, nil}, // not an MCPB/DXT manifest
		{`{"manifest_version":"0.2","tools":[{"name":"a"},{"title":"no name"},"b"]}`, true, []string{"a"}},
		{`{"dxt_version":"0.1","tools":[{"name":"a"}]}`, true, []string{"a"}},
		{`{"server":{"type":"node"},"tools":[{"name":"a"}]}`, true, []string{"a"}},
		{`{"server":"not an object","tools":[{"name":"a"}]}`, true, nil},
		{`{"tools":[{"name":"s"}]}`, false, []string{"s"}}, // server.json
		{`not json`, false, nil},
	}
	for _, c := range cases {
		got := manifestToolNames([]byte(c.doc), c.mcpb)
		if !reflect.DeepEqual(got, c.want) {
			b, _ := json.Marshal(got)
			t.Errorf("manifestToolNames(%s, %v) = %s, want %v", c.doc, c.mcpb, b, c.want)
		}
	}
}

// FuzzReadmeTools: a package's README is hostile input. Whatever it holds,
// every name has a tool name's shape and at most 128 bytes, every line is a
// line of the README, and names come in line order.
func FuzzReadmeTools(f *testing.F) {
	f.Add("## Tools\n- `a`\n  - `b`\n### `c`\n- `d`\n#### x\n| `e` | f |\n")
	f.Add("Tools\n=====\n1. `one`\n   2. `two`\n```\n- `fenced`\n```\n")
	f.Add("# Tool list\n * `x`\n   * `y`\n * `z`\n## other\n- `w`\n")
	f.Fuzz(func(t *testing.T, md string) {
		lines := strings.Count(md, "\n") + 1
		prev := 0
		got := readmeTools(md)
		for _, a := range got {
			if len(a.Name) > 128 || !toolNameRule.MatchString(a.Name) {
				t.Fatalf("name %q has not a tool name's shape", a.Name)
			}
			if a.Line < 1 || a.Line > lines || a.Line < prev {
				t.Fatalf("line %d (previous %d, %d lines)", a.Line, prev, lines)
			}
			prev = a.Line
		}
	})
}
