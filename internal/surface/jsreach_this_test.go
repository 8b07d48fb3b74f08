package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestThisWritesAndTables: a write through `this` in an ordinary method
// is not a write of a configuration table only when no reference to the
// table can reach a receiver; every way one could keeps the test unknown.
func TestThisWritesAndTables(t *testing.T) {
	const head = `"use strict";
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
class Store { set(k, v) { this[k] = v; } }
new Store().set("x", 1);
`
	const reg = `const server = new McpServer({ name: "t", version: "1" });
if (TABLE.slow.enabled) {
  server.registerTool("slow", { description: "Slow." }, async () => ({ content: [] }));
}
`
	const table = "var TABLE = { slow: { enabled: false } };\n"
	cases := []struct {
		name, table, extra string
		want               string
	}{
		{"only read to its leaves", table, "", rundir.HoldsFalse},
		{"read through a const alias", table, "const entry = TABLE.slow;\nif (entry.enabled === true) {}\n", rundir.HoldsFalse},
		{"Object.keys and in", table, "const ids = Object.keys(TABLE);\nif ('slow' in TABLE) {}\n", rundir.HoldsFalse},
		{"handed to .call", table, "function f() {}\nf.call(TABLE.slow);\n", rundir.HoldsUnknown},
		{"a method called on it", table, "TABLE.slow.toString();\n", rundir.HoldsUnknown},
		{"stored in another object", table, "const holder = { TABLE };\n", rundir.HoldsUnknown},
		{"an alias that is not const", table, "let entry = TABLE.slow;\nuse(entry);\nfunction use(e) {}\n", rundir.HoldsUnknown},
		{"a const alias handed on", table, "const entry = TABLE.slow;\nuse(entry);\nfunction use(e) {}\n", rundir.HoldsUnknown},
		{"exported", table, "module.exports = TABLE;\n", rundir.HoldsUnknown},
		{"a table with a function value", "var TABLE = { slow: { enabled: false, run() {} } };\n", "", rundir.HoldsUnknown},
		{"a write through an anonymous object", table, "function get() { return {}; }\nget()[process.env.K] = 1;\n", rundir.HoldsUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := extractMap(t, map[string]string{
				"package.json":   `{"name": "t", "version": "1", "bin": {"t": "dist/stdio.cjs"}}`,
				"dist/stdio.cjs": head + c.table + c.extra + reg,
			}, Options{})
			if s.Outcome != vocab.OutcomeParsed {
				t.Fatalf("outcome %s %v", s.Outcome, s.Unresolved)
			}
			e, ok := toolByName(s, "slow")
			if !ok || len(e.Conditions) != 1 {
				t.Fatalf("slow not read with one condition: %+v", s.Tools)
			}
			if e.Conditions[0].Holds != c.want {
				t.Errorf("condition holds %s, want %s", e.Conditions[0].Holds, c.want)
			}
		})
	}
}
