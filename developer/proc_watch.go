package developer

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

// markerEnv is set on every shell to a value unique to the run, so its
// descendants can be found in /proc even after they left its process group
// and session (Linux).
const markerEnv = "GOOSE_ACP_SHELL_RUN"

var runSeq atomic.Int64

// running holds every spawned shell (or supervisor) until it is reaped,
// including supervisors kept alive by background descendants after their
// call returned.
var running sync.Map // *procWatch → struct{}

// stopAllShells SIGTERMs every spawned shell or supervisor still running
// (a supervisor then ends its whole tree) and waits up to limit for them.
func stopAllShells(limit time.Duration) {
	deadline := time.After(limit)
	running.Range(func(k, _ any) bool {
		w := k.(*procWatch)
		_ = w.cmd.Process.Signal(stopSignal)
		select {
		case <-w.waited:
			return true
		case <-deadline:
			return false
		}
	})
}

// procWatch follows one spawned shell. With a Linux supervisor the spawned
// process is the supervisor, which reports the shell's end on status and
// stays alive while background descendants run.
type procWatch struct {
	cmd             *exec.Cmd
	marker          string
	status          *os.File
	closeAfterStart []*os.File
	// waited is closed once the spawned process has been waited for.
	waited chan struct{}
	job    jobHandle
}

// newProcWatch marks the command's environment and lets the platform wrap
// it (a supervisor on Linux).
func newProcWatch(cmd *exec.Cmd) (*procWatch, error) {
	w := &procWatch{cmd: cmd, waited: make(chan struct{})}
	w.marker = fmt.Sprintf("%d.%d", os.Getpid(), runSeq.Add(1))
	cmd.Env = append(cmd.Env, markerEnv+"="+w.marker)
	if err := wrapCmd(w); err != nil {
		return nil, err
	}
	return w, nil
}

// abort releases what newProcWatch opened when the start never happens.
func (w *procWatch) abort() {
	for _, f := range w.closeAfterStart {
		f.Close()
	}
	if w.status != nil {
		w.status.Close()
	}
}

// launch runs start (which calls cmd.Start) on a goroutine that holds its
// OS thread until the child has been waited for: a parent-death signal
// fires when the creating thread exits, and Go ends threads whose locked
// goroutine exits, so the child must be created on a thread that outlives
// it.
func (w *procWatch) launch(start func() error) error {
	errc := make(chan error, 1)
	go func() {
		lockThread()
		defer unlockThread()
		err := start()
		if err != nil {
			w.abort()
			errc <- err
			return
		}
		for _, f := range w.closeAfterStart {
			f.Close()
		}
		afterStart(w)
		running.Store(w, struct{}{})
		defer running.Delete(w)
		errc <- nil
		_ = w.cmd.Wait()
		close(w.waited)
	}()
	return <-errc
}

// wait returns when the shell has ended, with its exit code (nil when a
// signal ended it).
func (w *procWatch) wait() *int {
	if w.status != nil {
		code, ok := readStatus(w.status)
		w.status.Close()
		if ok {
			return code
		}
	}
	<-w.waited
	if w.cmd.ProcessState == nil {
		return nil
	}
	code := w.cmd.ProcessState.ExitCode()
	if code < 0 {
		return nil
	}
	return &code
}

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
