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

// killTree ends the shell's job (every process it started after joining,
// even detached ones) and the process tree with taskkill /T, falling back
// to killing the shell itself.
func killTree(sp *startedProc, ended <-chan struct{}) {
	terminateJob(sp.watch.job)
	tk := exec.Command("taskkill", "/F", "/T", "/PID", strconv.Itoa(sp.cmd.Process.Pid))
	tk.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	_ = tk.Run()
	select {
	case <-ended:
	case <-time.After(killGrace):
	}
	_ = sp.cmd.Process.Kill()
}

func detachSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
