package plugins

import (
	"bytes"
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

// maxHookOutput bounds what is kept of a hook's stdout and stderr each.
const maxHookOutput = 1 << 20

// pipeFits is a payload size every OS's pipe buffer holds without a
// reader (macOS starts at 16 KiB, Linux at 64 KiB).
const pipeFits = 16 << 10

// run is one finished hook command.
type run struct {
	// code is the exit status, nil when a signal ended the command.
	code           *int
	stdout, stderr []byte
	stdinDelivered bool
}

// errTimedOut marks a hook ended by its timeout.
var errTimedOut = errors.New("timed out")

// runCommand runs command with sh -c in dir, ${PLUGIN_ROOT} replaced and
// PLUGIN_ROOT set, payload on stdin, under proctree: the timeout or ctx's
// end kills its whole process tree. An error means the command did not run
// to an exit (spawn failure, timeout, cancellation).
func runCommand(ctx context.Context, command, root, dir string, env []string, payload []byte, timeout time.Duration) (run, error) {
	expanded := command
	if root != "" {
		expanded = strings.ReplaceAll(command, "${PLUGIN_ROOT}", root)
	}
	cmd := exec.Command("sh", "-c", expanded)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if root != "" {
		cmd.Env = append(cmd.Env, "PLUGIN_ROOT="+root)
	}
	proctree.OwnGroup(cmd)
	p, err := proctree.Prepare(cmd)
	if err != nil {
		return run{}, fmt.Errorf("spawning hook `%s`: %w", expanded, err)
	}
	var pipes [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	for i := 0; i < 6; i += 2 {
		if pipes[i], pipes[i+1], err = os.Pipe(); err != nil {
			for _, f := range pipes[:i] {
				f.Close()
			}
			p.Abort()
			return run{}, err
		}
	}
	inR, inW, outR, outW, errR, errW := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4], pipes[5]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	p.CloseAfterStart(inR, outW, errW)
	// A payload that fits any pipe's buffer is in the pipe before the
	// command starts, so a hook that exits without reading it still
	// received it; a larger one is written while the hook reads.
	delivered := make(chan bool, 1)
	write := func() {
		_, werr := inW.Write(payload)
		cerr := inW.Close()
		delivered <- werr == nil && cerr == nil
	}
	if len(payload) <= pipeFits {
		write()
	} else {
		go write()
	}
	if err := p.Launch(cmd.Start); err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		<-delivered
		return run{}, fmt.Errorf("spawning hook `%s`: %w", expanded, err)
	}
	defer p.Release()
	var stdout, stderr boundedBuffer
	var readers sync.WaitGroup
	for _, r := range []struct {
		f *os.File
		b *boundedBuffer
	}{{outR, &stdout}, {errR, &stderr}} {
		readers.Add(1)
		go func() {
			defer readers.Done()
			_, _ = io.Copy(r.b, r.f)
			r.f.Close()
		}()
	}
	// Done when the command exited and its output reached EOF (as goose's
	// wait_with_output: a background child holding stdout holds the hook).
	finished := make(chan struct{})
	var code *int
	go func() {
		code = p.Wait()
		readers.Wait()
		close(finished)
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	var runErr error
	select {
	case <-finished:
	case <-t.C:
		runErr = fmt.Errorf("hook `%s` %w after %s", expanded, errTimedOut, timeout)
	case <-ctx.Done():
		runErr = fmt.Errorf("hook `%s`: %w", expanded, context.Cause(ctx))
	}
	if runErr != nil {
		p.Kill(p.Waited())
		outR.Close()
		errR.Close()
		<-finished
		inW.Close()
		<-delivered
		return run{}, runErr
	}
	return run{code: code, stdout: stdout.Bytes(), stderr: stderr.Bytes(), stdinDelivered: <-delivered}, nil
}

// boundedBuffer keeps the first maxHookOutput bytes written to it.
type boundedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxHookOutput - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}

func (b *boundedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

var _ io.Writer = (*boundedBuffer)(nil)
