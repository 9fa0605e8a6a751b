package proctree

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// KillGrace is the SIGTERM → SIGKILL delay of Kill.
const KillGrace = time.Second

// MarkerEnv is set on every process started through Prepare to a value
// unique to the run, so its descendants can be found in /proc even after
// they left its process group and session (Linux).
const MarkerEnv = "GOOSE_ACP_SHELL_RUN"

var runSeq atomic.Int64

// running holds every spawned process (or supervisor) until it is reaped,
// including supervisors kept alive by background descendants after their
// call returned.
var running sync.Map // *Proc → struct{}

// StopAll SIGTERMs every spawned process or supervisor still running (a
// supervisor then ends its whole tree) and waits up to limit for them.
func StopAll(limit time.Duration) {
	deadline := time.After(limit)
	running.Range(func(k, _ any) bool {
		p := k.(*Proc)
		_ = p.cmd.Process.Signal(stopSignal)
		select {
		case <-p.waited:
			return true
		case <-deadline:
			return false
		}
	})
}

// Proc follows one spawned process and its tree. With a Linux supervisor
// the spawned process is the supervisor, which reports the command's end
// on status and stays alive while background descendants run.
type Proc struct {
	cmd             *exec.Cmd
	marker          string
	status          *os.File
	closeAfterStart []*os.File
	// waited is closed once the spawned process has been waited for.
	waited chan struct{}
	job    jobHandle
}

// Prepare marks cmd's environment (cmd.Env must be set) and lets the
// platform wrap it (a supervisor on Linux). The caller wires cmd's stdio,
// then starts it with Launch, or calls Abort if it never starts.
func Prepare(cmd *exec.Cmd) (*Proc, error) {
	p := &Proc{cmd: cmd, waited: make(chan struct{})}
	p.marker = fmt.Sprintf("%d.%d", os.Getpid(), runSeq.Add(1))
	cmd.Env = append(cmd.Env, MarkerEnv+"="+p.marker)
	if err := wrapCmd(p); err != nil {
		return nil, err
	}
	return p, nil
}

// Cmd is the command as started (on Linux, the supervisor's).
func (p *Proc) Cmd() *exec.Cmd { return p.cmd }

// CloseAfterStart adds files (the child's ends of pipes) to close once the
// process has started or failed to.
func (p *Proc) CloseAfterStart(files ...*os.File) {
	p.closeAfterStart = append(p.closeAfterStart, files...)
}

// Abort releases what Prepare opened when the start never happens.
func (p *Proc) Abort() {
	for _, f := range p.closeAfterStart {
		f.Close()
	}
	if p.status != nil {
		p.status.Close()
	}
}

// Waited is closed once the spawned process has been waited for.
func (p *Proc) Waited() <-chan struct{} { return p.waited }

// Launch runs start (which calls cmd.Start) on a goroutine that holds its
// OS thread until the child has been waited for: a parent-death signal
// fires when the creating thread exits, and Go ends threads whose locked
// goroutine exits, so the child must be created on a thread that outlives
// it.
func (p *Proc) Launch(start func() error) error {
	errc := make(chan error, 1)
	go func() {
		lockThread()
		defer unlockThread()
		err := start()
		if err != nil {
			p.Abort()
			errc <- err
			return
		}
		for _, f := range p.closeAfterStart {
			f.Close()
		}
		afterStart(p)
		running.Store(p, struct{}{})
		defer running.Delete(p)
		errc <- nil
		_ = p.cmd.Wait()
		close(p.waited)
	}()
	return <-errc
}

// Wait returns when the command has ended, with its exit code (nil when a
// signal ended it).
func (p *Proc) Wait() *int {
	if p.status != nil {
		code, ok := readStatus(p.status)
		p.status.Close()
		if ok {
			return code
		}
	}
	<-p.waited
	if p.cmd.ProcessState == nil {
		return nil
	}
	code := p.cmd.ProcessState.ExitCode()
	if code < 0 {
		return nil
	}
	return &code
}

// Release frees the platform's per-process handle (the Windows job) once
// the command has exited; its background descendants keep running.
func (p *Proc) Release() { releaseJob(p.job) }

// readStatus parses the supervisor's "exit N" / "signal N" line; false
// when the supervisor ended without one.
func readStatus(f *os.File) (*int, bool) {
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return nil, false
	}
	kind, num, _ := strings.Cut(strings.TrimSpace(line), " ")
	n, err := strconv.Atoi(num)
	if err != nil {
		return nil, false
	}
	if kind == "exit" {
		return &n, true
	}
	return nil, true
}
