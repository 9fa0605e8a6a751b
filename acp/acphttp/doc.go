// Package acphttp carries ACP connections over HTTP at /acp: WebSocket (what
// Goose Desktop 1.4x–1.54 uses; one ACP connection per socket, one JSON-RPC
// message per text frame) and the streamable-HTTP form of the ACP transport
// RFD (POST a message → 202, initialize → 200 with Acp-Connection-Id, one
// GET SSE stream per connection or session, DELETE ends the connection).
//
// It owns framing only. Every connection is handed to a ServeFunc — in
// goose-acp acp.ServeStream, the same server stdio uses — as a
// jsonrpc2.ObjectStream of whole messages (a text frame, a POST body), so
// there is one ACP code path for every transport and no re-framing.
// Sessions belong to the core agent behind ServeFunc, not to a connection:
// a client that reconnects resumes them with session/load.
//
// It also holds the policies `goose serve` applies in front of /acp: the
// secret as ?token= or X-Secret-Key (constant time), the WebSocket Origin
// rule and CORS. It imports nothing of goose-acp, so both faces that serve
// /acp (cmd's `serve` and httpapi's goosed alias) can use it.
package acphttp
