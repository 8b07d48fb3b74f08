package surface

import (
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/vocab"
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
	{"self import", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "from .server import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"self import, absolute", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "from p.server import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"self import as the name", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "from .server import NAME as NAME\n@mcp.tool(name=NAME)\ndef a():\n    \"\"\"Doc.\"\"\"\n",
	}},
	{"mutual import between two modules", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/a.py":        "from .b import DESC\n",
		"p/b.py":        "from .a import DESC\n",
		"p/server.py":   fastmcpHead + "from .a import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"three-module ring", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/a.py":        "from .b import DESC\n",
		"p/b.py":        "from .c import DESC\n",
		"p/c.py":        "from .a import DESC\n",
		"p/server.py":   fastmcpHead + "from .c import DESC\n@mcp.tool(name=DESC, description=DESC)\ndef a():\n    pass\n",
	}},
	{"package re-exports a name the module imports back", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "from . import server\nfrom .server import DESC\n",
		"p/server.py":   fastmcpHead + "from . import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"package re-export, absolute", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "from p.server import DESC\nfrom p import server\n",
		"p/server.py":   fastmcpHead + "from p import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"from . import x, then x.NAME", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "from . import server\n",
		"p/server.py":   fastmcpHead + "from . import server\nDESC = server.DESC\n@mcp.tool(description=server.DESC)\ndef a():\n    pass\n",
	}},
	{"submodule attribute through the package", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "from . import server\nDESC = server.DESC\n",
		"p/server.py":   fastmcpHead + "import p\nDESC = p.DESC\n@mcp.tool(description=p.server.DESC)\ndef a():\n    pass\n",
	}},
	{"star imports in a cycle", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "from .a import *\n",
		"p/a.py":        "from .b import *\n",
		"p/b.py":        "from .a import *\nfrom . import *\n",
		"p/server.py":   fastmcpHead + "from .b import *\nfrom .a import DESC\n@mcp.tool(description=DESC)\ndef a():\n    pass\n",
	}},
	{"aliasing chain A = B; B = A", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "A = B\nB = A\n@mcp.tool(name=A, description=B)\ndef a():\n    pass\n",
	}},
	{"aliasing chain across modules", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/a.py":        "from .server import B\nA = B\n",
		"p/server.py":   fastmcpHead + "from .a import A\nB = A\n@mcp.tool(description=A)\ndef a():\n    pass\n",
	}},
	{"class attribute referring to itself", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "class C:\n    D = C.D\n@mcp.tool(description=C.D)\ndef a():\n    pass\n",
	}},
	{"class attributes referring to each other", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "class C:\n    D = E.F\nclass E:\n    F = C.D\n@mcp.tool(description=E.F)\ndef a():\n    pass\n",
	}},
	{"instance attribute set from itself", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py": fastmcpHead + "class C:\n    def __init__(self):\n        self.d = self.d\n" +
			"@mcp.tool(description=C().d)\ndef a():\n    pass\n",
	}},
	{"function returning its own call", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py":   fastmcpHead + "def f():\n    return f()\ndef g(x):\n    return h(x)\ndef h(x):\n    return g(x)\n@mcp.tool(name=g(1), description=f())\ndef a():\n    pass\n",
	}},
	{"server object imported in a cycle", vocab.OutcomeParsed, map[string]string{
		"p/__init__.py": "from .server import mcp\n",
		"p/server.py":   "from . import mcp\n@mcp.tool()\ndef a():\n    \"\"\"Doc.\"\"\"\n",
	}},
	{"tool list imported in a cycle", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/a.py":        "from .server import TOOLS\n",
		"p/server.py": "from mcp.server import Server\nfrom mcp.types import Tool\nfrom .a import TOOLS\nserver = Server('s')\n" +
			"@server.list_tools()\nasync def lt():\n    return TOOLS\n",
	}},
	{"dict of tools spread into itself", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"p/__init__.py": "",
		"p/server.py": "from mcp.server import Server\nfrom mcp.types import Tool\nserver = Server('s')\nT = {**T, 'a': Tool(name='a', description='d')}\n" +
			"@server.list_tools()\nasync def lt():\n    return list(T.values())\n",
	}},
}

