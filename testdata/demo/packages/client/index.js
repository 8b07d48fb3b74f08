const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

async function main() {
  const client = new Client({ name: "inspector", version: "0.5.0" });
  await client.connect(new StdioClientTransport({ command: process.argv[2] }));
  const { tools } = await client.listTools();
  for (const t of tools) console.log(t.name);
}
main();
