package recipe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"time"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Goose's retry defaults and the environment keys that override them.
const (
	DefaultRetryTimeout     = 300 * time.Second
	DefaultOnFailureTimeout = 600 * time.Second
	RetryTimeoutEnv         = "GOOSE_RECIPE_RETRY_TIMEOUT_SECONDS"
	OnFailureTimeoutEnv     = "GOOSE_RECIPE_ON_FAILURE_TIMEOUT_SECONDS"
	maxStderrTail           = 8 * 1024
)

// ErrCommandTimeout marks a check or on_failure command that ran too long.
var ErrCommandTimeout = errkind.New(errkind.Timeout, "shell command timed out")

// MaxRetriesMessage is the assistant text goose adds when retries run out.
func MaxRetriesMessage(maxRetries int) string {
	return fmt.Sprintf("Maximum retry attempts (%d) exceeded. Unable to complete the task successfully.", maxRetries)
}

// CheckTimeout is timeout_seconds, else $GOOSE_RECIPE_RETRY_TIMEOUT_SECONDS,
// else 300 s.
func (r RetryConfig) CheckTimeout(getenv func(string) string) time.Duration {
	return pickTimeout(r.TimeoutSeconds, getenv, RetryTimeoutEnv, DefaultRetryTimeout)
}

// OnFailureTimeout is on_failure_timeout_seconds, else
// $GOOSE_RECIPE_ON_FAILURE_TIMEOUT_SECONDS, else 600 s.
func (r RetryConfig) OnFailureTimeout(getenv func(string) string) time.Duration {
	return pickTimeout(r.OnFailureTimeoutSeconds, getenv, OnFailureTimeoutEnv, DefaultOnFailureTimeout)
}

func pickTimeout(own *int64, getenv func(string) string, key string, def time.Duration) time.Duration {
	if own != nil && *own > 0 {
		return time.Duration(*own) * time.Second
	}
	if getenv != nil {
		if n, err := strconv.ParseInt(getenv(key), 10, 64); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return def
}

// RunChecks runs the success checks in order and reports whether all
// passed; it stops at the first failure. An error means a check could not
// run or timed out.
func RunChecks(ctx context.Context, r RetryConfig, getenv func(string) string) (bool, error) {
	timeout := r.CheckTimeout(getenv)
	for _, c := range r.Checks {
		res, err := runShell(ctx, c.Command, timeout)
		if err != nil {
			return false, err
		}
		if res.exitCode != 0 {
			return false, nil
		}
	}
	return true, nil
}

// RunOnFailure runs the on_failure command, if any, with goose's texts for
// timeouts and failures.
func RunOnFailure(ctx context.Context, r RetryConfig, getenv func(string) string) error {
	if r.OnFailure == nil || *r.OnFailure == "" {
		return nil
	}
	timeout := r.OnFailureTimeout(getenv)
	res, err := runShell(ctx, *r.OnFailure, timeout)
	if errors.Is(err, ErrCommandTimeout) {
		return fmt.Errorf("On_failure command timed out after %s: %s: %w", rustDuration(timeout), *r.OnFailure, ErrCommandTimeout)
	}
	if err != nil {
		return err
	}
	if res.exitCode != 0 {
		return fmt.Errorf("On_failure command failed: command '%s' exited with status exit status: %d, stderr: %s", *r.OnFailure, res.exitCode, res.stderr)
	}
	return nil
}

type shellResult struct {
	exitCode int
	stderr   string
}

// runShell runs command with sh -c (cmd /C on Windows), GOOSE_TERMINAL=1
// and AGENT=goose, stdout discarded and the last 8 KiB of stderr kept.
func runShell(ctx context.Context, command string, timeout time.Duration) (shellResult, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(ctx, "cmd", "/C", command)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
	}
	cmd.Env = append(os.Environ(), "GOOSE_TERMINAL=1", "AGENT=goose")
	tail := &tailBuffer{max: maxStderrTail}
	cmd.Stderr = tail
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return shellResult{}, fmt.Errorf("Shell command timed out after %s: %s: %w", rustDuration(timeout), command, ErrCommandTimeout)
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return shellResult{exitCode: exitErr.ExitCode(), stderr: tail.String()}, nil
	case err != nil:
		return shellResult{}, fmt.Errorf("run %q: %w", command, err)
	}
	return shellResult{stderr: tail.String()}, nil
}

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.buf.Reset()
		t.buf.Write(p[len(p)-t.max:])
		return n, nil
	}
	if over := t.buf.Len() + len(p) - t.max; over > 0 {
		t.buf.Next(over)
	}
	t.buf.Write(p)
	return n, nil
}

func (t *tailBuffer) String() string { return t.buf.String() }

// rustDuration formats like Rust's Duration Debug for whole units.
func rustDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%dms", d/time.Millisecond)
}
