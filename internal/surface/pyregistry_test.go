package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// pyRegistryCase is one package of the class-based and registry forms: the
// readable tool names it must list (sorted by file and line), and for a
// negative case the outcome and a substring of a recorded reason.
type pyRegistryCase struct {
	name    string
	files   map[string]string
	outcome string
	tools   []string
	descs   map[string]string // tool -> description_raw, for the readable ones checked
	reason  string
}

const regHandlers = `from mcp.types import Tool

TOOL_A = "tool_a"

class ToolHandler():
    def __init__(self, tool_name: str):
        self.name = tool_name

    def get_tool_description(self) -> Tool:
        raise NotImplementedError()

class AHandler(ToolHandler):
    def __init__(self):
        super().__init__(TOOL_A)

    def get_tool_description(self):
        return Tool(name=self.name, description="Tool A.", inputSchema={"type": "object"})

class BHandler(ToolHandler):
    def __init__(self):
        super().__init__("tool_b")

    def get_tool_description(self):
        return Tool(name=self.name, description="""Tool B.""", inputSchema={"type": "object"})

class NeverAddedHandler(ToolHandler):
    def __init__(self):
        super().__init__("never_added")

    def get_tool_description(self):
        return Tool(name=self.name, description="Not a tool.", inputSchema={})
`

const regServer = `from mcp.server import Server
from mcp.types import Tool
from . import handlers

app = Server("reg")

tool_handlers = {}
def add_tool_handler(tool_class: handlers.ToolHandler):
    global tool_handlers
    tool_handlers[tool_class.name] = tool_class

add_tool_handler(handlers.AHandler())
add_tool_handler(handlers.BHandler())

@app.list_tools()
async def list_tools() -> list[Tool]:
    return [th.get_tool_description() for th in tool_handlers.values()]
`

var pyRegistryCases = []pyRegistryCase{
	{name: "registry: added handlers are the tools, a handler never added is not",
		files:   map[string]string{"p/handlers.py": regHandlers, "p/server.py": regServer},
		outcome: OutcomeParsed, tools: []string{"tool_a", "tool_b"},
		descs: map[string]string{"tool_a": "Tool A.", "tool_b": "Tool B."}},
}

func TestPythonRegistryForms(t *testing.T) {
	for _, tc := range pyRegistryCases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"p/__init__.py": ""}
			for k, v := range tc.files {
				files[k] = v
			}
			s, _ := capExtract(t, files, Options{})
			if s.Outcome != tc.outcome {
				t.Fatalf("outcome %s (%s), want %s; unresolved %+v; tools %+v", s.Outcome, s.OutcomeDetail, tc.outcome, s.Unresolved, s.Tools)
			}
			checkNames(t, "tool", s.Tools, tc.tools, func(e rundir.Entry) string { return e.Name })
			for _, e := range s.Tools {
				if want, ok := tc.descs[e.Name]; ok && (e.DescriptionState != StateReadable || e.DescriptionRaw != want) {
					t.Errorf("tool %s: description %s %q, want readable %q", e.Name, e.DescriptionState, e.DescriptionRaw, want)
				}
			}
			if tc.reason == "" {
				return
			}
			var all []string
			for _, u := range s.Unresolved {
				all = append(all, u.Reason)
			}
			for _, e := range s.Tools {
				all = append(all, e.UnreadableReason)
			}
			if !strings.Contains(strings.Join(all, "\n"), tc.reason) {
				t.Errorf("no recorded reason contains %q: %q", tc.reason, all)
			}
		})
	}
}
