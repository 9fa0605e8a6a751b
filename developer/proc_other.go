//go:build !linux && !windows

package developer

import (
	"os"
	"syscall"
	"time"
)

// InitProcess is called first thing in main. Outside Linux and Windows
// there is no subreaper or parent-death signal: shells run in their own
// process group, which cancel and timeout kill; a descendant that leaves
// the group (setsid) is not found.
func InitProcess([]string) {}

func lockThread()   {}
func unlockThread() {}

type jobHandle struct{}

func wrapCmd(*procWatch) error { return nil }
func afterStart(*procWatch)    {}
func releaseJob(jobHandle)     {}

// killTree sends SIGTERM to the process group, waits up to killGrace for
// the shell to exit, then SIGKILLs the group so no descendant in it
// survives.
func killTree(sp *startedProc, ended <-chan struct{}) {
	pgid := sp.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(killGrace)
	defer t.Stop()
	select {
	case <-ended:
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = sp.cmd.Process.Kill()
}

// stopSignal asks a shell to end.
var stopSignal os.Signal = syscall.SIGTERM
