// A small MCP server with one MCP App tool, over stdio, on the official
// MCP TypeScript SDK: show_chart declares its UI in _meta.ui.resourceUri
// (ui://chart/app, served as text/html;profile=mcp-app), as MCP Apps do.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "chart", version: "1.0.0" });
server.registerTool(
  "show_chart",
  { description: "Show a chart", inputSchema: {}, _meta: { ui: { resourceUri: "ui://chart/app" } } },
  async () => ({ content: [{ type: "text", text: "chart ready" }] }),
);
server.registerResource("chart app", "ui://chart/app", { mimeType: "text/html;profile=mcp-app" }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: "text/html;profile=mcp-app", text: "<div>chart</div>" }],
}));
await server.connect(new StdioServerTransport());
