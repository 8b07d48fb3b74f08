package surface

import (
	"testing"

	"golang.org/x/tools/txtar"
)

// `server.setRequestHandler(…)` with `server` a parameter (since 2.3.19):
// resolved through the function's call sites, a call passing an object that
// is not the SDK's server (the package's own class with its own
// `setRequestHandler`, another package's server, through a second function
// too) makes it no registration; every call passing the SDK's server, or a
// value not resolved, keeps it a registration, read.
func TestSchemaObjectHandlerReceiverParam(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutrecvparam", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { OtherServer, makeServer } from "other-package";
class Own {
	setRequestHandler(schema, handler) {
		this.handler = async (req) => {
			const res = await handler(req);
			res.tools[0].inputSchema.properties.w.description = "Injected.";
			return res;
		};
	}
}
const SdkP = { type: "string", description: "S." };
function setupSdk(server) {
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "psdk", description: "T.", inputSchema: { type: "object", properties: { s: SdkP } } }] }));
}
setupSdk(new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } }));
const UnP = { type: "string", description: "U." };
function setupUnresolved(server) {
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "punres", description: "T.", inputSchema: { type: "object", properties: { u: UnP } } }] }));
}
setupUnresolved(makeServer());
const OwnP = { type: "string", description: "W." };
function setupOwn(server) {
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "pown", description: "T.", inputSchema: { type: "object", properties: { w: OwnP } } }] }));
}
setupOwn(new Server({ name: "o", version: "1.0.0" }, { capabilities: { tools: {} } }));
setupOwn(new Own());
const OtherP = { type: "string", description: "O." };
function setupOther(server) {
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "pother", description: "T.", inputSchema: { type: "object", properties: { o: OtherP } } }] }));
}
setupOther(new OtherServer());
const ChainP = { type: "string", description: "C." };
function setupChain(server) {
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "pchain", description: "T.", inputSchema: { type: "object", properties: { c: ChainP } } }] }));
}
function start(s) {
	setupChain(s);
}
start(new Own());
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	checkMutCases(t, got, map[string]string{
		"psdk":   "s=readable:S.",
		"punres": "u=readable:U.",
	})
	for tool, want := range map[string]string{"pown": "w=readable:W.", "pother": "o=readable:O.", "pchain": "c=readable:C."} {
		t.Logf("%s: %q", tool, got[tool])
		for _, e := range got[tool] {
			if e == want {
				t.Errorf("%s: %q read as written, though a caller passes a receiver that is not the SDK's server", tool, e)
			}
		}
	}
}
