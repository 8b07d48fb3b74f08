const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const names = require("tool-names");

const server = new McpServer({ name: "computed", version: "0.9.0" });
server.tool(names.primary(), "Looks up a record by its identifier.", {}, async () => ({ content: [] }));
module.exports = server;
