const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const PRODUCT = process.env.PRODUCT_NAME;

const server = new McpServer({ name: "templated", version: "1.2.0" });
server.tool("search_issues", `Searches ${PRODUCT} issues by keyword and returns the ten best matches.`, {}, async () => ({ content: [] }));
module.exports = server;
