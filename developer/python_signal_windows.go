//go:build windows

package developer

import (
	"os/exec"
	"syscall"
)

// preparePythonCmd hides the console window; the command line is the
// interpreter's own (prepareCmd would build a shell's).
func preparePythonCmd(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}

// interrupt is unavailable on Windows (as in goose): the caller stops the
// session instead and the next cell starts a fresh one.
func (k *kernel) interrupt() bool { return false }
