const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = require("zod");

const server = new McpServer({ name: "tide-tables", version: "1.0.0" });

server.tool(
  "tide_times",
  "Returns the tide times for a harbour.",
  { harbour: z.string(), date: z.string() },
  async ({ harbour, date }) => ({ content: [{ type: "text", text: harbour + " " + date }] })
);

server.tool(
  "harbour_list",
  "Lists the harbours with tide tables.",
  {},
  async () => ({ content: [{ type: "text", text: "" }] })
);

server.connect(new StdioServerTransport());
