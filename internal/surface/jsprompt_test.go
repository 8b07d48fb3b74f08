package surface

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// A helper's parameter read through the entry's call site (2.3.10) reaches
// the verifier with the call site's own spans: a quote across the helper's
// template and the call's literal verifies piece by piece, each excerpt the
// source bytes where it is written (the literal in index.js, the template's
// text in helpers.js); a quote joining the two literals of one call across
// the helper's text between them verifies as three pieces.
func TestSiteParamQuotesVerify(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join(goldenDir, "js_prompt_site_param.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	s := extractArchive(t, a)
	fsys := archiveFS(a)
	read := func(path string) ([]byte, error) { return fsys[path].Data, nil }
	cases := []struct {
		tool, file, quote string
		excerpts          []string // nil: rejected
	}{
		{"close_items", "helpers.js", "Give 'item_id'", []string{"Give '", "item_id", "'"}},
		{"close_items", "helpers.js", "item_id' or 'item_name'.", []string{"item_id", "' or '", "item_name", "'."}},
		{"close_lists", "index.js", "list_name", []string{"list_", "name"}},
		// The hole of an argument that is not a constant stays a hole.
		{"close_env", "helpers.js", "Give '' or", nil},
	}
	for _, c := range cases {
		checkQuotePieces(t, &s, read, "tool", c.tool, c.file, c.quote, c.excerpts)
	}
}

// An argument passed by spread at the parameter's place is not read through
// the call site: the call's values are not written there.
func TestSiteParamSpread(t *testing.T) {
	src := `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "spread", version: "1.0.0" });
function define(name, what) {
  server.tool(name, ` + "`Tags ${what}.`" + `, {}, async () => ({ content: [] }));
}
const rest = ["the tag"];
define("spread_tool", ...rest);
define("plain_tool", "the other tag");
`
	a := &txtar.Archive{Files: []txtar.File{
		{Name: "package.json", Data: []byte(`{"name": "spread", "version": "1.0.0", "type": "module", "main": "index.js"}`)},
		{Name: "index.js", Data: []byte(src)},
	}}
	s := extractArchive(t, a)
	var partial, readable int
	for _, e := range s.Tools {
		switch {
		case e.DescriptionState == "partial" && len(e.Holes) == 1 && e.Holes[0].Source == "${what}":
			partial++
		case e.DescriptionState == "readable" && e.DescriptionRaw == "Tags the other tag.":
			readable++
		default:
			t.Errorf("tool %q: %s %q %v", e.Name, e.DescriptionState, e.DescriptionRaw, e.Holes)
		}
	}
	if partial != 1 || readable != 1 {
		t.Errorf("%d partial and %d readable, want one of each", partial, readable)
	}
}
