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
const ReadProp = { type: "string", description: "A." };
const ReadSchema = { type: "object", properties: { a: ReadProp } };
runServer({ tools: [{ name: "wread", description: "Passed on only.", inputSchema: ReadSchema }] });
const WriteProp = { type: "string", description: "W." };
const WriteSchema = { type: "object", properties: { w: WriteProp } };
runServerWrites({ tools: [{ name: "wwrite", description: "Wrapper writes the schema.", inputSchema: WriteSchema }] });
const EachProp = { type: "string", description: "E." };
const EachSchema = { type: "object", properties: { e: EachProp } };
runServerEach({ tools: [{ name: "weach", description: "Wrapper writes in a callback.", inputSchema: EachSchema }] });
const HandProp = { type: "string", description: "H." };
const HandSchema = { type: "object", properties: { h: HandProp } };
runServerHands({ tools: [{ name: "whands", description: "Wrapper hands the tools on.", inputSchema: HandSchema }] });
const McpProp = { type: "string", description: "M." };
const McpSchema = { type: "object", properties: { m: McpProp } };
createMcpServer({ tools: [{ name: "wmcp", description: "Wrapper named mcp, writes.", inputSchema: McpSchema }] });
-- dist/server.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { external } from "other-package";
const low = new Server({ name: "l", version: "1.0.0" }, { capabilities: { tools: {} } });
export function runServer(config) {
	if (config.tools.length === 0) {
		return;
	}
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

// A `for … of` loop over the object, or over a member holding it, binds
// each element (since 2.3.18): a write through the loop's variable is a
// change, a loop that only reads (or `for … in`, which binds keys) is not.
// A `setRequestHandler` method of the package's own class is not the SDK's:
// a handler given to it returns to the package, not to the SDK.
func TestSchemaObjectLoopAndOwnHandler(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutloop", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new McpServer({ name: "m", version: "1.0.0" });
const LRead = { type: "string", description: "R." };
const ReadList = [{ name: "lread", description: "Loop reads.", inputSchema: { type: "object", properties: { r: LRead } } }];
for (const t of ReadList) {
	console.log(t.name);
}
for (const k in ReadList) {
	console.log(k);
}
const LWrite = { type: "string", description: "W." };
const WriteList = [{ name: "lwrite", description: "Loop writes.", inputSchema: { type: "object", properties: { w: LWrite } } }];
for (const t of WriteList) {
	t.inputSchema.properties.w.description = "Injected.";
}
const LMember = { type: "string", description: "M." };
const Holder = { list: [{ name: "lmember", description: "Loop over a member writes.", inputSchema: { type: "object", properties: { m: LMember } } }] };
for (const t of Holder.list) {
	t.inputSchema.properties.m.description = "Injected.";
}
const LOther = { type: "string", description: "O." };
const OtherHolder = { list: [{ name: "lother", description: "Loop over another member writes.", inputSchema: { type: "object", properties: { o: LOther } } }], extra: [{ x: 1 }] };
for (const t of OtherHolder.extra) {
	t.x = 2;
}
for (const t of ReadList) server.tool(t.name, t.description, t.inputSchema, async () => ({ content: [] }));
for (const t of WriteList) server.tool(t.name, t.description, t.inputSchema, async () => ({ content: [] }));
for (const t of Holder.list) server.tool(t.name, t.description, t.inputSchema, async () => ({ content: [] }));
for (const t of OtherHolder.list) server.tool(t.name, t.description, t.inputSchema, async () => ({ content: [] }));
class OwnServer {
	setRequestHandler(schema, handler) {
		this.handler = handler;
	}
	async list() {
		const r = await this.handler();
		r.tools[0].inputSchema.properties.h.description = "Injected.";
		return r;
	}
}
const sdk = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
const SdkProp = { type: "string", description: "S." };
sdk.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "hsdk", description: "The SDK's handler.", inputSchema: { type: "object", properties: { s: SdkProp } } }] }));
const own = new OwnServer();
const OwnProp = { type: "string", description: "H." };
own.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "hown", description: "The package's own handler.", inputSchema: { type: "object", properties: { h: OwnProp } } }] }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	checkMutCases(t, got, map[string]string{
		"lread":   "r=readable:R.",
		"lwrite":  "gap",
		"lmember": "gap",
		"lother":  "o=readable:O.",
		"hsdk":    "s=readable:S.",
	})
	t.Logf("hown: %q", got["hown"])
	// hown: read as written would be the fail-open; unreadable or absent is right.
	for _, e := range got["hown"] {
		if e == "h=readable:H." {
			t.Errorf("hown: %q read as written, though the package's own setRequestHandler changes it", e)
		}
	}
}

