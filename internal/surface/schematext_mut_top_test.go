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
const ZodTwin = { zt: z.string().describe("ZT.") };
console.log(Object.keys(ZodTwin), JSON.stringify(ZodTwin));
server.registerTool("member", { description: "Member written.", inputSchema: Member }, async () => ({ content: [] }));
server.registerTool("rebound", { description: "Member rebound.", inputSchema: Rebound }, async () => ({ content: [] }));
server.registerTool("handed", { description: "Handed to a function.", inputSchema: Handed }, async () => ({ content: [] }));
server.registerTool("imported", { description: "Written in another module.", inputSchema: Imported }, async () => ({ content: [] }));
server.registerTool("zod", { description: "A zod shape written.", inputSchema: Zod }, async () => ({ content: [] }));
server.registerTool("zodhanded", { description: "A zod shape handed on.", inputSchema: ZodHanded }, async () => ({ content: [] }));
server.registerTool("importedz", { description: "A zod shape written in another module.", inputSchema: ImportedZ }, async () => ({ content: [] }));
server.registerTool("twin", { description: "Only read.", inputSchema: Twin }, async () => ({ content: [] }));
server.registerTool("twin2", { description: "Only read, again.", inputSchema: Twin }, async () => ({ content: [] }));
server.registerTool("zodtwin", { description: "A zod shape only read.", inputSchema: ZodTwin }, async () => ({ content: [] }));
`))
	got := paramTextsByTool(extractArchive(t, a))
	for _, tool := range []string{"member", "rebound", "handed", "imported", "zod", "zodhanded", "importedz"} {
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
