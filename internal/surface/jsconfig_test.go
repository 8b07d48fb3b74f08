package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// condHolds extracts index.js (decls, then `if (test) server.tool('t', ...)`)
// and returns what the tool's one condition holds.
func condHolds(t *testing.T, decls, test string) string {
	t.Helper()
	files := map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" +
			decls + "\nif (" + test + ") {\n  server.tool('t', 'A tool.', {}, async () => ({}));\n}\n",
	}
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1 {
		t.Fatalf("outcome %s, %d tools", s.Outcome, len(s.Tools))
	}
	cs := s.Tools[0].Conditions
	if len(cs) != 1 {
		t.Fatalf("conditions %+v, want one", cs)
	}
	return cs[0].Holds
}

// Each test of configuration the rule reads is decided under the default
// configuration: no variable set, no flag given, literal defaults.
func TestJSConditionsDecided(t *testing.T) {
	cases := []struct{ name, decls, test, want string }{
		{"env unset is undefined", "", "process.env.X", rundir.HoldsFalse},
		{"env compared to a literal", "", "process.env.X === 'true'", rundir.HoldsFalse},
		{"env not equal", "", "process.env.MODE !== 'readonly'", rundir.HoldsTrue},
		{"env subscript", "", "process.env['X'] == null", rundir.HoldsTrue},
		{"env default by ??", "", "(process.env.X ?? 'on') === 'on'", rundir.HoldsTrue},
		{"env default by ||", "", "(process.env.X || 'a,b').split(',')", rundir.HoldsUnknown},
		{"lower-cased default", "", "(process.env.X || 'TRUE').toLowerCase() === 'true'", rundir.HoldsTrue},
		{"flag not given", "", "process.argv.includes('--read-only')", rundir.HoldsFalse},
		{"arguments after the script are empty", "const args = process.argv.slice(2);", "args.length > 0", rundir.HoldsFalse},
		{"argv element not read", "", "process.argv.includes('x')", rundir.HoldsUnknown},
		{"a const of a flag", "const RO = process.env.RO === 'true';", "!RO", rundir.HoldsTrue},
		{"a let written again", "let RO = false;\nRO = true;", "!RO", rundir.HoldsUnknown},
		{"list default includes", "const sets = process.env.S ? process.env.S.split(',') : ['a', 'b'];", "sets.includes('b')", rundir.HoldsTrue},
		{"list default excludes", "const sets = process.env.S ? process.env.S.split(',') : ['a', 'b'];", "sets.includes('c')", rundir.HoldsFalse},
		{"table flag", "const T = { a: { enabled: false } };", "T.a.enabled", rundir.HoldsFalse},
		{"table key missing", "const T = { a: { enabled: true } };", "T.b?.enabled ?? true", rundir.HoldsTrue},
		{"table key missing throws", "const T = { a: { enabled: true } };", "T.b.enabled", rundir.HoldsUnknown},
		{"table property written", "const T = { a: { enabled: false } };\nfunction on(x) { x.enabled = true; }", "T.a.enabled", rundir.HoldsUnknown},
		{"property written on other fresh objects", "const T = { a: { enabled: false } };\nconst reg = { enabled: true };\nreg.enabled = false;\nfunction dbg() {}\ndbg.enabled = true;", "T.a.enabled", rundir.HoldsFalse},
		{"property written on the literal read", "const inner = { enabled: false };\nconst T = { a: inner };\ninner.enabled = true;", "T.a.enabled", rundir.HoldsUnknown},
		{"arrow over a table", "const T = { a: true };\nconst on = (k) => T[k] ?? false;", "on('a')", rundir.HoldsTrue},
		{"function of if and return", "function mode() {\n  if (process.env.M) { return process.env.M; }\n  console.error('default');\n  return 'full';\n}", "mode() === 'full'", rundir.HoldsTrue},
		{"function with a loop", "function mode() { for (const a of []) {} return 'x'; }", "mode() === 'x'", rundir.HoldsUnknown},
		{"default parameter", "function cfg(env = process.env) { return { ro: env.RO === '1' }; }", "cfg().ro", rundir.HoldsFalse},
		{"a name written in another scope", "function other() { let env = 1; env = 2; }\nfunction cfg(env = process.env) { return env.RO === '1'; }", "cfg()", rundir.HoldsFalse},
		{"a parameter written", "function cfg(env = process.env) { env = {}; return env.RO === '1'; }", "cfg()", rundir.HoldsUnknown},
		{"Boolean of a key", "const key = process.env.API_KEY;", "Boolean(key)", rundir.HoldsFalse},
		{"ternary", "const m = process.env.M ? 'x' : 'y';", "m === 'y'", rundir.HoldsTrue},
		{"a call of another package", "import { flag } from 'some-lib';", "flag()", rundir.HoldsUnknown},
		{"a method of an object not read", "", "server.isConnected()", rundir.HoldsUnknown},
		{"undefined is loosely equal to null only", "", "process.env.N == 0", rundir.HoldsFalse},
		{"comparison of mixed kinds", "", "(process.env.N ?? '0') == 0", rundir.HoldsUnknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := condHolds(t, tc.decls, tc.test); got != tc.want {
				t.Errorf("holds %s, want %s", got, tc.want)
			}
		})
	}
}

