// A small MCP server (official MCP TypeScript SDK, over stdio) that serves
// one resource and no tools: a session with it is one where some
// extension serves resources.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "notes", version: "1.0.0" });
server.registerResource("plan", "notes://plan", { description: "The release plan", mimeType: "text/markdown" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "text/markdown", text: "1. ship it\n" }],
}));
await server.connect(new StdioServerTransport());