// Inside a wrapper: a function of the package given by name as a callback
// (`config.tools.map(convert)`) is followed as the callback (its parameter
// is each element), and `const { type, ...others } = t.inputSchema` follows
// the rest element as the schema (since 2.3.18). A named callback or a rest
// element that writes, and a destructured key that leads to the object,
// stay a gap.
func TestSchemaObjectNamedCallbackAndRest(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutrest", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { runRead, runWrite, runRestWrite, runKey } from "./server.js";
const RProp = { type: "string", description: "R." };
runRead({ tools: [{ name: "cbread", description: "Named callback reads.", inputSchema: { type: "object", properties: { r: RProp } } }] });
const WProp = { type: "string", description: "W." };
runWrite({ tools: [{ name: "cbwrite", description: "Named callback writes.", inputSchema: { type: "object", properties: { w: WProp } } }] });
const SProp = { type: "string", description: "S." };
runRestWrite({ tools: [{ name: "restwrite", description: "Rest element written.", inputSchema: { type: "object", properties: { s: SProp } } }] });
const KProp = { type: "string", description: "K." };
runKey({ tools: [{ name: "keyed", description: "Key leading to the object destructured.", inputSchema: { type: "object", properties: { k: KProp } } }] });
-- dist/server.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const low = new Server({ name: "l", version: "1.0.0" }, { capabilities: { tools: {} } });
function check(t) {
	const { type: _type, ...others } = t.inputSchema;
	console.log(Object.keys(others), t.name);
}
function inject(t) {
	t.inputSchema.properties.w.description = "Injected.";
}
function restInject(t) {
	const { type: _type, ...others } = t.inputSchema;
	others.properties.s.description = "Injected.";
}
function keyed(t) {
	const { properties } = t.inputSchema;
	properties.k.description = "Injected.";
}
export function runRead(config) {
	config.tools.forEach(check);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function runWrite(config) {
	config.tools.forEach(inject);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function runRestWrite(config) {
	config.tools.forEach(restInject);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
export function runKey(config) {
	config.tools.forEach(keyed);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: config.tools }));
}
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"cbread":    "r=readable:R.",
		"cbwrite":   "gap",
		"restwrite": "gap",
		"keyed":     "gap",
	})
}

// The shape of a wrapper that converts its tools before it registers them
// (since 2.3.18): `config.tools.map(convert)` whose callback returns a new
// literal holding parts of each element, the map's result returned by a
// `tools/list` handler, `new Map(config.tools.map((t) => [t.name, t]))`
// read through `get`, `find` over the tools. Each value a callback returns
// is followed into the map's result; a Map built from the entries is read
// when its only uses are get, has and size. The twins change the object
// through the map's result, through the Map, or hand them on.
func TestSchemaObjectThroughConvertingWrapper(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutconv", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { runRead, runMapWrite, runAsync, runServerMapSet, runServerMapIter, runServerGetWrite, runMapOut, runInline } from "./server.js";
const RShared = { type: ["string", "null"], description: "R." };
runRead({ tools: [{ name: "convread", description: "Converted, read.", input_schema: { type: "object", properties: { r: { ...RShared, description: "R in." } } }, output_schema: { type: "object", properties: { r: RShared } } }] });
const WShared = { type: "string", description: "W." };
runMapWrite({ tools: [{ name: "mapwrite", description: "Map's result written.", input_schema: { type: "object", properties: { w: WShared } } }] });
const AShared = { type: "string", description: "A." };
runAsync({ tools: [{ name: "mapasync", description: "Async callback.", input_schema: { type: "object", properties: { a: AShared } } }] });
const SShared = { type: "string", description: "S." };
runServerMapSet({ tools: [{ name: "mapset", description: "Map set.", input_schema: { type: "object", properties: { s: SShared } } }] });
const IShared = { type: "string", description: "I." };
runServerMapIter({ tools: [{ name: "mapiter", description: "Map iterated.", input_schema: { type: "object", properties: { i: IShared } } }] });
const GShared = { type: "string", description: "G." };
runServerGetWrite({ tools: [{ name: "getwrite", description: "Written through get.", input_schema: { type: "object", properties: { g: GShared } } }] });
const OShared = { type: "string", description: "O." };
runMapOut({ tools: [{ name: "mapout", description: "Map's result handed on.", input_schema: { type: "object", properties: { o: OShared } } }] });
const NShared = { type: "string", description: "N." };
runInline({ tools: [{ name: "inline", description: "Inline callback, read.", input_schema: { type: "object", properties: { n: NShared } } }] });
-- dist/server.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { external } from "other-package";
const low = new Server({ name: "l", version: "1.0.0" }, { capabilities: { tools: {} } });
const DROP = ["oneOf", "anyOf"];
function convertOutput(s) {
	if (s.type === "array") {
		return { type: "object", properties: { items: s } };
	}
	const { type: _type, ...others } = s;
	return { type: "object", ...others };
}
export function convert(def) {
	const { type: _type, ...others } = def.input_schema;
	const copy = { ...others };
	for (const k of DROP) {
		delete copy[k];
	}
	return {
		name: def.name,
		description: def.description,
		inputSchema: { type: "object", ...copy },
		outputSchema: def.output_schema ? convertOutput(def.output_schema) : undefined,
	};
}
function plain(def) {
	return { name: def.name, inputSchema: def.input_schema };
}
function validate(defs, name) {
	const d = defs.find((t) => t.name === name);
	return Object.keys(d.input_schema.properties ?? {});
}
function structured(def, result) {
	return def.output_schema && def.output_schema.type === "array" ? { items: result } : result;
}
export function runRead(config) {
	const sdkTools = config.tools.map(convert);
	const byName = new Map(config.tools.map((def) => [def.name, def]));
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sdkTools }));
	low.setRequestHandler(CallToolRequestSchema, async (request) => {
		validate(config.tools, request.params.name);
		const def = byName.get(request.params.name);
		if (!byName.has(request.params.name) || byName.size === 0) {
			return { content: [] };
		}
		return def ? structured(def, {}) : undefined;
	});
}
export function runMapWrite(config) {
	const sdkTools = config.tools.map(plain);
	sdkTools[0].inputSchema.properties.w.description = "Injected.";
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sdkTools }));
}
export function runAsync(config) {
	const sdkTools = config.tools.map(async (def) => ({ name: def.name, inputSchema: def.input_schema }));
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sdkTools }));
}
export function runServerMapSet(config) {
	const byName = new Map(config.tools.map((def) => [def.name, def]));
	byName.set("x", {});
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
}
export function runServerMapIter(config) {
	const byName = new Map(config.tools.map((def) => [def.name, def]));
	for (const [, def] of byName) {
		def.input_schema.properties.i.description = "Injected.";
	}
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
}
export function runServerGetWrite(config) {
	const byName = new Map(config.tools.map((def) => [def.name, def]));
	byName.get("getwrite").input_schema.properties.g.description = "Injected.";
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
}
export function runMapOut(config) {
	const sdkTools = config.tools.map(plain);
	external(sdkTools);
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sdkTools }));
}
export function runInline(config) {
	const sdkTools = config.tools.map((def) => ({ name: def.name, inputSchema: def.input_schema }));
	low.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: sdkTools }));
}
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"convread": "r=readable:R in.|r=readable:R.",
		"mapwrite": "gap",
		"mapasync": "gap",
		"mapset":   "gap",
		"mapiter":  "gap",
		"getwrite": "gap",
		"mapout":   "gap",
		"inline":   "n=readable:N.",
	})
}

