// Command goose-acp-configure is the interactive `goose-acp configure`:
// goose-acp runs it, with the same terminal, environment and exit status,
// when configure is given no flags (the flags form stays in goose-acp).
// Build it beside goose-acp: `go build -o <dir of goose-acp>/goose-acp-configure
// ./cmd/goose-acp-configure` (pure Go, CGO_ENABLED=0 is fine). Exit
// status: 0 saved, 1 the test or the save failed, 2 usage errors or stdin
// is not a terminal, 130 cancelled.
package main
