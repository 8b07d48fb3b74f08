package surface

import (
	"testing"

	"golang.org/x/tools/txtar"
)

// A spread copy of a schema object (`{ ...o }`, since 2.3.19) shares o's
// members: a write through the copy's members changes the object and is a
// gap; writing or deleting the copy's own members changes only the copy.
func TestSchemaObjectSpreadCopy(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutspread", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "s", version: "1.0.0" });
const WriteProp = { type: "string", description: "W." };
const WriteSchema = { type: "object", properties: { w: WriteProp } };
const wcopy = { ...WriteSchema };
wcopy.properties.w.description = "Injected.";
const TypedProp = { type: "string", description: "T." };
const TypedSchema = { properties: { t: TypedProp } };
const tcopy = { type: "object", ...TypedSchema };
tcopy.properties.t.description = "Injected.";
const MemberProp = { type: "string", description: "M." };
const MemberSchema = { type: "object", properties: { m: MemberProp } };
const mcopy = { ...MemberSchema.properties };
mcopy.m.description = "Injected.";
const HandProp = { type: "string", description: "H." };
const HandSchema = { type: "object", properties: { h: HandProp } };
function touch(s) {
	s.properties.h.description = "Injected.";
}
touch({ ...HandSchema });
const OwnProp = { type: "string", description: "O." };
const OwnSchema = { type: "object", properties: { o: OwnProp } };
const ocopy = { ...OwnSchema };
ocopy.extra = true;
ocopy.count++;
delete ocopy.properties;
for (const key of ["oneOf", "anyOf"]) {
	delete ocopy[key];
}
const ReadProp = { type: "string", description: "R." };
const ReadSchema = { type: "object", properties: { r: ReadProp } };
const rcopy = { ...ReadSchema };
console.log(rcopy.properties.r.description);
const SentProp = { type: "string", description: "S." };
const SentSchema = { type: "object", properties: { s: SentProp } };
const { type: _t, ...sentRest } = SentSchema;
const sent = { ...sentRest };
for (const key of ["oneOf", "anyOf"]) {
	delete sent[key];
}
server.registerTool("swrite", { description: "T.", inputSchema: WriteSchema }, async () => ({ content: [] }));
server.registerTool("styped", { description: "T.", inputSchema: TypedSchema }, async () => ({ content: [] }));
server.registerTool("smember", { description: "T.", inputSchema: MemberSchema }, async () => ({ content: [] }));
server.registerTool("shand", { description: "T.", inputSchema: HandSchema }, async () => ({ content: [] }));
server.registerTool("sown", { description: "T.", inputSchema: OwnSchema }, async () => ({ content: [] }));
server.registerTool("sread", { description: "T.", inputSchema: ReadSchema }, async () => ({ content: [] }));
server.registerTool("ssent", { description: "T.", inputSchema: { type: "object", ...sent } }, async () => ({ content: [] }));
`))
	s := extractArchive(t, a)
	checkMutCases(t, paramTextsByTool(s), map[string]string{
		"swrite":  "gap",
		"styped":  "gap",
		"smember": "gap",
		"shand":   "gap",
		"sown":    "o=readable:O.",
		"sread":   "r=readable:R.",
		"ssent":   "s=readable:S.",
	})
}
