package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// The resource names of the four corpus list handlers that refuse since
// 2.3.12 (docs/versions/2.3.13/rn.md), in small written forms: none of their
// holes is proven to be data the package did not write, so each name stays a
// partial text with no hole filled (refused as partial_description). A
// reading that fills one of them must change this test on purpose.
func TestListHandlerNameHolesStayPartial(t *testing.T) {
	head := `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListResourcesRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "s", version: "1" }, { capabilities: { resources: {}, tools: {} } });
`
	for _, c := range []struct {
		name, src, want string
	}{
		{"tool argument as the map key (puppeteer)", `const shots = new Map();
async function handleToolCall(name, args) { shots.set(args.name, "png"); return { content: [] }; }
server.setRequestHandler(CallToolRequestSchema, async (request) => handleToolCall(request.params.name, request.params.arguments ?? {}));
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [...Array.from(shots.keys()).map(name => ({ uri: "shot://" + name, name: ` + "`Screenshot: ${name}`" + ` }))],
}));
`, "Screenshot: "},
		{"a package literal in the map key (browserbase)", `export const shots = new Map();
export function registerShot(name, data) { shots.set(name, data); }
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  registerShot(` + "`screenshot-${request.params.arguments.name}`" + `, "png"); return { content: [] };
});
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [...Array.from(shots.keys()).map((name) => ({ uri: "shot://" + name, name: ` + "`Screenshot: ${name}`" + ` }))],
}));
`, "Screenshot: "},
		{"an I/O client's results pushed in a loop (bigquery)", `import { BigQuery } from "@google-cloud/bigquery";
let bq;
bq = new BigQuery({});
server.setRequestHandler(ListResourcesRequestSchema, async () => {
  const [datasets] = await bq.getDatasets();
  const resources = [];
  for (const dataset of datasets) {
    const [tables] = await dataset.getTables();
    for (const table of tables) {
      resources.push({ uri: "bq://" + table.id, name: ` + "`\"${dataset.id}.${table.id}\" table schema`" + ` });
    }
  }
  return { resources };
});
`, "\".\" table schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := extractMap(t, map[string]string{
				"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
				"index.js":     head + c.src,
			}, Options{})
			found := 0
			for _, r := range s.Resources {
				if r.ListedMember != vocab.ListedMemberName {
					continue
				}
				found++
				if r.DescriptionState != vocab.StatePartial || r.DescriptionRaw != c.want {
					t.Errorf("name entry %s %q, want partial %q", r.DescriptionState, r.DescriptionRaw, c.want)
				}
				for _, h := range r.Holes {
					if h.FilledBy != "" {
						t.Errorf("hole %s filled by %s, want no fill", h.Source, h.FilledBy)
					}
				}
			}
			if found != 1 {
				t.Errorf("%d name entries, want 1 (resources %+v)", found, s.Resources)
			}
		})
	}
}
