package surface

import (
	"reflect"
	"strings"
	"testing"
)

// TestReadmeToolsGroupTablesAndDetails: a table whose header's first cell
// names groups lists groups and gives no names; a <details> block whose
// summary begins with one tool's name in code documents that tool and gives
// no names up to its </details>; a summary that names tools heads a group
// and its names are taken (methodology §5.2 rule 3, 2.3.10).
func TestReadmeToolsGroupTablesAndDetails(t *testing.T) {
	md := strings.Join([]string{
		"## Tools",                // 1
		"| Group ID | Contents |", // 2
		"| --- | --- |",           // 3
		"| `commerce` | shops |",  // 4: a group
		"",                        // 5
		"| Toolset | Tools |",     // 6
		"| --- | --- |",           // 7
		"| `files` | read_file |", // 8: a group
		"",                        // 9
		"| Tool | Group |",        // 10
		"| --- | --- |",           // 11
		"| `read_file` | files |", // 12: a tool
		"",                        // 13
		"<details>",               // 14
		"<summary><code>run_job</code> — run</summary>", // 15
		"",                                 // 16
		"Jobs of the remote scheduler:",    // 17
		"- `get_errors` — errors",          // 18: documents run_job
		"<details><summary>more</summary>", // 19
		"- `get_logs`",                     // 20: nested block, still inside
		"</details>",                       // 21
		"- `get_status`",                   // 22: still inside the outer block
		"</details>",                       // 23
		"- `list_jobs`",                    // 24: after the block
		"",                                 // 25
		"<details><summary>`admin` tools</summary>", // 26: a group's summary
		"",               // 27
		"- `delete_job`", // 28: taken
		"</details>",     // 29
		"<details><summary><b>`purge`</b></summary>", // 30: code behind emphasis
		"- `purge_all`",  // 31: documents purge
		"</details>",     // 32
		"- `cancel_job`", // 33
	}, "\n")
	var got []string
	for _, a := range readmeTools(md) {
		got = append(got, a.Name+":"+itoa(a.Line))
	}
	want := []string{"read_file:12", "list_jobs:24", "delete_job:28", "cancel_job:33"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("names %v, want %v", got, want)
	}
}

// TestReadmeToolsDetailsEndsWithSection: a <details> block left open does
// not outlive the tools section.
func TestReadmeToolsDetailsEndsWithSection(t *testing.T) {
	md := "## Tools\n<details><summary><code>a_tool</code></summary>\n- `param`\n## Other\n## More tools\n- `b_tool`\n"
	var got []string
	for _, a := range readmeTools(md) {
		got = append(got, a.Name)
	}
	if !reflect.DeepEqual(got, []string{"b_tool"}) {
		t.Errorf("names %v, want [b_tool]", got)
	}
}

func advertisedStates(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	s := extractMap(t, files, Options{})
	out := map[string]string{}
	for _, a := range s.AdvertisedTools {
		switch {
		case !a.Stale:
			out[a.Name] = "refuses"
		case a.StaleBy != "":
			out[a.Name] = "stale:" + a.StaleBy
		default:
			out[a.Name] = "stale"
		}
	}
	return out
}

// TestStaleAdvertisementLibraries: the SDK's v2 packages and FastMCP are
// frameworks that register only what they are handed; another MCP library
// keeps every name refusing while the package names it anywhere, and
// registers nothing when nothing but package.json names it (2.3.10).
func TestStaleAdvertisementLibraries(t *testing.T) {
	pkg := func(deps string) string {
		return `{"name": "s", "main": "index.js", "dependencies": {` + deps + `}}`
	}
	for _, c := range []struct {
		name  string
		deps  string
		extra map[string]string
		want  string
	}{
		{"the SDK's v2 split packages", `"@modelcontextprotocol/server": "2", "@modelcontextprotocol/node": "2", "@modelcontextprotocol/express": "2"`, nil, "stale"},
		{"FastMCP", `"fastmcp": "^3.23.1"`, nil, "stale"},
		{"an MCP library nothing names", `"@modelcontextprotocol/sdk": "1", "acme-mcp-proxy": "5"`, nil, "stale"},
		{"an MCP library the code imports", `"@modelcontextprotocol/sdk": "1", "acme-mcp-proxy": "5"`,
			map[string]string{"proxy.js": "import { start } from \"acme-mcp-proxy\";\nstart();\n"}, "refuses"},
		{"an MCP library a data member names", `"@modelcontextprotocol/sdk": "1", "acme-mcp-proxy": "5"`,
			map[string]string{"plugins.json": `["acme-mcp-proxy"]`}, "refuses"},
		{"an MCP library an unparsed member loads", `"@modelcontextprotocol/sdk": "1", "acme-mcp-proxy": "5"`,
			map[string]string{"broken.js": "require('acme-mcp-proxy') ((("}, "refuses"},
		{"the SDK's other extensions are libraries", `"@modelcontextprotocol/sdk": "1", "@modelcontextprotocol/ext-apps": "1"`,
			map[string]string{"apps.js": "import { registerAppTool } from \"@modelcontextprotocol/ext-apps/server\";\n"}, "refuses"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"package.json": pkg(c.deps), "index.js": staleServer, "README.md": staleReadme}
			for k, v := range c.extra {
				files[k] = v
			}
			if got := advertisedStates(t, files)["retired_lookup"]; got != c.want {
				t.Errorf("retired_lookup %s, want %s", got, c.want)
			}
		})
	}
}

