package surface

import (
	"runtime/debug"
	"sort"
	"strings"
	"testing"
)

// A stack overflow is a fatal error no recover() catches. The tests of this
// package run with a stack far smaller than the runtime's 1 GB default, so
// an unbounded recursion fails here in milliseconds, and any walk that does
// not fit in it is too deep for a worker that extracts several packages.
func init() { debug.SetMaxStack(64 << 20) }

// cycleShape is one package whose names refer back to themselves through
// imports, re-exports, aliases or attributes.
type cycleShape struct {
	name string
	// want is the outcome: a name that comes through the cycle leaves its
	// site unread (declaration_not_parsed); a description that does is an
	// unreadable description of an entry that is read.
	want  string
	files map[string]string
}

const fastmcpHead = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n"

// pyCycleShapes are the Python resolution cycles: every route by which
// pyeval.go follows a name (module attribute, import, package re-export,
// submodule attribute, class attribute, alias) closed on itself.
var pyCycleShapes = []cycleShape{
	{"self import", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "from .server import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"self import, absolute", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "from p.server import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"self import as the name", OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "from .server import NAME as NAME\n@mcp.tool(name=NAME)\ndef a():\n    \"\"\"Doc.\"\"\"\n",
	}},
	{"mutual import between two modules", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/a.py":        "from .b import DESC\n",
		"p/b.py":        "from .a import DESC\n",
		"p/server.py":   fastmcpHead + "from .a import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"three-module ring", OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/a.py":        "from .b import DESC\n",
		"p/b.py":        "from .c import DESC\n",
		"p/c.py":        "from .a import DESC\n",
		"p/server.py":   fastmcpHead + "from .c import DESC\n@mcp.tool(name=DESC, description=DESC)\ndef a():\n    pass\n",
	}},
	{"package re-exports a name the module imports back", OutcomeParsed, map[string]string{
		"p/__init__.py": "from . import server\nfrom .server import DESC\n",
		"p/server.py":   fastmcpHead + "from . import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"package re-export, absolute", OutcomeParsed, map[string]string{
		"p/__init__.py": "from p.server import DESC\nfrom p import server\n",
		"p/server.py":   fastmcpHead + "from p import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"from . import x, then x.NAME", OutcomeParsed, map[string]string{
		"p/__init__.py": "from . import server\n",
		"p/server.py":   fastmcpHead + "from . import server\nDESC = server.DESC\n@mcp.tool(description=server.DESC)\ndef a():\n    pass\n",
	}},
	{"submodule attribute through the package", OutcomeParsed, map[string]string{
		"p/__init__.py": "from . import server\nDESC = server.DESC\n",
		"p/server.py":   fastmcpHead + "import p\nDESC = p.DESC\n@mcp.tool(description=p.server.DESC)\ndef a():\n    pass\n",
	}},
	{"star imports in a cycle", OutcomeParsed, map[string]string{
		"p/__init__.py": "from .a import *\n",
		"p/a.py":        "from .b import *\n",
		"p/b.py":        "from .a import *\nfrom . import *\n",
		"p/server.py":   fastmcpHead + "from .b import *\nfrom .a import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"aliasing chain A = B; B = A", OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "A = B\nB = A\n@mcp.tool(name=A, description=B)\ndef a():\n    pass\n",
	}},
	{"aliasing chain across modules", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/consts.py":   "from .server import B\nA = B\n",
		"p/server.py":   fastmcpHead + "from .consts import A\nB = A\n@mcp.tool(description=A)\ndef a():\n    pass\n",
	}},
	{"class attribute referring to itself", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "class C:\n    D = C.D\n@mcp.tool(description=C.D)\ndef a():\n    pass\n",
	}},
	{"class attributes referring to each other", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "class C:\n    D = E.F\nclass E:\n    F = C.D\n@mcp.tool(description=E.F)\ndef a():\n    pass\n",
	}},
	{"instance attribute set from itself", OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py": fastmcpHead + "class C:\n    def __init__(self):\n        self.d = self.d\n" +
			"@mcp.tool(description=C().d)\ndef a():\n    pass\n",
	}},
	{"function returning its own call", OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "def f():\n    return f()\ndef g(x):\n    return h(x)\ndef h(x):\n    return g(x)\n@mcp.tool(name=g(1), description=f())\ndef a():\n    pass\n",
	}},
	{"server object imported in a cycle", OutcomeParsed, map[string]string{
		"p/__init__.py": "from .server import mcp\n",
		"p/server.py":   "from . import mcp\n@mcp.tool()\ndef a():\n    \"\"\"Doc.\"\"\"\n",
	}},
	{"tool list imported in a cycle", OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/tools.py":    "from .server import TOOLS\n",
		"p/server.py": "from mcp.server import Server\nfrom mcp.types import Tool\nfrom .tools import TOOLS\nserver = Server('s')\n" +
			"@server.list_tools()\nasync def lt():\n    return TOOLS\n",
	}},
	{"dict of tools spread into itself", OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py": "from mcp.server import Server\nfrom mcp.types import Tool\nserver = Server('s')\nT = {**T, 'a': Tool(name='a', description='d')}\n" +
			"@server.list_tools()\nasync def lt():\n    return list(T.values())\n",
	}},
}

