package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// A list handler whose array puts literal entries beside a spread built at
// run time: the literal entries are read, the spread is one entry not read.
// Before, the whole list was one unreadable entry and the literal names
// were lost.
func TestListHandlerLiteralsBesideRuntimeSpread(t *testing.T) {
	src := `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListResourcesRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { snapshots } from "snapshot-store";
const server = new Server({ name: "s", version: "1" }, { capabilities: { resources: {}, prompts: {}, tools: {} } });
const logged = (name, fn) => async (req) => fn(req);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object" } }] }));
server.setRequestHandler(ListResourcesRequestSchema, logged("list", async () => ({
  resources: [
    { uri: "journal://today", name: "Today's journal", description: "The entries of today." },
    ...Array.from(snapshots().keys()).map((k) => ({ uri: "snap://" + k, name: "Snapshot " + k })),
    { uri: "journal://all", name: "Whole journal" },
  ],
})));
server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: [...snapshots().values(), { name: "summarise", description: "Summarise the journal." }],
}));
`
	s := extractMap(t, map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js":     src,
	}, Options{})
	if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1 {
		t.Fatalf("outcome %s tools %d", s.Outcome, len(s.Tools))
	}
	check := func(kind string, got []rundir.Entry, readable map[string]string) {
		t.Helper()
		unread := 0
		for _, r := range got {
			if r.ListedMember != "" {
				continue // a resource's name or title (resnames.go), not a resource
			}
			if r.NameState == vocab.StateUnreadable {
				unread++
				continue
			}
			want, ok := readable[r.Name]
			if !ok {
				t.Errorf("%s: unexpected entry %q", kind, r.Name)
				continue
			}
			if r.DescriptionRaw != want {
				t.Errorf("%s %q: description %q, want %q", kind, r.Name, r.DescriptionRaw, want)
			}
			delete(readable, r.Name)
		}
		if len(readable) != 0 {
			t.Errorf("%s: not read: %v (got %+v)", kind, readable, got)
		}
		if unread != 1 {
			t.Errorf("%s: %d unreadable entries, want 1 for the spread", kind, unread)
		}
	}
	check("resource", s.Resources, map[string]string{"Today's journal": "The entries of today.", "Whole journal": ""})
	check("prompt", s.Prompts, map[string]string{"summarise": "Summarise the journal."})
}