// TestStaleAdvertisementWhitespaceAndTranslations: a name is sought in the
// whitespace-free runs of a piece or a data member, so prose that holds its
// words apart is no occurrence, while a run that holds it is; the README's
// translations are not searched unless a piece names a readme (2.3.10).
func TestStaleAdvertisementWhitespaceAndTranslations(t *testing.T) {
	plain := `{"name": "s", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1"}}`
	for _, c := range []struct {
		name  string
		extra map[string]string
		want  string
	}{
		{"words apart in prose", map[string]string{"text.js": "export const d = 'Retired lookup of old pages';\n"}, "stale"},
		{"words apart in a data member", map[string]string{"notes.txt": "retired\nlookup\n"}, "stale"},
		{"one run of prose", map[string]string{"text.js": "export const d = 'Call toolName=\"retired_lookup\" first';\n"}, "refuses"},
		{"a camel-case identifier", map[string]string{"text.js": "export function retiredLookup() {}\n"}, "refuses"},
		{"a README translation", map[string]string{"README.ja.md": "## ツール\n- `retired_lookup`\n"}, "stale"},
		{"a README translation the code may open", map[string]string{"README.ja.md": "- `retired_lookup`\n",
			"docs.js": "export const f = `README.${lang}.md`;\n"}, "refuses"},
		{"an identifier that only begins like readme", map[string]string{"README_zh.md": "- `retired_lookup`\n",
			"msg.js": "export function readMessage() {}\n"}, "stale"},
		{"a translation below the root is another member", map[string]string{"docs/README.ja.md": "- `retired_lookup`\n"}, "refuses"},
		{"a translation with a region", map[string]string{"README.zh-CN.md": "- `retired_lookup`\n"}, "stale"},
		{"a README that is not a translation is another member", map[string]string{"README-tools.md": "- `retired_lookup`\n"}, "refuses"},
		{"a README with a three-letter suffix is another member", map[string]string{"README.dev.md": "- `retired_lookup`\n"}, "refuses"},
		{"a changelog is another member", map[string]string{"CHANGELOG.md": "- removed `retired_lookup`\n"}, "refuses"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"package.json": plain, "index.js": staleServer, "README.md": staleReadme}
			for k, v := range c.extra {
				files[k] = v
			}
			if got := advertisedStates(t, files)["retired_lookup"]; got != c.want {
				t.Errorf("retired_lookup %s, want %s", got, c.want)
			}
		})
	}
}

// TestStaleAdvertisementPrefix: a parsed tool's name without the prefix all
// the package's tools share is a shortened mention (stale_by prefix), unless
// it is itself a whole literal of the package or in a data member, or the
// tools share no prefix (2.3.10).
func TestStaleAdvertisementPrefix(t *testing.T) {
	plain := `{"name": "s", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1"}}`
	server := func(names ...string) string {
		var b strings.Builder
		b.WriteString("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nconst server = new McpServer({ name: \"s\", version: \"1\" });\n")
		for _, n := range names {
			b.WriteString("server.tool(\"" + n + "\", \"Does it.\", async () => ({ content: [] }));\n")
		}
		return b.String()
	}
	readme := "# s\n\n## Tools\n\n- `geocode`\n- `search_places`\n"
	for _, c := range []struct {
		name  string
		index string
		extra map[string]string
		want  map[string]string
	}{
		{"shared prefix", server("maps_geocode", "maps_search_places", "maps_elevation"), nil,
			map[string]string{"geocode": "stale:prefix", "search_places": "stale:prefix"}},
		{"a whole literal of the name", server("maps_geocode", "maps_search_places"),
			map[string]string{"ops.js": "export const ops = ['geocode'];\n"},
			map[string]string{"geocode": "refuses", "search_places": "stale:prefix"}},
		{"in a data member", server("maps_geocode", "maps_search_places"),
			map[string]string{"ops.json": `{"op": "geocode"}`},
			map[string]string{"geocode": "refuses", "search_places": "stale:prefix"}},
		{"no shared prefix", server("maps_geocode", "search_places_v2", "maps_search_places"), nil,
			map[string]string{"geocode": "refuses", "search_places": "refuses"}},
		{"one tool has no prefix of its own", server("maps_geocode"), nil,
			map[string]string{"geocode": "refuses", "search_places": "stale"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"package.json": plain, "index.js": c.index, "README.md": readme}
			for k, v := range c.extra {
				files[k] = v
			}
			if got := advertisedStates(t, files); !reflect.DeepEqual(got, c.want) {
				t.Errorf("advertised %v, want %v", got, c.want)
			}
		})
	}
}

// TestToolPrefix: the prefix is cut after its last separator and is never a
// whole tool name.
func TestToolPrefix(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"maps_geocode", "maps_get_elevation"}, "maps_"},
		{[]string{"acme-get-issue", "acme-get-user"}, "acme-get-"},
		{[]string{"getIssue", "getUser"}, ""},
		{[]string{"a_", "a_b"}, ""},
		{[]string{"only_one"}, ""},
	} {
		if got := prefixOf(c.names); got != c.want {
			t.Errorf("prefix of %v = %q, want %q", c.names, got, c.want)
		}
	}
}
