// Package httpapi serves goosed's HTTP/SSE API (Goose Desktop 1.28–1.33, and
// the legacy POST /reply of ≤ 1.27) on top of the shared core: the same
// agent.Agent, session.Store and config the ACP adapter uses, so a session
// started in an editor shows up in the desktop and back.
//
// It owns: the X-Secret-Key auth middleware (constant-time, goosed's exempt
// paths, 401 with an empty body), goosed's permissive CORS, per-route body
// limits, the one error mapping (writeError), every route of
// goosed-openapi.json (implemented, or a clear 501 JSON error for features
// goose-acp does not have — see Unavailable), both chat protocols (legacy
// /reply SSE with JSON pings; the per-session event bus behind
// /sessions/{id}/reply, /events and /cancel), ACP over WebSocket at GET /acp,
// and the TLS helpers `goose-acp agent` needs (self-signed certificate cached
// under <config>/tls, goosed's fingerprint format, graceful ListenAndServe).
//
// Nothing here writes to stdout; the caller prints GOOSED_CERT_FINGERPRINT.
package httpapi
