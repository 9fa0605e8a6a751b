package analyze

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent has the helper SIGKILLed if the agent dies (a SIGKILLed
// goose-acp must not leave an analysis running). The parent-death signal
// follows the thread that started the child, so that thread stays locked
// to the caller until the helper is reaped; release unlocks it.
func dieWithParent(cmd *exec.Cmd) (release func()) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
