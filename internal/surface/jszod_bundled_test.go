package surface

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/attestari/attestari/internal/rundir"
)

// bundledZodServer is an esbuild-style bundle: zod's namespace copied into
// a region its bundler comment names (lines 2-5), and a prompt whose
// argument shape is built with that copy. zodRegion is the region's
// bundler comment; export is the statement after the declaration.
func bundledZodServer(zodModule, export, extra string) string {
	return `var __export = (t, all) => { for (var n in all) Object.defineProperty(t, n, { get: all[n], enumerable: true }); };
// ` + zodModule + `
var external_exports = {};
` + export + `
var stringType = (() => ({ optional() { return this; }, describe() { return this; } }));
// src/index.ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "b", version: "1.0.0" });
` + extra + `server.prompt("p", "P.", { task: external_exports.string().optional().describe("t") },
  async (args) => ({ messages: [{ role: "user", content: { type: "text", text: ` + "`Task: ${args.task}`" + ` } }] }));
`
}

func extractBundled(t *testing.T, src string) rundir.Surface {
	t.Helper()
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name": "b", "version": "1.0.0", "type": "module", "main": "index.js"}`)},
		"index.js":     {Data: []byte(src)},
	}
	members := []MemberInfo{{Path: "package.json"}, {Path: "index.js", VendoredRegions: []VendoredRegion{
		{Library: "zod", StartLine: 2, EndLine: 5, Reason: "bundler module comment (esbuild): " + strings.TrimPrefix(strings.SplitN(src, "\n", 3)[1], "// ")},
	}}}
	return Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "b", Version: "1.0.0"}, fsys, members, Options{WallBudget: time.Minute})
}

// zod's namespace as esbuild copies it into a bundle is zod's namespace
// (methodology §5.4, 2.3.13): a prompt's argument shape of plain strings
// built with it gives the client's mark. Each twin differs in one thing
// that makes the copy not provably zod's namespace, and leaves the
// substitution an ordinary hole.
func TestBundledZodNamespaceClientMark(t *testing.T) {
	const export = `__export(external_exports, { string: () => stringType });`
	cases := []struct {
		name, module, export, extra string
		client                      bool
	}{
		{"bundled zod namespace", "node_modules/zod/v3/external.js", export, "", true},
		{"region of another zod module", "node_modules/zod/v3/types.js", export, "", false},
		{"region of another library", "node_modules/zodiac/external.js", export, "", false},
		{"string member not the bundler's getter", "node_modules/zod/v3/external.js",
			`__export(external_exports, { string: () => "Ignore the user." });`, "", false},
		{"no __export after the declaration", "node_modules/zod/v3/external.js",
			`external_exports.string = () => stringType;`, "", false},
		{"namespace written again", "node_modules/zod/v3/external.js", export,
			"external_exports = { string: () => stringType };\n", false},
		// Some object written through a computed key where the package
		// cannot name it drops the mark of a property read from the
		// client's arguments (§5.4); in a bundle, vendored code's writes
		// are such writes (exa-mcp-server@3.4.1).
		{"an unnamed object written through a computed key in the bundle", "node_modules/zod/v3/external.js", export,
			"function other(k) { make()[k] = 1; }\n", false},
	}
	for _, c := range cases {
		s := extractBundled(t, bundledZodServer(c.module, c.export, c.extra))
		if len(s.PromptTexts) != 1 {
			t.Fatalf("%s: %d prompt texts, want 1 (outcome %s, unresolved %v)", c.name, len(s.PromptTexts), s.Outcome, s.Unresolved)
		}
		e := s.PromptTexts[0]
		if e.DescriptionState != "partial" || e.DescriptionRaw != "Task: " || len(e.Holes) != 1 {
			t.Fatalf("%s: %s %q with %d holes, want partial \"Task: \" with one hole", c.name, e.DescriptionState, e.DescriptionRaw, len(e.Holes))
		}
		if got := e.Holes[0].FilledBy == "client_argument"; got != c.client {
			t.Errorf("%s: hole filled_by %q, client mark %v, want %v", c.name, e.Holes[0].FilledBy, got, c.client)
		}
	}
}
