// Package httpapi serves goosed's HTTP/SSE API (Goose Desktop 1.28–1.33, and
// the legacy POST /reply of ≤ 1.27) on top of the shared core: the same
// agent.Agent, session store and config the ACP adapter uses, so a session
// started in an editor shows up in the desktop and back.
//
// Routes are grouped by area (routes.go), one handler type per area holding
// only the core services its routes call; each is decode → core → encode
// (adapt.go), and respond.go's one table maps core's error kinds to
// statuses. It decides and writes nothing itself: sessions
// change through agent.Agent (Options.Store is the read-only
// agent.SessionReader; boundary_test.go keeps it so), recipes start
// through agent.RecipeFrom, provider set-up (the list, what is configured,
// live model lists, set_provider) is core/setup's as the ACP face's, custom
// providers are registry.CustomStore's,
// the recipe library is recipe.Library's and schedule sources are the
// scheduler's (CreateFromRecipe).
//
// It owns: the X-Secret-Key auth middleware (constant-time, goosed's exempt
// paths, 401 with an empty body), goosed's permissive CORS, per-route body
// limits (50 MiB chat, 25 MiB import, 2 MiB otherwise), the one error
// table (error kind → status, {"message": …}), every operation of
// goosed-openapi.json 1.33 (implemented, or a 501 JSON error naming a
// feature goose-acp does not have — see Unavailable), both chat protocols,
// ACP over WebSocket at GET /acp, and the TLS helpers `goose-acp agent`
// needs (self-signed certificate cached under <config>/tls, goosed's
// fingerprint format, graceful Serve).
//
// Chat: POST /reply streams one turn as `data:` frames with a JSON Ping
// every 500 ms and a final Finish; the client hanging up cancels the turn.
// POST /sessions/{id}/reply starts a turn (one active request per session)
// whose events go to the session's bus; GET /sessions/{id}/events streams
// the bus: ActiveRequests (no id), replay after Last-Event-ID from a
// 512-event ring (or "Client too far behind" when evicted), live events as
// `id: <seq>` frames with chat_request_id/request_id, and `: ping n`
// comments. Unlike goosed, a stream that lags past its 256-event buffer
// catches up from the ring instead of closing (it closes only when events
// were evicted), which saves the client a reconnect.
//
// Prompts (/config/prompts*) are the agent's templates with overrides in
// <config>/prompts; /recipes/create asks the loaded session's model for a
// recipe (agent.CreateRecipe). A recipe posted to /schedule/create is kept
// by the scheduler in <data>/schedule_sources/<id>.yaml (the job's
// recipe_base_dir) until the job is deleted.
//
// Nothing here writes to stdout; the caller prints GOOSED_CERT_FINGERPRINT.
package httpapi