// Cycles and long chains end unknown, never in a hang or a crash, and the
// entry stays listed.
func TestJSConditionsBounded(t *testing.T) {
	cases := []struct{ name, decls, test string }{
		{"functions calling each other", "const a = () => b();\nconst b = () => a();", "a()"},
		{"a function calling itself", "function f(n) { return f(n); }", "f(1)"},
		{"a constant of itself", "const X = !X;", "X"},
		{"two constants of each other", "const X = Y;\nconst Y = X;", "X"},
		{"long negation", "", strings.Repeat("!", 2000) + "process.env.X"},
		{"long chain of calls", longCallChain(200), "f0()"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := condHolds(t, tc.decls, tc.test); got != rundir.HoldsUnknown {
				t.Errorf("holds %s, want unknown", got)
			}
		})
	}
}

func longCallChain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("const f" + itoa(i) + " = () => f" + itoa(i+1) + "();\n")
	}
	b.WriteString("const f" + itoa(n) + " = () => true;\n")
	return b.String()
}

// An entry off by default stays on the surface with its condition and the
// configuration read; an else branch, a ternary arm, `&&`, `||` and an early
// return each put their test on it, with its polarity.
func TestJSConditionForms(t *testing.T) {
	files := map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js": `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 't', version: '1' });
if (process.env.A) { server.tool('a_on', 'x', {}, async () => ({})); } else { server.tool('a_off', 'x', {}, async () => ({})); }
process.env.B ? server.tool('b_on', 'x', {}, async () => ({})) : server.tool('b_off', 'x', {}, async () => ({}));
process.env.C && server.tool('c_and', 'x', {}, async () => ({}));
process.env.D || server.tool('d_or', 'x', {}, async () => ({}));
function reg() {
  if (process.env.E !== 'yes') return;
  server.tool('e_guarded', 'x', {}, async () => ({}));
}
reg();
`,
	}
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	want := map[string]bool{"a_on": true, "a_off": false, "b_on": true, "b_off": false, "c_and": true, "d_or": false, "e_guarded": true}
	if len(s.Tools) != len(want) {
		t.Fatalf("%d tools, want %d: an entry off by default was dropped", len(s.Tools), len(want))
	}
	for _, e := range s.Tools {
		off, ok := want[e.Name]
		if !ok {
			t.Fatalf("unexpected tool %s", e.Name)
		}
		if e.OffByDefault() != off {
			t.Errorf("%s: off by default %v, want %v (conditions %+v)", e.Name, e.OffByDefault(), off, e.Conditions)
		}
		if len(e.Conditions) != 1 || len(e.Configuration) != 1 || e.Configuration[0].Source != "env" {
			t.Errorf("%s: conditions %+v, configuration %+v", e.Name, e.Conditions, e.Configuration)
		}
	}
}

// A parameter is read through the function's call sites only when its name
// is used nowhere but as a callee: a function handed to another may be
// called with anything.
func TestJSConditionParameterCallSites(t *testing.T) {
	read := func(extra string) string {
		files := map[string]string{
			"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
			"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" +
				"function reg(opts) {\n  if (opts.admin) {\n    server.tool('admin', 'x', {}, async () => ({}));\n  }\n}\nreg({ admin: false });\n" + extra,
		}
		s := extractMap(t, files, Options{})
		failOnRecoveredPanic(t, s)
		if len(s.Tools) != 1 || len(s.Tools[0].Conditions) != 1 {
			t.Fatalf("tools %+v", s.Tools)
		}
		return s.Tools[0].Conditions[0].Holds
	}
	if got := read(""); got != rundir.HoldsFalse {
		t.Errorf("one call site: holds %s, want false", got)
	}
	if got := read("setTimeout(reg, 1);\n"); got != rundir.HoldsUnknown {
		t.Errorf("a function handed to another: holds %s, want unknown", got)
	}
	if got := read("reg({ admin: true });\n"); got != rundir.HoldsUnknown {
		t.Errorf("call sites that disagree: holds %s, want unknown", got)
	}
}
