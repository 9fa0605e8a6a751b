//go:build !windows

package shellrun

import (
	"os/exec"
	"syscall"
)

// prepareCmd starts the shell in its own process group so cancel can
// signal every descendant that stays in it.
func prepareCmd(cmd *exec.Cmd, _ Spec, _ string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Detach starts the probe in a new session so an interactive rc
// file cannot grab the controlling terminal (SIGTTIN).
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
