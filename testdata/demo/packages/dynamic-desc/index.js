const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const i18n = require("./i18n.json");

const server = new McpServer({ name: "dynamic-desc", version: "0.2.0" });
server.tool("translate", i18n[process.env.LANG || "en"].translate, {}, async () => ({ content: [] }));
module.exports = server;
