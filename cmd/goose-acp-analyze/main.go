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
