// Package toolinfo owns what a tool says about itself beyond its schema:
// its kind (a read, an edit, a shell, …) and which of its arguments hold
// the path it acts on, the line it starts at, and the before/after text of
// an edit. Tools publish it under the MetaKey entry of their MCP tool
// _meta (the developer tools do, for both surfaces); core/extension
// decodes it once when it lists tools, and everything else — the ACP
// adapter's kinds, locations and diff previews, the security inspector,
// the subdirectory hints — reads it from the tool definition instead of
// knowing tool names. Tools that publish nothing get Guess: a kind from
// goose's conventional tool names, and no argument roles.
//
// Title names a call for people ("Run npm test", "Edit src/x.go"; plain text) the
// same way wherever calls are shown: ACP tool calls and permission
// requests, and a subagent's progress lines.
//
// The package imports nothing, so every layer may use it.
package toolinfo
