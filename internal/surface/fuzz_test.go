package surface

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

func readArchive(t testing.TB, p string) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fuzzExtract runs the extractor over one hostile file (plus a package.json)
// and checks the invariants every surface keeps: an outcome from the fixed
// list, spans inside their file, states from the fixed list.
func fuzzExtract(t *testing.T, name string, src []byte) {
	fuzzExtractFiles(t, map[string][]byte{name: src})
}

// fuzzExtractFiles is fuzzExtract over several files of one package, for
// the shapes that need more than one module (import cycles).
func fuzzExtractFiles(t *testing.T, files map[string][]byte) {
	if fuzzing() {
		// The fuzzer reports a crash with its input but never a hang: an
		// input that outlives every budget many times over crashes the
		// worker, so the input is kept like any other failure.
		watchdog := time.AfterFunc(2*time.Minute, func() { panic("extraction did not end within 2 minutes of a 5 s budget") })
		defer watchdog.Stop()
	}
	m := fstest.MapFS{
		"package.json": &fstest.MapFile{Data: []byte(`{"name":"fuzz","version":"1.0.0","main":"index.js"}`)},
	}
	for name, src := range files {
		m[name] = &fstest.MapFile{Data: src}
	}
	members, err := ClassifyFS(m)
	if err != nil {
		t.Fatal(err)
	}
	s := Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "fuzz", Version: "1.0.0"}, m, members,
		Options{WallBudget: 5 * time.Second, MaxVisited: 200_000})
	switch s.Outcome {
	case vocab.OutcomeParsed, vocab.OutcomeNotAServer, vocab.OutcomeMinifiedOnly, vocab.OutcomeRuntimeGenerated, vocab.OutcomeDeclarationNotParsed,
		vocab.OutcomeNoRegistrationSite, vocab.OutcomeExtractionBudgetExceeded:
	default:
		t.Fatalf("outcome %q", s.Outcome)
	}
	failOnRecoveredPanic(t, s)
	for _, e := range s.AllEntries() {
		switch e.DescriptionState {
		case vocab.StateReadable, vocab.StatePartial, vocab.StateUnreadable, vocab.StateAbsent:
		default:
			t.Fatalf("state %q", e.DescriptionState)
		}
		for _, sp := range e.Spans {
			src, ok := files[sp.File]
			if !ok || sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End || sp.RawEnd > len(e.DescriptionRaw) {
				t.Fatalf("span %+v outside its file or text", sp)
			}
		}
	}
}

// failOnRecoveredPanic fails when the extractor recovered a panic of its
// own: safeEval turns one into a site that could not be read, which keeps
// the run alive but is still a bug (a real server's 18 tools once became
// declaration_not_parsed that way), so the fuzzer must see it.
func failOnRecoveredPanic(t *testing.T, s rundir.Surface) {
	t.Helper()
	for _, u := range s.Unresolved {
		if strings.Contains(u.Reason, reasonInternalError) {
			t.Fatalf("the extractor panicked and recovered: %s:%d %s", u.File, u.Line, u.Reason)
		}
	}
}

// fuzzing reports whether the test binary runs with -test.fuzz.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

func seedFromGolden(f *testing.F, ext string) {
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		for _, file := range a.Files {
			if strings.HasSuffix(file.Name, ext) {
				f.Add(file.Data)
			}
		}
	}
}

