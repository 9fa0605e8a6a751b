//go:build linux

package proctree

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// runSupervisor runs argv (the command) as its child and is a subreaper
// for everything below it, so every descendant — even one that called
// setsid or was started with nohup — stays in its subtree. It writes the
// command's end to fd 3 ("exit N" / "signal N") and keeps reaping while
// background descendants live. SIGTERM/SIGINT/SIGHUP — from the agent's
// cancel, or its parent-death signal when the agent dies, however it dies —
// make it SIGTERM every descendant, SIGKILL them after KillGrace, and exit.
func runSupervisor(argv []string) int {
	runtime.LockOSThread() // the command's parent-death signal follows this thread
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	// No getppid check: the agent may be pid 1 in a container. An agent
	// that died before the parent-death signal was armed is caught by
	// os/exec's fork (it re-checks the parent after arming it).
	if len(argv) == 0 {
		return 2
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "goose-acp process supervisor: %v\n", err)
	}
	status := os.NewFile(3, "status")
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", argv[0], err)
		fmt.Fprintf(status, "exit 127\n")
		return 127
	}
	releaseStdio()
	gone := make(chan struct{})
	go reapAll(pid, status, gone)
	select {
	case <-gone:
	case <-sigs:
		killDescendants(os.Getpid(), gone)
	}
	return 0
}

// reapAll waits for every child (the command and adopted orphans), reports
// the command's end on status, and closes gone when no child is left.
func reapAll(shell int, status *os.File, gone chan<- struct{}) {
	defer close(gone)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			status.Close()
			return
		}
		if pid != shell {
			continue
		}
		switch {
		case ws.Exited():
			fmt.Fprintf(status, "exit %d\n", ws.ExitStatus())
		case ws.Signaled():
			fmt.Fprintf(status, "signal %d\n", int(ws.Signal()))
		}
		status.Close()
	}
}

// killDescendants SIGTERMs every process below root, waits KillGrace for
// them to go, then SIGKILLs whatever is left (again, for processes forked
// meanwhile) until none is.
func killDescendants(root int, gone <-chan struct{}) {
	for _, pid := range descendants(root) {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	t := time.NewTimer(KillGrace)
	defer t.Stop()
	select {
	case <-gone:
		return
	case <-t.C:
	}
	for range 100 {
		left := descendants(root)
		if len(left) == 0 {
			return
		}
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// releaseStdio points the supervisor's stdin, stdout and stderr at
// /dev/null once the command holds them: the agent reads the output pipes
// (or pty) to EOF, which must come when the command's tree lets go of
// them, not when the supervisor exits.
func releaseStdio() {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	for fd := range 3 {
		_ = unix.Dup2(int(null.Fd()), fd)
	}
}
