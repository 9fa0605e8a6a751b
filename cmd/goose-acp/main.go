package main

import (
	"context"
	"io"
	"os"
	"syscall"

	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/earlystore"
	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/firstframe"
	"github.com/goose-acp/goose-acp/internal/proctree"
)

// No //go:debug settings: measured against Go 1.26's runtime, none
// shortens a fresh process's start (docs/performance.md, "Start-up CPU
// before serving"): containermaxprocs=0 still reads the cgroup at start,
// updatemaxprocs=0 saves one goroutine, decoratemappings=0 one prctl.

func main() {
	// Before anything else: a shell supervisor runs and exits here; the
	// agent becomes the reaper of its shells' orphans (internal/proctree).
	proctree.Init(os.Args)
	ctx, stop := notifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// Only ACP on stdio can have answered initialize early; every other
	// command keeps stderr an *os.File (run and configure look for a
	// terminal there).
	var stderr io.Writer = os.Stderr
	var reasons *reasonWriter
	if firstframe.ServesACPOnStdio(os.Args[1:]) {
		reasons = &reasonWriter{w: os.Stderr}
		stderr = reasons
	}
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, stderr, os.Getenv)
	if code != 0 && reasons != nil {
		refuseAfterStart(ctx, os.Stdout, reasons.reason())
	}
	earlystore.DiscardAtStart() // a command that ended before taking it
	stop()
	os.Exit(code)
}
