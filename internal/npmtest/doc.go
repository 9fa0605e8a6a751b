// Package npmtest lets a Go test use a Node harness folder (e2e/node,
// e2e/http, e2e/mcpdev, e2e/mcpfs, e2e/mcpeverything, e2e/vscode) on a fresh clone: it
// runs `npm ci` in that folder once, under a cross-process file lock so the
// test packages `go test ./...` runs in parallel never install into the same
// folder at once, and skips the test with a clear message only when node or
// npm is not on PATH. GOOSE_ACP_REQUIRE_NPM=1 (CI) turns that skip into a
// failure.
package npmtest
