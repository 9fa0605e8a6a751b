// Command goose-acp-analyze is the helper goose-acp runs for each `analyze`
// tool call: it reads one JSON request (developer/analyze.Request) on
// stdin, runs the tree-sitter analysis (developer/analyze/engine) and
// writes one JSON answer (developer/analyze.Answer) on stdout, nothing
// else. It needs cgo: build it with a C compiler (gcc or clang) beside
// goose-acp, `go build -o <dir of goose-acp>/goose-acp-analyze
// ./cmd/goose-acp-analyze`. Built without cgo it answers an error saying so.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/goose-acp/goose-acp/developer/analyze/engine"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: goose-acp-analyze < request.json\n"+
			"goose-acp runs this helper for its analyze tool: one JSON request on stdin, one JSON answer on stdout.")
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	if err := engine.Serve(context.Background(), os.Stdin, os.Stdout, self); err != nil {
		fmt.Fprintln(os.Stderr, "goose-acp-analyze:", err)
		os.Exit(1)
	}
}
