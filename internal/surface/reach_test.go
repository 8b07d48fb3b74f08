package surface

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

const reachServer = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export const server = new McpServer({ name: "r", version: "1" });
server.tool("main_tool", "M.", async () => ({ content: [] }));
`

const reachOther = `import { server } from "./index.js";
server.tool("other_tool", "O.", async () => ({ content: [] }));
`

func toolByName(s rundir.Surface, name string) (rundir.Entry, bool) {
	for _, e := range s.Tools {
		if e.Name == name {
			return e, true
		}
	}
	return rundir.Entry{}, false
}

// TestReachabilityOpenClosure: every way a reached module can run a file
// the import closure does not name leaves reachability undetermined, so no
// entry is marked; a createRequire() function called with a literal is an
// edge like require().
func TestReachabilityOpenClosure(t *testing.T) {
	pkg := `{"name": "r", "version": "1", "main": "index.js"}`
	cases := []struct {
		name, extra string
		wantMarked  bool
		wantWhy     string
	}{
		{"never loaded", ``, true, ""},
		{"require of a variable", "const m = process.env.M;\nrequire(m);\n", false, "require() of a module named at run time"},
		{"import of a template with a substitution", "const d = 'x';\nawait import(`./${d}.js`);\n", false, "import() of a module named at run time"},
		{"createRequire with a literal", "import { createRequire } from 'node:module';\nconst req = createRequire(import.meta.url);\nreq('./other.js');\n", false, ""},
		{"createRequire with a variable", "import { createRequire } from 'node:module';\nconst req = createRequire(import.meta.url);\nconst p = process.argv[2];\nreq(p);\n", false, "req() of a module named at run time"},
		{"esbuild's __require with a literal", "var __require = (x) => require(x);\n__require('./other.js');\n", false, ""},
		{"fork", "import { fork } from 'node:child_process';\nfork('./other.js');\n", false, "fork() starts a module of its own"},
		{"node on a file", "import { spawn } from 'node:child_process';\nspawn(process.execPath, ['worker.js']);\n", false, "spawn() starts node or a file of the package"},
		{"a Worker", "import { Worker } from 'node:worker_threads';\nnew Worker(new URL('./other.js', import.meta.url));\n", false, "starts a Worker"},
		{"a process that is not node", "import { spawn } from 'node:child_process';\nspawn('git', ['status']);\n", true, ""},
		{"an imports alias", "import '#tools';\n", false, "an alias the extractor does not place"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := extractMap(t, map[string]string{"package.json": pkg, "index.js": reachServer + c.extra, "other.js": reachOther}, Options{})
			if s.Outcome != vocab.OutcomeParsed {
				t.Fatalf("outcome %s %v", s.Outcome, s.Unresolved)
			}
			other, ok := toolByName(s, "other_tool")
			if !ok {
				t.Fatalf("other_tool not read: %+v", s.Tools)
			}
			if main, _ := toolByName(s, "main_tool"); main.Unreachable {
				t.Errorf("the entry point's own tool is reachable")
			}
			if other.Unreachable != c.wantMarked {
				t.Errorf("other_tool unreachable = %v, want %v (reach %+v)", other.Unreachable, c.wantMarked, s.Reach)
			}
			if c.name == "createRequire with a literal" || c.name == "esbuild's __require with a literal" {
				if s.Reach != nil {
					t.Errorf("the literal load reaches other.js: reach %+v", s.Reach)
				}
				return
			}
			if s.Reach == nil {
				t.Fatalf("no reach recorded though other.js is outside the closure")
			}
			if c.wantWhy == "" {
				if len(s.Reach.Undetermined) != 0 || s.Reach.Unreachable != 1 {
					t.Errorf("reach %+v, want one unreachable entry", s.Reach)
				}
				return
			}
			if len(s.Reach.Undetermined) == 0 || !strings.Contains(s.Reach.Undetermined[0].Detail, c.wantWhy) || s.Reach.Undetermined[0].File != "index.js" {
				t.Errorf("undetermined %+v, want %q at index.js", s.Reach.Undetermined, c.wantWhy)
			}
		})
	}
}

// TestReachabilityEntryPoints: a module reached only from bin, or only from
// an exports target, is reachable; an entry point that names no member
// leaves the closure unknown; a package without package.json (or a Python
// one) marks nothing.
func TestReachabilityEntryPoints(t *testing.T) {
	files := func(pkg string) map[string]string {
		return map[string]string{"package.json": pkg, "index.js": reachServer, "other.js": reachOther, "cli.sh": "#!/bin/sh\nnode other.js\n"}
	}
	for _, c := range []struct {
		name, pkg string
		marked    bool
		reach     bool
	}{
		{"bin reaches it", `{"name": "r", "main": "index.js", "bin": "other.js"}`, false, false},
		{"exports reach it", `{"name": "r", "exports": {".": "./index.js", "./o": {"require": "./other.js"}}}`, false, false},
		{"exports types only", `{"name": "r", "exports": {".": "./index.js", "./o": {"types": "./other.js"}}}`, true, true},
		{"a missing entry point", `{"name": "r", "main": "index.js", "bin": "cli.js"}`, false, true},
		{"an entry point that is not JavaScript", `{"name": "r", "main": "index.js", "bin": "cli.sh"}`, false, true},
		{"exports by a pattern", `{"name": "r", "exports": {".": "./index.js", "./tools/*": "./*.js"}}`, false, true},
		{"package.json exported as data", `{"name": "r", "exports": {".": "./index.js", "./package.json": "./package.json"}}`, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := extractMap(t, files(c.pkg), Options{})
			other, ok := toolByName(s, "other_tool")
			if !ok {
				t.Fatalf("other_tool not read: %+v", s.Tools)
			}
			if other.Unreachable != c.marked || (s.Reach != nil) != c.reach {
				t.Errorf("unreachable %v reach %+v; want %v, reach recorded %v", other.Unreachable, s.Reach, c.marked, c.reach)
			}
		})
	}
	s := extractMap(t, map[string]string{"index.js": reachServer, "other.js": reachOther}, Options{})
	if s.Reach != nil {
		t.Errorf("no package.json, no entry points: reach %+v", s.Reach)
	}
}

// TestReachabilityThroughAHelper: a tool registered by a helper of a loaded
// module, called from a module nothing loads, is unreachable (its text's
// literals sit in the unloaded module); the same helper called from a
// loaded module registers a reachable tool.
func TestReachabilityThroughAHelper(t *testing.T) {
	s := extractMap(t, map[string]string{
		"package.json": `{"name": "r", "main": "index.js"}`,
		"helper.js": `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export const server = new McpServer({ name: "r", version: "1" });
