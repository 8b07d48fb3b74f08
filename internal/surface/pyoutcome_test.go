package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
	"golang.org/x/tools/txtar"
)

// pyOutcomeOf extracts a one-module package (p/server.py holding src, plus
// the extra members) and returns its outcome and its failed sites' reasons.
func pyOutcomeOf(t *testing.T, src string, extra map[string]string) (string, string) {
	t.Helper()
	a := &txtar.Archive{Files: []txtar.File{
		{Name: "pyproject.toml", Data: []byte("[project]\nname = \"p\"\nversion = \"1.0.0\"\n")},
		{Name: "p/__init__.py", Data: nil},
		{Name: "p/server.py", Data: []byte(src)},
	}}
	for name, data := range extra {
		a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(data)})
	}
	s := extractArchive(t, a)
	var reasons []string
	for _, ev := range s.OutcomeEvidence {
		reasons = append(reasons, ev.Detail)
	}
	return s.Outcome, strings.Join(reasons, "\n")
}

// TestPyFileReadPaths: every path form the file-read rule reads names the
// member it opens, and the outcome follows whether the archive has it.
func TestPyFileReadPaths(t *testing.T) {
	const head = "import json\nimport os\nfrom pathlib import Path\nfrom mcp.server import Server\nfrom mcp.types import Tool\n\nserver = Server(\"s\")\n"
	handler := func(open string) string {
		return head + "\n\n@server.list_tools()\nasync def list_tools() -> list[Tool]:\n    specs = json.loads(" + open + ")\n    return [Tool(**s) for s in specs]\n"
	}
	forms := []string{
		`open(os.path.join(os.path.dirname(__file__), "data", "tools.json")).read()`,
		`open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data/tools.json")).read()`,
		`(Path(__file__).resolve().parent / "data" / "tools.json").read_text()`,
		`Path(__file__).parent.joinpath("data", "tools.json").read_text()`,
		`open(DATA).read()`,
	}
	for _, form := range forms {
		src := handler(form)
		if strings.Contains(form, "DATA") {
			src = strings.Replace(src, "server = Server", "DATA = Path(__file__).parent / \"data\" / \"tools.json\"\nserver = Server", 1)
		}
		out, why := pyOutcomeOf(t, src, map[string]string{"p/data/tools.json": "[]"})
		if out != vocab.OutcomeDeclarationNotParsed || !strings.Contains(why, "p/data/tools.json, a data file the package ships") {
			t.Errorf("%s with the member shipped: %s (%s), want declaration_not_parsed naming p/data/tools.json", form, out, why)
		}
		out, why = pyOutcomeOf(t, src, nil)
		if out != vocab.OutcomeRuntimeGenerated || !strings.Contains(why, "p/data/tools.json, which the package does not contain") {
			t.Errorf("%s without the member: %s (%s), want runtime_generated", form, out, why)
		}
	}
	// Paths the source does not name, or outside the archive.
	for _, form := range []string{
		`open(os.environ["TOOLS"]).read()`,
		`open(os.getenv("TOOLS")).read()`,
		`open("/etc/tools.json").read()`,
		`open(os.path.join(os.path.dirname(__file__), "..", "..", "tools.json")).read()`,
	} {
		if out, why := pyOutcomeOf(t, handler(form), nil); out != vocab.OutcomeRuntimeGenerated {
			t.Errorf("%s: %s (%s), want runtime_generated", form, out, why)
		}
	}
	// A path with a literal that cannot be resolved is in doubt.
	if out, why := pyOutcomeOf(t, handler(`open(os.path.join(BASE_DIR(), "tools.json")).read()`), nil); out != vocab.OutcomeDeclarationNotParsed {
		t.Errorf("unresolved path with a literal: %s (%s), want declaration_not_parsed", out, why)
	}
	// A default names a file: left in doubt, not run-time data.
	if out, why := pyOutcomeOf(t, handler(`open(os.environ.get("TOOLS", "tools.json")).read()`), nil); out != vocab.OutcomeDeclarationNotParsed {
		t.Errorf("env with a literal default: %s (%s), want declaration_not_parsed", out, why)
	}
}

// TestPyPrivateTableReceivers: only another object's private table is the
// framework's; the class's own self._tools is the package's.
func TestPyPrivateTableReceivers(t *testing.T) {
	for src, want := range map[string]bool{
		"mcp._tool_manager._tools['x'] = t\n":    true,
		"mcp._tool_manager._tools.update(x=t)\n": true,
		"server._tools.append(t)\n":              true,
		"get_server()._prompts['p'] = t\n":       true,
		"app.state._resources = [t]\n":           true,
		"self._tools.append(t)\n":                false,
		"self._tools['x'] = t\n":                 false,
		"cls._tools = []\n":                      false,
		"mcp.tools.append(t)\n":                  false,
		"_tools.append(t)\n":                     false,
	} {
		out, why := pyOutcomeOf(t, "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP(\"s\")\nserver = mcp\n\n\n@mcp.tool()\ndef a() -> str:\n    \"\"\"A.\"\"\"\n    return \"\"\n\n\n"+src, nil)
		got := out == vocab.OutcomeDeclarationNotParsed && strings.Contains(why, "private table")
		if !got && out != vocab.OutcomeParsed {
			t.Errorf("%q: %s (%s), want parsed or a private-table site", src, out, why)
		}
		if got != want {
			t.Errorf("%q: private-table site %v, want %v", src, got, want)
		}
	}
}
