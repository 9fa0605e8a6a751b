// Package handshake is ACP v1's initialize: the request and response
// types and the one function that builds goose-acp's answer. It imports
// nothing but encoding/json, so a fresh process can answer an editor's
// initialize while the rest of the binary is still initialising
// (cmd/goose-acp/internal/firstframe); the acp package serves the same
// answer from the same function, and aliases these types.
package handshake
