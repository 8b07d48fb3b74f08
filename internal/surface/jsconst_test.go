package surface

import (
	"fmt"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// constTool extracts one tool whose description is the template tmpl over
// the declarations decls (index.js), with extra files beside it.
func constTool(t *testing.T, decls, tmpl string, extra map[string]string) (state, raw string, holes []string) {
	t.Helper()
	files := map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" +
			decls + "\nserver.tool('t', `" + tmpl + "`, {}, async () => ({}));\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1 {
		t.Fatalf("outcome %s, %d tools", s.Outcome, len(s.Tools))
	}
	e := s.Tools[0]
	for _, h := range e.Holes {
		holes = append(holes, h.Source)
	}
	return e.DescriptionState, e.DescriptionRaw, holes
}

// Each write the language has makes a let, a var or a property not a
// constant: the substitution stays a hole.
func TestConstWritesKeepHoles(t *testing.T) {
	cases := []struct{ name, decls, tmpl string }{
		{"let assigned", "let X = 'a';\nX = 'b';", "${X}"},
		{"let compound", "let X = 'a';\nX += 'b';", "${X}"},
		{"let incremented", "let X = 1;\nX++;", "${X}"},
		{"let destructuring assignment", "let X = 'a';\n[X] = ['b'];", "${X}"},
		{"let object destructuring assignment", "let X = 'a';\n({ X } = { X: 'b' });", "${X}"},
		{"var loop target", "var X = 'a';\nfor (X of ['b']) {}", "${X}"},
		{"var declared twice", "var X = 'a';\nfunction f() { var X = 'b'; }", "${X}"},
		{"let without initialiser", "let X;\nX = 'a';", "${X}"},
		{"property assigned", "const O = { k: 'a' };\nO.k = 'b';", "${O.k}"},
		{"property assigned through another name", "const O = { k: 'a' };\nconst P = O;\nP.k = 'b';", "${O.k}"},
		{"property deleted", "const O = { k: 'a' };\ndelete O.k;", "${O.k}"},
		{"object written through a computed key", "const O = { k: 'a' };\nfor (const n of ['k']) O[n] = 'b';", "${O.k}"},
		{"object assigned into", "const O = { k: 'a' };\nObject.assign(O, { k: 'b' });", "${O.k}"},
		{"object with a spread", "const B = { k: 'b' };\nconst O = { k: 'a', ...B };", "${O.k}"},
		{"object with a computed key", "const K = 'k';\nconst O = { [K]: 'a' };", "${O.k}"},
		{"getter", "const O = { get k() { return 'a'; } };", "${O.k}"},
		{"call", "const X = String('a');", "${X}"},
		{"operator", "const X = typeof 'a';", "${X}"},
		{"environment", "const X = process.env.X;", "${X}"},
		{"another package", "import { X } from 'other-pkg';", "${X}"},
		{"legacy octal", "const X = 017;", "${X}"},
		{"negative number", "const X = -1;", "${X}"},
		{"self reference", "const X = `a${X}`;", "${X}"},
		{"parameter", "function f(X) { return `${X}`; }", "${X}"},
		{"enum member", "enum E { A = 'a' }", "${E.A}"},
		{"class static", "class C { static A = 'a'; }", "${C.A}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state, raw, holes := constTool(t, c.decls, "Value "+c.tmpl+".", nil)
			if state != vocab.StatePartial || raw != "Value ." || len(holes) != 1 || holes[0] != c.tmpl {
				t.Errorf("state %s raw %q holes %q; want partial with the hole %s", state, raw, holes, c.tmpl)
			}
		})
	}
}

// What is read: every form of constant resolves to its literal text.
func TestConstForms(t *testing.T) {
	cases := []struct{ name, decls, tmpl, want string }{
		{"const", "const X = 'a';", "${X}", "a"},
		{"let never written", "let X = \"a\";", "${X}", "a"},
		{"as const", "const X = 'a' as const;", "${(X)}", "a"},
		{"frozen object", "const O = Object.freeze({ k: 'a', 'j': `b` });", "${O.k}${O['j']}", "ab"},
		{"nested object", "const O = { inner: { k: 'a' } };", "${O.inner.k}", "a"},
		{"alias", "const A = 'a';\nconst B = A;", "${B}", "a"},
		{"empty constant", "const E = '';", "x${E}y", "xy"},
		{"escapes decoded", "const X = 'it\\'s\\n';", "${X}", "it's\n"},
		{"integer", "const N = 100;", "${N}", "100"},
		{"exponent", "const N = 2.5e-7;", "${N}", "2.5e-7"},
		{"decimal", "const N = 0.50;", "${N}", "0.5"},
		{"bigint", "const N = 12n;", "${N}", "12"},
		{"nested template", "const A = 'a';\nconst T = `<${A}>`;", "${T}|${T}", "<a>|<a>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state, raw, holes := constTool(t, c.decls, c.tmpl, nil)
			if state != vocab.StateReadable || raw != c.want || len(holes) != 0 {
				t.Errorf("state %s raw %q holes %q; want readable %q", state, raw, holes, c.want)
			}
		})
	}
}

