// Package e2e holds process-level tests: TestMain builds ./cmd/goose-acp
// and its helpers beside it once (or uses GOOSE_ACP_BINARY, with
// goose-acp-analyze and goose-acp-configure beside that binary or named by
// GOOSE_ACP_ANALYZE and GOOSE_ACP_CONFIGURE), each test spawns it with its own
// GOOSE_PATH_ROOT and a local mock LLM server speaking a provider's real
// streaming wire format, and drives it over ACP (our Go client, the
// coder/acp-go-sdk client and the Node @agentclientprotocol/sdk harness),
// MCP or HTTP.
package e2e
