package surface

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

func measure(t *testing.T, path, src string, regions ...VendoredRegion) MinifiedFigures {
	t.Helper()
	m, err := MeasureMinified(path, []byte(src), regions, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// terserStyle is what terser or esbuild --minify write: statements packed
// on one line, no whitespace after separators, names mangled.
func terserStyle(n int) string {
	var b strings.Builder
	b.WriteString(`"use strict";var e=require("@modelcontextprotocol/sdk/server/mcp.js"),t=new e.McpServer({name:"m",version:"1"});`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `function r%d(n,o){return n.call(o,%d,[n,o])}t.tool("t%d","Tool %d.",async(n,o)=>({content:[]}));`, i, i, i, i)
	}
	return b.String() + "\n"
}

func TestMinifiedReadableLongString(t *testing.T) {
	src := "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n" +
		"export const ICON = \"data:image/png;base64," + strings.Repeat("iVBORw0KGgo", 500) + "\";\n" +
		"const server = new McpServer({ name: \"icons\", version: \"1.0.0\" });\n" +
		"server.tool(\"icon\", \"Return the icon.\", async () => ({ content: [] }));\n"
	m := measure(t, "dist/index.js", src)
	if !m.LineRule() {
		t.Fatalf("a 5 KB line must be a line-rule candidate: %+v", m)
	}
	if m.Bundle() {
		t.Errorf("a readable file whose long line is one string is classed a bundle: %+v", m)
	}
	if m.CodeLongestLine > 80 {
		t.Errorf("code longest line %d counts the string's bytes", m.CodeLongestLine)
	}
	if m.LongestLine < 5000 {
		t.Errorf("raw longest line %d, want the whole line", m.LongestLine)
	}
}

func TestMinifiedTerserBundle(t *testing.T) {
	m := measure(t, "dist/index.js", terserStyle(20))
	if !m.Bundle() || !m.Packed() || m.PackedLines != 1 {
		t.Errorf("terser-style output is not a packed bundle: %+v", m)
	}
	if m.TightShare() < 0.9 {
		t.Errorf("tight share %.2f, want nearly all separators tight", m.TightShare())
	}
}

func TestMinifiedObfuscated(t *testing.T) {
	// javascript-obfuscator's default (compact) output: one line.
	var b strings.Builder
	b.WriteString(`var _0x3a1f=['tool','description'];(function(_0x2b7c,_0x4d1e){var _0x51aa=function(_0x1c3b){while(--_0x1c3b){_0x2b7c['push'](_0x2b7c['shift']());}};_0x51aa(++_0x4d1e);}(_0x3a1f,0x1a3));`)
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, `var _0x%x=function(_0x2b7c,_0x4d1e){_0x2b7c=_0x2b7c-0x0;var _0x51aa=_0x3a1f[_0x2b7c];return _0x51aa;};`, 0x5000+i)
	}
	m := measure(t, "index.js", b.String())
	if !m.Bundle() || !m.Packed() || !m.Mangled() {
		t.Errorf("compact obfuscated code is not a packed, mangled bundle: %+v", m)
	}

	// The same names laid out on lines with spaces (compact: false): the
	// separators are spaced, but the names are mangled. One long line of
	// a string array makes it a candidate.
	b.Reset()
	b.WriteString("var _0x3a1f = [" + strings.Repeat("'aGVsbG8=', ", 100) + "'x'];\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "var _0x%x = function (_0x2b7c, _0x4d1e) {\n    _0x2b7c = _0x2b7c - 0x0;\n    var _0x51aa = _0x3a1f[_0x2b7c];\n    return _0x51aa;\n};\n", 0x5000+i)
	}
	m = measure(t, "index.js", b.String())
	if m.Packed() {
		t.Errorf("spaced obfuscated code reads as packed: %+v", m)
	}
	if !m.Mangled() || !m.Bundle() {
		t.Errorf("spaced obfuscated code with _0x names is not a mangled bundle: %+v", m)
	}
}

