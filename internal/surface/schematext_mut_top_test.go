package surface

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// The schema object named in a registration's config
// (`server.registerTool(n, { description, inputSchema: S }, cb)`) is
// checked for changes like any name below it (methodology §5.3, since
// 2.3.20): a member write, a member rebound and a package function given S
// make the schema a gap wherever the write is (the same module, another
// module through an import); S only read (handed to registerTool again,
// spread, Object.keys of its properties, JSON.stringify) stays read.
func TestSchemaObjectTopNameChanged(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "muttop", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/shared.js --
export const Imported = { type: "object", properties: { i: { type: "string", description: "I." } } };
export const ImportedZ = { iz: z.string().describe("IZ.") };
import { z } from "zod";
-- dist/other.js --
import { Imported, ImportedZ } from "./shared.js";
import { z } from "zod";
Imported.properties.i.description = "Injected.";
ImportedZ.iz = z.string().describe("Injected.");
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { Imported, ImportedZ } from "./shared.js";
const server = new McpServer({ name: "m", version: "1.0.0" });
const Member = { type: "object", properties: { q: { type: "string", description: "Q." } } };
Member.properties.q.description = "Injected.";
const Rebound = { type: "object", properties: { u: { type: "string", description: "U." } } };
Rebound.properties = { u: { type: "string", description: "Injected." } };
const Handed = { type: "object", properties: { v: { type: "string", description: "V." } } };
function f(x) { x.properties.v.description = "Injected."; }
f(Handed);
const Zod = { z: z.string().describe("Z.") };
Zod.z = z.string().describe("Injected.");
const ZodHanded = { zh: z.string().describe("ZH.") };
function g(x) { x.zh = z.string().describe("Injected."); }
g(ZodHanded);
const Twin = { type: "object", properties: { t: { type: "string", description: "T." } } };
const spreadTwin = { ...Twin };
console.log(Object.keys(Twin.properties), JSON.stringify(Twin), spreadTwin.type);
const { properties: twinProps } = Twin;
console.log(twinProps.t.description);
const Destructured = { type: "object", properties: { d: { type: "string", description: "D." } } };
const { properties: dp } = Destructured;
dp.d.description = "Injected.";
const ZodTwin = { zt: z.string().describe("ZT.") };
console.log(Object.keys(ZodTwin), JSON.stringify(ZodTwin));
server.registerTool("member", { description: "Member written.", inputSchema: Member }, async () => ({ content: [] }));
server.registerTool("rebound", { description: "Member rebound.", inputSchema: Rebound }, async () => ({ content: [] }));
server.registerTool("handed", { description: "Handed to a function.", inputSchema: Handed }, async () => ({ content: [] }));
server.registerTool("imported", { description: "Written in another module.", inputSchema: Imported }, async () => ({ content: [] }));
server.registerTool("zod", { description: "A zod shape written.", inputSchema: Zod }, async () => ({ content: [] }));
server.registerTool("zodhanded", { description: "A zod shape handed on.", inputSchema: ZodHanded }, async () => ({ content: [] }));
server.registerTool("importedz", { description: "A zod shape written in another module.", inputSchema: ImportedZ }, async () => ({ content: [] }));
server.registerTool("destructured", { description: "Destructured and written.", inputSchema: Destructured }, async () => ({ content: [] }));
server.registerTool("twin", { description: "Only read.", inputSchema: Twin }, async () => ({ content: [] }));
server.registerTool("twin2", { description: "Only read, again.", inputSchema: Twin }, async () => ({ content: [] }));
server.registerTool("zodtwin", { description: "A zod shape only read.", inputSchema: ZodTwin }, async () => ({ content: [] }));
`))
	got := paramTextsByTool(extractArchive(t, a))
	for _, tool := range []string{"member", "rebound", "handed", "imported", "zod", "zodhanded", "importedz", "destructured"} {
		if !hasUnreadSchema(got[tool], "changed after it is built") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tool, got[tool])
		}
	}
	for tool, w := range map[string]string{
		"twin":    "t=readable:T.",
		"twin2":   "t=readable:T.",
		"zodtwin": "zt=readable:ZT.",
	} {
		g := got[tool]
		sortStrings(g)
		if j := strings.Join(g, "|"); j != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, j, w)
		}
	}
}

// The registration's own routes to a config's schema are followed use by
// use (since 2.3.20): a key destructured to a plain name, a list pushed to
// below its elements, a handler lowered by tsc's __awaiter, a method of a
// loop's elements that cannot reach this, a Set's has. A write through the
// name destructured, a push on the schema's own list and a method that may
// reach its receiver stay changes.
func TestSchemaObjectTopNameRoutes(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "muttoproutes", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "m", version: "1.0.0" });
const Hidden = new Set(["none"]);
const Listed = [
  { name: "listed", inputSchema: { type: "object", properties: { l: { type: "string", description: "L." } } }, run: async () => ({ content: [] }) },
];
Listed.push({ name: "pushed", inputSchema: { type: "object" }, run: async () => ({ content: [] }) });
function setup(options) {
  const { tools } = options;
  for (const t of tools) {
    if (Hidden.has(t.name)) continue;
    server.registerTool(t.name, { description: "Listed.", inputSchema: t.inputSchema }, async () => ({ content: [] }));
  }
}
setup({ tools: Listed });
const Written = [
  { name: "written", inputSchema: { type: "object", properties: { w: { type: "string", description: "W." } } } },
];
function setup2(options) {
  const { tools: list } = options;
  list[0].inputSchema.properties.w.description = "Injected.";
  for (const t of list) {
    server.registerTool(t.name, { description: "Written.", inputSchema: t.inputSchema }, async () => ({ content: [] }));
  }
}
setup2({ tools: Written });
const Own = { type: "object", anyOf: [{ type: "object", properties: { o: { type: "string", description: "O." } } }] };
Own.anyOf.push({ type: "object", properties: { o: { type: "string", description: "Injected." } } });
server.registerTool("own", { description: "Its own list pushed to.", inputSchema: Own }, async () => ({ content: [] }));
const ThisUsing = [
  { name: "thisusing", inputSchema: { type: "object", properties: { u: { type: "string", description: "U." } } }, run() { this.inputSchema.properties.u.description = "Injected."; } },
];
const ArrowRun = [
  { name: "arrowrun", inputSchema: { type: "object", properties: { r: { type: "string", description: "R." } } }, run: async () => ({ content: [] }) },
];
for (const t of ArrowRun) {
  t.run();
  server.registerTool(t.name, { description: "A method that cannot use this.", inputSchema: t.inputSchema }, async () => ({ content: [] }));
}
const FoundBase = { name: "found", inputSchema: { type: "object", properties: { f: { type: "string", description: "F." } } } };
const FoundList = [{ ...FoundBase, run: async () => ({ content: [] }) }];
const found = FoundList.find((t) => t.name === process.env.TOOL);
found.run();
server.registerTool(FoundList[0].name, { description: "Found, its method called.", inputSchema: FoundList[0].inputSchema }, async () => ({ content: [] }));
for (const t of ThisUsing) {
  t.run();
  server.registerTool(t.name, { description: "A method using this.", inputSchema: t.inputSchema }, async () => ({ content: [] }));
}
`))
	got := paramTextsByTool(extractArchive(t, a))
	for _, tool := range []string{"written", "own", "thisusing"} {
		if !hasUnreadSchema(got[tool], "changed after it is built") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tool, got[tool])
		}
	}
	for tool, w := range map[string]string{"listed": "l=readable:L.", "arrowrun": "r=readable:R.", "found": "f=readable:F."} {
		if g := strings.Join(got[tool], "|"); g != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, g, w)
		}
	}
}