// A chain of constant templates ends at the depth bound as a hole, never as
// a crash; a short chain is read whole.
func TestConstChainBounded(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("const C0 = 'x';\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "const C%d = `${C%d}`;\n", i, i-1)
		}
		return b.String()
	}
	state, raw, _ := constTool(t, chain(8), "${C7}", nil)
	if state != vocab.StateReadable || raw != "x" {
		t.Errorf("chain of 8: %s %q", state, raw)
	}
	state, _, holes := constTool(t, chain(400), "${C399}", nil)
	if state != vocab.StatePartial || len(holes) != 1 {
		t.Errorf("chain of 400: %s %q", state, holes)
	}
	// Two modules whose constants refer to each other end unresolved.
	state, _, holes = constTool(t, "import { A } from './a.js';", "${A}", map[string]string{
		"a.js": "import { B } from './b.js';\nexport const A = `${B}`;\n",
		"b.js": "import { A } from './a.js';\nexport const B = `${A}`;\n",
	})
	if state != vocab.StatePartial || len(holes) != 1 {
		t.Errorf("cycle across modules: %s %q", state, holes)
	}
	// Two star exports of the same name: not followed.
	state, _, _ = constTool(t, "import { A } from './all.js';", "${A}", map[string]string{
		"all.js": "export * from './a.js';\nexport * from './b.js';\n",
		"a.js":   "export const A = 'a';\n",
		"b.js":   "export const A = 'b';\n",
	})
	if state != vocab.StatePartial {
		t.Errorf("ambiguous star export read as %s", state)
	}
}

// `+` inside a constant joins when either side is a string; two numbers add,
// which is not read.
func TestConstConcatenation(t *testing.T) {
	cases := []struct{ name, decls, want string }{
		{"strings and templates", "const A = 'x';\nconst S = 'a' + `b${A}` + \"c\";", "abxc"},
		{"string and number", "const S = 'n' + 1e3;", "n1000"},
		{"number and string", "const S = 5 + 'n';", "5n"},
	}
	for _, c := range cases {
		state, raw, _ := constTool(t, c.decls, "${S}", nil)
		if state != vocab.StateReadable || raw != c.want {
			t.Errorf("%s: %s %q, want readable %q", c.name, state, raw, c.want)
		}
	}
	for _, decls := range []string{"const S = 1 + 2;", "const S = 'a' - 'b';", "const S = 'a' + f();"} {
		if state, _, holes := constTool(t, decls, "${S}", nil); state != vocab.StatePartial || len(holes) != 1 {
			t.Errorf("%s: %s %q, want the hole", decls, state, holes)
		}
	}
}

// A parameter of the call being read (a helper that decorates a text) is
// read through that call's argument; one bound by an enumerated call site,
// a loop, or written in the function stays a hole.
func TestConstParameterOfTheCall(t *testing.T) {
	head := "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n"
	read := func(src string) (string, string, []string) {
		s := extractMap(t, map[string]string{"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`, "index.js": head + src}, Options{})
		failOnRecoveredPanic(t, s)
		if len(s.Tools) == 0 {
			t.Fatalf("no tools: %s %s", s.Outcome, s.OutcomeDetail)
		}
		var holes []string
		for _, h := range s.Tools[0].Holes {
			holes = append(holes, h.Source)
		}
		return s.Tools[0].DescriptionState, s.Tools[0].DescriptionRaw, holes
	}
	state, raw, _ := read("const SUFFIX = ' (read only)';\nfunction note(d) { return `${d}${SUFFIX}`; }\nserver.tool('t', note('Reads files'), {}, async () => ({}));\n")
	if state != vocab.StateReadable || raw != "Reads files (read only)" {
		t.Errorf("helper over a literal: %s %q", state, raw)
	}
	state, raw, _ = read("const D = 'Lists';\nconst note = (d) => `${d}.`;\nserver.tool('t', note(D), {}, async () => ({}));\n")
	if state != vocab.StateReadable || raw != "Lists." {
		t.Errorf("arrow helper over a constant: %s %q", state, raw)
	}
	state, _, holes := read("function note(d) { d = d.trim(); return `${d}!`; }\nserver.tool('t', note(' x '), {}, async () => ({}));\n")
	if state == vocab.StateReadable {
		t.Errorf("parameter written in the helper read as %s (holes %q)", state, holes)
	}
	state, _, holes = read("function note(d) { return `${d}!`; }\nserver.tool('t', note(process.env.X), {}, async () => ({}));\n")
	if state != vocab.StatePartial || len(holes) != 1 {
		t.Errorf("helper over the environment: %s %q", state, holes)
	}
	state, _, holes = read("function reg(d) { server.tool('t', `${d}!`, {}, async () => ({})); }\nreg('a');\n")
	if state != vocab.StatePartial || len(holes) != 1 {
		t.Errorf("parameter bound by a call site of the registering function: %s %q", state, holes)
	}
	state, _, holes = read("for (const d of ['a']) server.tool('t', `${d}!`, {}, async () => ({}));\n")
	if state != vocab.StatePartial || len(holes) != 1 {
		t.Errorf("loop binding: %s %q", state, holes)
	}
}
