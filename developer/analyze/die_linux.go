package analyze

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent has the helper SIGKILLed if the agent dies (a SIGKILLed
// goose-acp must not leave an analysis running; a helper waiting for its
// next request also ends when its stdin closes). The parent-death signal
// follows the thread that starts the child, so the caller stays on one
// thread until Start returns; release unlocks it. The Go runtime ends a
// thread only when a goroutine locked to it exits locked, and then the
// idle helper dies with it: the next call starts a fresh one.
func dieWithParent(cmd *exec.Cmd) (release func()) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