export function defineHandler(name, description) { server.tool(name, description, async () => ({ content: [] })); }
`,
		"index.js":    "import './helper.js';\nimport './loaded.js';\n",
		"loaded.js":   "import { defineHandler } from './helper.js';\ndefineHandler('loaded_tool', 'Loaded.');\n",
		"unloaded.js": "import { defineHandler } from './helper.js';\ndefineHandler('unloaded_tool', 'Sync.');\n",
	}, Options{})
	loaded, ok1 := toolByName(s, "loaded_tool")
	unl, ok2 := toolByName(s, "unloaded_tool")
	if !ok1 || !ok2 || s.Outcome != vocab.OutcomeParsed {
		t.Fatalf("outcome %s tools %+v", s.Outcome, s.Tools)
	}
	if loaded.Unreachable || !unl.Unreachable || loaded.File != "helper.js" || unl.File != "helper.js" {
		t.Errorf("loaded %v (%s), unloaded %v (%s): want reachable, unreachable, both registered in helper.js", loaded.Unreachable, loaded.File, unl.Unreachable, unl.File)
	}
}

// TestRenderStaleAndUnreachable: the text view shows the stale note beside
// the advertised name and marks an unreachable entry where it is listed.
func TestRenderStaleAndUnreachable(t *testing.T) {
	for _, c := range []struct{ golden, want1, want2 string }{
		{"js_advertised_stale.txtar", "retired_lookup (README.md, stale: occurs nowhere in the package's source)", "old_search (README.md)"},
		{"js_reach.txtar", "dist/tools/d.js:2 (unreachable)", "reach       4 entries registered in modules no entry point loads"},
		{"js_reach_uncalled.txtar", "dist/tools/extra.js:2 (unreachable)", "dist/tools/extra.js:1 function addExtra is called by no code the package runs"},
		{"js_reach_undetermined.txtar", "reach       undetermined (dist/index.js:8 import() of a module named at run time)", "dist/tools/plugin.js:2 "},
	} {
		s := extractArchive(t, readArchive(t, filepath.Join(goldenDir, c.golden)))
		var buf bytes.Buffer
		if err := RenderTable(&buf, s); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{c.want1, c.want2} {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("%s: table lacks %q:\n%s", c.golden, w, buf.String())
			}
		}
		if c.golden == "js_reach_undetermined.txtar" && strings.Contains(buf.String(), "(unreachable)") {
			t.Errorf("an open closure marks nothing:\n%s", buf.String())
		}
	}
}
