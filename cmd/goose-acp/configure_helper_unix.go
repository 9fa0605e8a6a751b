//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// endBySignal ends this process by sig, as the helper was: the shell that
// started goose-acp configure sees what it saw before the split (a
// Ctrl-C'd command), not an exit code.
func endBySignal(sig syscall.Signal) {
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(100 * time.Millisecond) // the signal is delivered meanwhile
}
