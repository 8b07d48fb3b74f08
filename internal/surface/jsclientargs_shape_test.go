package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// A prompt's argument shape whose member names a schema bound once
// (`network: networkSchema`, `const networkSchema = z.string()...`; a
// module-level `var` declared once, as bundlers write constants) is read as
// that schema (since 2.3.13, part NA): the callback gets the client's
// strings, so an undecided ternary between the package's texts is read as
// its alternatives with the client's holes. The twins that are not read: a
// `var` declared twice, a binding written again, a property of the schema
// written, the schema handed to a function, an exported schema, a name bound
// to a schema that is not a plain string (z.enum), an undeclared name.
func TestPromptShapeMemberByName(t *testing.T) {
	const text = "({ blockNumber, network }) => ({ messages: [{ role: \"user\", content: { type: \"text\", text: blockNumber ? `Block #${blockNumber} on ${network}.` : `Latest on ${network}.` } }] })"
	site := func(decl, member string) string {
		return `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "s", version: "1" });
` + decl + `
server.prompt("analyze_block", "Analyze a block", { blockNumber: z.string().optional().describe("Block."), network: ` + member + ` }, ` + text + `);
`
	}
	cases := []struct {
		name, decl, member string
		read               bool
	}{
		{"const", `const networkSchema = z.string().describe("Network.").optional();`, "networkSchema", true},
		{"var once", `var networkSchema = z.string().describe("Network.").optional();`, "networkSchema", true},
		{"let", `let networkSchema = z.string().optional();`, "networkSchema", true},
		{"literal", ``, `z.string().optional()`, true},
		{"var twice", `var networkSchema = z.string().optional();
if (process.env.X) { var networkSchema = z.string().transform((s) => "other " + s); }`, "networkSchema", false},
		{"written again", `let networkSchema = z.string().optional();
networkSchema = z.string().transform((s) => "other " + s);`, "networkSchema", false},
		{"property written", `const networkSchema = z.string().optional();
networkSchema.parse = (s) => "other " + s;`, "networkSchema", false},
		{"handed on", `const networkSchema = z.string().optional();
tune(networkSchema);`, "networkSchema", false},
		{"exported", `export const networkSchema = z.string().optional();`, "networkSchema", false},
		{"enum", `const networkSchema = z.enum(["bsc", "opbnb"]);`, "networkSchema", false},
		{"undeclared", ``, "networkSchema", false},
	}
	for _, tc := range cases {
		s := extractMap(t, map[string]string{
			"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
			"index.js":     site(tc.decl, tc.member),
		}, Options{})
		if len(s.PromptTexts) != 1 {
			t.Fatalf("%s: %d prompt texts, want 1: %+v", tc.name, len(s.PromptTexts), s.PromptTexts)
		}
		pt := s.PromptTexts[0]
		if !tc.read {
			if pt.DescriptionState != vocab.StateUnreadable {
				t.Errorf("%s: state %s (%q), want unreadable", tc.name, pt.DescriptionState, pt.DescriptionRaw)
			}
			continue
		}
		if pt.DescriptionState == vocab.StateUnreadable || pt.DescriptionRaw != "Block # on .Latest on ." {
			t.Errorf("%s: state %s raw %q reason %q, want both arms read", tc.name, pt.DescriptionState, pt.DescriptionRaw, pt.UnreadableReason)
			continue
		}
		var kinds []string
		for _, h := range pt.Holes {
			kinds = append(kinds, h.FilledBy)
		}
		if got := strings.Join(kinds, ","); got != "package_alternative,client_argument,client_argument,package_alternative,client_argument" {
			t.Errorf("%s: holes %s", tc.name, got)
		}
	}
}
