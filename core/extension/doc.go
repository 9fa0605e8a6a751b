// Package extension owns the per-session extension manager: it connects
// goose's ExtensionConfig types over MCP (go-sdk) — platform and builtin
// servers in-process over in-memory transports, stdio children in their own
// process group, streamable HTTP and legacy SSE endpoints, inline_python
// through uvx — and keeps frontend tools, which the client executes.
//
// Tools are exposed as "<extension>__<tool>" with goose's name
// normalisation and collision rule and each extension's available_tools
// filter. Call runs one tool with the extension's timeout (default 300 s),
// tags the request _meta with agent-working-dir, agent-session-id and
// goose-tool-call-id, uses the call id as progress token, and forwards the
// server's progress and log notifications to Hooks.Notify with that id.
// Server-initiated sampling and elicitation go to Hooks.Sample and
// Hooks.Elicit. go-sdk runs notification handlers on their own goroutine,
// so a notification sent just before a result may reach Hooks.Notify just
// after Call returned (goose has the same race). Servers that report
// logging get the level LogLevel set, since go-sdk servers send no
// notifications/message before that. Cancelling a call's context sends notifications/cancelled
// (go-sdk does this). A failing extension is reported by Add and never
// affects the others.
package extension
