const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const TRACKER = process.env.ISSUE_TRACKER;

const server = new McpServer({ name: "issue-finder", version: "2.0.0" });

server.tool("find_issues", `Finds open issues in ${TRACKER} that match a keyword.`, {}, async () => ({ content: [] }));

module.exports = server;
