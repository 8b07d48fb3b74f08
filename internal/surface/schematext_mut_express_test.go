package surface

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// A tool list assigned to a let name in an express handler and sent with
// res.json (since 2.3.20, isn2): the let name's uses are the list's, and
// express's res.json serialises what it is given. A write through the
// name, through res.locals, a handler given to an app that is not
// express's, a named handler that calls itself with another response, the
// handler method called from outside its class with another
// response, and a package replacing res.json or setting a JSON replacer
// keep the gap.
func TestSchemaObjectExpressSend(t *testing.T) {
	const base = `
-- package.json --
{"name": "mutexpress", "version": "1.0.0", "type": "module", "main": "build/index.js"}
-- build/toolList.js --
export const toolList = [
  { name: "send", description: "Send.", inputSchema: { type: "object", properties: { q: { type: "string", description: "The text." } } } }
];
-- build/index.js --
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { toolList } from "./toolList.js";
import { HttpTransport } from "./transport.js";
const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList }));
new HttpTransport(8080);
-- build/transport.js --
import express from "express";
import { toolList } from "./toolList.js";
APP
export class HttpTransport {
    app;
    constructor(port = 8080) {
        this.app = MAKE;
        this.app.use(express.json());
        this.setupEndpoints();
    }
    setupEndpoints() {
        this.app.post("/mcp", (req, res) => {
            this.handleMcpRequest(req, res).catch(() => {});
        });
    }
    async handleMcpRequest(req, res) {
        let result;
        switch (req.body.method) {
            case "tools/list":
                result = { tools: toolList };
                break;
            default:
                result = {};
        }
        EXTRA
        if (result && typeof result === "object" && "content" in result) {
            console.log(JSON.stringify(result));
        }
        const finalResponse = { jsonrpc: "2.0", id: req.body.id, result: result };
        console.log(JSON.stringify(finalResponse));
        return res.json(finalResponse);
    }
}
`
	for _, tc := range []struct {
		name, app, make, extra string
		gap                    string // the gap's reason; empty: read
	}{
		{"sent", ``, `express()`, ``, ""},
		{"direct", ``, `express()`, `express().get("/l", (req, res2) => { let out; out = { tools: toolList }; res2.send(out); });`, ""},
		{"required", `const exp2 = require("express");`, `exp2()`, ``, ""},
		{"esbuild", `var import_express = __toESM(require("express"));`, `(0, import_express.default)()`, ``, ""},
		{"router", ``, `express.Router()`, ``, ""},
		{"named", ``, `express()`, `express().get("/l", function h(req, res2) { let out; out = { tools: toolList }; if (!req.again) h({ again: true }, { send(v) { v.tools[0].inputSchema.properties.q.description = "Injected."; } }); res2.send(out); });`, "handed to res2.send(…)"},
		{"ownmodule", `const exp3 = require("./express.js");`, `exp3()`, ``, "handed to res.json(…)"},
		{"written", ``, `express()`, `result.tools[0].inputSchema.properties.q.description = "Injected.";`, "a member of the object is written"},
		{"locals", ``, `express()`, `res.locals.x = result; res.locals.x.tools[0].inputSchema.properties.q.description = "Injected.";`, "the object is assigned to another name"},
		{"notexpress", `const fake = () => ({ use() {}, post(p, h) { h({}, { json(v) { v.result.tools[0].inputSchema.properties.q.description = "Injected."; } }); } });`, `fake()`, ``, "handed to res.json(…)"},
		{"outsidecaller", `export function poke(t) { t.handleMcpRequest({ body: { method: "tools/list" } }, { json(v) { v.result.tools[0].inputSchema.properties.q.description = "Injected."; } }); }`, `express()`, ``, "handed to res.json(…)"},
		{"replaced", ``, `express()`, `res.json = (v) => { v.result.tools[0].inputSchema.properties.q.description = "Injected."; };`, "handed to res.json(…)"},
		{"replacer", ``, `express()`, `this.app.set("json replacer", (k, v) => v);`, "handed to res.json(…)"},
	} {
		src := strings.NewReplacer("APP", tc.app, "MAKE", tc.make, "EXTRA", tc.extra).Replace(base)
		got := paramTextsByTool(extractArchive(t, txtar.Parse([]byte(src))))
		if tc.gap != "" {
			if !hasUnreadSchema(got["send"], tc.gap) {
				t.Errorf("%s: parameter entries %q, want a (schema) entry unreadable, %s", tc.name, got["send"], tc.gap)
			}
			continue
		}
		if g := strings.Join(got["send"], "|"); g != "q=readable:The text." {
			t.Errorf("%s: parameter entries %q, want %q", tc.name, g, "q=readable:The text.")
		}
	}
}
