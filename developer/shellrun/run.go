package shellrun

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

// KillGrace is the SIGTERM → SIGKILL delay on cancel or timeout.
const KillGrace = proctree.KillGrace

// ErrSpawn marks a shell that could not be started.
var ErrSpawn = errors.New("failed to spawn shell command")

// Request is one local shell execution.
type Request struct {
	Spec    Spec
	Command string
	Dir     string
	Env     []string
	PTY     bool
	Timeout time.Duration
	// onLine receives each output segment (a line with its "\n", or the
	// final partial line) in arrival order.
	OnLine func(stream, line string)
}

// Result is what a run produced. exitCode is nil when the process was
// ended by a signal (cancel, timeout).
type Result struct {
	Combined, Stdout, Stderr Buffer
	ExitCode                 *int
	TimedOut, Cancelled      bool
	DrainTimedOut            bool
	Duration                 time.Duration
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

// Run spawns the command (under a pty when req.PTY) and supervises it to
// completion, cancel or timeout. track, when set, is told of the process
// while it runs (it returns the function that forgets it).
func Run(ctx context.Context, req Request, track func(*exec.Cmd) (forget func())) (*Result, error) {
	start := time.Now()
	var (
		sp  *startedProc
		err error
	)
	if req.PTY {
		sp, err = startPTY(req)
	} else {
		sp, err = startPipes(req)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSpawn, err)
	}
	if track != nil {
		defer track(sp.cmd)()
	}
	defer sp.watch.Release()
	res := supervise(ctx, req, sp)
	res.Duration = time.Since(start)
	return res, nil
}

func startPipes(req Request) (*startedProc, error) {
	cmd := exec.Command(req.Spec.Path, req.Spec.CommandArgs(req.Command)...)
	cmd.Dir = req.Dir
	cmd.Env = req.Env
	prepareCmd(cmd, req.Spec, req.Command)
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
func supervise(ctx context.Context, req Request, sp *startedProc) *Result {
	res := &Result{}
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
			res.Combined.WriteString(m.text)
			if m.stream == "stderr" {
				res.Stderr.WriteString(m.text)
			} else {
				res.Stdout.WriteString(m.text)
			}
			if req.OnLine != nil {
				req.OnLine(m.stream, m.text)
			}
		}
	}()
	exited := make(chan struct{})
	var code *int
	go func() { code = sp.watch.Wait(); close(exited) }()

	var timeout <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-exited:
	case <-ctx.Done():
		res.Cancelled = true
		sp.watch.Kill(exited)
	case <-timeout:
		res.TimedOut = true
		sp.watch.Kill(exited)
	}
	<-exited
	select {
	case <-collected:
	case <-time.After(drainTimeout):
		res.DrainTimedOut = true
		for _, r := range sp.sources {
			r.Close()
		}
		<-collected
	}
	for _, r := range sp.sources {
		r.Close()
	}
	if !res.Cancelled && !res.TimedOut {
		res.ExitCode = code
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
