//go:build !linux && !windows

package proctree

import (
	"os"
	"syscall"
	"time"
)

// Init is called first thing in main. Outside Linux and Windows there is
// no subreaper or parent-death signal: commands run in their own process
// group, which Kill ends; a descendant that leaves the group (setsid) is
// not found.
func Init([]string) {}

func lockThread()   {}
func unlockThread() {}

type jobHandle struct{}

func wrapCmd(*Proc) error  { return nil }
func afterStart(*Proc)     {}
func releaseJob(jobHandle) {}

// Kill sends SIGTERM to the process group, waits up to KillGrace for the
// command to exit (ended closes), then SIGKILLs the group so no descendant
// in it survives.
func (p *Proc) Kill(ended <-chan struct{}) {
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(KillGrace)
	defer t.Stop()
	select {
	case <-ended:
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = p.cmd.Process.Kill()
}

// stopSignal asks a command to end.
var stopSignal os.Signal = syscall.SIGTERM
