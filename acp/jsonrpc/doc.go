// Package jsonrpc is the ACP face's JSON-RPC 2.0 connection: one Conn per
// client over a sourcegraph/jsonrpc2 ObjectStream, whatever carries it —
// the newline-delimited Stream here (stdio), one WebSocket text frame or
// one streamable-HTTP message per message (acp/acphttp).
//
// A message is read once: its params stay the frame's bytes until the
// handler decodes them (a 31 MB session/prompt is not decoded three times
// or copied). A line or frame that is not a message is answered (-32700,
// -32600) and reading goes on. Requests run in their own goroutines,
// notifications inline in arrival order; $/cancel_request cancels a
// running request; methods named Ordered run one at a time (a handler may
// let the next one start early with Proceed). Every frame
// going out — responses, notifications, the agent's own requests to the
// client and frames encoded by the caller (session/update) — goes through
// one writer, in the order handed in. A call whose context ends is
// withdrawn from the client with $/cancel_request.
//
// Frames keep jsonrpc2's layout ({"id":…,"result":…,"jsonrpc":"2.0"}),
// so clients see the bytes they always saw; how a frame is read and a
// response framed is acp/jsonrpc/wire's, which cmd/goose-acp's
// first-frame responder uses too. Of goose-acp it imports only wire and
// internal/deepstack.
package jsonrpc
