//go:build !windows

package pykernel

import (
	"os/exec"
	"syscall"
)

// preparePythonCmd starts the interpreter in its own process group, as
// shells are, so Kill reaches everything it leaves in the group.
func preparePythonCmd(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// interrupt sends SIGINT to the interpreter alone (not its group: on Linux
// the group holds the supervisor, which ends everything on SIGINT); the
// cell gets a KeyboardInterrupt and the session survives.
func (k *Kernel) interrupt() bool {
	if k.pid <= 0 {
		return false
	}
	return syscall.Kill(k.pid, syscall.SIGINT) == nil
}
