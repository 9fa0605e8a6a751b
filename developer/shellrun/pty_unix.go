//go:build !windows

package shellrun

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
	"github.com/goose-acp/goose-acp/internal/proctree"
)

// startPTY runs the command on a pseudo-terminal for programs that need a
// TTY. pty.Start makes the child (the supervisor on Linux) a session leader
// (pgid = pid), so Kill reaches its descendants; output is one "stdout" stream with CRLF turned
// into LF and ANSI escapes stripped.
func startPTY(req Request) (*startedProc, error) {
	cmd := exec.Command(req.Spec.Path, req.Spec.CommandArgs(req.Command)...)
	cmd.Dir = req.Dir
	cmd.Env = req.Env
	w, err := proctree.Prepare(cmd)
	if err != nil {
		return nil, err
	}
	var f *os.File
	if err := w.Launch(func() (err error) {
		f, err = pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
		return err
	}); err != nil {
		return nil, err
	}
	return &startedProc{
		cmd:     cmd,
		watch:   w,
		sources: map[string]io.ReadCloser{"stdout": eioAsEOF{f}},
		clean:   CleanTerminalText,
	}, nil
}

// eioAsEOF treats EIO, which Linux returns once the pty's child side is
// gone, as the end of output.
type eioAsEOF struct{ f *os.File }

func (r eioAsEOF) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if errors.Is(err, syscall.EIO) {
		return n, io.EOF
	}
	return n, err
}

func (r eioAsEOF) Close() error { return r.f.Close() }
