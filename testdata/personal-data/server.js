#!/usr/bin/env node
// @kestrel-labs/mcp-server-notes 2.4.1 (build 2024.11.30.1234, commit 3f2a9c1)
// Maintainer: Omar Haddad <omar@haddad.consulting>
// Copyright 2024-2025 Kestrel Labs. SPDX-License-Identifier: MIT
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import pkg from "../package.json" with { type: "json" };

const VERSION = "2.4.1";
const USER_AGENT = `kestrel-notes-mcp/${VERSION} (+https://kestrel-labs.io/bot)`;
const BASE_URL = process.env.KESTREL_BASE_URL ?? "http://127.0.0.1:8080";
const FALLBACK_HOSTS = ["10.0.0.12", "192.168.100.200", "[2001:db8::1]:8443", "172.16.254.1"];
const TIMEOUT_MS = 30_000;
const MAX_BYTES = 10 * 1024 * 1024; // 10485760
const EPOCH = 1700000000; // 2023-11-14T22:13:20Z
const BIG = 1e+21;
const RATIO = +0.75;
const ORDER_ID_EXAMPLE = "4111-1111-1111-1111";
const ISBN = "978-0-306-40615-7";
const RELEASE = { date: "2025-03-14", eu: "14.03.2025", us: "03/14/2025", time: "12:30:45" };
const RANGE = "^1.2.3 || >=2.0.0-beta.1 <3.0.0";
const UUID = "123e4567-e89b-12d3-a456-426614174000";
const SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ICON = "assets/logo@2x.png";
const DEPS = ["react-dom@18.3.1", "react@18.3.1/jsx-runtime", "@types/node@20.17.6", "lodash@4.17.21"];

function mailbox(user, domain) {
  return `${user}@${domain}`;
}

const server = new McpServer({ name: "kestrel-notes", version: pkg.version });

server.tool(
  "search_notes",
  "Search the user's notes. Returns up to 25 notes per page, at most 10 pages, newest first.",
  { query: z.string().max(512), page: z.number().int().min(1).max(10).optional() },
  async ({ query, page }) => ({ content: [{ type: "text", text: await search(query, page ?? 1) }] })
);

server.tool(
  "sync_drive",
  "Import up to 10 Google Drive files per call into the current notebook.",
  { folder: z.string() },
  async ({ folder }) => ({ content: [{ type: "text", text: `synced ${folder}` }] })
);

server.tool(
  "share_note",
  "Email a note to a recipient address, for example someone@example.com or team@notes.test.",
  { id: z.string().uuid(), to: z.string().regex(EMAIL_RE) },
  async ({ id, to }) => ({ content: [{ type: "text", text: `sent ${id} to ${to}` }] })
);

server.tool(
  "schedule_call",
  "Book a call. Times are ISO 8601, e.g. 2025-04-01T14:30:00+02:00; duration in minutes (15-120).",
  { at: z.string().datetime({ offset: true }), minutes: z.number().min(15).max(120) },
  async ({ at }) => ({ content: [{ type: "text", text: `booked ${at}` }] })
);

async function search(query, page) {
  const url = new URL("/v1/search", BASE_URL);
  url.searchParams.set("q", query);
  url.searchParams.set("page", String(page));
  // Fallback support line for the hosted tier, printed on auth errors.
  const help = "Call support on 1-800-555-0199 or write to help@kestrel-labs.io";
  const res = await fetch(url, { headers: { "user-agent": USER_AGENT }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (res.status === 401) throw new Error(help);
  return await res.text();
}

await server.connect(new StdioServerTransport());
