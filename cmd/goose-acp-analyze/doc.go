// Command goose-acp-analyze is the helper goose-acp runs for each `analyze`
// tool call: it reads one JSON request (developer/analyze.Request) on
// stdin, runs the tree-sitter analysis (developer/analyze/engine) and
// writes one JSON answer (developer/analyze.Answer) on stdout, nothing
// else. It needs cgo: build it with a C compiler (gcc or clang) beside
// goose-acp, `go build -o <dir of goose-acp>/goose-acp-analyze
// ./cmd/goose-acp-analyze`. Built without cgo it answers an error saying so.
package main
