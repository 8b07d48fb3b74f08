package surface

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// A schema object held by a name is read as written only when nothing in
// the package can change it after it is built (methodology §5.3, since
// 2.3.16): a member write, Object.assign, a delete not named, an alias
// written, a module-level object changed, an exported object changed in an
// importing file, an object handed to a package function, each make the
// schema a gap naming the change; reuse, member reads, zod builders, a
// spread into a literal not changed, and a same-named object in another
// scope stay read.
func TestSchemaObjectChangedAfterBuilt(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mut", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/shared.js --
export const Exported = { q: z.string().describe("Query.") };
export const ExportedRead = { r: z.string().describe("Read.") };
export const Table = { one: { a: z.string().describe("One.") }, two: { b: z.string().describe("Two.") } };
import { z } from "zod";
-- dist/other.js --
import { Exported, ExportedRead, Table } from "./shared.js";
import { z } from "zod";
Exported.evil = z.string().describe("Injected.");
console.log(ExportedRead.r);
Table.two.evil = z.string().describe("Injected.");
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { Exported, ExportedRead, Table } from "./shared.js";
const server = new McpServer({ name: "m", version: "1.0.0" });
const shared = { id: z.string().describe("The id.") };
const Module = { a: z.string().describe("A.") };
Module.evil = z.string().describe("Injected.");
const Reused = { path: z.string().describe("The path.") };
const Read = { k: z.string().describe("Key.") };
console.log(Read.k, Read["k"], typeof Read, "k" in Read);
const Wrapped = { w: z.string().describe("Wrapped.") };
const Spread = { s: z.string().describe("Spread.") };
const Outer = { ...Spread, t: z.string().describe("Outer.") };
const Same = { n: z.string().describe("Same.") };
function elsewhere() {
  const Same = {};
  Same.evil = "x";
  return Same;
}
const Deleted = { keep: z.string().describe("Keep."), drop: true };
delete Deleted.drop;
function addCommon(o) { o.evil = z.string().describe("Injected."); }
const Handed = { h: z.string().describe("H.") };
addCommon(Handed);
function register() {
  const m = { ...shared, x: z.string().describe("X.") };
  m.evil = z.string().describe("Injected.");
  server.tool("member", "Member write.", m, async () => ({ content: [] }));
  const o = { ...shared };
  Object.assign(o, { evil: z.string().describe("Injected.") });
  server.tool("assign", "Assign.", o, async () => ({ content: [] }));
  const d = { ...shared, gone: z.string().describe("Gone.") };
  const k = "gone";
  delete d[k + ""];
  server.tool("delete", "Delete.", d, async () => ({ content: [] }));
  const base = { y: z.string().describe("Y.") };
  const alias = base;
  alias.evil = z.string().describe("Injected.");
  server.tool("alias", "Alias.", base, async () => ({ content: [] }));
  const sub = { ...shared };
  sub["evil"] = z.string().describe("Injected.");
  server.tool("spreadsub", "Spread of a changed object.", { ...sub }, async () => ({ content: [] }));
}
register();
const reg = (t) => { server.tool(t.name, t.description, t.args, async () => ({ content: [] })); };
const viaHelper = { name: "helper", description: "Through a helper that only reads.", args: { v: z.string().describe("V.") } };
reg(viaHelper);
const reg2 = (t) => { server.tool(t.name, t.description, t.args, async (a) => t.run(a)); };
reg2({ name: "inline", description: "Inline.", args: { i: z.string().describe("I.") }, run: async () => ({ content: [] }) });
const arrowRun = { name: "arrowrun", description: "A method that cannot use this.", args: { r: z.string().describe("R.") }, run: async (a) => ({ content: [] }) };
reg2(arrowRun);
const thisRun = { name: "thisrun", description: "A method using this.", args: { r: z.string().describe("R.") }, run(a) { this.args.evil = z.string().describe("Injected."); return { content: [] }; } };
reg2(thisRun);
const Walked = { w2: z.string().describe("W2.") };
const walkedList = [Walked];
walkedList.forEach((t) => { t.evil = z.string().describe("Injected."); });
const Filtered = { f: z.string().describe("F.") };
const filteredList = [Filtered];
filteredList.filter(Boolean)[0].evil = z.string().describe("Injected.");
const Nested = { inner: { type: "object", properties: { n: { type: "string", description: "N." } } } };
const part = Nested.inner.properties;
part.evil = { type: "string", description: "Injected." };
const Assigned = { inner: { type: "object", properties: { a: { type: "string", description: "A2." } } } };
Object.assign(Assigned.inner.properties, { evil: { type: "string", description: "Injected." } });
const Zods = { opt: z.string().describe("Opt.").optional() };
const Unwrapped = { ...Zods, req: Zods.opt.unwrap() };
const Held = { p: z.string().describe("P.") };
const registry = { held: Held, other: {} };
registry.held.evil = z.string().describe("Injected.");
registry.other.x = 1;
const Kept = { u: z.string().describe("U.") };
const table = { kept: Kept, other: {} };
table.other.x = 1;
const Counted = { c: z.string().describe("C.") };
const countedList = [Counted];
const status = { count: countedList.length };
export function statusOf() { return { n: status.count }; }
server.tool("counted", "Its list's length handed on.", Counted, async () => ({ content: [] }));
server.tool("module", "Module-level, spread.", { ...Module }, async () => ({ content: [] }));
server.tool("exported", "Exported, written elsewhere.", Exported, async () => ({ content: [] }));
server.tool("handed", "Handed to a function.", Handed, async () => ({ content: [] }));
server.tool("tabletwo", "Table member written elsewhere.", Table.two, async () => ({ content: [] }));
server.tool("tableone", "Table member not written.", Table.one, async () => ({ content: [] }));
server.tool("reuse1", "Reuse one.", Reused, async () => ({ content: [] }));
server.registerTool("reuse2", { description: "Reuse two.", inputSchema: Reused }, async () => ({ content: [] }));
server.tool("read", "Member reads.", Read, async () => ({ content: [] }));
server.tool("zod", "z.object.", { inner: z.object(Wrapped) }, async () => ({ content: [] }));
server.tool("outer", "Spread into a literal not changed.", Outer, async () => ({ content: [] }));
server.tool("same", "Same name elsewhere.", Same, async () => ({ content: [] }));
server.tool("deleted", "Delete named.", Deleted, async () => ({ content: [] }));
server.tool("held", "Put into a literal written under its key.", Held, async () => ({ content: [] }));
server.tool("kept", "Put into a literal written under another key.", Kept, async () => ({ content: [] }));
server.tool("arrays", "zod's builders.", { list: z.array(z.object(Kept)), either: z.union([z.object(Kept), z.string()]) }, async () => ({ content: [] }));
server.registerTool("nested", { description: "A part aliased and written.", inputSchema: { type: "object", properties: Nested } }, async () => ({ content: [] }));
server.registerTool("assigned", { description: "A part assigned into.", inputSchema: { type: "object", properties: Assigned } }, async () => ({ content: [] }));
server.tool("walked", "An element changed in a callback.", Walked, async () => ({ content: [] }));
server.tool("filtered", "An element of a filter's result changed.", Filtered, async () => ({ content: [] }));
server.tool("unwrapped", "A zod method on a member.", Unwrapped, async () => ({ content: [] }));
server.tool("exportedread", "Exported, read elsewhere.", ExportedRead, async () => ({ content: [] }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	for _, tool := range []string{"member", "assign", "delete", "alias", "spreadsub", "module", "exported", "handed", "tabletwo", "held", "walked", "filtered", "thisrun", "nested", "assigned"} {
		if !hasUnreadSchema(got[tool], "changed after it is built") && !hasUnreadSchema(got[tool], "changes not read") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tool, got[tool])
		}
	}
	want := map[string]string{
		"tableone":     "a=readable:One.",
		"counted":      "c=readable:C.",
		"reuse1":       "path=readable:The path.",
		"reuse2":       "path=readable:The path.",
		"read":         "k=readable:Key.",
		"zod":          "inner.w=readable:Wrapped.",
		"outer":        "s=readable:Spread.|t=readable:Outer.",
		"same":         "n=readable:Same.",
		"deleted":      "keep=readable:Keep.",
		"exportedread": "r=readable:Read.",
		"kept":         "u=readable:U.",
		"helper":       "v=readable:V.",
		"arrowrun":     "r=readable:R.",
		"inline":       "i=readable:I.",
		"unwrapped":    "opt=readable:Opt.|req=readable:Opt.",
		"arrays":       "either.u=readable:U.|list[].u=readable:U.",
	}
	for tool, w := range want {
		g := got[tool]
		sortStrings(g)
		if j := strings.Join(g, "|"); j != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, j, w)
		}
	}
}

