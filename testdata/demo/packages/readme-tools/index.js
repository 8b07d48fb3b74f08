const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");

const server = new McpServer({ name: "readme-tools", version: "1.0.0" });
server.tool("search", "Full-text search over the workspace.", {}, async () => ({ content: [] }));
module.exports = server;
