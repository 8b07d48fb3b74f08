// Geocoding MCP server: tool descriptions as a maps server ships them.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "geo-tools", version: "0.8.2" });

server.tool(
  "geocode",
  "Convert an address to coordinates. Example input: '350 Fifth Avenue, New York, NY 10118'. Returns lat/lng with 6 decimals (40.748441, -73.985664).",
  { address: z.string().min(3).max(300) },
  async ({ address }) => ({ content: [{ type: "text", text: address }] })
);

server.tool(
  "reverse_geocode",
  "Convert coordinates to the nearest street address, e.g. 48.858370, 2.294481 -> 'Champ de Mars, 5 Avenue Anatole France, 75007 Paris'.",
  { lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) },
  async ({ lat, lng }) => ({ content: [{ type: "text", text: `${lat},${lng}` }] })
);

server.tool(
  "directions",
  "Route between two places, for example from 1 Infinite Loop, Cupertino to 2211 N First St, San Jose. Modes: driving, walking, transit. Up to 25 waypoints.",
  { from: z.string(), to: z.string(), mode: z.enum(["driving", "walking", "transit"]).default("driving") },
  async ({ from, to }) => ({ content: [{ type: "text", text: `${from} -> ${to}` }] })
);

server.tool(
  "static_map",
  "Render a map image. Sizes: 256 512 1024 (pixels, square); zoom 0-21; scale 1 or 2 (e.g. marker@2x.png).",
  { center: z.string(), size: z.number().default(512), zoom: z.number().int().min(0).max(21) },
  async ({ center }) => ({ content: [{ type: "text", text: center }] })
);