// jsCycleShapes are the JavaScript equivalents: re-exports, star exports
// and CommonJS requires closed on themselves.
var jsCycleShapes = []cycleShape{
	{"self re-export", vocab.OutcomeParsed, map[string]string{
		"index.js": "export { DESC } from './index.js';\nimport { DESC } from './index.js';\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"mutual re-export", vocab.OutcomeParsed, map[string]string{
		"a.js":     "export { DESC } from './b.js';\n",
		"b.js":     "export { DESC } from './a.js';\n",
		"index.js": "import { DESC } from './a.js';\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"star exports in a ring with several stars", vocab.OutcomeParsed, map[string]string{
		"a.js":     "export * from './b.js';\nexport * from './c.js';\nexport * from './a.js';\n",
		"b.js":     "export * from './c.js';\nexport * from './a.js';\nexport * from './b.js';\n",
		"c.js":     "export * from './a.js';\nexport * from './b.js';\nexport * from './c.js';\n",
		"index.js": "import { DESC } from './a.js';\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"require cycle", vocab.OutcomeParsed, map[string]string{
		"a.js":     "module.exports = require('./b.js');\n",
		"b.js":     "module.exports = require('./a.js');\n",
		"index.js": "const { DESC } = require('./a.js');\nserver.tool('a', DESC, async () => ({}));\n",
	}},
	{"exports object refers to itself", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"index.js": "exports.DESC = exports.DESC;\nconst m = require('./index.js');\nserver.tool(m.DESC, m.DESC, async () => ({}));\n",
	}},
	{"alias chain", vocab.OutcomeDeclarationNotParsed, map[string]string{
		"index.js": "var A = B; var B = A;\nserver.tool(A, B, async () => ({}));\n",
	}},
	{"object property refers to itself", vocab.OutcomeParsed, map[string]string{
		"index.js": "const o = { d: o.d, e: { ...o } };\nserver.tool('a', o.d, o.e, async () => ({}));\n",
	}},
	{"import namespace of itself", vocab.OutcomeParsed, map[string]string{
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
				if sh.want == vocab.OutcomeDeclarationNotParsed && len(s.OutcomeEvidence) == 0 {
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
					if e.DescriptionState == vocab.StateReadable && viaCycle(sh, "description") {
						t.Errorf("tool %s: description %q read through a cycle", e.Name, e.DescriptionRaw)
					}
				}
			})
		}
	}
}

