//go:build windows

package shellrun

import (
	"os/exec"
	"syscall"
)

const createNoWindow = 0x08000000

// prepareCmd hides the console window and passes the command line
// verbatim (goose's raw_arg), so cmd and PowerShell see it unescaped.
func prepareCmd(cmd *exec.Cmd, sp Spec, command string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		HideWindow:    true,
		CreationFlags: createNoWindow,
		CmdLine:       sp.windowsCommandLine(command),
	}
}

func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}