// jsCycleShapes are the JavaScript equivalents: re-exports, star exports
// and CommonJS requires closed on themselves.
var jsCycleShapes = []cycleShape{
	{"self re-export", OutcomeParsed, map[string]string{
		"index.js": "export { DESC } from './index.js';\nimport { DESC } from './index.js';\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"mutual re-export", OutcomeParsed, map[string]string{
		"a.js":     "export { DESC } from './b.js';\n",
		"b.js":     "export { DESC } from './a.js';\n",
		"index.js": "import { DESC } from './a.js';\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"star exports in a ring with several stars", OutcomeParsed, map[string]string{
		"a.js":     "export * from './b.js';\nexport * from './c.js';\nexport * from './a.js';\n",
		"b.js":     "export * from './c.js';\nexport * from './a.js';\nexport * from './b.js';\n",
		"c.js":     "export * from './a.js';\nexport * from './b.js';\nexport * from './c.js';\n",
		"index.js": "import { DESC } from './a.js';\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"require cycle", OutcomeParsed, map[string]string{
		"a.js":     "module.exports = require('./b.js');\n",
		"b.js":     "module.exports = require('./a.js');\n",
		"index.js": "const { DESC } = require('./a.js');\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"exports object refers to itself", OutcomeDeclarationNotParsed, map[string]string{
		"index.js": "exports.DESC = exports.DESC;\nconst m = require('./index.js');\nserver.tool(m.DESC, m.DESC, async () => ({}));\n",
	}},
	{"alias chain", OutcomeDeclarationNotParsed, map[string]string{
		"index.js": "var A = B; var B = A;\nserver.tool(A, B, async () => ({}));\n",
	}},
	{"object property refers to itself", OutcomeParsed, map[string]string{
		"index.js": "const o = { d: o.d, e: { ...o } };\nserver.tool('a', o.d, o.e, async () => ({}));\n",
	}},
	{"import namespace of itself", OutcomeParsed, map[string]string{
		"index.js": "import * as me from './index.js';\nexport const DESC = me.DESC;\nserver.tool('a', me.DESC, async () => ({}));\n",
	}},
}

// boundReasons are the reasons a bound records when it ends a resolution.
var boundReasons = []string{"import cycle", "resolution cycle", "value refers to itself", "resolution depth limit",
	"call depth limit", "recursive call", "does not define", "no call site",
	// entries() reports only that it failed; the self-reference is its cause.
	"of an unresolved dict"}

// viaCycle reports whether the shape passes the entry's field through its
// cycle (rather than, say, a docstring read directly).
func viaCycle(sh cycleShape, field string) bool {
	for _, src := range sh.files {
		if strings.Contains(src, field+"=") || strings.Contains(src, "server.tool(") {
			return true
		}
	}
	return false
}

func shapeFiles(s cycleShape) map[string]string {
	files := map[string]string{}
	for k, v := range s.files {
		files[k] = v
	}
	if _, js := files["index.js"]; js {
		files["package.json"] = `{"name":"t","version":"1.0.0","main":"index.js"}`
	} else {
		files["pyproject.toml"] = "[project]\nname = \"p\"\nversion = \"1\"\ndependencies = [\"mcp\"]\n"
	}
	return files
}

// TestResolutionCycles: every cycle ends at once in a recorded outcome — no
// stack overflow, no panic, the cycle named among the unresolved reasons,
// and no entry whose name or description came through the cycle presented
// as read.
func TestResolutionCycles(t *testing.T) {
	for _, shapes := range [][]cycleShape{pyCycleShapes, jsCycleShapes} {
		for _, sh := range shapes {
			t.Run(sh.name, func(t *testing.T) {
				s := extractMap(t, shapeFiles(sh), Options{})
				failOnRecoveredPanic(t, s)
				var reasons []string
				for _, u := range s.Unresolved {
					reasons = append(reasons, u.Reason)
				}
				sort.Strings(reasons)
				if s.Outcome != sh.want {
					t.Errorf("outcome %s (%s), want %s; unresolved %q", s.Outcome, s.OutcomeDetail, sh.want, reasons)
				}
				if sh.want == OutcomeDeclarationNotParsed && len(s.OutcomeEvidence) == 0 {
					t.Error("declaration_not_parsed without the site recorded")
				}
				if sh.name == "server object imported in a cycle" {
					// The decorator is read from the syntax; only the
					// server object's value goes through the cycle.
					return
				}
				named := false
				for _, r := range reasons {
					for _, b := range boundReasons {
						named = named || strings.Contains(r, b)
					}
				}
				if !named {
					t.Errorf("no unresolved reason names the bound that ended the cycle: %q", reasons)
				}
				for _, e := range s.Tools {
					if e.DescriptionState == StateReadable && viaCycle(sh, "description") {
						t.Errorf("tool %s: description %q read through a cycle", e.Name, e.DescriptionRaw)
					}
				}
			})
		}
	}
}
