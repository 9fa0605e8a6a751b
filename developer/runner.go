package developer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/internal/proctree"
)

// drainTimeout is how long output may keep flowing after the shell exits
// (a backgrounded grandchild can hold the pipes open forever).
const drainTimeout = 500 * time.Millisecond

// killGrace is the SIGTERM → SIGKILL delay on cancel or timeout.
const killGrace = proctree.KillGrace

// ErrSpawn marks a shell that could not be started.
var ErrSpawn = errors.New("failed to spawn shell command")

// runRequest is one local shell execution.
type runRequest struct {
	spec    shellSpec
	command string
	dir     string
	env     []string
	pty     bool
	timeout time.Duration
	// onLine receives each output segment (a line with its "\n", or the
	// final partial line) in arrival order.
	onLine func(stream, line string)
}

// runResult is what a run produced. exitCode is nil when the process was
// ended by a signal (cancel, timeout).
type runResult struct {
	combined, stdout, stderr boundedBuffer
	exitCode                 *int
	timedOut, cancelled      bool
	drainTimedOut            bool
	duration                 time.Duration
}

type lineMsg struct{ stream, text string }

// startedProc is a spawned process and the readers carrying its output.
type startedProc struct {
	cmd     *exec.Cmd
	watch   *proctree.Proc
	sources map[string]io.ReadCloser
	// clean turns raw output into model text (ANSI stripping for pty).
	clean func(string) string
}

// runLocal spawns the command and supervises it to completion, cancel or
// timeout. The process is tracked in the table only while it runs.
func (s *service) runLocal(ctx context.Context, req runRequest) (*runResult, error) {
	start := time.Now()
	var (
		sp  *startedProc
		err error
	)
	if req.pty {
		sp, err = startPTY(req)
	} else {
		sp, err = startPipes(req)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSpawn, err)
	}
	id := s.procs.add(sp.cmd)
	defer s.procs.remove(id)
	defer sp.watch.Release()
	res := supervise(ctx, req, sp)
	res.duration = time.Since(start)
	return res, nil
}

func startPipes(req runRequest) (*startedProc, error) {
	cmd := exec.Command(req.spec.Path, req.spec.commandArgs(req.command)...)
	cmd.Dir = req.dir
	cmd.Env = req.env
	prepareCmd(cmd, req.spec, req.command)
	w, err := proctree.Prepare(cmd)
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		w.Abort()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		w.Abort()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	w.CloseAfterStart(outW, errW) // the child holds its own copies
	if err := w.Launch(cmd.Start); err != nil {
		outR.Close()
		errR.Close()
		return nil, err
	}
	return &startedProc{cmd: cmd, watch: w, sources: map[string]io.ReadCloser{"stdout": outR, "stderr": errR}, clean: func(s string) string { return s }}, nil
}

// supervise collects output in arrival order while waiting for exit,
// cancellation or timeout.
func supervise(ctx context.Context, req runRequest, sp *startedProc) *runResult {
	res := &runResult{}
	lines := make(chan lineMsg, 64)
	var readers sync.WaitGroup
	for stream, r := range sp.sources {
		readers.Add(1)
		go func() {
			defer readers.Done()
			readSegments(r, stream, sp.clean, lines)
		}()
	}
	go func() { readers.Wait(); close(lines) }()
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for m := range lines {
			res.combined.WriteString(m.text)
			if m.stream == "stderr" {
				res.stderr.WriteString(m.text)
			} else {
				res.stdout.WriteString(m.text)
			}
			if req.onLine != nil {
				req.onLine(m.stream, m.text)
			}
		}
	}()
	exited := make(chan struct{})
	var code *int
	go func() { code = sp.watch.Wait(); close(exited) }()

	var timeout <-chan time.Time
	if req.timeout > 0 {
		t := time.NewTimer(req.timeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-exited:
	case <-ctx.Done():
		res.cancelled = true
		sp.watch.Kill(exited)
	case <-timeout:
		res.timedOut = true
		sp.watch.Kill(exited)
	}
	<-exited
	select {
	case <-collected:
	case <-time.After(drainTimeout):
		res.drainTimedOut = true
		for _, r := range sp.sources {
			r.Close()
		}
		<-collected
	}
	for _, r := range sp.sources {
		r.Close()
	}
	if !res.cancelled && !res.timedOut {
		res.exitCode = code
	}
	return res
}

// readSegments splits a stream on "\n", keeping terminators, and replaces
// invalid UTF-8 (goose reads lossy). A line longer than the reader's buffer
// is passed on in buffer-sized pieces, so one endless line cannot grow
// memory without bound.
func readSegments(r io.Reader, stream string, clean func(string) string, out chan<- lineMsg) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		seg, err := br.ReadSlice('\n')
		if len(seg) > 0 {
			out <- lineMsg{stream: stream, text: clean(strings.ToValidUTF8(string(seg), "\uFFFD"))}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// processTable tracks running shell processes; entries exist only while a
// command runs, so repeated calls never accumulate state.
type processTable struct {
	mu   sync.Mutex
	next int64
	m    map[int64]*exec.Cmd
}

func newProcessTable() *processTable { return &processTable{m: map[int64]*exec.Cmd{}} }

func (t *processTable) add(c *exec.Cmd) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	t.m[t.next] = c
	return t.next
}

func (t *processTable) remove(id int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, id)
}

// Len is the number of shell processes currently running.
func (t *processTable) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