func TestMinifiedReadableLongCode(t *testing.T) {
	// tsc's export prelude and an export list: one statement each, over
	// 800 code bytes, printed with a space after every separator.
	var names []string
	for i := 0; i < 60; i++ {
		names = append(names, fmt.Sprintf("registerToolNumber%d", i))
	}
	src := "exports." + strings.Join(names, " = exports.") + " = void 0;\n" +
		"export { " + strings.Join(names, ", ") + " };\n" +
		"const table = [" + strings.Repeat("128, 165, 169, ", 80) + "0];\n"
	m := measure(t, "dist/index.js", src)
	if m.LongCodeLines != 3 {
		t.Fatalf("want 3 code lines over 800 bytes: %+v", m)
	}
	if m.Bundle() {
		t.Errorf("printed long statements are classed a bundle: %+v", m)
	}
}

func TestMinifiedTextTokens(t *testing.T) {
	long := strings.Repeat("a long description, with commas,and,no,spaces;", 40)
	cases := map[string]string{
		"template":       "const d = `" + long + "`;\nserver.tool(\"t\", d, f);\n",
		"line comment":   "// " + long + "\nserver.tool(\"t\", \"d\", f);\n",
		"block comment":  "/* " + long + "\n" + long + " */\nserver.tool(\"t\", \"d\", f);\n",
		"regex":          "const r = /" + strings.Repeat("(?:a,b;c)", 120) + "/;\nserver.tool(\"t\", \"d\", f);\n",
		"single-quoted":  "const d = '" + long + "';\nserver.tool(\"t\", \"d\", f);\n",
		"crlf and a tab": "const d = \"" + long + "\";\r\n\tserver.tool(\"t\", \"d\", f);\r\n",
	}
	for name, src := range cases {
		m := measure(t, "index.js", src)
		if !m.LineRule() || m.Bundle() || m.CodeLongestLine > 40 {
			t.Errorf("%s: text counted as code: %+v", name, m)
		}
	}
	// A substitution is code: packed code inside one still counts.
	packed := strings.Repeat("f(a,b);g(c,d);", 80)
	m := measure(t, "index.js", "const d = `text ${(()=>{"+packed+"})()} more`;\n")
	if !m.Bundle() || m.CodeLongestLine < len(packed) {
		t.Errorf("packed code in a template substitution is not counted: %+v", m)
	}
}

func TestMinifiedCRLF(t *testing.T) {
	lf := terserStyle(10) + "const x = 1;\n"
	crlf := strings.ReplaceAll(lf, "\n", "\r\n")
	a, b := measure(t, "a.js", lf), measure(t, "a.js", crlf)
	if a != b {
		t.Errorf("CRLF changes the figures:\n lf   %+v\n crlf %+v", a, b)
	}
}

func TestMinifiedVendoredRegion(t *testing.T) {
	src := "// node_modules/lib/index.js\n" + terserStyle(20) + "// src/server.js\nconst server = 1;\n"
	if m := measure(t, "dist/index.js", src); !m.Bundle() {
		t.Fatalf("a packed line outside any region is not a bundle: %+v", m)
	}
	m := measure(t, "dist/index.js", src, VendoredRegion{Library: "lib", StartLine: 1, EndLine: 2})
	if m.Bundle() || m.PackedLines != 0 || m.CodeLongestLine > 20 {
		t.Errorf("a packed line in a vendored region is counted: %+v", m)
	}
	if !m.LineRule() {
		t.Errorf("the line rule reads every line: %+v", m)
	}
}

func TestMinifiedSyntaxError(t *testing.T) {
	src := "const s = \"" + strings.Repeat("x", 900) + "\";\nfunction ( {\n"
	m := measure(t, "index.js", src)
	if !m.SyntaxError || !m.Bundle() {
		t.Errorf("a candidate that does not parse must stay a bundle: %+v", m)
	}
}

