// Package acp is goose-acp's Agent Client Protocol adapter: the ACP v1 wire
// types, newline-delimited JSON-RPC 2.0 framing over sourcegraph/jsonrpc2
// (a Stream that survives malformed input), the method table, translation of
// core agent events into session/update notifications, and the client-side
// bridges (file system, terminal, permission, elicitation) the agent uses
// when the editor offers them. It is a thin adapter: decode, call core,
// encode.
package acp
