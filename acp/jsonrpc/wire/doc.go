// Package wire reads and writes the JSON-RPC 2.0 framing that acp/jsonrpc
// speaks: the members of a message frame, the rules a request must meet,
// and a response frame's bytes. It imports only the standard library's
// early packages (no sourcegraph/jsonrpc2, log/slog or runtime/debug), so
// that cmd/goose-acp's first-frame responder, which answers an editor's
// initialize while the binary is still initialising, can use the very
// rules and bytes of the ACP connection without waiting for packages Go
// initialises late (their import paths sort late).
package wire
