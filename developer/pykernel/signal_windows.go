//go:build windows

package pykernel

import (
	"os/exec"
	"syscall"
)

// preparePythonCmd hides the console window; the command line is the
// interpreter's own.
func preparePythonCmd(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: 0x08000000} // CREATE_NO_WINDOW
}

// interrupt is unavailable on Windows (as in goose): the caller stops the
// session instead and the next cell starts a fresh one.
func (k *Kernel) interrupt() bool { return false }
