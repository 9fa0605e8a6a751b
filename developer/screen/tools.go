//go:build darwin || windows

package screen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// runTool runs one of the OS's screen tools and returns its stdout. Values
// reach scripts through env, never by splicing them into script text.
func runTool(ctx context.Context, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return nil, &goError{fmt.Sprintf("%s is not available: %v", name, err), ErrNoDisplay}
	case err != nil:
		return nil, fmt.Errorf("%s: %w: %s", name, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// captureToFile lets run write a PNG to a temporary path and returns it.
func captureToFile(run func(path string) error) ([]byte, error) {
	dir, err := os.MkdirTemp("", "goose-screen-")
	if err != nil {
		return nil, fmt.Errorf("create temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "capture.png")
	if err := run(path); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read capture: %w", err)
	}
	return b, nil
}
