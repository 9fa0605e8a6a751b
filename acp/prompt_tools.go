package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/developer"
)

// builtins returns the developer server factory bound to this editor: its
// fs and terminal when it offers them (local disk and processes
// otherwise), and its progress handed to the agent (which reports it as
// agent.ToolProgressEvent, turned into tool_call_updates by emitter).
//
// roots are the session's additionalDirectories: with any, absolute paths
// are confined to the working dir and those roots (ACP's effective roots).
func (p *promptAPI) builtins(roots []string) map[string]extension.BuiltinFactory {
	c := p.caps()
	return map[string]extension.BuiltinFactory{
		"developer": func(_ context.Context, env extension.Env) (extension.Server, error) {
			opts := developer.Options{
				Surface:      developer.Editor,
				ReadTool:     c.FS.ReadTextFile, // goose offers read only to clients that read files
				WorkingDir:   env.WorkingDir,
				AllowedRoots: roots,
				Logger:       env.Logger,
				Config:       env.Config,
				Emitter:      startedFirst{p: p, sessionID: env.SessionID, next: developerProgress(env.Progress)},
				// Checkpoints (core) wrap the editor's fs so /rewind
				// restores delegated writes through the editor too.
				FileIO: env.Checkpoints.Wrap(&fileIO{
					peer: p.peer, sessionID: env.SessionID, local: p.local,
					canRead: c.FS.ReadTextFile, canWrite: c.FS.WriteTextFile,
					policy: p.sessionPolicy(env.SessionID, env.WorkingDir, roots),
				}),
			}
			if c.Terminal {
				opts.Terminal = &terminal{peer: p.peer, sessionID: env.SessionID, loaded: p.loaded}
			}
			return extension.Direct(developer.NewDirect(opts)), nil
		},
	}
}

// wantsTerminalOutput reports Zed's _meta.terminal_output capability.
func (p *promptAPI) wantsTerminalOutput() bool {
	v, _ := p.caps().Meta["terminal_output"].(bool)
	return v
}

// startedFirst acts on the tool's own goroutine where the event stream,
// which delivers every report from the turn's goroutine, may come too
// late: it marks a call in_progress when the tool reports that it starts,
// before the tool's first request to the editor (fs/*, terminal/*; the
// emitter then finds the mark sent), and records which call a delegated
// terminal belongs to, before the tool can release it (a release of an
// unknown terminal is sent at once, ahead of the call's final update).
// Everything then goes the stream's way too.
type startedFirst struct {
	p         *promptAPI
	sessionID string
	next      developer.Emitter
}

func (s startedFirst) Emit(ctx context.Context, ev developer.Event) {
	if ev.ToolCallID != "" && (ev.Kind == extension.ProgressStarted || ev.Kind == extension.ProgressTerminal) {
		if as, err := s.p.loaded.lookup(s.sessionID); err == nil {
			if ev.Kind == extension.ProgressStarted {
				s.p.markInProgress(ctx, as, ev.ToolCallID)
			} else {
				as.term.track(ev.TerminalID, ev.ToolCallID)
			}
		}
	}
	s.next.Emit(ctx, ev)
}
