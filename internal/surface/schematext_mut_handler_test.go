package surface

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// checkMutCases asserts, for each tool, either its parameter entries (want
// a "|"-joined sorted list) or, for want "gap", a (schema) entry unreadable
// because the object is changed after it is built.
func checkMutCases(t *testing.T, got map[string][]string, want map[string]string) {
	t.Helper()
	for tool, w := range want {
		g := append([]string(nil), got[tool]...)
		if w == "gap" {
			t.Logf("%s: %q", tool, g)
			if !hasUnreadSchema(g, "changed after it is built") {
				t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tool, g)
			}
			continue
		}
		sortStrings(g)
		if j := strings.Join(g, "|"); j != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, j, w)
		}
	}
}

// An arrow returning a literal that holds the schema object, written as a
// member of an object literal handed to a function of the package
// (`run({ init: async () => ({ tools }) })`, since 2.3.18): the parameter's
// member is followed to where the function calls it. Read when it is never
// called, or when each call's result only reads (the return of a callback
// of a request-handler registration, which only serialises it); a gap when
// the result is written, the member or the whole parameter is handed on or
// stored, the literal reaches its handler through this, a member of the
// parameter is written, the literal is held by a name, or the handler
// writes its result before returning it.
func TestSchemaObjectReturnedByHandlerMember(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "muthandler", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { runNever, runSDK, runSDKName, runWrite, runPassed, runStored, runEscape, runThis, runMemberWritten, runNoAwait, runTested } from "./runner.js";
const server = new McpServer({ name: "m", version: "1.0.0" });
const HNever = { a: z.string().describe("A.") };
runNever({ start: async () => {}, init: async () => ({ tools: [HNever] }) });
const HSdk = { b: z.string().describe("B.") };
runSDK({ init: async () => ({ tools: [{ name: "b", inputSchema: HSdk }] }) });
const HSdkName = { c: z.string().describe("C.") };
runSDKName({ init: () => ({ tools: [{ name: "c", inputSchema: HSdkName }] }) });
const HWrite = { w: z.string().describe("W.") };
runWrite({ init: async () => ({ tools: [{ name: "w", inputSchema: HWrite }] }) });
const HPassed = { p: z.string().describe("P.") };
runPassed({ init: async () => ({ tools: [HPassed] }) });
const HStored = { s: z.string().describe("S.") };
runStored({ init: async () => ({ tools: [HStored] }) });
const HEscape = { e: z.string().describe("E.") };
runEscape({ init: async () => ({ tools: [HEscape] }) });
const HThis = { t: z.string().describe("T.") };
runThis({ init: async () => ({ tools: [HThis] }), go() { return this.init(); } });
const HMember = { m: z.string().describe("M.") };
runMemberWritten({ init: async () => ({ tools: [HMember] }), go: () => 1 });
const HBefore = { f: z.string().describe("F.") };
runNever({ init: async () => { const res = { tools: [HBefore] }; res.tools[0].evil = z.string().describe("Injected."); return res; } });
const HGetter = { g: z.string().describe("G.") };
runNever({ init: async () => ({ tools: [HGetter] }), get self() { return this; } });
const HNoAwait = { x: z.string().describe("X.") };
runNoAwait({ init: () => ({ tools: [HNoAwait] }) });
const HTested = { y: z.string().describe("Y.") };
runTested({ init: async () => ({ tools: [HTested] }) });
const HNamed = { n: z.string().describe("N.") };
const namedOpts = { init: async () => ({ tools: [HNamed] }) };
runNever(namedOpts);
server.tool("hnever", "Handler never called.", HNever, async () => ({ content: [] }));
server.tool("hsdk", "Handler's result returned to the SDK.", HSdk, async () => ({ content: [] }));
server.tool("hsdkname", "Handler's result read, then returned to the SDK.", HSdkName, async () => ({ content: [] }));
server.tool("hwrite", "Handler's result written.", HWrite, async () => ({ content: [] }));
server.tool("hpassed", "Handler passed on.", HPassed, async () => ({ content: [] }));
server.tool("hstored", "Options stored.", HStored, async () => ({ content: [] }));
server.tool("hescape", "Options handed to unknown code.", HEscape, async () => ({ content: [] }));
server.tool("hthis", "Handler reached through this.", HThis, async () => ({ content: [] }));
server.tool("hmember", "A member of the options written.", HMember, async () => ({ content: [] }));
server.tool("hbefore", "Handler's result written before it is returned.", HBefore, async () => ({ content: [] }));
server.tool("hgetter", "A getter in the options.", HGetter, async () => ({ content: [] }));
server.tool("hnoawait", "Handler's result written, not awaited.", HNoAwait, async () => ({ content: [] }));
server.tool("htested", "Handler tested, then its result returned to the SDK.", HTested, async () => ({ content: [] }));
server.tool("hnamed", "Options held by a name.", HNamed, async () => ({ content: [] }));
-- dist/runner.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { external } from "other-package";
const low = new Server({ name: "l", version: "1.0.0" }, { capabilities: { tools: {} } });
let saved;
export function runNever(config) {
	if (config.start) {
		config.start();
	}
}
export function runSDK(config) {
	low.setRequestHandler(ListToolsRequestSchema, async () => await config.init());
}
export function runSDKName(config) {
	low.setRequestHandler(ListToolsRequestSchema, async () => {
		const r = await config.init();
		console.log(r.tools[0].name);
		return { tools: r.tools };
	});
}
export async function runWrite(config) {
	const r = await config.init();
	r.tools[0].inputSchema.x = 1;
}
export function runPassed(config) {
	setTimeout(config.init, 0);
}
export function runStored(config) {
	saved = config;
}
export function runEscape(config) {
	external(config);
}
export function runThis(config) {
	config.go();
}
export function runNoAwait(config) {
	config.init().tools[0].x = 1;
}
export function runTested(config) {
	if (typeof config.init !== "function" || !config.init) {
		return;
	}
	low.setRequestHandler(ListToolsRequestSchema, async () => (config.init ? await config.init() : { tools: [] }));
}
export function runMemberWritten(config) {
	config.go = function () { return this.init(); };
	config.go();
}
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"hnever":   "a=readable:A.",
		"hsdk":     "b=readable:B.",
		"hsdkname": "c=readable:C.",
		"hwrite":   "gap",
		"hpassed":  "gap",
		"hstored":  "gap",
		"hescape":  "gap",
		"hthis":    "gap",
		"hmember":  "gap",
		"hbefore":  "gap",
		"hnamed":   "gap",
		"hgetter":  "gap",
		"hnoawait": "gap",
		"htested":  "y=readable:Y.",
	})
}

