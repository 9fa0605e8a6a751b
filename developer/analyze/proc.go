package analyze

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// stderrLimit bounds what is kept of a helper's stderr for an error.
const stderrLimit = 4 << 10

// proc is one running goose-acp-analyze. Its stdin, stdout and stderr are
// files (two pipes and an unlinked temporary file), so os/exec runs no
// goroutine for it: an idle helper costs the agent nothing but its pid.
type proc struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdoutF *os.File
	stdout  *bufio.Reader
	// stderr collects what the helper writes there during a call (nil
	// when no temporary file could be made: then it goes to the null
	// device). It is emptied after each answer.
	stderr *os.File
	// After end: how the helper exited and the end of its stderr.
	ended   bool
	waitErr error
	tail    string
}

var (
	// errNotSent: the request could not be written, the helper is gone.
	errNotSent = errors.New("it was not running")
	// errDied: the helper closed its stdout before answering.
	errDied = errors.New("it ended without answering")
	// errNotOneAnswer: the helper wrote something other than an answer.
	errNotOneAnswer = errors.New("its output is not one answer")
)

// start starts a helper waiting for requests.
func start(helper string) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(helper)
	cmd.Stdin, cmd.Stdout = inR, outW
	stderr, _ := os.CreateTemp("", "goose-acp-analyze-*.stderr")
	if stderr != nil {
		// Gone from the directory at once where the OS allows it (not
		// windows: removed again when the helper ends).
		_ = os.Remove(stderr.Name())
		cmd.Stderr = stderr
	}
	release := dieWithParent(cmd)
	err = cmd.Start()
	release()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		closeStderr(stderr)
		return nil, err
	}
	return &proc{cmd: cmd, stdin: inW, stdoutF: outR, stdout: bufio.NewReader(outR), stderr: stderr}, nil
}

func closeStderr(f *os.File) {
	if f != nil {
		f.Close()
		_ = os.Remove(f.Name())
	}
}

func (pr *proc) kill() { _ = pr.cmd.Process.Kill() }

// exchange sends one request line and reads its answer. Cancelling ctx
// kills the helper (the error is then ctx's); errNotSent, errDied and
// errNotOneAnswer say the helper can serve no more.
func (pr *proc) exchange(ctx context.Context, line []byte) (Answer, error) {
	stop := context.AfterFunc(ctx, pr.kill)
	_, werr := pr.stdin.Write(line)
	var resp []byte
	var rerr error
	if werr == nil {
		resp, rerr = pr.stdout.ReadBytes('\n')
	}
	if !stop() {
		return Answer{}, fmt.Errorf("analyze: %w", ctx.Err())
	}
	switch {
	case werr != nil:
		return Answer{}, errNotSent
	case rerr != nil:
		return Answer{}, errDied
	}
	var a Answer
	if err := json.Unmarshal(resp, &a); err != nil {
		return Answer{}, fmt.Errorf("%w: %q", errNotOneAnswer, truncate(string(resp), 200))
	}
	pr.clearStderr()
	return a, nil
}

// clearStderr empties the stderr file after an answer, so it holds only
// the current call's.
func (pr *proc) clearStderr() {
	if pr.stderr == nil {
		return
	}
	if fi, err := pr.stderr.Stat(); err == nil && fi.Size() > 0 {
		// The helper's descriptor shares the file offset with ours.
		_ = pr.stderr.Truncate(0)
		_, _ = pr.stderr.Seek(0, io.SeekStart)
	}
}

// end kills the helper (if it still runs), reaps it, keeps how it exited
// and the end of its stderr, and closes its files.
func (pr *proc) end() {
	if pr.ended {
		return
	}
	pr.ended = true
	pr.stdin.Close()
	pr.kill()
	pr.waitErr = pr.cmd.Wait()
	pr.stdoutF.Close()
	if pr.stderr != nil {
		if fi, err := pr.stderr.Stat(); err == nil {
			off := max(0, fi.Size()-stderrLimit)
			b := make([]byte, fi.Size()-off)
			n, _ := pr.stderr.ReadAt(b, off)
			if s := strings.TrimSpace(string(b[:n])); s != "" {
				pr.tail = ": " + s
			}
		}
		closeStderr(pr.stderr)
	}
}

// failure is the error of a call whose helper stopped serving (err is
// errNotSent, errDied or errNotOneAnswer), after end.
func (pr *proc) failure(helper string, err error) error {
	if !errors.Is(err, errNotOneAnswer) && pr.waitErr != nil {
		err = pr.waitErr
	}
	return fmt.Errorf("analyze: %s failed: %w%s", helper, err, pr.tail)
}
