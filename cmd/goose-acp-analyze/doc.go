// Command goose-acp-analyze is the helper goose-acp runs for its `analyze`
// tool: it reads JSON requests (developer/analyze.Request), one a line, on
// stdin, runs each tree-sitter analysis (developer/analyze/engine) and
// writes one JSON answer line (developer/analyze.Answer) per request on
// stdout, nothing else, until stdin ends. goose-acp keeps one running
// between calls, so each language's queries are compiled once. It needs cgo: build it with a C compiler (gcc or clang) beside
// goose-acp, `go build -o <dir of goose-acp>/goose-acp-analyze
// ./cmd/goose-acp-analyze`. Built without cgo it answers an error saying so.
package main
