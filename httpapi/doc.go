// Package httpapi serves goosed's HTTP/SSE API (Goose Desktop 1.28–1.33,
// and the legacy POST /reply of ≤ 1.27) on top of the shared core: the same
// agent, session store and config the ACP face uses, so a session started
// in an editor shows up in the desktop and back.
//
// Routes are grouped by area (routes.go), one handler type per area
// holding only the core services its routes call; each is decode → core →
// encode (adapt.go), and respond.go's one table maps core's error kinds
// (core/errkind) to statuses. It decides and writes nothing itself: the
// store it gets is the read-only agent.SessionReader (boundary_test.go
// keeps it so). Sessions its routes load are held for the REST face
// (hold.go) until /agent/stop lets go. Provider set-up is core/setup's, as
// for the ACP face.
//
// It owns the X-Secret-Key auth middleware, goosed's CORS, per-route body
// limits, both chat protocols (POST /reply, and /sessions/{id}/reply with
// the session's SSE event bus), the 501s of features goose-acp does not
// ship (Unavailable), the mounting of the ACP handler cmd gives it at /acp
// (it imports no acp package), and the TLS helpers `goose-acp agent`
// needs. How the chat streams, replay and lag behave is in
// docs/goosed-api.md. Nothing here writes to stdout.
package httpapi
