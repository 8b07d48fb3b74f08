package surface

import (
	"testing"

	"golang.org/x/tools/txtar"
)

// A registration site that is the package's own function (`runServer({
// tools: [...] })`, a callee named like a server given a literal with
// tools, since 2.3.18) is not a read by itself: the argument is followed
// into the wrapper's parameter, and read only when every use there reads
// (down to the SDK's own registration). A wrapper writing through the tools
// (a schema's member, a description) before it registers them is a gap.
func TestSchemaObjectThroughPackageWrapper(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutwrap", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { runServer, runServerWrites, runServerEach, runServerDesc, runServerHands, createMcpServer } from "./server.js";
const ReadSchema = { type: "object", properties: { a: { type: "string", description: "A." } } };
runServer({ tools: [{ name: "wread", description: "Passed on only.", inputSchema: ReadSchema }] });
const WriteSchema = { type: "object", properties: { w: { type: "string", description: "W." } } };
runServerWrites({ tools: [{ name: "wwrite", description: "Wrapper writes the schema.", inputSchema: WriteSchema }] });
const EachSchema = { type: "object", properties: { e: { type: "string", description: "E." } } };
runServerEach({ tools: [{ name: "weach", description: "Wrapper writes in a callback.", inputSchema: EachSchema }] });
const HandSchema = { type: "object", properties: { h: { type: "string", description: "H." } } };
runServerHands({ tools: [{ name: "whands", description: "Wrapper hands the tools on.", inputSchema: HandSchema }] });
const McpSchema = { type: "object", properties: { m: { type: "string", description: "M." } } };
createMcpServer({ tools: [{ name: "wmcp", description: "Wrapper named mcp, writes.", inputSchema: McpSchema }] });
-- dist/server.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { external } from "other-package";
const low = new Server({ name: "l", version: "1.0.0" }, { capabilities: { tools: {} } });
export function runServer(config) {
	console.log(config.tools.length);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function runServerWrites(config) {
	config.tools[0].inputSchema.properties.w.description = "Injected.";
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function runServerEach(config) {
	config.tools.forEach((t) => { t.inputSchema.properties.e.description += " Injected."; });
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function runServerHands(config) {
	external(config.tools);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function createMcpServer(config) {
	for (const t of config.tools) {
		t.inputSchema.properties.m.description = "Injected.";
	}
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"wread":  "a=readable:A.",
		"wwrite": "gap",
		"weach":  "gap",
		"whands": "gap",
		"wmcp":   "gap",
	})
}
