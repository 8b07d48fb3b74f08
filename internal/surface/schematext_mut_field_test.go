package surface

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// A tool table held in an instance field (`this.tools = new Map()`,
// `this.tools.set(t.name, t)`, read back through the class's methods) and a
// schema handed to the package's own base class by `super(…)`: the cases
// below must stay gaps whatever route a later fix follows (fld, 2.3.22; the
// route itself, read when only the class's methods read the Map, is not
// done, see docs/versions/2.3.22/fld.md). A write through an element read
// back, a subclass's method writing it, an exported class, an access of
// the field on an object outside the class, an instance handed to a
// function, and a base class writing what super(…) gave it each change, or
// may change, the schema.
func TestSchemaObjectInstanceFieldTwins(t *testing.T) {
	const base = `
-- package.json --
{"name": "mutfield", "version": "1.0.0", "type": "module", "main": "dist/index.js"}
-- dist/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const TOOL = { name: "fld", description: "T.", inputSchema: { type: "object", properties: { x: { type: "string", description: "The x." } } } };
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
EXPORTclass Reg {
    constructor(options = {}) {
        this.tools = new Map();
        const tools = [TOOL, ...(options.tools || [])];
        tools.forEach((tool) => {
            if (this.tools.has(tool.name)) return;
            this.tools.set(tool.name, tool);
        });
    }
    getAvailableTools() {
        return Array.from(this.tools.values());
    }
    METHOD
}
EXTRA
const reg = new REG({ tools: [] });
USE
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: reg.getAvailableTools() }));
`
	const inj = `.inputSchema.properties.x.description = "Injected.";`
	for _, tc := range []struct {
		name, export, method, extra, reg, use string
	}{
		{"getwrite", ``, `poke(n) { this.tools.get(n)` + inj + ` }`, ``, `Reg`, `reg.poke("fld");`},
		{"valueswrite", ``, `poke() { for (const t of this.tools.values()) t` + inj + ` }`, ``, `Reg`, `reg.poke();`},
		{"subclass", ``, ``, `class Sub extends Reg { poke() { for (const t of this.tools.values()) t` + inj + ` } }`, `Sub`, `reg.poke();`},
		{"exported", `export `, ``, ``, `Reg`, ``},
		{"outside", ``, ``, ``, `Reg`, `reg.tools.get("fld")` + inj},
		{"handed", ``, ``, `function poke(o) { o.tools.get("fld")` + inj + ` }`, `Reg`, `poke(reg);`},
		{"assigned", ``, ``, ``, `Reg`, `Object.assign(reg, { tools: new Map([["fld", TOOL]]) }); TOOL` + inj},
	} {
		src := strings.NewReplacer("EXPORT", tc.export, "METHOD", tc.method, "EXTRA", tc.extra, "REG", tc.reg, "USE", tc.use).Replace(base)
		sf := extractArchive(t, txtar.Parse([]byte(src)))
		got := paramTextsByTool(sf)
		t.Logf("%s: %q", tc.name, got["fld"])

		// At 5950ec8 subclass and assigned list no tool "fld" (subclass:
		// a tool unreadable, its description a callback over a value not
		// resolved; assigned: the tools/list result not read, "member
		// tools of an instance assigned from outside its class"), both
		// recorded as unresolved; what must not happen is the text read
		// as written, or the list silently empty.
		for _, e := range got["fld"] {
			if e == "x=readable:The x." {
				t.Errorf("%s: %q read as written, though the schema may be changed", tc.name, e)
			}
		}
		if len(got["fld"]) == 0 && len(sf.Unresolved) == 0 {
			t.Errorf("%s: no tool fld and nothing recorded as unresolved", tc.name)
		}
		if len(got["fld"]) > 0 && !hasUnreadSchema(got["fld"], "") {
			t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable", tc.name, got["fld"])
		}
	}
}

// super(…) handing the schema to the package's own base class constructor
// (route 2): a base class writing what it was given keeps the gap.
func TestSchemaObjectSuperTwins(t *testing.T) {
	a := txtar.Parse([]byte(`
-- package.json --
{"name": "mutsuper", "version": "1.0.0", "type": "module", "main": "dist/index.js"}
-- dist/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const TOOL = { name: "sup", description: "T.", inputSchema: { type: "object", properties: { x: { type: "string", description: "The x." } } } };
class Base {
    constructor(tools) {
        this.list = tools;
        this.list[0].inputSchema.properties.x.description = "Injected.";
    }
    all() { return this.list; }
}
class Reg extends Base {
    constructor() { super([TOOL]); }
}
const reg = new Reg();
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: reg.all() }));
`))
	got := paramTextsByTool(extractArchive(t, a))
	t.Logf("sup: %q", got["sup"])
	if !hasUnreadSchema(got["sup"], "") {
		t.Errorf("sup: parameter entries %q, want a (schema) entry unreadable", got["sup"])
	}
}
