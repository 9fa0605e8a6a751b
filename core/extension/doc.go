// Package extension owns the per-session extension manager: it connects
// goose's ExtensionConfig types — stdio children in their own process
// group, streamable HTTP and legacy SSE endpoints and inline_python
// through uvx over MCP (go-sdk); platform and builtin extensions in this
// process — and keeps frontend tools, which the client executes.
//
// In-process extensions (the developer builtin, the platform extensions)
// are called directly, as goose calls its platform extensions: their
// factories return an inproc.Server, whose tools the manager lists and
// calls without an MCP session (no initialize, tools/list or JSON framing;
// a tool's conversion for the agent is cached per process). Direct calls
// keep MCP's contract: the same _meta and progress token, the extension's
// timeout, a handler error reported as go-sdk's client reports a JSON-RPC
// error, a cancelled call returning at once, log messages at LogLevel and
// progress forwarded to Hooks.Notify (before the call returns, unlike over
// MCP). A builtin factory may still return an MCP server (Server MCP),
// reached over an in-memory transport, for a server that needs a real
// session.
//
// Tools are exposed as goose 1.54 names them: under their own names for the
// first-class builtin/platform extensions (developer, analyze, summon,
// skills, code_execution), as "<extension>__<tool>" for every other, with
// goose's name normalisation and collision rule and each extension's
// available_tools filter, extensions sorted by key. Resolve (and Call)
// also accept the prefixed names first-class tools had before 1.54
// ("developer__shell") and a model's manglings of a name, as goose's
// recover_mangled_tool_name does. Call runs one tool with the extension's timeout (default 300 s),
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
//
// Managers given one Shared (Options.Shared, one per process) share
// connections: every stdio, streamable_http or sse extension whose fully
// resolved connection is identical — command, arguments, environment after
// envs and env_keys, uri, resolved headers, timeout, working dir (the
// child's cwd and the root we announce) and our client identity, but not
// the extension's name — uses one child process or HTTP client session,
// reference-counted by Add and Remove/Close; the last release closes it
// and kills the process group. A second Add waits for a connect in
// progress instead of spawning; failed connects and dead servers are not
// reused. Tool names, available_tools, the tool cache and running calls
// stay per manager. Progress goes to the manager whose call owns the
// token (the call id, made unique on the connection when two sessions use
// the same id); log messages go to the running calls of every attached
// manager and tools/list_changed bumps every attached manager's Version;
// elicitation and sampling go to the manager running the call named by
// _meta's goose-tool-call-id, else the only running call, else the only
// attached manager, else fail.
// Builtin, platform, frontend and inline_python extensions are never
// shared (platform tool definitions are built once per process; see
// package platform).
package extension