// An awaited call of a named, unexported function of the package (since
// 2.3.18) is its result itself: `const r = await build()` is followed as
// the literal build returns. A caller writing through the awaited result,
// an exported builder and a returned literal with a then member (a
// thenable, which await calls) keep the gap.
func TestSchemaObjectReturnedAwaited(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutawait", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "m", version: "1.0.0" });
const ARead = { a: z.string().describe("A.") };
async function buildRead() { return { tools: [{ name: "a", inputSchema: ARead }] }; }
const ASync = { s: z.string().describe("S.") };
const buildSync = () => ({ tools: [ASync], n: 1 });
const AWrite = { w: z.string().describe("W.") };
async function buildWrite() { return { tools: [{ name: "w", inputSchema: AWrite }] }; }
const AExported = { e: z.string().describe("E.") };
export async function buildExported() { return { tools: [AExported] }; }
const AThen = { t: z.string().describe("T.") };
async function buildThen() { return { tools: [AThen], then(resolve) { this.tools[0].x = 1; resolve(this); } }; }
const APromise = { p: z.string().describe("P.") };
async function buildPromise() { return { tools: [APromise] }; }
async function main() {
	const r = await buildRead();
	console.log(r.tools[0].name);
	console.log((await buildSync()).n);
	const w = await buildWrite();
	w.tools[0].inputSchema.x = 1;
	console.log((await buildExported()).n);
	console.log((await buildThen()).n);
	buildPromise().then((v) => { v.tools[0].x = 1; });
}
main();
server.tool("aread", "Awaited, only read.", ARead, async () => ({ content: [] }));
server.tool("async", "A function without async, awaited, only read.", ASync, async () => ({ content: [] }));
server.tool("awrite", "Awaited, written.", AWrite, async () => ({ content: [] }));
server.tool("aexported", "Awaited, exported.", AExported, async () => ({ content: [] }));
server.tool("athen", "Awaited, a thenable.", AThen, async () => ({ content: [] }));
server.tool("apromise", "Not awaited, its then written.", APromise, async () => ({ content: [] }));
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"aread":     "a=readable:A.",
		"async":     "s=readable:S.",
		"awrite":    "gap",
		"aexported": "gap",
		"athen":     "gap",
		"apromise":  "gap",
	})
}

// One object spread under many keys of a schema is checked once
// (declMemo): the repeats would otherwise spend the schema's reading's
// step limit on the same walk. A changed object spread under many keys
// stays a gap at each.
func TestSchemaObjectCheckedOncePerSchema(t *testing.T) {
	var b strings.Builder
	b.WriteString(`-- package.json --
{"name": "mutmemo", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "m", version: "1.0.0" });
const nullable = { type: ["string", "null"] };
const changed = { type: ["string", "null"] };
const list = [nullable, changed];
`)
	for i := 0; i < 1500; i++ {
		b.WriteString("console.log(list.length);\n")
	}
	b.WriteString("changed.evil = 1;\n")
	for _, n := range []string{"nullable", "changed"} {
		b.WriteString("const " + n + "Tool = { type: \"object\", properties: {\n")
		for i := 0; i < 24; i++ {
			b.WriteString("  p" + strconv.Itoa(i) + ": { ..." + n + ", description: \"P" + strconv.Itoa(i) + ".\" },\n")
		}
		b.WriteString("} };\n")
		b.WriteString("server.registerTool(\"" + n + "\", { description: \"D.\", inputSchema: " + n + "Tool }, async () => ({ content: [] }));\n")
	}
	s := extractArchive(t, txtar.Parse([]byte(b.String())))
	got := paramTextsByTool(s)
	g := got["nullable"]
	sortStrings(g)
	if len(g) != 24 || strings.Contains(strings.Join(g, "|"), "unreadable") {
		t.Errorf("nullable: parameter entries %q, want 24 readable", g)
	}
	if !hasUnreadSchema(got["changed"], "changed after it is built") {
		t.Errorf("changed: parameter entries %q, want a (schema) entry unreadable, changed after it is built", got["changed"])
	}
}
