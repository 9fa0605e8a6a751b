// Package firstframe answers an editor's ACP initialize while the rest of
// the goose-acp binary is still initialising. An editor spawns goose-acp
// and sends initialize at once; the binary's package initialisation (~3 ms
// of a fresh process: the MCP SDK, the TUI libraries of `configure`, the
// providers) and main's set-up come before the ACP server could read it.
// This package imports only the handshake's types (acp/handshake), the
// JSON-RPC framing (acp/jsonrpc/wire) and internal/earlyinfo for the
// version, none of which waits for a package Go initialises late, so its
// init runs right after encoding/json's (the answer waits for the version
// only when it is written): for the
// invocations that serve ACP on stdio it starts a goroutine that reads
// stdin's first frame and, when it is a v1 initialize, writes
// handshake.Answer's response — the bytes the ACP server writes for it.
// The server then takes the request (Take) and reads on from where this
// package stopped; any other first frame is handed over unread. When
// start-up fails after initialize was answered, cmd/goose-acp answers the
// editor's next requests with the reason (Answered, startfail.go).
package firstframe
