//go:build !unix && !windows

package screen

import (
	"context"
	"runtime"
)

func unsupported() error {
	return &goError{"screen capture is not supported on " + runtime.GOOS, ErrNoDisplay}
}

func listWindows(context.Context) ([]string, error) { return nil, unsupported() }

func captureWindow(context.Context, string) ([]byte, error) {
	return nil, wrap("Failed to list windows", unsupported())
}

func captureDisplay(context.Context, int) ([]byte, error) {
	return nil, wrap("Failed to access monitors", unsupported())
}
