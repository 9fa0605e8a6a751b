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
	// Package initialisation has run: the binary's pages only it touched
	// leave the resident set (internal/startpages), beside the command's
	// start-up; serving commands release their start-up's pages again.
	go startpages.Release()
	// Before anything else: a shell supervisor runs and exits here; the
	// agent becomes the reaper of its shells' orphans (internal/proctree).
	proctree.Init(os.Args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	earlystore.DiscardAtStart() // a command that ended before taking it
	stop()
	os.Exit(code)
}