// CommonJS exports, conditions and methods: `exports.X = { schema }` is
// looked for under X in the files requiring it; `c ? m : o` and `m || o`
// are followed as the object; a method of the object that cannot reach it
// through this does not change it, one that uses this may.
func TestSchemaObjectChangedCommonJS(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutcjs", "version": "1.0.0", "bin": "dist/index.js"}
-- dist/tools.js --
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Written = exports.Kept = void 0;
const zod_1 = require("zod");
const keptSchema = { k: zod_1.z.string().describe("Kept.") };
exports.Kept = { name: "kept", description: "Kept.", schema: keptSchema, run: async (a) => ({ content: [] }) };
const writtenSchema = { w: zod_1.z.string().describe("Written.") };
exports.Written = { name: "written", description: "Written elsewhere.", schema: writtenSchema };
const usesThis = { u: zod_1.z.string().describe("U.") };
exports.UsesThis = { name: "usesthis", description: "A method using this.", schema: usesThis, run() { this.schema.evil = zod_1.z.string().describe("Injected."); } };
-- dist/index.js --
"use strict";
const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");
const zod_1 = require("zod");
const tools_1 = require("./tools.js");
const server = new mcp_js_1.McpServer({ name: "m", version: "1.0.0" });
tools_1.Written.schema.evil = zod_1.z.string().describe("Injected.");
const Chosen = { c: zod_1.z.string().describe("C.") };
const picked = process.env.X ? Chosen : {};
picked.evil = zod_1.z.string().describe("Injected.");
const Fallback = { f: zod_1.z.string().describe("F.") };
const fb = Fallback || {};
fb.evil = zod_1.z.string().describe("Injected.");
server.tool(tools_1.Kept.name, tools_1.Kept.description, tools_1.Kept.schema, async (a) => tools_1.Kept.run(a));
server.tool(tools_1.Written.name, tools_1.Written.description, tools_1.Written.schema, async () => ({ content: [] }));
server.tool(tools_1.UsesThis.name, tools_1.UsesThis.description, tools_1.UsesThis.schema, async () => { tools_1.UsesThis.run(); return { content: [] }; });
server.tool("chosen", "Chosen by a condition.", Chosen, async () => ({ content: [] }));
server.tool("fallback", "A fallback.", Fallback, async () => ({ content: [] }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	for _, tool := range []string{"written", "usesthis", "chosen", "fallback"} {
		if !hasUnreadSchema(got[tool], "changed after it is built") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tool, got[tool])
		}
	}
	if g := strings.Join(got["kept"], "|"); g != "k=readable:Kept." {
		t.Errorf("kept: parameter entries %q, want k=readable:Kept.", g)
	}
}

