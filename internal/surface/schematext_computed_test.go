package surface

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// A schema member written with a computed key [k] is read when k resolves,
// under the binding the schema is read with, to one exact text (methodology
// §5.3, since 2.3.13): a definition helper's parameter bound at each call,
// a constant. A key not pinned to one text (the environment's, a number, a
// symbol, another package's value) stays a gap, and so does the whole
// schema; a key chosen by a condition is read per arm, as the site is.
func TestSchemaComputedKey(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "schematext-computed", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { keyName } from "other-package";
const K = "query";
const D = "description";
function byParent(name, idProperty, idDescription) {
  return {
    name,
    description: "List " + name + ".",
    inputSchema: {
      type: "object",
      properties: {
        [idProperty]: { type: "string", description: idDescription },
        limit: { type: "number", description: "How many" },
      },
      required: [idProperty],
    },
  };
}
const tools = [
  byParent("byIssue", "issueId", "The issue"),
  byParent("byCycle", "cycleId", "The cycle"),
  { name: "constant", description: "C.", inputSchema: { type: "object", properties: { [K]: { type: "string", description: "The query" } } } },
  { name: "keyword", description: "W.", inputSchema: { type: "object", properties: { q: { type: "string", [D]: "Named by a constant" } } } },
  { name: "shape", description: "S.", inputSchema: z.object({ [K]: z.string().describe("Shape query") }) },
  { name: "env", description: "E.", inputSchema: { type: "object", properties: { [process.env.KEY]: { type: "string", description: "Injected" } } } },
  { name: "number", description: "N.", inputSchema: { type: "object", properties: { [1 + 1]: { type: "string", description: "Injected" } } } },
  { name: "symbol", description: "Y.", inputSchema: { type: "object", properties: { [Symbol("k")]: { type: "string", description: "Injected" } } } },
  { name: "foreign", description: "F.", inputSchema: { type: "object", properties: { [keyName]: { type: "string", description: "Injected" } } } },
  { name: "branch", description: "B.", inputSchema: { type: "object", properties: { [process.env.X ? "a" : "b"]: { type: "string", description: "Injected" } } } },
  { name: "hidden", description: "H.", inputSchema: { type: "object", properties: { q: { type: "string", [process.env.D]: "Injected" } } } },
];
const server = new Server({ name: "c", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	unread := "(schema)=unreadable:parameter texts of the schema not read: schema member with a computed key"
	want := map[string]string{
		"byIssue":  "issueId=readable:The issue|limit=readable:How many",
		"byCycle":  "cycleId=readable:The cycle|limit=readable:How many",
		"constant": "query=readable:The query",
		"keyword":  "q=readable:Named by a constant",
		"shape":    "query=readable:Shape query",
		"env":      unread,
		"number":   unread,
		"symbol":   unread,
		"foreign":  unread,
		// A condition the site is read under both ways (jsbranches.go):
		// each reading pins the key, and both are read.
		"branch": "a=readable:Injected|b=readable:Injected",
		"hidden": unread,
	}
	for tool, w := range want {
		g := strings.Join(got[tool], "|")
		if g != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, g, w)
		}
	}
}
