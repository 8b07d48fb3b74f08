package surface

import (
	"reflect"
	"strings"
	"testing"
)

// TestReadmeToolsRuleSkipsParameterLists: a list or table a README
// introduces as a tool's parameters, results or settings gives no names
// (methodology §5.2 rule 3, 2.3.5); a lead-in that names tools, one without
// a colon, or one separated from the list by other text, still gives them.
func TestReadmeToolsRuleSkipsParameterLists(t *testing.T) {
	md := strings.Join([]string{
		"## Tools",                           // 1
		"### Search (`search_docs`)",         // 2: not a whole code span: no name, no documented section
		"**Parameters:**",                    // 3
		"- `query` (string): what to find",   // 4: a parameter
		"- `limit` (number): how many",       // 5
		"",                                   // 6
		"Returns: an object with:",           // 7
		"",                                   // 8
		"- `hits`: the matches",              // 9: blank lines between lead-in and list allowed
		"",                                   // 10
		"Available tools and their options:", // 11: names tools, gives names
		"- `fetch_page`: fetch one page",     // 12
		"",                                   // 13
		"These tools read pages",             // 14
		"- `list_pages`",                     // 15
		"",                                   // 16
		"Input parameters",                   // 17: no colon: not a lead-in
		"- `count_pages`",                    // 18
		"",                                   // 19
		"Options:",                           // 20
		"```",                                // 21
		"x",                                  // 22
		"```",                                // 23
		"- `export_pages`",                   // 24: a code block between: not introduced
		"",                                   // 25
		"| Variable | Description |",         // 26
		"| --- | --- |",                      // 27
		"| `API_KEY` | the key |",            // 28: an environment table
		"",                                   // 29
		"| Tool | Description |",             // 30
		"| --- | --- |",                      // 31
		"| `delete_page` | deletes |",        // 32
		"",                                   // 33
		"Optional request headers:",          // 34
		"",                                   // 35
		"| `accept` | media type |",          // 36: a table under a lead-in
		"",                                   // 37
		"### More",                           // 38
		"Parameters:",                        // 39
		"### Still tools",                    // 40: a heading ends the lead-in
		"- `rename_page`",                    // 41
	}, "\n")
	var got []string
	for _, a := range readmeTools(md) {
		got = append(got, a.Name+":"+itoa(a.Line))
	}
	want := []string{"fetch_page:12", "list_pages:15", "count_pages:18", "export_pages:24", "delete_page:32", "rename_page:41"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("readmeTools = %v\nwant %v", got, want)
	}
}
