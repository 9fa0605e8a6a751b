// Command goose-acp is the goose agent as an Agent Client Protocol server on
// stdio, a goosed-compatible HTTP/SSE backend, and the developer MCP server.
package main
