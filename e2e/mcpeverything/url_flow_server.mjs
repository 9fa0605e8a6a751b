// A small MCP server (official MCP TypeScript SDK, over stdio) with one
// tool that sends the user to a URL: its call asks in URL mode
// (elicitation/create, mode "url", elicitationId "flow-7") and, once the
// user accepted, reports the flow's end (notifications/elicitation/complete)
// before it answers "connect: <action>".
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "url-flow", version: "1.0.0" });
server.registerTool("connect", { description: "Connect the user's Example account in the browser" }, async (extra) => {
  const elicitationId = "flow-7";
  const res = await extra.sendRequest({
    method: "elicitation/create",
    params: { mode: "url", url: "https://example.com/oauth", message: "Sign in to Example", elicitationId },
  }, ElicitResultSchema);
  if (res.action === "accept") await server.server.createElicitationCompletionNotifier(elicitationId)();
  return { content: [{ type: "text", text: `connect: ${res.action}` }] };
});
await server.connect(new StdioServerTransport());
