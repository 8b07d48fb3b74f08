const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = require("zod");

const server = new McpServer({ name: "tide-tables", version: "1.1.0" });

server.tool(
  "tide_times",
  "Returns the high and low tide times for a harbour on a given date, in local time.",
  { harbour: z.string(), date: z.string() },
  async ({ harbour, date }) => ({ content: [{ type: "text", text: harbour + " " + date }] })
);

server.tool(
  "moon_phase",
  "Returns the phase of the moon for a given date.",
  { date: z.string() },
  async ({ date }) => ({ content: [{ type: "text", text: date }] })
);

server.connect(new StdioServerTransport());