// pyDecoratorForms are the decorator and call forms of registration, odd
// ones included: bare, called, keywords only, no arguments where one is
// expected, unpacked arguments, stacked decorators, prompts whose text is
// built from names with no source bytes (dict keys), and prompts that are
// lambdas, whose tree has no parameters node: reading that absent node's
// children panicked with index out of range [-1], and the recovered panic
// made the package declaration_not_parsed.
var pyDecoratorForms = []struct {
	name, src string
	tools     int
	prompts   int
}{
	{"prompt called, f-string body", "@mcp.prompt()\ndef p(topic: str) -> str:\n    \"\"\"Doc.\"\"\"\n    return f\"Write about {topic}\"\n", 0, 1},
	{"prompt bare", "@mcp.prompt\ndef p(topic: str) -> str:\n    \"\"\"Doc.\"\"\"\n    return 'x'\n", 0, 1},
	{"prompt returning messages", "@mcp.prompt()\ndef p() -> list:\n    return [UserMessage('a'), AssistantMessage(content='b')]\n", 0, 1},
	{"prompt with splat parameters", "@mcp.prompt()\ndef p(*args, **kw):\n    return [m for m in args]\n", 0, 1},
	{"prompt with positional-only and keyword-only parameters", "@mcp.prompt()\ndef p(a, /, b, *, c):\n    return a\n", 0, 1},
	{"prompt generator", "@mcp.prompt()\nasync def p(x=lambda: 1):\n    yield 'a'\n", 0, 1},
	{"prompt returning nothing", "@mcp.prompt()\ndef p():\n    return\n", 0, 1},
	{"prompt keywords only", "@mcp.prompt(name='n', description='d')\ndef p():\n    return {'messages': [{'content': {'type': 'text'}}]}\n", 0, 1},
	{"prompt text from a dict key, stripped", "P = {'  hi  ': 1}\n@mcp.prompt()\ndef p():\n    for k in P:\n        return k.strip()\n", 0, 1},
	{"prompt text from a dict key, dedented", "import textwrap\nP = {'  hi\\n  there': 1}\n@mcp.prompt()\ndef p():\n    return textwrap.dedent(list(P.keys())[0])\n", 0, 1},
	{"prompt named by a stripped dict key", "P = {' a ': 'd'}\nfor k, v in P.items():\n    mcp.add_prompt(Prompt.from_function(f, name=k.strip(), description=v.strip()))\ndef f():\n    return 'x'\n", 0, 1},
	{"prompt on a class", "@mcp.prompt()\nclass P: pass\n", 0, 0},
	{"prompt registered as a lambda", "mcp.add_prompt(lambda: 'Hi')\n", 0, 1},
	{"prompt from_function of a lambda", "mcp.add_prompt(Prompt.from_function(lambda: 'Hi', name='p'))\n", 0, 1},
	{"prompt with type parameters", "@mcp.prompt()\ndef p[T](x: T) -> str:\n    return 'a'\n", 0, 1},
	{"prompt with a broken parameter list", "@mcp.prompt()\ndef p(:\n    return 'a'\n", 0, 1},
	{"prompt and tool stacked", "@mcp.prompt()\n@mcp.tool()\ndef p(): pass\n", 1, 1},
	{"tool keywords only", "@mcp.tool(name='x', description='y')\ndef t(): pass\n", 1, 0},
	{"tool bare", "@mcp.tool\ndef t(): pass\n", 1, 0},
	{"tool bare on another name", "@x.tool\ndef t(): pass\n", 1, 0},
	{"tool annotations only", "@mcp.tool(annotations=ToolAnnotations(title='t'))\ndef t(): pass\n", 1, 0},
	{"tool unpacked arguments", "@mcp.tool(*a, **k)\ndef t(): pass\n", 1, 0},
	{"tool unpacked dict literal", "@mcp.tool(**{'name': 'x'})\ndef t(): pass\n", 1, 0},
	{"tool called twice", "@mcp.tool()()\ndef t(): pass\n", 0, 0},
	{"tool with an empty keyword", "@mcp.tool(name=)\ndef t(): pass\n", 0, 0},
	{"resource called without a URI", "@mcp.resource()\ndef r(): pass\n", 0, 0},
	{"resource bare", "@mcp.resource\ndef r(): pass\n", 0, 0},
	{"resource keywords only", "@mcp.resource(name='x')\ndef r(): pass\n", 0, 0},
	{"list_tools returning nothing", "@server.list_tools()\nasync def lt():\n    return\n", 0, 0},
	{"list_tools bare, empty Tool", "@server.list_tools\nasync def lt():\n    return [Tool()]\n", 1, 0},
	{"list_prompts with empty objects", "@server.list_prompts()\nasync def lp():\n    return [Prompt(arguments=[PromptArgument()])]\n", 0, 1},
	{"add forms without arguments", "mcp.add_tool()\nmcp.add_prompt()\nmcp.add_resource()\n", 0, 0},
	{"add_tool with fn= after the name", "mcp.add_tool(name='x', fn=f)\ndef f(): pass\n", 1, 0},
	{"from_function without arguments", "mcp.add_tool(Tool.from_function())\nmcp.add_prompt(Prompt.from_function())\n", 0, 0},
	{"call forms", "mcp.tool()(f)\nmcp.tool()()\nmcp.prompt()(f)\ndef f(): pass\n", 1, 0},
	{"constructors without arguments", "FastMCP()\nServer()\n", 0, 0},
	{"Annotated without metadata", "@mcp.tool()\ndef t(x: Annotated[str]): pass\n", 1, 0},
	{"Field without arguments", "@mcp.tool()\ndef t(x: Annotated[str, Field()], y: str = Field()): pass\n", 1, 0},
}

// TestDecoratorForms: no form panics (safeEval would turn a panic into an
// unread site: the bug that made a server whose 18 tools were read
// declaration_not_parsed), and the forms that register read as many
// entries as they register.
func TestDecoratorForms(t *testing.T) {
	head := fastmcpHead + "from mcp.server import Server\nx = mcp\nserver = Server('s')\n"
	for _, c := range pyDecoratorForms {
		t.Run(c.name, func(t *testing.T) {
			s := extractMap(t, map[string]string{"server.py": head + c.src}, Options{})
			failOnRecoveredPanic(t, s)
			if len(s.Tools) < c.tools || len(s.Prompts) < c.prompts {
				t.Errorf("%d tools, %d prompts; want at least %d, %d (outcome %s, unresolved %v)",
					len(s.Tools), len(s.Prompts), c.tools, c.prompts, s.Outcome, s.Unresolved)
			}
		})
	}
}

func manyTools(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("server.tool('t" + itoa(i) + "', 'Tool.', async () => ({}));\n")
	}
	return b.String()
}

