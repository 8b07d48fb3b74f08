package surface

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// boundedWritePackage is mcp-discord's cost shape (since 2.3.21, stp): a
// tool list module, an SDK Server held by an instance field whose
// setRequestHandler lists it, and in the package a write through every key
// (`Object.setPrototypeOf(req, proto)`) whose object is the parameter of a
// function called from many places, each argument resolved through a
// chain of calls: checking `this.server` (the receiver of the list's
// registration) resolves that object, a walk past the schema reading's
// step limit (200 callers, chains of 60). extra is added to index.js,
// server declares the package's own class Own, made in place of the SDK's
// Server.
func boundedWritePackage(extra, server string, callers, depth int) *txtar.Archive {
	var b strings.Builder
	b.WriteString("export const proto = {};\n")
	b.WriteString("export function handle(req) { Object.setPrototypeOf(req, proto); }\n")
	b.WriteString("function c0(o) { return o; }\n")
	for i := 1; i < depth; i++ {
		fmt.Fprintf(&b, "function c%d(o) { return c%d(o); }\n", i, i-1)
	}
	for i := 0; i < callers; i++ {
		fmt.Fprintf(&b, "export function caller%d() { handle(c%d({ n: %d })); }\n", i, depth-1, i)
	}
	src := `
-- package.json --
{"name": "mutbound", "version": "1.0.0", "type": "module", "main": "build/index.js"}
-- build/toolList.js --
export const toolList = [
  { name: "first", description: "First.", inputSchema: { type: "object", properties: { q: { type: "string", description: "Q." } } } },
  { name: "second", description: "Second.", inputSchema: { type: "object", properties: { r: { type: "string", description: "R." } } } },
  { name: "third", description: "Third.", inputSchema: { type: "object", properties: { s: { type: "string", description: "S." } } } }
];
-- build/proto.js --
` + b.String() + `
-- build/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { toolList } from "./toolList.js";
import { caller0 } from "./proto.js";
SERVER
class Discordish {
    constructor() {
        this.server = MAKE;
        this.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList }));
    }
}
new Discordish();
caller0();
EXTRA
`
	make := `new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } })`
	if server != "" {
		make = "new Own()"
	}
	src = strings.NewReplacer("SERVER", server, "MAKE", make, "EXTRA", extra).Replace(src)
	return txtar.Parse([]byte(src))
}

// The check of the registration's receiver resolves the expensive write's
// object within the write's own bound, once for the package: past it the
// write is counted (fail closed), the receiver `this.server` is not
// resolved, and the route through it is not taken for the SDK's: every
// schema is a gap, the same for all three (at 2.3.20 the first passed
// the reading's step limit, and the other two were read through the
// unresolved answer that limit left, kept for the package). A write
// through the list, and a receiver of the package's own whose
// setRequestHandler writes the listed schemas, are gaps as well; the same
// package with a cheap write (4 callers, chains of 3) is read.
func TestSchemaBoundedOutsideWrite(t *testing.T) {
	const cut = "the object is put into a literal that is returned"
	const changed = "schema object changed after it is built"
	for _, tc := range []struct {
		name, extra, server string
		callers, depth      int
		gap                 string // each schema's gap; empty: read
	}{
		{"bounded", ``, ``, 200, 60, cut},
		{"written", `toolList[1].inputSchema.properties.r.description = "Injected.";`, ``, 200, 60, changed},
		{"wrapper", ``, `class Own { setRequestHandler(s, h) { h().then((r) => { r.tools[1].inputSchema.properties.r.description = "Injected."; }); } }`, 200, 60, changed},
		{"cheap", ``, ``, 4, 3, ""},
		{"cheapwritten", `toolList[1].inputSchema.properties.r.description = "Injected.";`, ``, 4, 3, "a member of the object is written"},
	} {
		got := paramTextsByTool(extractArchive(t, boundedWritePackage(tc.extra, tc.server, tc.callers, tc.depth)))
		want := map[string]string{"first": "q=readable:Q.", "second": "r=readable:R.", "third": "s=readable:S."}
		for tool, text := range want {
			if tc.gap != "" {
				if !hasUnreadSchema(got[tool], tc.gap) {
					t.Errorf("%s: %s: parameter entries %q, want a (schema) entry unreadable, %s", tc.name, tool, got[tool], tc.gap)
				}
				continue
			}
			if g := strings.Join(got[tool], "|"); g != text {
				t.Errorf("%s: %s: parameter entries %q, want %q", tc.name, tool, g, text)
			}
		}
	}
}
