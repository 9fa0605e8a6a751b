//go:build linux

package proctree

import (
	"bytes"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// supervisorArg, as argv[1], makes the executable a process supervisor.
const supervisorArg = "__goose-acp-shell-supervisor"

// supervisorExe is this executable once Init enabled supervision; set
// before any process is prepared, read-only afterwards.
var supervisorExe string

// Init must be called first thing in main with os.Args. In a supervisor
// process (see runSupervisor) it runs the supervisor and exits the
// process: an exit that skips exit hooks, which a supervisor does not need
// (and the race runtime would hold it a second after the command ended).
// Otherwise it makes the process a child subreaper, so descendants orphaned
// by a command are re-parented here instead of to init, and runs every
// later prepared command under a supervisor spawned from this executable.
func Init(args []string) {
	if len(args) > 1 && args[1] == supervisorArg {
		syscall.Exit(runSupervisor(args[2:]))
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		slog.Warn("cannot become a child subreaper", "err", err)
	}
	exe, err := os.Executable()
	if err != nil {
		slog.Warn("commands run without a supervisor", "err", err)
		return
	}
	supervisorExe = exe
}

func lockThread()   { runtime.LockOSThread() }
func unlockThread() { runtime.UnlockOSThread() }

type jobHandle struct{}

func afterStart(*Proc)     {}
func releaseJob(jobHandle) {}

// wrapCmd gives the command a parent-death signal and, when enabled, puts
// a supervisor between it and the agent: the supervisor is a subreaper for
// the command's whole tree (setsid and nohup included), reports the
// command's end on fd 3 and, on SIGTERM or the agent's death (its own
// parent-death signal), kills every descendant.
func wrapCmd(w *Proc) error {
	cmd := w.cmd
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if _, err := exec.LookPath(cmd.Path); err != nil || cmd.Err != nil || supervisorExe == "" {
		// unsupervised; a command that cannot start fails in Start as usual
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
		return nil
	}
	r, wr, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Args = append([]string{supervisorExe, supervisorArg, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = supervisorExe
	cmd.ExtraFiles = append(cmd.ExtraFiles, wr)
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	w.status = r
	w.closeAfterStart = append(w.closeAfterStart, wr)
	return nil
}

// Kill asks the command's process group (the supervisor with it) to end,
// gives it KillGrace plus the supervisor's own escalation time, then
// SIGKILLs the group and every process still carrying the run's marker —
// wherever it was re-parented. The command must have been started in its
// own process group (OwnGroup, or a pty's session).
func (p *Proc) Kill(_ <-chan struct{}) {
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(KillGrace + 500*time.Millisecond)
	defer t.Stop()
	select {
	case <-p.waited:
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = p.cmd.Process.Kill()
	sweepMarked(p.marker, p.cmd.Process.Pid)
}

// sweepMarked SIGKILLs every process whose environment carries marker
// (except skip, which os/exec waits for) and reaps the ones re-parented to
// this process, which nothing else would wait for.
func sweepMarked(marker string, skip int) {
	self := os.Getpid()
	for _, p := range withEnv(MarkerEnv + "=" + marker) {
		if p.pid == skip || p.pid == self {
			continue
		}
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
		if p.ppid == self {
			go reapAdopted(p.pid)
		}
	}
}

// PidsWithEnv lists the live (not zombie) processes whose environment
// holds the exact entry NAME=value.
func PidsWithEnv(entry string) []int {
	var out []int
	for _, p := range withEnv(entry) {
		out = append(out, p.pid)
	}
	return out
}

// withEnv lists the live (not zombie) processes whose environment holds
// the exact entry NAME=value.
func withEnv(entry string) []procInfo {
	want := []byte(entry + "\x00")
	var out []procInfo
	for _, p := range scanProc() {
		if p.state == 'Z' {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/environ")
		if err == nil && bytes.Contains(append(env, 0), want) {
			out = append(out, p)
		}
	}
	return out
}

// reapAdopted waits for a killed orphan that was re-parented here.
func reapAdopted(pid int) {
	var ws syscall.WaitStatus
	for range 50 {
		if got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid || err != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// procInfo is one /proc/<pid>/stat line's pid, state and parent.
type procInfo struct {
	pid, ppid int
	state     byte
}

// scanProc lists the processes in /proc (best effort: processes vanish).
func scanProc() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]procInfo, 0, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out = append(out, procInfo{pid: pid, ppid: ppid, state: f[0][0]})
	}
	return out
}

// descendants are the live processes below root.
func descendants(root int) []int {
	kids := map[int][]procInfo{}
	for _, p := range scanProc() {
		kids[p.ppid] = append(kids[p.ppid], p)
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range kids[pid] {
			queue = append(queue, c.pid)
			if c.state != 'Z' {
				out = append(out, c.pid)
			}
		}
	}
	return out
}

// stopSignal asks a command (its supervisor on Linux) to end.
var stopSignal os.Signal = syscall.SIGTERM
