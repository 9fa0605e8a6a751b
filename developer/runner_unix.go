//go:build !windows

package developer

import (
	"os/exec"
	"syscall"
)

// prepareCmd starts the shell in its own process group so cancel can
// signal every descendant that stays in it.
func prepareCmd(cmd *exec.Cmd, _ shellSpec, _ string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// detachSession starts the probe in a new session so an interactive rc
// file cannot grab the controlling terminal (SIGTTIN).
func detachSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
