// Package release builds goose-acp's release artifacts: one versioned
// archive per registry platform (linux, darwin and windows, amd64/arm64)
// holding goose-acp and its interactive configure goose-acp-configure
// (both built without cgo) and its analyze helper goose-acp-analyze, built with -trimpath and the version stamped into
// internal/buildinfo's version, SHA256SUMS, the agentclientprotocol
// registry's agent.json computed from the real archives, and NOTES.md
// saying which builds carry `analyze` (the helper needs cgo, so only
// targets with a working C compiler have it).
// cmd/release is its command line; `just release` wraps that.
package release