func TestMinifiedPython(t *testing.T) {
	src := "from mcp.server.fastmcp import FastMCP\n" +
		"ICON = \"" + strings.Repeat("iVBORw0KGgo", 200) + "\"\n" +
		"# " + strings.Repeat("a,b;", 300) + "\n" +
		"mcp = FastMCP(\"icons\")\n" +
		"@mcp.tool()\ndef icon(size: int) -> str:\n    \"\"\"Return the icon.\"\"\"\n    return ICON\n"
	m := measure(t, "server.py", src)
	if !m.LineRule() || m.Bundle() || m.CodeLongestLine > 40 {
		t.Errorf("a Python string or comment counted as code: %+v", m)
	}
}

func TestMinifiedNotSource(t *testing.T) {
	if _, err := MeasureMinified("README.md", []byte("x"), nil, time.Second); err == nil {
		t.Error("a member that is not source was measured")
	}
}

// TestMinifiedDecidesExtraction: the extractor applies the rule to members
// the archive reader's line rule nominated, and its file list says so.
func TestMinifiedDecidesExtraction(t *testing.T) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"x","version":"1.0.0","main":"index.js"}`)},
		"index.js": {Data: []byte("import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n" +
			"import \"./packed.js\";\n" +
			"const ICON = \"" + strings.Repeat("A", 5000) + "\";\n" +
			"const server = new McpServer({ name: \"x\", version: \"1.0.0\" });\n" +
			"server.tool(\"icon\", \"Return the icon.\", async () => ({ content: [{ type: \"text\", text: ICON }] }));\n")},
		"packed.js": {Data: []byte(terserStyle(20))},
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if (m.Path == "index.js" || m.Path == "packed.js") && !m.Minified {
			t.Fatalf("%s: the line rule must nominate it", m.Path)
		}
	}
	s := Extract(context.Background(), packageRefOf(fsys), fsys, members, Options{WallBudget: time.Minute})
	got := map[string]bool{}
	for _, f := range s.Files {
		got[f.Path] = f.Minified
	}
	if got["index.js"] || !got["packed.js"] {
		t.Errorf("files' minified flags %v, want index.js readable and packed.js a bundle", got)
	}
	var icon bool
	for _, e := range s.AllEntries() {
		if e.Name == "icon" {
			icon = true
			if e.DescriptionState != vocab.StateReadable || e.DescriptionRaw != "Return the icon." {
				t.Errorf("icon: %s %q", e.DescriptionState, e.DescriptionRaw)
			}
		}
	}
	if !icon {
		t.Errorf("the readable member's tool was not read: %+v", s.AllEntries())
	}
}

// FuzzMeasureMinified: on any bytes the code figures never exceed the raw
// ones, tight separators are separators, and only a line-rule candidate is
// a bundle (so a member the archive reader passes is never reclassed).
func FuzzMeasureMinified(f *testing.F) {
	f.Add([]byte(terserStyle(3)), false)
	f.Add([]byte("const s = `a ${b /* c */} d`; // e\r\nx = /f,g/;\n"), false)
	f.Add([]byte("s = f\"{a,b}\" # c,d\n"), true)
	f.Fuzz(func(t *testing.T, src []byte, py bool) {
		path := "index.js"
		if py {
			path = "server.py"
		}
		m, err := MeasureMinified(path, src, []VendoredRegion{{StartLine: 2, EndLine: 3}}, 5*time.Second)
		if err != nil {
			return
		}
		if m.CodeLongestLine > m.LongestLine || m.CodeBytes > len(src) || m.CodeSpace > m.CodeBytes {
			t.Errorf("code figures exceed raw ones: %+v", m)
		}
		if m.Tight > m.Separators || m.ShortBindings > m.Bindings || m.Bindings > m.Identifiers || m.PackedLines > m.LongCodeLines {
			t.Errorf("counts inconsistent: %+v", m)
		}
		if m.Bundle() && !m.LineRule() {
			t.Errorf("a member the line rule passes is a bundle: %+v", m)
		}
	})
}
