package main

import (
	"context"
	"fmt"
	"os"

	"github.com/goose-acp/goose-acp/developer/analyze/engine"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: goose-acp-analyze < requests.jsonl\n"+
			"goose-acp runs this helper for its analyze tool: JSON requests on stdin, one a line; one JSON answer line on stdout for each.")
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
