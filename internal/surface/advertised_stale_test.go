package surface

import (
	"testing"
)

const staleServer = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "s", version: "1" });
server.tool("search_docs", "Search.", async () => ({ content: [] }));
`

const staleReadme = "# s\n\n## Tools\n\n- `search_docs` - search\n- `retired_lookup` - gone\n"

func staleOf(t *testing.T, files map[string]string) (stale, advertised int) {
	t.Helper()
	s := extractMap(t, files, Options{})
	for _, a := range s.AdvertisedTools {
		advertised++
		if a.Stale {
			stale++
			if a.Name != "retired_lookup" {
				t.Errorf("%s marked stale", a.Name)
			}
		}
	}
	return stale, advertised
}

// TestStaleAdvertisementNeedsEvidence: a name is stale only where the whole
// package could be searched and no dependency could register it.
func TestStaleAdvertisementNeedsEvidence(t *testing.T) {
	base := func(pkg string) map[string]string {
		return map[string]string{"package.json": pkg, "index.js": staleServer, "README.md": staleReadme}
	}
	plain := `{"name": "s", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1", "zod": "^3"}}`
	loads := func(f map[string]string, lib string) map[string]string {
		f["kit.js"] = "import { extend } from \"" + lib + "\";\nextend();\n"
		return f
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  int
	}{
		{"absent everywhere", base(plain), 1},
		{"an MCP library dependency the package loads may register it", loads(base(`{"name": "s", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1", "some-mcp-toolkit": "^2"}}`), "some-mcp-toolkit"), 0},
		{"a peer MCP dependency the package loads", loads(base(`{"name": "s", "main": "index.js", "peerDependencies": {"@acme/ModelContext-kit": "^2"}}`), "@acme/ModelContext-kit"), 0},
		{"an MCP library dependency nothing loads (2.3.10)", base(`{"name": "s", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1", "some-mcp-toolkit": "^2"}}`), 1},
		{"a dev dependency does not run", base(`{"name": "s", "main": "index.js", "devDependencies": {"mcp-test-kit": "^2"}}`), 1},
		{"no package.json", map[string]string{"index.js": staleServer, "README.md": staleReadme}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, n := staleOf(t, c.files); got != c.want || n != 2 {
				t.Errorf("stale %d of %d advertised, want %d of 2", got, n, c.want)
			}
		})
	}
	withMember := func(path, data string) map[string]string {
		f := base(plain)
		f[path] = data
		return f
	}
	for _, c := range []struct {
		name, path, data string
		want             int
	}{
		{"a compressed member cannot be searched", "assets/tools.json.gz", "\x1f\x8b\x08\x00", 0},
		{"a data member names it", "config/legacy.yaml", "tools:\n  - retired-lookup\n", 0},
		{"a member that does not parse is read as bytes", "broken.py", "def (((: 'retired_lookup'", 0},
		{"a test file names it", "test/old.test.js", "it('retired_lookup', () => {});\n", 0},
		{"a comment is not code", "notes.js", "// retired_lookup was removed in 2.0\nexport const x = 1;\n", 1},
		{"a joined name: prefix and suffix literals", "names.js", "export const P = 'retired_';\nexport const S = ['lookup'];\n", 0},
		{"five pieces are too many to join", "names.js", "export const a = ['re', 'ti', 're', 'd_lo', 'ok', 'up'];\n", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := staleOf(t, withMember(c.path, c.data)); got != c.want {
				t.Errorf("stale %d, want %d", got, c.want)
			}
		})
	}
}

// TestNormName: case and separators do not make two names differ.
func TestNormName(t *testing.T) {
	for in, want := range map[string]string{"get-issue": "getissue", "Get_Issue": "getissue", "getIssue": "getissue", "a.b/c d": "abcd", "é_x": "éx"} {
		if got := normName(in); got != want {
			t.Errorf("normName(%q) = %q, want %q", in, got, want)
		}
	}
}