// TestEntriesCap: a surface at the cap is read whole; one entry past it is
// extraction_budget_exceeded with the cap named and nothing presented.
func TestEntriesCap(t *testing.T) {
	pkg := `{"name":"t","version":"1.0.0","main":"index.js"}`
	at := extractMap(t, map[string]string{"package.json": pkg, "index.js": manyTools(40)}, Options{MaxEntries: 40})
	if at.Outcome != vocab.OutcomeParsed || len(at.Tools) != 40 {
		t.Fatalf("at the cap: outcome %s with %d tools, want parsed with 40", at.Outcome, len(at.Tools))
	}
	past := extractMap(t, map[string]string{"package.json": pkg, "index.js": manyTools(41)}, Options{MaxEntries: 40})
	if past.Outcome != vocab.OutcomeExtractionBudgetExceeded || !strings.Contains(past.OutcomeDetail, "40 entries of kind tool") {
		t.Fatalf("past the cap: outcome %s (%s), want %s naming the cap", past.Outcome, past.OutcomeDetail, vocab.OutcomeExtractionBudgetExceeded)
	}
	if n := len(past.AllEntries()); n != 0 {
		t.Fatalf("past the cap the surface presents %d entries; a surface counted in part is not the surface", n)
	}
	// The cap of all kinds together counts parameter descriptions too.
	var py strings.Builder
	py.WriteString(fastmcpHead)
	for i := range 5 {
		py.WriteString("@mcp.tool()\ndef t" + itoa(i) + "(a: str = Field(description='A'), b: str = Field(description='B')):\n    \"\"\"Doc.\"\"\"\n")
	}
	all := extractMap(t, map[string]string{"server.py": py.String()}, Options{MaxAllEntries: 14})
	if all.Outcome != vocab.OutcomeExtractionBudgetExceeded || !strings.Contains(all.OutcomeDetail, "14 entries of all kinds") {
		t.Fatalf("15 entries against a cap of 14: outcome %s (%s)", all.Outcome, all.OutcomeDetail)
	}
	// The default cap: 10,000 tools are read, 10,001 are not.
	if testing.Short() {
		return
	}
	def := extractMap(t, map[string]string{"package.json": pkg, "index.js": manyTools(10_001)}, Options{})
	if def.Outcome != vocab.OutcomeExtractionBudgetExceeded || !strings.Contains(def.OutcomeDetail, "10000 entries of kind tool") {
		t.Fatalf("10,001 tools: outcome %s (%s)", def.Outcome, def.OutcomeDetail)
	}
}

// TestAdvertisedCap: a README listing more tool names than the cap ends the
// same way.
func TestAdvertisedCap(t *testing.T) {
	var readme strings.Builder
	readme.WriteString("# x\n\n## Tools\n\n")
	for i := range 11 {
		readme.WriteString("- `tool_" + itoa(i) + "`: does a thing\n")
	}
	s := extractMap(t, map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"README.md":    readme.String(),
		"index.js":     "server.tool('a', 'A.', async () => ({}));\n",
	}, Options{MaxEntries: 10})
	if s.Outcome != vocab.OutcomeExtractionBudgetExceeded || len(s.AdvertisedTools) != 0 {
		t.Fatalf("outcome %s (%s) with %d advertised names", s.Outcome, s.OutcomeDetail, len(s.AdvertisedTools))
	}
}

