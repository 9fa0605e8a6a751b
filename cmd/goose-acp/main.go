package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/earlystore"
	"github.com/goose-acp/goose-acp/internal/proctree"
	"github.com/goose-acp/goose-acp/internal/startpages"
)

func main() {
	// Package initialisation has run: the code and tables only it touched
	// leave the resident set (internal/startpages; peak RSS of a fresh ACP
	// process after its first turn 27.1 -> 24.0 MiB).
	startpages.Release()
	// Before anything else: a shell supervisor runs and exits here; the
	// agent becomes the reaper of its shells' orphans (internal/proctree).
	proctree.Init(os.Args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	earlystore.DiscardAtStart() // a command that ended before taking it
	stop()
	os.Exit(code)
}
