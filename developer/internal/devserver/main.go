// Command devserver serves the classic developer MCP server on stdio. It is
// the test binary for the Node acceptance harness (e2e/mcpdev) until
// `goose-acp mcp developer` is wired; both call developer.ServeStdio.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/goose-acp/goose-acp/developer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	wd, _ := os.Getwd()
	err := developer.ServeStdio(ctx, os.Stdin, os.Stdout, developer.Options{
		Surface:    developer.Classic,
		WorkingDir: wd,
		Logger:     logger,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
