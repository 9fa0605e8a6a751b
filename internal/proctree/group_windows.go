//go:build windows

package proctree

import (
	"os/exec"
	"syscall"
)

// OwnGroup hides the command's console window; on Windows its job object
// (afterStart) is what Kill ends.
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
