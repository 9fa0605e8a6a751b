// Package inproc is an in-process extension server's tools and prompts as
// plain Go calls. A Server records what is registered on it, with go-sdk's
// own types (mcp.Tool, mcp.ToolHandler, mcp.Prompt, mcp.PromptHandler), so
// the same registration code can build a go-sdk MCP server (for a client
// across a process boundary) or a Server the extension manager calls
// directly: no JSON-RPC framing, no in-memory transport, no initialize or
// tools/list round trips, no goroutine hop per message.
//
// A handler called directly gets a request whose Session is nil; what it
// would send over its session during the call (log messages, progress)
// goes to the Peer the caller put in the context, found with PeerOf. It
// imports nothing of ours, so the developer server can use it.
package inproc