func FuzzExtractJS(f *testing.F) {
	seedFromGolden(f, ".js")
	seedFromGolden(f, ".ts")
	f.Add([]byte("server.tool(`a${b}`, [\"x\", 'y'].join(\"\\n\"), {...z}, () => {})"))
	f.Add([]byte("for (const t of T) for (const u of t) s.tool(u.n, u.d, f); const T = [[{n:'a',d:'b'}]];"))
	// Schema readings of 2.3.12: a normalizer's body given no value, a
	// destructuring's rest with deletes, a converter's output path.
	f.Add([]byte("function n(p){if(!p){if(p==null){if(typeof p!=='x'){return {}}}}return p} function o(s,q){return new ZodObject({shape:s??{},...n(q)})} const {a,...r}=T; const c={...r}; for (const k of ['x']) delete c[k]; s.registerTool('t',{inputSchema:{type:'object',...c,properties:(z(S,{name:'t'}).definitions??{})['t']?.properties??{}}},f)"))
	// Schema texts (schematext_helper.go, schematext_lazy.go, schematext_arrow.go):
	// a helper's call, lazies that refer to themselves and to each other, shapes.
	f.Add([]byte("import {z} from 'zod'; import {zodToJsonSchema as c} from 'zod-to-json-schema';\n" +
		"const h = (s) => { return c(s, {}); }; const A = z.lazy(() => z.object({a: z.array(A).describe('x'), b: B}));\n" +
		"const B = z.lazy(() => { return z.union([A, B]); }); const S = z.object({p: A}).extend({q: B}).describe('r');\n" +
		"s.setRequestHandler(L, async () => ({tools: [{name: 'n', inputSchema: h(h(A))}, {name: 'm', inputSchema: h(S)}]}));\n" +
		"s.tool('t', 'd', S.shape, () => {}); s.tool('u', 'd', z.object({}).pick({}).shape, () => {});"))
	// 2.3.15: a schema reused under several keys and inside itself, and
	// esbuild's lowered spread (schematext_esbuild.go).
	f.Add([]byte("import {z} from 'zod'; const C = z.string().describe('c'); const D = z.object({a: C, b: C, s: D});\n" +
		"const E = z.object({x: D, y: D, z: z.lazy(() => E)}); s.tool('r', 'd', {p: E, q: E}, () => {});"))
	f.Add([]byte(esbuildHelpersSrc + esbuildServerSrc))
	// 2.3.20: the schema a config names checked along its route (a
	// destructured table, a dispatcher's answer, a let name sent with
	// express's res.json, a write through the name).
	f.Add([]byte("import express from 'express'; const S = {type:'object',properties:{q:{type:'string',description:'Q.'}}};\n" +
		"const T = [{name:'a', inputSchema: S}]; const {tools} = {tools: T}; let r; const app = express();\n" +
		"app.get('/l', (req, res) => { r = {tools}; res.json(r); }); S.properties.q.description = 'I.';\n" +
		"function w(x){ x.properties = {}; } w(S); s.registerTool('a', {description:'d', inputSchema: S}, f);\n" +
		"s.setRequestHandler(L, async (q) => { switch (q.method) { case 'tools/list': return {tools}; } });"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "index.js", src)
	})
}

