package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// idmTool extracts one tool whose description is the expression expr over
// the declarations decls.
func idmTool(t *testing.T, decls, expr string) (state, raw, reason string) {
	t.Helper()
	s := extractMap(t, map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" +
			decls + "\nserver.tool('t', " + expr + ", {}, async () => ({}));\n",
	}, Options{})
	failOnRecoveredPanic(t, s)
	if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 1 {
		t.Fatalf("outcome %s, %d tools", s.Outcome, len(s.Tools))
	}
	e := s.Tools[0]
	return e.DescriptionState, e.DescriptionRaw, e.UnreadableReason
}

// A member read with a key that is a number reads the property String(n)
// names. Until 2.3.17 o[ONE] read the property "ONE" (another member's
// text, or none where the server sends one).
func TestJSNumberKeyIsStringOfNumber(t *testing.T) {
	read := []struct{ name, decls, expr, want string }{
		{"constant index of an object", "const ONE = 1;\nconst O = { ONE: 'wrong', 1: 'right' };", "O[ONE]", "right"},
		{"constant written 1e0", "const ONE = 1e0;\nconst O = { ONE: 'wrong', 1: 'right' };", "O[ONE]", "right"},
		{"hex literal index", "const O = { '0x1': 'wrong', 1: 'right' };", "O[0x1]", "right"},
		{"member written 1.0", "const O = { 1.0: 'right' };", "O[1]", "right"},
		{"constant index of an array", "const IDX = 1;\nconst A = ['zero', 'one'];", "A[IDX]", "one"},
		{"literal index of an array", "const A = ['zero', 'one'];", "A[1]", "one"},
	}
	for _, c := range read {
		t.Run(c.name, func(t *testing.T) {
			state, raw, reason := idmTool(t, c.decls, c.expr)
			if state != vocab.StateReadable || raw != c.want {
				t.Fatalf("%s %q (%s), want readable %q", state, raw, reason, c.want)
			}
		})
	}
	refused := []struct{ name, decls, expr string }{
		{"legacy octal index", "const O = { 15: 'right', '017': 'wrong' };", "O[017]"},
		{"index assigned twice", "let I = 1;\nI = 0;\nconst O = { 0: 'zero', 1: 'one' };", "O[I]"},
		{"index from the environment", "const I = process.env.I;\nconst O = { 0: 'zero', 1: 'one' };", "O[I]"},
		{"index by arithmetic", "const A = ['zero', 'one'];", "A[A.length - 1]"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			state, raw, reason := idmTool(t, c.decls, c.expr)
			if state == vocab.StateReadable || state == vocab.StateAbsent {
				t.Fatalf("%s %q, want not read (reason %q)", state, raw, reason)
			}
		})
	}
}

// idmTableWith extracts the tools registered in a loop over the entries of the
// table T (declared in decls) and returns name → description, or ok false
// when no tool was read.
func idmTableWith(t *testing.T, decls, loop string, extra map[string]string) (map[string]string, string) {
	t.Helper()
	files := map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" +
			decls + "\n" + loop + "\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	got := map[string]string{}
	for _, e := range s.Tools {
		if e.NameState == vocab.StateUnreadable || e.DescriptionState != vocab.StateReadable {
			continue
		}
		got[e.Name] = e.DescriptionRaw
	}
	return got, string(s.Outcome)
}

// A member of a table written `[K]: v`, K one exact text, is listed under
// that text where the table's entries are listed; any other computed key
// leaves the listing unread.
func TestJSComputedKeysOfListedTable(t *testing.T) {
	const entriesLoop = "for (const [name, def] of Object.entries(T)) server.tool(name, def.description, {}, async () => ({}));"
	const valuesLoop = "Object.values(T).forEach((def) => server.tool(def.name, def.description, {}, async () => ({})));"
	read := []struct {
		name, decls, loop string
		want              map[string]string
	}{
		{"constant keys", "const SEARCH = 'search';\nconst FETCH = 'fetch';\nconst T = { [SEARCH]: { description: 'Search.' }, [FETCH]: { description: 'Fetch.' } };",
			entriesLoop, map[string]string{"search": "Search.", "fetch": "Fetch."}},
		{"enum-like keys beside a literal key", "const Names = { SEARCH: 'search' };\nconst T = { [Names.SEARCH]: { description: 'Search.' }, list: { description: 'List.' } };",
			entriesLoop, map[string]string{"search": "Search.", "list": "List."}},
		{"keys of a sibling module", "import { SEARCH } from './names.js';\nconst T = { [SEARCH]: { description: 'Search.' } };",
			entriesLoop, map[string]string{"search": "Search."}},
		{"values of a table keyed by constants", "const A = 'a';\nconst T = { [A]: { name: 'alpha', description: 'Alpha.' } };",
			valuesLoop, map[string]string{"alpha": "Alpha."}},
	}
	for _, c := range read {
		t.Run(c.name, func(t *testing.T) {
			decls := c.decls
			got, outcome := idmTableFiles(t, decls, c.loop)
			if len(got) != len(c.want) {
				t.Fatalf("outcome %s, read %v, want %v", outcome, got, c.want)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s: %q, want %q (all %v)", k, got[k], v, got)
				}
			}
		})
	}
	refused := []struct{ name, decls string }{
		{"key of a parameter no call pins", "export function make(k) { return { [k]: { description: 'K.' } }; }\nconst T = make(globalThis.name);"},
		{"key the same as a literal member", "const K = 'search';\nconst T = { search: { description: 'First.' }, [K]: { description: 'Second.' } };"},
		{"two computed keys of one text", "const K = 'search';\nconst J = 'search';\nconst T = { [K]: { description: 'First.' }, [J]: { description: 'Second.' } };"},
		{"computed key beside a spread", "const K = 'search';\nconst BASE = { search: { description: 'Base.' } };\nconst T = { [K]: { description: 'Mine.' }, ...BASE };"},
		{"symbol key", "const T = { [Symbol.iterator]: { description: 'Sym.' } };"},
		{"array index key", "const Z = '0';\nconst T = { list: { description: 'List.' }, [Z]: { description: 'Zero.' } };"},
		{"number key", "const Z = 7;\nconst T = { [Z]: { description: 'Seven.' } };"},
		{"key from the environment", "const K = process.env.TOOL;\nconst T = { [K]: { description: 'Env.' } };"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			got, outcome := idmTableFiles(t, c.decls, entriesLoop)
			if len(got) != 0 {
				t.Fatalf("outcome %s, read %v, want no tool read", outcome, got)
			}
		})
	}
}

// idmTableFiles is idmTable with the sibling module names.js beside.
func idmTableFiles(t *testing.T, decls, loop string) (map[string]string, string) {
	t.Helper()
	return idmTableWith(t, decls, loop, map[string]string{"names.js": "export const SEARCH = 'search';\n"})
}
