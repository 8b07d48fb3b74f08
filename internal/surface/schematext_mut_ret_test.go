package surface

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// A schema object returned by a function of the package, alone or inside
// the literal the function returns, is followed to the function's callers
// (since 2.3.17): read when the function is not exported and every use of
// its name is a direct call whose result only reads; a gap when a caller
// writes through the result, when the function escapes (exported, handed on
// as a callback), and when the returning function has no name to enumerate
// (an arrow in a handler table handed to another function).
func TestSchemaObjectReturnedToCallers(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutret", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "m", version: "1.0.0" });
const RetRead = { a: z.string().describe("A.") };
function wrapRead() { return { list: [RetRead], n: 1 }; }
const got = wrapRead();
console.log(got.n, wrapRead().list[0].a);
const RetBare = { b: z.string().describe("B.") };
const bare = () => RetBare;
console.log(bare().b);
const RetWrite = { w: z.string().describe("W.") };
function wrapWrite() { return { tools: [RetWrite] }; }
const r = wrapWrite();
r.tools[0].evil = z.string().describe("Injected.");
const RetOther = { o: z.string().describe("O.") };
function wrapOther() { return { tools: [RetOther], meta: {} }; }
wrapOther().meta.x = 1;
const RetExported = { e: z.string().describe("E.") };
export function wrapExported() { return { tools: [RetExported] }; }
const RetCallback = { c: z.string().describe("C.") };
function wrapCallback() { return { tools: [RetCallback] }; }
setTimeout(wrapCallback, 0);
const RetHandler = { h: z.string().describe("H.") };
function runServer(opts) { return opts; }
runServer({ onInit: async () => ({ tools: [RetHandler] }) });
server.tool("retread", "Returned, only read.", RetRead, async () => ({ content: [] }));
server.tool("retbare", "Returned alone, only read.", RetBare, async () => ({ content: [] }));
server.tool("retother", "Returned, another key written.", RetOther, async () => ({ content: [] }));
server.tool("retwrite", "Returned, written by a caller.", RetWrite, async () => ({ content: [] }));
server.tool("retexported", "Returned by an exported function.", RetExported, async () => ({ content: [] }));
server.tool("retcallback", "Returned by a callback.", RetCallback, async () => ({ content: [] }));
server.tool("rethandler", "Returned by a handler in a table.", RetHandler, async () => ({ content: [] }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	for _, tool := range []string{"retwrite", "retexported", "retcallback", "rethandler"} {
		if !hasUnreadSchema(got[tool], "changed after it is built") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tool, got[tool])
		}
	}
	want := map[string]string{
		"retread":  "a=readable:A.",
		"retbare":  "b=readable:B.",
		"retother": "o=readable:O.",
	}
	for tool, w := range want {
		g := got[tool]
		sortStrings(g)
		if j := strings.Join(g, "|"); j != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, j, w)
		}
	}
}
