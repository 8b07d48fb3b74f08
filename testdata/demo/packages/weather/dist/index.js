#!/usr/bin/env node
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0" });

server.registerTool(
  "get_current_weather",
  {
    title: "Current weather",
    description: "Returns the current temperature, wind and conditions for a city.",
    inputSchema: { city: z.string().describe("City name, for example \"Lisbon\"") },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async ({ city }) => ({ content: [{ type: "text", text: `Sunny in ${city}` }] })
);

server.registerTool(
  "get_forecast",
  {
    title: "Forecast",
    description: "Returns a daily forecast for the next " + "seven days.",
    inputSchema: { city: z.string(), days: z.number().int().min(1).max(7) },
  },
  async ({ city, days }) => ({ content: [{ type: "text", text: `${days} days of sun in ${city}` }] })
);

await server.connect(new StdioServerTransport());
