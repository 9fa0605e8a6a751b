// Package acp is goose-acp's Agent Client Protocol adapter: the ACP v1 wire
// types, the method table served on one acp/jsonrpc connection per client
// (ServeStream; Serve for stdio's NDJSON), translation of
// core agent events into session/update notifications, and the client-side
// bridges (file system, terminal, permission, elicitation) the agent uses
// when the editor offers them. It is a thin adapter: decode, call core,
// encode. Methods are answered by one handler type per area (areas.go):
// session/prompt by promptAPI (prompt.go), the session lifecycle by
// sessionsAPI, config options by optionsAPI; the Server is the
// connection, and errors.go its one error table.
//
// It also answers goose Desktop's _goose/unstable/* methods, a third face
// over the same core operations as goosed's REST API, with one handler
// type per area, each holding only the core services it calls (areas.go):
// providers*.go, config*.go (config, extensions, prompts, defaults and
// preferences), recipes.go, schedules.go, sources.go, menus.go (slash
// commands, mentions), session_tools.go, session_ops.go, onboarding.go
// and diagnostics.go; unavailable.go is the one table of methods of
// features goose-acp does not ship. testdata/unstable holds goose's
// acp-meta.json and acp-schema.json, against which the tests validate
// every answer.
//
// session/new's _meta.recipeId (a saved recipe) or _meta.recipeDeeplink (a
// goose://recipe link) starts the chat from that recipe
// (recipes_start.go). When it has parameters without values,
// clients whose initialize set _meta.goose.recipeParameterRequests are
// asked with _goose/unstable/session/recipe/request-params: submit applies
// the recipe with the values, cancel keeps a plain session, a submit still
// missing a value fails session/new (-32602) and deletes the session, as
// goose does. Other clients get a plain session without the recipe (and a
// warning in the log); goose would refuse the session/new instead.
package acp
