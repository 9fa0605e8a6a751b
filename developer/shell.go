package developer

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// liveOutputCap bounds the bytes streamed as notifications per call; the
// final result is unaffected.
const liveOutputCap = 256 << 10

type shellArgs struct {
	Command     string  `json:"command"`
	TimeoutSecs *uint64 `json:"timeout_secs"`
}

// shellTimeout is timeout_secs when given (0 = none), else the default.
func (s *service) shellTimeout(a shellArgs) time.Duration {
	if a.TimeoutSecs != nil {
		return time.Duration(*a.TimeoutSecs) * time.Second
	}
	return s.opts.ShellTimeout
}

// execLocal runs a command locally with goose's non-interactive setup,
// streaming each line as an MCP log notification and an Emitter event.
func (s *service) execLocal(ctx context.Context, cc callContext, command string, timeout time.Duration) (*shellrun.Result, error) {
	spec := shellrun.Select(runtime.GOOS, s.getenv, exec.LookPath)
	if err := spec.CheckCommand(command); err != nil {
		return nil, err
	}
	overrides := shellrun.EnvOverrides(runtime.GOOS, cc.sessionID, s.opts.BashEnvFile, spec)
	if s.opts.LoginShellPath {
		if p := s.loginPath(spec); p != "" {
			overrides["PATH"] = p
		}
	}
	dir := cc.workingDir
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = "" // goose only sets current_dir for a usable directory
	}
	streamed := 0
	req := shellrun.Request{
		Spec: spec, Command: command, Dir: dir, PTY: s.opts.PTY, Timeout: timeout,
		Env: shellrun.MergeEnv(os.Environ(), overrides, runtime.GOOS),
		OnLine: func(stream, line string) {
			if streamed >= liveOutputCap {
				return
			}
			streamed += len(line)
			s.streamLine(ctx, cc, stream, line)
		},
	}
	s.stats.Started.Add(1)
	s.log.Info("shell start", "command", command, "dir", dir, "shell", spec.Path, "tool_call_id", cc.toolCallID)
	res, err := s.runLocal(ctx, req)
	if err != nil {
		s.stats.SpawnErrors.Add(1)
		s.log.Error("shell spawn failed", "command", command, "shell", spec.Path, "err", err)
		return nil, err
	}
	s.stats.record(res)
	s.logCompletion(command, res)
	return res, nil
}

func (s *service) logCompletion(command string, res *shellrun.Result) {
	attrs := []any{"command", command, "duration", res.Duration, "bytes", res.Combined.Bytes()}
	switch {
	case res.Cancelled:
		s.log.Info("shell cancelled", attrs...)
	case res.TimedOut:
		s.log.Info("shell timed out", attrs...)
	default:
		code := -1
		if res.ExitCode != nil {
			code = *res.ExitCode
		}
		s.log.Info("shell completed", append(attrs, "exit_code", code)...)
	}
}

// streamLine sends goose's shell_output logging notification (trimmed,
// blank lines skipped) and the Emitter event. Failures are ignored: a
// broken notification channel must never break the command.
func (s *service) streamLine(ctx context.Context, cc callContext, stream, line string) {
	s.emit(ctx, cc, Event{Kind: "shell_output", Stream: stream, Output: line})
	trimmed := strings.TrimSpace(line)
	if trimmed == "" || cc.peer == nil {
		return
	}
	_ = cc.peer.Log(ctx, &mcp.LoggingMessageParams{
		Level:  "info",
		Logger: "shell_tool",
		Data:   map[string]any{"type": "shell_output", "stream": stream, "output": trimmed},
	})
}

// shellMeta is the result _meta describing how the command ended.
func shellMeta(res *shellrun.Result) ShellMeta {
	return ShellMeta{ExitCode: res.ExitCode, TimedOut: res.TimedOut, Cancelled: res.Cancelled}
}

var errCancelled = errors.New("Shell command was cancelled by user")
