//go:build windows

package developer

import (
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

const createNoWindow = 0x08000000

// prepareCmd hides the console window and passes the command line
// verbatim (goose's raw_arg), so cmd and PowerShell see it unescaped.
func prepareCmd(cmd *exec.Cmd, sp shellSpec, command string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		HideWindow:    true,
		CreationFlags: createNoWindow,
		CmdLine:       sp.windowsCommandLine(command),
	}
}

// killTree ends the whole process tree with taskkill /T, falling back to
// killing the shell itself.
func killTree(cmd *exec.Cmd, exited <-chan struct{}) {
	tk := exec.Command("taskkill", "/F", "/T", "/PID", strconv.Itoa(cmd.Process.Pid))
	tk.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	_ = tk.Run()
	select {
	case <-exited:
	case <-time.After(killGrace):
	}
	_ = cmd.Process.Kill()
}

func detachSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
