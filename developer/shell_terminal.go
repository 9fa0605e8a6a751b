package developer

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// terminalOutputLimit is goose's outputByteLimit for delegated terminals.
const terminalOutputLimit = 50_000

// releaseTimeout bounds cleanup calls made after the call's ctx ended.
const releaseTimeout = 5 * time.Second

// shellViaTerminal runs the command in the delegated Terminal: create →
// wait (or timeout/cancel → kill) → output → release, always released.
// The result is goose's ACP shape: "exit code: N" then the output.
func (s *service) shellViaTerminal(ctx context.Context, cc callContext, a shellArgs) (*mcp.CallToolResult, error) {
	spec := shellrun.Select(runtime.GOOS, s.getenv, func(string) (string, error) { return "", fmt.Errorf("not probed") })
	env := shellrun.EnvOverrides(runtime.GOOS, cc.sessionID, "", spec)
	for k, v := range env {
		if v == "" {
			delete(env, k)
		}
	}
	s.stats.Started.Add(1)
	start := time.Now()
	id, err := s.opts.Terminal.Create(ctx, TerminalRequest{
		Command: a.Command, Env: env, Cwd: cc.workingDir, OutputByteLimit: terminalOutputLimit,
	})
	if err != nil {
		s.stats.SpawnErrors.Add(1)
		s.log.Error("terminal create failed", "command", a.Command, "err", err)
		return shellErrorResult(fmt.Sprintf("Failed to spawn shell command: %v", err)), nil
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
		defer cancel()
		if err := s.opts.Terminal.Release(rctx, id); err != nil {
			s.log.Warn("terminal release failed", "terminal_id", id, "err", err)
		}
	}()
	s.emit(ctx, cc, Event{Kind: "terminal", TerminalID: id})
	s.log.Info("shell start", "command", a.Command, "terminal_id", id, "tool_call_id", cc.toolCallID)

	res := &shellrun.Result{}
	status, err := s.waitTerminal(ctx, id, s.shellTimeout(a), res)
	if err != nil {
		return shellErrorResult(fmt.Sprintf("Failed waiting on shell command: %v", err)), nil
	}
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	out, err := s.opts.Terminal.Output(octx, id)
	if err != nil {
		return shellErrorResult(fmt.Sprintf("Failed to collect shell output: %v", err)), nil
	}
	res.ExitCode = status.ExitCode
	res.Duration = time.Since(start)
	s.stats.record(res)
	s.logCompletion(a.Command, res)
	return terminalResult(a, id, out.Output, res), nil
}

// waitTerminal waits for exit; a timeout or cancel kills the terminal.
func (s *service) waitTerminal(ctx context.Context, id string, timeout time.Duration, res *shellrun.Result) (ExitStatus, error) {
	wctx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	status, err := s.opts.Terminal.WaitForExit(wctx, id)
	if err == nil {
		return status, nil
	}
	if ctx.Err() == nil && wctx.Err() == nil {
		return ExitStatus{}, err
	}
	res.Cancelled = ctx.Err() != nil
	res.TimedOut = !res.Cancelled
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if kerr := s.opts.Terminal.Kill(kctx, id); kerr != nil {
		s.log.Warn("terminal kill failed", "terminal_id", id, "err", kerr)
	}
	return ExitStatus{}, nil
}

func terminalResult(a shellArgs, id, output string, res *shellrun.Result) *mcp.CallToolResult {
	code := "unknown"
	if res.ExitCode != nil {
		code = fmt.Sprint(*res.ExitCode)
	}
	if res.TimedOut && a.TimeoutSecs != nil {
		output += fmt.Sprintf("\n\nCommand timed out after %d seconds", *a.TimeoutSecs)
	} else if res.TimedOut {
		output += "\n\nCommand timed out"
	}
	if res.Cancelled {
		output += "\n\n" + errCancelled.Error()
	}
	isErr := res.ExitCode == nil || *res.ExitCode != 0
	out := &mcp.CallToolResult{Content: []mcp.Content{text("exit code: " + code), text(output)}, IsError: isErr}
	withMeta(out, MetaKeyTerminal, TerminalMeta{TerminalID: id})
	return withMeta(out, MetaKeyShell, shellMeta(res))
}
