package surface

import (
	"testing"

	"golang.org/x/tools/txtar"
)

// An exported function returning a copy that holds a schema object
// (`export const withSort = (d) => ({ ...Pag, … })`, since 2.3.19 part
// spr2): its callers are enumerated in its module and in the package's
// modules importing it by name, through `export *` and named re-exports,
// each call's result classified as the object. Read when every call's
// result only reads (spread into a tool's properties); a gap when a result
// is written (in a module two away through `export *`), or the function is
// used other than called there: the object spread directly into another
// tool's properties (XPag, YPag) is then a gap.
func TestSchemaObjectExportedReturnCallers(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutexpret", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/schemas.js --
export const Pag = { cursor: { type: "string", description: "C." } };
export const withSort = (d) => ({ ...Pag, sort: { type: "string", description: "S." } });
export const XPag = { xc: { type: "string", description: "X." } };
export const xSort = (d) => ({ ...XPag });
export const YPag = { yc: { type: "string", description: "Y." } };
export const ySort = (d) => ({ ...YPag });
export function zSort(d) {
	return { ...ZPag };
}
export const ZPag = { zc: { type: "string", description: "Z." } };
-- dist/tools/direct.js --
import { Pag } from "../schemas.js";
export const directTool = { name: "pdirect", description: "T.", inputSchema: { type: "object", properties: { ...Pag } } };
-- dist/tools/sorted.js --
import { withSort, xSort, ySort, zSort } from "../schemas.js";
export const sortedTool = { name: "psort", description: "T.", inputSchema: { type: "object", properties: { ...withSort("d") } } };
export const xsTool = { name: "pxsort", description: "T.", inputSchema: { type: "object", properties: { ...xSort("d") } } };
export const ysTool = { name: "pysort", description: "T.", inputSchema: { type: "object", properties: { ...ySort("d") } } };
export const zTool = { name: "pzfunc", description: "T.", inputSchema: { type: "object", properties: { ...zSort("d") } } };
-- dist/tools/twice.js --
import { XPag, YPag } from "../schemas.js";
export const xTool = { name: "pxwrite", description: "T.", inputSchema: { type: "object", properties: { ...XPag } } };
export const yTool = { name: "pyhand", description: "T.", inputSchema: { type: "object", properties: { ...YPag } } };
-- dist/tools/index.js --
export * from "./twice.js";
export * from "./direct.js";
export * from "./sorted.js";
export * from "../schemas.js";
-- dist/other/deep.js --
import { xSort, ySort } from "../tools/index.js";
const r = xSort("e");
r.xc.description = "Injected.";
console.log(ySort);
-- dist/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as Tools from "./tools/index.js";
import "./other/deep.js";
const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
	tools: [Tools.directTool, Tools.sortedTool, Tools.xTool, Tools.yTool, Tools.zTool, Tools.xsTool, Tools.ysTool],
}));
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"pdirect": "cursor=readable:C.",
		"psort":   "cursor=readable:C.|sort=readable:S.",
		"pzfunc":  "zc=readable:Z.",
		"pxwrite": "gap",
		"pyhand":  "gap",
	})
}
