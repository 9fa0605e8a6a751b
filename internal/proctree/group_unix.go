//go:build !windows

package proctree

import (
	"os/exec"
	"syscall"
)

// OwnGroup starts cmd in its own process group, so Kill reaches every
// descendant that stays in it.
func OwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
