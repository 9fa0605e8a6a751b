package pykernel

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/internal/proctree"
)

// pythonDriver is the script every kernel runs: JSON lines on stdin and on
// a private copy of stdout (see its docstring).
//
//go:embed python_driver.py
var pythonDriver string

// goose's kernel timings.
const (
	pyReadyTimeout   = 15 * time.Second
	pyInterruptGrace = 5 * time.Second
	pyStderrTail     = 4096
	// pyMaxLine bounds one protocol line; the driver caps each text field
	// at the output limit, so only a broken driver comes near it.
	pyMaxLine = 16 << 20
)

// Response is one driver reply.
type Response struct {
	ID         int64   `json:"id"`
	OK         bool    `json:"ok"`
	Stdout     string  `json:"stdout"`
	Stderr     string  `json:"stderr"`
	Value      *string `json:"value"`
	Error      *string `json:"error"`
	DurationMS *int64  `json:"duration_ms"`
	NS         string  `json:"ns"`
	PID        int     `json:"pid"`
	Images     []Image `json:"images"`
	ImagesOver int     `json:"images_dropped"`
	// Restored and Dropped (ready reply): the snapshot's variables that
	// came back, and those that could not.
	Restored []string `json:"restored"`
	Dropped  []string `json:"dropped"`
}

// Crop is a view_image() crop box.
type Crop struct {
	X, Y          int
	Width, Height int
}

// Image is a view_image() request the host loads after the cell.
type Image struct {
	Source string `json:"source"`
	Crop   *Crop  `json:"crop,omitempty"`
}

// Outcome is what one cell produced.
type Outcome struct {
	Resp        Response
	Interrupted bool
}

// Kernel is one live driver process. Its exec/ns/chdir calls are made
// under the session slot's lock, one at a time.
type Kernel struct {
	cmd     *exec.Cmd
	watch   *proctree.Proc
	stdin   io.WriteCloser
	lines   chan []byte // protocol lines; closed when stdout ends
	nextID  int64
	pid     int // the interpreter's own pid (the spawned one may be a supervisor)
	tmpDir  string
	tailMu  sync.Mutex
	tail    []byte
	stopped sync.Once
	// restoreNotice is goose's report of a snapshot restore ("" if none).
	restoreNotice string
}

// Spec is how to start one. statePath, when set, is the snapshot
// file the driver restores from at start and rewrites after every cell.
type Spec struct {
	Python    string
	Dir       string
	Env       []string
	StatePath string
}

// Start runs the driver under the shell's process machinery (its
// own process group; on Linux a supervisor with a parent-death signal), so
// the interpreter and anything sh() starts die with the agent.
func Start(spec Spec) (*Kernel, error) {
	// The driver sits alone in a private directory: the interpreter puts the
	// script's directory first on sys.path before the driver resets it.
	tmp, err := os.MkdirTemp("", "goose-python-session-")
	if err != nil {
		return nil, fmt.Errorf("failed to create the python session driver directory: %w", err)
	}
	script := filepath.Join(tmp, "goose_python_session_driver.py")
	if err := os.WriteFile(script, []byte(pythonDriver), 0o600); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("failed to create the python session driver directory: %w", err)
	}
	k, err := launchKernel(spec, script)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("failed to start the python session with `%s`: %w", spec.Python, err)
	}
	k.tmpDir = tmp
	ready, err := k.await(context.Background(), 0, pyReadyTimeout)
	switch {
	case errors.Is(err, errPyTimeout):
		k.Kill()
		return nil, errors.New("the python session did not become ready within 15s")
	case err != nil:
		k.Kill()
		return nil, errors.New(k.deathText("during startup"))
	case !ready.OK:
		k.Kill()
		msg := ""
		if ready.Error != nil {
			msg = *ready.Error
		}
		return nil, fmt.Errorf("the python session failed to start: %s", msg)
	}
	k.pid = ready.PID
	k.restoreNotice = restoreNotice(ready.Restored, ready.Dropped)
	return k, nil
}

// RestoreNotice is goose's report of the snapshot the kernel restored at
// its start ("" if none).
func (k *Kernel) RestoreNotice() string { return k.restoreNotice }

// restoreNotice is goose's text for a kernel that restored a snapshot.
func restoreNotice(restored, dropped []string) string {
	if len(restored) == 0 && len(dropped) == 0 {
		return ""
	}
	n := "[python session restored from a previous process"
	if len(restored) > 0 {
		n += "; available again: " + strings.Join(restored, ", ")
	}
	if len(dropped) > 0 {
		n += "; not restored (too large, not picklable, or no longer importable): " + strings.Join(dropped, ", ")
	}
	return n + "]"
}

func launchKernel(spec Spec, script string) (*Kernel, error) {
	cmd := exec.Command(spec.Python, script)
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	if spec.StatePath != "" {
		cmd.Env = append(cmd.Env, "GOOSE_PYTHON_SESSION_STATE_PATH="+spec.StatePath)
	}
	preparePythonCmd(cmd)
	w, err := proctree.Prepare(cmd)
	if err != nil {
		return nil, err
	}
	pipes := make([]*os.File, 0, 6)
	for range 3 {
		r, wr, err := os.Pipe()
		if err != nil {
			for _, f := range pipes {
				f.Close()
			}
			w.Abort()
			return nil, err
		}
		pipes = append(pipes, r, wr)
	}
	inR, inW, outR, outW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	w.CloseAfterStart(inR, outW, errW)
	if err := w.Launch(cmd.Start); err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	k := &Kernel{cmd: cmd, watch: w, stdin: inW, lines: make(chan []byte, 4), nextID: 1}
	go k.readLines(outR)
	go k.readTail(errR)
	return k, nil
}

