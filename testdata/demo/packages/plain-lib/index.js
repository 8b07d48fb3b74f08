// Helpers for formatting text. Nothing here registers a tool: "server.tool(" in this comment is text.
function slugify(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
module.exports = { slugify, note: "call server.tool() to register tools" };