func FuzzExtractPython(f *testing.F) {
	seedFromGolden(f, ".py")
	f.Add([]byte("@mcp.tool()\ndef a(x: int) -> str:\n    \"\"\"Doc \\N{EURO SIGN}.\"\"\"\n"))
	f.Add([]byte("mcp = FastMCP(\"x\", instructions=f\"a{b}c\")\nmcp.add_tool(fn, name='n', description=r'\\d')\n"))
	// Configuration read as its default (pyconfig.go).
	f.Add([]byte("import os, argparse\nP = os.getenv('P', '')\ndef n(x):\n    if P:\n        return P + x\n    return x\n" +
		"def main():\n    p = argparse.ArgumentParser()\n    p.add_argument('--ro', action='store_true')\n    a = p.parse_args()\n    reg(**{'ro': a.ro})\n" +
		"def reg(ro=False):\n    if not ro and 'X' not in os.environ:\n        @mcp.tool(name=n('w'), enabled=P == '')\n        def w(): pass\n"))
	// Parameter texts of the input schema (pyschema.go, 2.3.12 and 2.3.13):
	// Field defaults and Annotated metadata (a bare string under the SDK and
	// under the standalone fastmcp), aliases, models with docstrings, nested
	// and recursive models, Enums, a low-level inputSchema dict and a
	// model's model_json_schema().
	f.Add([]byte("from mcp.server.fastmcp import FastMCP\nfrom pydantic import BaseModel, Field\nfrom typing import Annotated\nfrom enum import Enum\nmcp = FastMCP('s')\n" +
		"Q = Annotated[str, Field(description='Alias.')]\nclass C(str, Enum):\n    '''A colour.'''\n    R = 'r'\n" +
		"class N(BaseModel):\n    \"One node.\"\n    kids: list['N'] = []\n    c: C | None = None\n    x: int = Field(1, description='X.')\n" +
		"@mcp.tool()\ndef t(a: Annotated[str, 'Bare.'], b: Q, n: N, d: int = Field(description=f'{a}')) -> str:\n    return ''\n"))
	f.Add([]byte("from fastmcp import FastMCP\nfrom typing import Annotated\nmcp = FastMCP('s')\n@mcp.tool\ndef t(a: Annotated[str, 'Bare.'], b: Annotated[int, 'x', 'y'] = 1) -> str:\n    return a\n"))
	f.Add([]byte("from mcp.server import Server\nfrom mcp.types import Tool\nfrom pydantic import BaseModel\nserver = Server('s')\nclass M(BaseModel):\n    '''M.'''\n    q: str\n" +
		"@server.list_tools()\nasync def l():\n    return [Tool(name='a', description='A.', inputSchema={'type': 'object', 'description': 'Root.', 'properties': {'q': {'description': 'Q.', 'items': {'description': 'I.'}}}}),\n" +
		"            Tool(name='b', description='B.', inputSchema=M.model_json_schema())]\n"))
	// An Enum read whole (pyenum.go), x = g(x) (pyselfref.go) and a
	// comprehension over the Enum read for every loop element.
	f.Add([]byte("from fastmcp import FastMCP\nfrom fastmcp.tools import Tool\nfrom enum import Enum, unique\napp = FastMCP('s')\n" +
		"@unique\nclass K(str, Enum):\n    \"K.\"\n    A = 'a'\n    B = 'b'\n    def d(self):\n        return 1\nT = {K.A: [('x', 'X.', True)], K.B: [('y', 'Y.', False)]}\n" +
		"def keep(fs):\n    return [f for f in fs if f[2]]\ndef main(apis=[k.value for k in K], ro=False):\n    for api in apis:\n        try:\n            fs = T[K(api)]\n        except KeyError:\n            continue\n" +
		"        if ro:\n            fs = keep(fs)\n        for name, description, *_ in fs:\n            app.add_tool(Tool.from_function(main, name=name, description=description))\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "server.py", src)
	})
}

// benchCorpus is the source the benchmarks read: the golden cases' files,
// and, when ATTESTARI_BENCH_DIR names a directory of unpacked packages,
// their sources too.
func benchCorpus(b *testing.B) map[string][]byte {
	out := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, p := range paths {
		a := readArchive(b, p)
		for _, f := range a.Files {
			if languageOf(f.Name) != "" {
				out[filepath.Base(p)+"/"+f.Name] = f.Data
			}
		}
	}
	if dir := os.Getenv("ATTESTARI_BENCH_DIR"); dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && languageOf(p) != "" && !strings.Contains(p, "node_modules") {
				if src, err := os.ReadFile(p); err == nil {
					out[p] = src
				}
			}
			return nil
		})
	}
	return out
}

// BenchmarkParseOnly is tree-sitter parsing alone through go-tree-sitter's
// own API, over the same bytes BenchmarkExtract reads.
func BenchmarkParseOnly(b *testing.B) {
	corpus := benchCorpus(b)
	var total int64
	for _, src := range corpus {
		total += int64(len(src))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for name, src := range corpus {
			g := loadGrammars()[languageOf(name)]
			p := g.pool.Get().(*ts.Parser)
			tree := p.Parse(src, nil)
			tree.Close()
			g.pool.Put(p)
		}
	}
}

// BenchmarkParseString is tree-sitter parsing alone through the C API's
// contiguous-buffer entry point, the one the extractor itself uses; it is the
// stricter baseline (go-tree-sitter's Parse copies the input in callbacks).
func BenchmarkParseString(b *testing.B) {
	corpus := benchCorpus(b)
	var total int64
	for _, src := range corpus {
		total += int64(len(src))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for name, src := range corpus {
			parseOnly(languageOf(name), src)
		}
	}
}