// The receiver of `X.setRequestHandler(…)` (since 2.3.18): a handler's
// return is read as the SDK's only when X may be the SDK's server. X
// resolved to another package's server, or to an instance of a class of
// the package that does not extend the SDK's (its method is inherited from
// elsewhere), is not a registration: the returned object is a gap. The
// SDK's Server, McpServer's `.server`, a subclass of the SDK's Server, and
// an X not resolved (a parameter) stay read.
func TestSchemaObjectHandlerReceiver(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutrecv", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { OtherServer, otherServer } from "other-package";
const SdkP = { type: "string", description: "S." };
const sdk = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
sdk.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rsdk", description: "T.", inputSchema: { type: "object", properties: { s: SdkP } } }] }));
const HighP = { type: "string", description: "H." };
const high = new McpServer({ name: "h", version: "1.0.0" });
high.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rhigh", description: "T.", inputSchema: { type: "object", properties: { h: HighP } } }] }));
class Sub extends Server {}
const SubP = { type: "string", description: "B." };
const sub = new Sub({ name: "b", version: "1.0.0" }, { capabilities: { tools: {} } });
sub.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rsub", description: "T.", inputSchema: { type: "object", properties: { b: SubP } } }] }));
const ParamP = { type: "string", description: "P." };
function setup(server) {
	server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rparam", description: "T.", inputSchema: { type: "object", properties: { p: ParamP } } }] }));
}
setup(new Server({ name: "p", version: "1.0.0" }, { capabilities: { tools: {} } }));
const OtherP = { type: "string", description: "O." };
const other = new OtherServer();
other.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rother", description: "T.", inputSchema: { type: "object", properties: { o: OtherP } } }] }));
const ExpP = { type: "string", description: "E." };
otherServer.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rexport", description: "T.", inputSchema: { type: "object", properties: { e: ExpP } } }] }));
class Own extends OtherServer {}
const OwnP = { type: "string", description: "W." };
const own = new Own();
own.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "rown", description: "T.", inputSchema: { type: "object", properties: { w: OwnP } } }] }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	checkMutCases(t, got, map[string]string{
		"rsdk":   "s=readable:S.",
		"rhigh":  "h=readable:H.",
		"rsub":   "b=readable:B.",
		"rparam": "p=readable:P.",
	})
	// The others: read as written would be the fail-open; unreadable or
	// absent (not a site of the SDK) is right.
	for tool, want := range map[string]string{"rother": "o=readable:O.", "rexport": "e=readable:E.", "rown": "w=readable:W."} {
		t.Logf("%s: %q", tool, got[tool])
		for _, e := range got[tool] {
			if e == want {
				t.Errorf("%s: %q read as written, though the receiver is not the SDK's server", tool, e)
			}
		}
	}
}
