//go:build windows

package shellrun

import "errors"

// ErrPTYUnsupported is returned when PTY mode is requested on Windows.
var ErrPTYUnsupported = errors.New("pty mode is not supported on Windows; disable Options.PTY to run commands on pipes")

func startPTY(Request) (*startedProc, error) { return nil, ErrPTYUnsupported }
