// Package extension owns the per-session extension manager: it connects
// goose's ExtensionConfig types — stdio children in their own process
// group, streamable HTTP and legacy SSE endpoints and inline_python
// through uvx over MCP (go-sdk); platform and builtin extensions in this
// process — and keeps frontend tools, which the client executes.
//
// In-process extensions (the developer builtin, the platform extensions)
// are called directly (inproc.Server, no MCP session) with MCP's contract
// kept: the same _meta and progress token, the extension's timeout, errors
// reported as go-sdk's client reports them. What they report while a tool
// runs goes to the agent through Env.Progress (ToolProgress); progress and
// log notifications of MCP servers through Hooks.Notify.
//
// Tools are exposed as goose 1.54 names them (first-class builtin and
// platform tools under their own names, every other as
// "<extension>__<tool>"); Resolve and Call also accept older prefixed names
// and a model's manglings. Call tags the request _meta with
// agent-working-dir, agent-session-id and goose-tool-call-id and uses the
// call id as progress token. A failing extension is reported by Add and
// never affects the others.
//
// Managers given one Shared share connections: stdio, streamable_http or
// sse extensions whose fully resolved connection is identical use one
// child process or HTTP session, reference-counted; tool names, filters and
// running calls stay per manager. How calls, notifications, sampling and
// elicitation are routed across shared connections is in
// docs/extensions.md.
package extension