// BenchmarkExtract is the whole extraction over the same bytes, one package.
func BenchmarkExtract(b *testing.B) {
	corpus := benchCorpus(b)
	m := fstest.MapFS{}
	var total int64
	for name, src := range corpus {
		m[strings.TrimPrefix(name, "/")] = &fstest.MapFile{Data: src}
		total += int64(len(src))
	}
	members, err := ClassifyFS(m)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "bench", Version: "1"}, m, members, Options{})
	}
}

// pyCycleSlots are the files FuzzPythonImportCycles writes: one package
// whose modules import each other.
var pyCycleSlots = []string{"p/__init__.py", "p/server.py", "p/a.py", "p/b.py", "p/c.py"}

// jsCycleSlots are the same for FuzzJSImportCycles.
var jsCycleSlots = []string{"index.js", "a.js", "b.js", "c.js"}

func addCycleSeeds(f *testing.F, shapes []cycleShape, slots []string) {
	for _, sh := range shapes {
		args := make([]any, len(slots))
		for i, name := range slots {
			args[i] = []byte(sh.files[name])
		}
		f.Add(args...)
	}
}

// FuzzPythonImportCycles mutates a five-module package seeded with every
// Python cycle shape (import, re-export, star, alias, attribute cycles).
func FuzzPythonImportCycles(f *testing.F) {
	addCycleSeeds(f, pyCycleShapes, pyCycleSlots)
	f.Fuzz(func(t *testing.T, init, server, a, b, c []byte) {
		fuzzExtractFiles(t, map[string][]byte{
			"pyproject.toml": []byte("[project]\nname = \"p\"\nversion = \"1\"\ndependencies = [\"mcp\"]\n"),
			pyCycleSlots[0]:  init, pyCycleSlots[1]: server, pyCycleSlots[2]: a, pyCycleSlots[3]: b, pyCycleSlots[4]: c,
		})
	})
}

// FuzzJSImportCycles mutates a four-module package seeded with every
// JavaScript cycle shape (re-exports, star exports, requires, aliases).
func FuzzJSImportCycles(f *testing.F) {
	addCycleSeeds(f, jsCycleShapes, jsCycleSlots)
	f.Fuzz(func(t *testing.T, index, a, b, c []byte) {
		fuzzExtractFiles(t, map[string][]byte{
			jsCycleSlots[0]: index, jsCycleSlots[1]: a, jsCycleSlots[2]: b, jsCycleSlots[3]: c,
		})
	})
}

// FuzzPythonDecorators builds a server module from a decorator, a
// parameter list and a body, seeded with the registration forms of
// methodology §5 and the odd ones that used to index past an argument list.
func FuzzPythonDecorators(f *testing.F) {
	decorators := []string{"mcp.prompt()", "mcp.prompt", "mcp.tool()", "mcp.tool", "x.tool", "mcp.tool(name='x', description='y')",
		"mcp.tool(description=DESC)", "mcp.tool(**{'name': 'x'})", "mcp.resource('a://{x}')", "mcp.resource()", "mcp.prompt(name='n')",
		"server.list_tools()", "server.list_prompts()", "server.call_tool()", "mcp.tool(annotations=ToolAnnotations(title='t'))"}
	params := []string{"", "topic: str", "*args, **kw", "a, /, b, *, c", "x: Annotated[str, Field(description='d')]",
		"ctx: Context, y: int = Field(description='e')"}
	bodies := []string{"    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    return f'Write {topic}'\n", "    return [UserMessage('a'), base.AssistantMessage(content=TextContent(type='text', text='b'))]\n",
		"    return [Tool(name='a', description='b', inputSchema={'type': 'object'})]\n", "    pass\n"}
	for i, d := range decorators {
		f.Add(d, params[i%len(params)], bodies[i%len(bodies)])
		f.Add(d, params[(i+3)%len(params)], bodies[(i+1)%len(bodies)])
	}
	f.Fuzz(func(t *testing.T, decorator, params, body string) {
		src := fastmcpHead + "from mcp.server import Server\nx = mcp\nserver = Server('s')\nDESC = 'd'\n" +
			"@" + decorator + "\ndef f(" + params + "):\n" + body
		fuzzExtractFiles(t, map[string][]byte{"server.py": []byte(src)})
	})
}