// readLines passes protocol lines on; an over-long line ends the stream
// (the kernel is then treated as dead).
func (k *Kernel) readLines(r io.ReadCloser) {
	defer close(k.lines)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		var line []byte
		for {
			seg, err := br.ReadSlice('\n')
			line = append(line, seg...)
			if len(line) > pyMaxLine {
				return
			}
			if err == nil {
				break
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				return
			}
		}
		k.lines <- line
	}
}

// readTail keeps the last pyStderrTail bytes of the driver's stderr for
// death reports.
func (k *Kernel) readTail(r io.ReadCloser) {
	defer r.Close()
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			k.tailMu.Lock()
			k.tail = append(k.tail, buf[:n]...)
			if len(k.tail) > pyStderrTail {
				k.tail = append([]byte(nil), k.tail[len(k.tail)-pyStderrTail:]...)
			}
			k.tailMu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

var (
	errPyTimeout = errors.New("python session timeout")
	errPyDead    = errors.New("python session died")
)

// request sends one op and returns its id.
func (k *Kernel) request(body map[string]any) (int64, error) {
	id := k.nextID
	k.nextID++
	body["id"] = id
	line, err := json.Marshal(body)
	if err != nil {
		return 0, fmt.Errorf("encode python session request: %w", err)
	}
	if _, err := k.stdin.Write(append(line, '\n')); err != nil {
		return 0, fmt.Errorf("%w: %w", errPyDead, err)
	}
	return id, nil
}

// await returns the reply to id, skipping stale replies (an interrupted
// cell's late answer) and stray lines; errPyTimeout after limit or when
// ctx ends, errPyDead when the driver's stdout closes.
func (k *Kernel) await(ctx context.Context, id int64, limit time.Duration) (Response, error) {
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		select {
		case line, ok := <-k.lines:
			if !ok {
				return Response{}, errPyDead
			}
			var r Response
			if json.Unmarshal(line, &r) == nil && r.ID == id {
				return r, nil
			}
		case <-t.C:
			return Response{}, errPyTimeout
		case <-ctx.Done():
			return Response{}, errPyTimeout
		}
	}
}

// exec runs one cell. On timeout or cancellation the cell is interrupted
// (KeyboardInterrupt) and given pyInterruptGrace to answer.
func (k *Kernel) Exec(ctx context.Context, code string, timeout time.Duration) (Outcome, error) {
	id, err := k.request(map[string]any{"op": "exec", "code": code})
	if err != nil {
		return Outcome{}, errors.New(k.deathText("while sending a request"))
	}
	r, err := k.await(ctx, id, timeout)
	interrupted := false
	if errors.Is(err, errPyTimeout) {
		interrupted = true
		if !k.interrupt() {
			return Outcome{}, errors.New("cell interrupt is not supported on this platform; the session was stopped")
		}
		r, err = k.await(context.Background(), id, pyInterruptGrace)
		if errors.Is(err, errPyTimeout) {
			return Outcome{}, fmt.Errorf("cell did not stop within %ds of interrupt", int(pyInterruptGrace/time.Second))
		}
	}
	if err != nil {
		return Outcome{}, errors.New(k.deathText("while executing a cell"))
	}
	return Outcome{Resp: r, Interrupted: interrupted}, nil
}

// simple runs a non-cell op (ns, chdir) with a short limit.
func (k *Kernel) Simple(body map[string]any, limit time.Duration) (Response, error) {
	id, err := k.request(body)
	if err != nil {
		return Response{}, err
	}
	return k.await(context.Background(), id, limit)
}

// deathText is goose's report of a driver that went away.
func (k *Kernel) deathText(when string) string {
	k.tailMu.Lock()
	tail := strings.TrimRight(strings.ToValidUTF8(string(k.tail), "\uFFFD"), " \t\r\n")
	k.tailMu.Unlock()
	if tail == "" {
		return "the python session died " + when
	}
	return "the python session died " + when + "; stderr tail:\n" + tail
}

// Kill ends the driver and everything it started (its stdin first, so an
// idle driver exits on its own), then removes its script directory. It
// waits for the process to be reaped.
func (k *Kernel) Kill() {
	k.stopped.Do(func() {
		k.stdin.Close()
		k.watch.Kill(k.watch.Waited())
		<-k.watch.Waited()
		// Let the reader finish; a descendant still holding stdout (none
		// should survive Kill) must not hang the caller.
		deadline := time.After(2 * time.Second)
	drain:
		for {
			select {
			case _, ok := <-k.lines:
				if !ok {
					break drain
				}
			case <-deadline:
				break drain
			}
		}
		if k.tmpDir != "" {
			os.RemoveAll(k.tmpDir)
		}
	})
}
