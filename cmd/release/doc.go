// Command release builds goose-acp's release archives for every registry
// platform, SHA256SUMS, agent.json (the agentclientprotocol registry
// entry) and NOTES.md (which builds carry analyze) into dist/VERSION:
//
//	go run ./cmd/release -version 0.1.0
//
// `just release 0.1.0` runs the same. See internal/release.
package main