// nestingShapes are files nested n levels deep in each way a walk of the
// extractor descends: brackets, calls, attribute chains, operator chains,
// unpacking targets, destructuring patterns, schema literals and zod chains,
// several of them inside a registration site so resolution walks them too.
func nestingShapes(n int) map[string]map[string]string {
	r := func(s string, k int) string { return strings.Repeat(s+"\n", k) }
	py := func(src string) map[string]string { return map[string]string{"server.py": fastmcpHead + src} }
	js := func(src string) map[string]string {
		return map[string]string{"index.js": src, "package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`}
	}
	return map[string]map[string]string{
		"py parentheses":       py("x = " + r("(", n) + "1" + r(")", n)),
		"py lists":             py("x = " + r("[", n) + r("]", n)),
		"py calls":             py("x = " + r("f(", n) + r(")", n)),
		"py unpacking target":  py(r("(", n) + "a" + r(",)", n) + " = 1\n"),
		"py dicts":             py("x = " + r("{1:", n) + "1" + r("}", n)),
		"py description chain": py("@mcp.tool(description='a'" + r("+'a'", n) + ")\ndef t(): pass\n"),
		"py path expression":   py("import os\nopen(" + r("os.path.join(", n) + "'p'" + r(")", n) + ")\n"),
		"py schema literal":    py("from mcp.types import Tool\nT = [Tool(name='a', description='d', inputSchema=" + r("{'a':", n) + "1" + r("}", n) + ")]\n"),
		"js parentheses":       js("x = " + r("(", n) + "1" + r(")", n) + ";\n"),
		"js arrays":            js("x = " + r("[", n) + r("]", n) + ";\n"),
		"js destructuring":     js("const " + r("{a:", n) + "b" + r("}", n) + " = x;\n"),
		"js member chain":      js("x = a" + r(".b", n) + ";\nrequire(a" + r(".b", n) + ");\n"),
		"js description chain": js("server.tool('a', 'b'" + r("+'c'", n) + ", async () => ({}));\n"),
		"js fetch":             js("fetch(" + r("(", n) + "'u'" + r(")", n) + ");\nfetch(new URL(" + r("new URL(", n) + "'u'" + r(")", n) + "));\n"),
		"js zod chain":         js("server.tool('a', 'b', {x: z" + r(".object({y: z", n) + ".string()" + r("})", n) + "}, async () => ({}));\n"),
		"js schema literal": js("server.registerTool('a', {description: 'b', inputSchema: " + r("{type:'object', properties: {x: ", n) + "{}" + r("}}", n) +
			"}, async () => ({}));\n"),
		"js arrows":   js("x = " + r("() => ", n) + "1;\n"),
		"js template": js("x = `" + r("${`", n) + r("`}", n) + "`;\n"),
	}
}

// TestNestingLimit: a file nested past the limit ends the extraction as
// extraction_budget_exceeded naming the limit; a file nested just under a
// limit of the same order is read without a walk overflowing the small
// stack these tests run with.
func TestNestingLimit(t *testing.T) {
	const limit = 3_000
	for name, files := range nestingShapes(limit + 10) {
		t.Run("past/"+name, func(t *testing.T) {
			s := extractMap(t, files, Options{MaxNesting: limit})
			if s.Outcome != vocab.OutcomeExtractionBudgetExceeded || !strings.Contains(s.OutcomeDetail, "past the limit of 3000") {
				t.Fatalf("outcome %s (%s), want %s naming the nesting limit", s.Outcome, s.OutcomeDetail, vocab.OutcomeExtractionBudgetExceeded)
			}
		})
	}
	// Under the limit: a tree is deeper than its count of brackets (a
	// level of a zod chain is four nodes), so a fifth of it is used.
	for name, files := range nestingShapes(limit / 5) {
		t.Run("under/"+name, func(t *testing.T) {
			s := extractMap(t, files, Options{MaxNesting: limit})
			failOnRecoveredPanic(t, s)
			if s.Outcome == vocab.OutcomeExtractionBudgetExceeded {
				t.Fatalf("outcome %s (%s) under the limit", s.Outcome, s.OutcomeDetail)
			}
		})
	}
	if testing.Short() {
		return
	}
	// Under the default limit, with the default budgets, on a stack a
	// sixteenth of the runtime's: what a worker meets stays far inside it.
	// Ten times the default's nesting is read under a raised limit, so the
	// default has that margin on this stack too.
	for name, files := range nestingShapes(10 * defaultMaxNesting / 5) {
		t.Run("tenfold/"+name, func(t *testing.T) {
			s := extractMap(t, files, Options{MaxNesting: 10 * defaultMaxNesting})
			failOnRecoveredPanic(t, s)
			if strings.Contains(s.OutcomeDetail, "levels deep") {
				t.Fatalf("outcome %s (%s) under a limit of ten times the default", s.Outcome, s.OutcomeDetail)
			}
		})
	}
}

// BenchmarkNestingShapes extracts each nesting shape at NESTING_LEVELS
// repetitions (default 1,000,000) and logs its outcome: the figure of
// docs/reliability.md §3. Run with -benchtime 1x; it is slow by design.
func BenchmarkNestingShapes(b *testing.B) {
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("NESTING_LEVELS")); err == nil && v > 0 {
		n = v
	}
	shapes := nestingShapes(n)
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := extractMap(b, shapes[name], Options{WallBudget: 5 * time.Minute})
				b.Logf("%s: %s (%s)", name, s.Outcome, s.OutcomeDetail)
			}
		})
	}
}
