//go:build windows

package proctree

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// agentJob holds the job the agent put itself in; it is never closed, so
// Windows closes it — and kills every process in it — when the agent
// exits, however it exits.
var agentJob windows.Handle

// Init must be called first thing in main. On Windows it puts the agent in
// a job object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: children inherit
// the job, so no process the agent started outlives it.
func Init([]string) {
	job, err := newJob(true)
	if err != nil {
		slog.Warn("processes may outlive the agent", "err", err)
		return
	}
	self, _ := windows.GetCurrentProcess()
	if err := windows.AssignProcessToJobObject(job, self); err != nil {
		windows.CloseHandle(job)
		slog.Warn("processes may outlive the agent: cannot join a job object", "err", err)
		return
	}
	agentJob = job
}

// newJob creates a job object; with killOnClose its processes die when
// its last handle closes.
func newJob(killOnClose bool) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create job object: %w", err)
	}
	if !killOnClose {
		return job, nil
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("set job object limits: %w", err)
	}
	return job, nil
}

func lockThread()   {}
func unlockThread() {}

// jobHandle is the command's own job (nested in the agent's), so Kill
// ends descendants that left the command's process tree.
type jobHandle windows.Handle

func wrapCmd(*Proc) error { return nil }

// afterStart puts the command in its own job. A process the command starts
// before this assignment is not in it (it is still in the agent's job).
func afterStart(w *Proc) {
	job, err := newJob(false)
	if err != nil {
		slog.Warn("command runs without its own job object", "err", err)
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(w.cmd.Process.Pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		windows.CloseHandle(h)
	}
	if err != nil {
		windows.CloseHandle(job)
		slog.Warn("command runs without its own job object", "err", err)
		return
	}
	w.job = jobHandle(job)
}

// releaseJob closes the command's job handle once the command exited; its
// background descendants keep running, as on Linux, until the agent's job
// closes.
func releaseJob(j jobHandle) {
	if j != 0 {
		windows.CloseHandle(windows.Handle(j))
	}
}

// terminateJob kills every process in the command's job.
func terminateJob(j jobHandle) {
	if j != 0 {
		_ = windows.TerminateJobObject(windows.Handle(j), 1)
	}
}

const createNoWindow = 0x08000000

// Kill ends the command's job (every process it started after joining,
// even detached ones) and the process tree with taskkill /T, falling back
// to killing the command itself once ended closes or KillGrace passed.
func (p *Proc) Kill(ended <-chan struct{}) {
	terminateJob(p.job)
	tk := exec.Command("taskkill", "/F", "/T", "/PID", strconv.Itoa(p.cmd.Process.Pid))
	tk.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	_ = tk.Run()
	select {
	case <-ended:
	case <-time.After(KillGrace):
	}
	_ = p.cmd.Process.Kill()
}

// stopSignal ends a command (Windows has no SIGTERM).
var stopSignal os.Signal = os.Kill