// A method called on an element of a table chosen at run time
// (`const d = defs[name]; d.handler(args)`) does not change the element
// when every element's method is an arrow function; one using this may.
func TestSchemaObjectChangedTableMethod(t *testing.T) {
	for _, tc := range []struct {
		name, handler string
		gap           bool
	}{
		{"arrow", `async (a) => ({ content: [] })`, false},
		{"this", `function (a) { this.shape.evil = z.string().describe("Injected."); return { content: [] }; }`, true},
	} {
		a := txtar.Parse([]byte(`
-- package.json --
{"name": "muttable", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "m", version: "1.0.0" });
const defs = {
  search: { shape: { q: z.string().describe("Query.") }, handler: ` + tc.handler + ` },
};
async function call(name, args) {
  const d = defs[name];
  return d.handler(args);
}
server.tool("search", "Search.", defs.search.shape, async (a) => call("search", a));
`))
		got := paramTextsByTool(extractArchive(t, a))
		if tc.gap {
			if !hasUnreadSchema(got["search"], "changed after it is built") {
				t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, changed after it is built", tc.name, got["search"])
			}
			continue
		}
		if g := strings.Join(got["search"], "|"); g != "q=readable:Query." {
			t.Errorf("%s: parameter entries %q, want q=readable:Query.", tc.name, g)
		}
	}
}
