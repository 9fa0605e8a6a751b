// Package acp is goose-acp's Agent Client Protocol adapter: the ACP v1 wire
// types, newline-delimited JSON-RPC 2.0 framing over sourcegraph/jsonrpc2
// (a Stream that survives malformed input), the method table, translation of
// core agent events into session/update notifications, and the client-side
// bridges (file system, terminal, permission, elicitation) the agent uses
// when the editor offers them. It is a thin adapter: decode, call core,
// encode.
//
// It also answers goose Desktop's _goose/unstable/* methods (files
// unstable_*.go), a third face over the same core operations as goosed's
// REST API: settings (config, extensions, providers, defaults, preferences,
// prompts) through core/config and core/setup, sessions, recipes and
// schedules through core/agent, and, in one table (UnstableUnavailable),
// the methods of features goose-acp does not ship. testdata/unstable holds
// goose's acp-meta.json and acp-schema.json, against which the tests
// validate every answer.
package acp
