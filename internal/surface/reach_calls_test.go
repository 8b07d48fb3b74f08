package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

const uncalledServer = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export const server = new McpServer({ name: "u", version: "1" });
server.tool("main_tool", "M.", async () => ({ content: [] }));
`

const uncalledTools = `export function reg(server) {
  server.tool("reg_tool", "R.", async () => ({ content: [] }));
}
`

// TestUncalledFunction: in a package run as its bin, a registration in a
// module-level function is unreachable only when no route of the package
// can call the function; every way a call could happen keeps the tool.
func TestUncalledFunction(t *testing.T) {
	bin := `{"name": "u", "version": "1", "type": "module", "bin": {"u": "index.js"}}`
	cases := []struct {
		name       string
		pkg        string
		index      string // appended to uncalledServer
		tools      string // replaces uncalledTools when set
		extra      map[string]string
		wantMarked bool
	}{
		{name: "only re-exported", index: "export { reg } from './tools.js';\n", wantMarked: true},
		{name: "imported and never used", index: "import { reg } from './tools.js';\n", wantMarked: true},
		{name: "called", index: "import { reg } from './tools.js';\nreg(server);\n"},
		{name: "called under an alias", index: "import { reg as r } from './tools.js';\nr(server);\n"},
		{name: "a default export called under any name", index: "import anything from './tools.js';\nanything(server);\n",
			tools: "export default function reg(server) {\n  server.tool(\"reg_tool\", \"R.\", async () => ({ content: [] }));\n}\n"},
		{name: "re-exported under another name and called by it", index: "import { more } from './lib.js';\nmore(server);\n",
			extra: map[string]string{"lib.js": "export { reg as more } from './tools.js';\n"}},
		{name: "through a namespace import", index: "import * as t from './tools.js';\nfor (const f of Object.values(t)) f(server);\n"},
		{name: "through require", index: "const t = require('./tools.js');\nt[process.env.WHICH](server);\n"},
		{name: "through import() of a literal", index: "const t = await import('./tools.js');\nObject.values(t).forEach((f) => f(server));\n"},
		{name: "through export * and a namespace of the re-exporter", index: "import * as lib from './lib.js';\nObject.values(lib).forEach((f) => f(server));\n",
			extra: map[string]string{"lib.js": "export * from './tools.js';\n"}},
		{name: "handed to another function", index: "import { reg } from './tools.js';\nsetup(reg);\nfunction setup(f) { f(server); }\n"},
		{name: "stored in a table", index: "import { reg } from './tools.js';\nconst table = { reg };\ntable[process.argv[2]](server);\n"},
		{name: "named by a string", index: "import './tools.js';\n", tools: uncalledTools + "const which = \"reg\";\n"},
		{name: "eval in its module", index: "import './tools.js';\n", tools: uncalledTools + "eval(process.env.HOOK);\n"},
		{name: "CommonJS export", index: "",
			tools: "function reg(server) {\n  server.tool(\"reg_tool\", \"R.\", async () => ({ content: [] }));\n}\nexports.reg = reg;\n"},
		{name: "called only from an uncalled function", index: "import { reg } from './tools.js';\nexport function wrapper(s) { reg(s); }\n", wantMarked: true},
		{name: "called from a function that is called", index: "import { reg } from './tools.js';\nfunction wrapper(s) { reg(s); }\nwrapper(server);\n"},
		{name: "no bin: the package is run through what imports it", pkg: `{"name": "u", "version": "1", "type": "module", "main": "index.js"}`,
			index: "export { reg } from './tools.js';\n"},
		{name: "an import() of a computed path", index: "export { reg } from './tools.js';\nawait import(`./${process.env.PLUGIN}.js`);\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pkg := bin
			if c.pkg != "" {
				pkg = c.pkg
			}
			tools := uncalledTools
			if c.tools != "" {
				tools = c.tools
			}
			files := map[string]string{"package.json": pkg, "index.js": uncalledServer + c.index, "tools.js": tools}
			for k, v := range c.extra {
				files[k] = v
			}
			if !strings.Contains(c.index, "tools.js") && !strings.Contains(c.index, "lib.js") {
				// the module must be loaded for the function rule to be what decides
				files["index.js"] += "import './tools.js';\n"
			}
			s := extractMap(t, files, Options{})
			if s.Outcome != vocab.OutcomeParsed {
				t.Fatalf("outcome %s %v", s.Outcome, s.Unresolved)
			}
			reg, ok := toolByName(s, "reg_tool")
			if !ok {
				t.Fatalf("reg_tool not read: %+v", s.Tools)
			}
			if main, _ := toolByName(s, "main_tool"); main.Unreachable {
				t.Errorf("the bin's own tool is reachable")
			}
			if reg.Unreachable != c.wantMarked {
				t.Errorf("reg_tool unreachable = %v, want %v (reach %+v)", reg.Unreachable, c.wantMarked, s.Reach)
			}
			if c.wantMarked {
				if s.Reach == nil || len(s.Reach.Uncalled) != 1 || !strings.Contains(s.Reach.Uncalled[0].Detail, "function reg ") {
					t.Errorf("the uncalled function is not recorded: %+v", s.Reach)
				}
			}
		})
	}
}

// TestBinIsTheRoot: with a bin, a module only main loads is not run; a bin
// that is not a parsed member leaves the closure undetermined, so nothing
// is marked.
func TestBinIsTheRoot(t *testing.T) {
	lib := "import { server } from './index.js';\nserver.tool(\"lib_tool\", \"L.\", async () => ({ content: [] }));\n"
	for _, c := range []struct {
		name, pkg  string
		wantMarked bool
	}{
		{"bin and a library main", `{"name": "u", "version": "1", "bin": "index.js", "main": "lib.js"}`, true},
		{"main only", `{"name": "u", "version": "1", "main": "lib.js"}`, false},
		{"a bin that is not parsed", `{"name": "u", "version": "1", "bin": "cli.sh", "main": "lib.js"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := extractMap(t, map[string]string{"package.json": c.pkg, "index.js": uncalledServer, "lib.js": lib, "cli.sh": "#!/bin/sh\nnode lib.js\n"}, Options{})
			e, ok := toolByName(s, "lib_tool")
			if !ok {
				t.Fatalf("lib_tool not read: %+v %v", s.Tools, s.Unresolved)
			}
			if e.Unreachable != c.wantMarked {
				t.Errorf("lib_tool unreachable = %v, want %v (reach %+v)", e.Unreachable, c.wantMarked, s.Reach)
			}
		})
	}
}

func TestWordsOf(t *testing.T) {
	got := strings.Join(wordsOf(`registry["reg"](x); a.b_c $d 9e`), ",")
	if got != "registry,reg,x,a,b_c,$d,9e" {
		t.Errorf("wordsOf = %s", got)
	}
}
