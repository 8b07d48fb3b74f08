package surface

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// A schema constant used under several keys is read under each key, so
// every key's text is recorded (since 2.3.15; until 2.3.14 the reading's
// seen set read a schema once per tool and the second key had no entry).
// A schema met again inside itself is a cycle: a gap, unless it is a lazy
// schema, which the converters write once and refer to. Reuse is bounded:
// a constant used twice in a constant used twice, twenty levels deep, is a
// gap reached fast, not 2^20 readings.
func TestSchemaReusedConstant(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "reuse", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const commandSchema = z.string().describe("The command to run.");
const DateString = { type: "string", description: "A date, YYYY-MM-DD." };
const Point = z.object({ x: z.number().describe("Abscissa."), y: z.number().describe("Ordinate.") });
const Segment = z.object({ from: Point, to: Point });
const Self = z.object({ name: z.string().describe("Name."), self: Self });
const Node = z.lazy(() => z.object({ label: z.string().describe("Label."), children: z.array(Node) }));
const A = z.object({ a: z.string().describe("In A."), b: z.lazy(() => B) });
const B = z.object({ c: z.string().describe("In B."), back: A });
const Loop = z.lazy(() => z.object({ d: z.string().describe("In the lazy."), inner: Inner }));
const Inner = z.object({ e: z.string().describe("Inner."), again: Inner });
const server = new McpServer({ name: "m", version: "1.0.0" });
server.tool("mutual", "Mutual.", { top: A }, async () => ({ content: [] }));
server.tool("inlazy", "In lazy.", { top: Loop }, async () => ({ content: [] }));
server.tool("run", "Run.", { command: commandSchema, cmd: commandSchema }, async () => ({ content: [] }));
server.registerTool("range", { description: "Range.", inputSchema: { type: "object", properties: { start_date: DateString, end_date: DateString } } }, async () => ({ content: [] }));
server.tool("draw", "Draw.", { a: Segment, b: Segment }, async () => ({ content: [] }));
server.tool("self", "Self.", { s: Self }, async () => ({ content: [] }));
server.tool("tree", "Tree.", { root: Node }, async () => ({ content: [] }));
server.tool("once", "Once.", { command: commandSchema }, async () => ({ content: [] }));
`))
	s := extractArchive(t, a)
	got := paramTextsByTool(s)
	want := map[string]string{
		"run":   "cmd=readable:The command to run.|command=readable:The command to run.",
		"range": "end_date=readable:A date, YYYY-MM-DD.|start_date=readable:A date, YYYY-MM-DD.",
		"draw": "a.from.x=readable:Abscissa.|a.from.y=readable:Ordinate.|a.to.x=readable:Abscissa.|a.to.y=readable:Ordinate.|" +
			"b.from.x=readable:Abscissa.|b.from.y=readable:Ordinate.|b.to.x=readable:Abscissa.|b.to.y=readable:Ordinate.",
		"tree": "root.label=readable:Label.",
		"once": "command=readable:The command to run.",
		// a cycle through a lazy opened inside it: read once, as converted
		"mutual": "top.a=readable:In A.|top.b.c=readable:In B.",
	}
	for tool, w := range want {
		g := got[tool]
		sortStrings(g)
		if j := strings.Join(g, "|"); j != w {
			t.Errorf("%s: parameter entries %q, want %q", tool, j, w)
		}
	}
	// a cycle without a lazy, also one inside a lazy that does not pass
	// through it: a gap
	for _, tool := range []string{"self", "inlazy"} {
		if !hasUnreadSchema(got[tool], "refers to itself") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable on the cycle", tool, got[tool])
		}
	}
}

// exponentialReuse writes levels constants, each an object using the one
// below under fan keys: fan^levels leaves.
func exponentialReuse(levels, fan int) string {
	var b strings.Builder
	b.WriteString(`-- package.json --
{"name": "expo", "version": "1.0.0", "type": "module", "bin": "dist/index.js"}
-- dist/index.js --
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const S0 = z.string().describe("Leaf.");
`)
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "const S%d = z.object({", i)
		for j := 0; j < fan; j++ {
			fmt.Fprintf(&b, " %c: S%d,", 'a'+j, i-1)
		}
		b.WriteString(" });\n")
	}
	b.WriteString(`const server = new McpServer({ name: "m", version: "1.0.0" });
`)
	fmt.Fprintf(&b, "server.tool(\"expo\", \"Expo.\", { top: S%d }, async () => ({ content: [] }));\n", levels)
	b.WriteString(`server.tool("small", "Small.", { top: S2 }, async () => ({ content: [] }));
`)
	return b.String()
}

// Twenty levels of two uses stop at the depth; eight levels of four uses
// (65536 leaves, shallow) stop at the reading's step or visit limit. Both
// are a (schema) gap reached fast (the entries read before it stay, as for
// any gap: the tool is refused on the gap).
func TestSchemaExponentialReuse(t *testing.T) {
	for _, c := range []struct {
		levels, fan int
		reason      string
	}{
		{20, 2, "depth"},
		{8, 4, "limit"},
	} {
		start := time.Now()
		s := extractArchive(t, txtar.Parse([]byte(exponentialReuse(c.levels, c.fan))))
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%d×%d: extraction took %v: reuse not bounded", c.levels, c.fan, d)
		}
		got := paramTextsByTool(s)
		if len(got["expo"]) > 20000 || !hasUnreadSchema(got["expo"], c.reason) {
			n := len(got["expo"])
			if n > 3 {
				got["expo"] = got["expo"][:3]
			}
			t.Errorf("%d×%d: %d parameter entries %q, want a (schema) entry unreadable (%s)", c.levels, c.fan, n, got["expo"], c.reason)
		}
		if len(got["small"]) != c.fan*c.fan || got["small"][0] != "top.a.a=readable:Leaf." {
			t.Errorf("%d×%d: small: parameter entries %q, want the %d leaves", c.levels, c.fan, got["small"], c.fan*c.fan)
		}
	}
}

func hasUnreadSchema(entries []string, reason string) bool {
	for _, e := range entries {
		if strings.HasPrefix(e, "(schema)=unreadable:") && strings.Contains(e, reason) {
			return true
		}
	}
	return false
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