// A dispatcher's answer and a handler tsc lowered with __awaiter return the
// list the server sends: the schema's route, read (since 2.3.20).
func TestSchemaObjectTopNameHandlerReturns(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "muttopret", "version": "1.0.0", "main": "index.js"}
-- index.js --
const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
const { ListToolsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) { return new P(function (resolve) { resolve(generator()); }); };
const LOOKUP = { name: "lookup", description: "Look up.", inputSchema: { type: "object", properties: { w: { type: "string", description: "Word." } } } };
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => __awaiter(void 0, void 0, void 0, function* () {
    return ({ tools: [LOOKUP] });
}));
const DEFINE = { name: "define", description: "Define.", inputSchema: { type: "object", properties: { d: { type: "string", description: "Term." } } } };
function handle(req) {
  switch (req.method) {
    case "tools/list":
      return { tools: [DEFINE] };
  }
}
module.exports = { handle };
`))
	got := paramTextsByTool(extractArchive(t, a))
	for tool, w := range map[string]string{"lookup": "w=readable:Word.", "define": "d=readable:Term."} {
		if g := strings.Join(got[tool], "|"); g != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, g, w)
		}
	}
}

// esbuild's namespace objects on the route (since 2.3.20): the uses of
// `ns` are the definitions' under the getter's key; a write through the
// namespace is a change, a flatMap over the namespaces and a method of
// theirs with no this read.
func TestSchemaObjectTopNameEsbuildNamespace(t *testing.T) {
	for _, tc := range []struct {
		name, extra string
		gap         bool
	}{
		{"read", ``, false},
		{"written", `drive_exports.toolDefinitions[0].inputSchema.properties.p.description = "Injected.";`, true},
	} {
		a := txtar.Parse([]byte(`
-- package.json --
{"name": "muttopns", "version": "1.0.0", "type": "module", "main": "dist/index.js"}
-- dist/index.js --
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
var drive_exports = {};
__export(drive_exports, {
  handleTool: () => handleTool,
  toolDefinitions: () => toolDefinitions
});
var toolDefinitions = [
  { name: "listFiles", description: "List files.", inputSchema: { type: "object", properties: { p: { type: "string", description: "The folder." } } } }
];
function handleTool(name) { return null; }
var domainModules = [drive_exports];
var s = new Server({ name: "ns", version: "1.0.0" }, { capabilities: { tools: {} } });
s.setRequestHandler(ListToolsRequestSchema, async () => {
  const definitions = domainModules.flatMap((m) => m.toolDefinitions);
  return { tools: definitions };
});
s.setRequestHandler(CallToolRequestSchema, async (request) => {
  for (const mod of domainModules) {
    const result = await mod.handleTool(request.params.name);
    if (result !== null) return result;
  }
  return { content: [] };
});
` + tc.extra + `
`))
		got := paramTextsByTool(extractArchive(t, a))
		if tc.gap {
			if !hasUnreadSchema(got["listFiles"], "changed after it is built") {
				t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tc.name, got["listFiles"])
			}
			continue
		}
		if g := strings.Join(got["listFiles"], "|"); g != "p=readable:The folder." {
			t.Errorf("%s: parameter entries %q, want p=readable:The folder.", tc.name, g)
		}
	}
}
