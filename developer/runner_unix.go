//go:build !windows

package developer

import (
	"os/exec"
	"syscall"
	"time"
)

// prepareCmd starts the shell in its own process group so cancel can
// signal every descendant.
func prepareCmd(cmd *exec.Cmd, _ shellSpec, _ string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killTree sends SIGTERM to the process group, waits up to killGrace for
// the shell to exit, then SIGKILLs the group so no descendant survives.
func killTree(cmd *exec.Cmd, exited <-chan struct{}) {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(killGrace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// detachSession starts the probe in a new session so an interactive rc
// file cannot grab the controlling terminal (SIGTTIN).
func detachSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
