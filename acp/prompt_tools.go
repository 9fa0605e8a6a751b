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

// startedFirst marks a call in_progress on the tool's own goroutine when
// the tool reports that it starts, before the tool's first request to the
// editor (fs/*, terminal/*): the event stream delivers the same report
// from the turn's goroutine, which may come after those requests (the
// emitter then finds the mark sent). Other reports go the stream's way
// only.
type startedFirst struct {
	p         *promptAPI
	sessionID string
	next      developer.Emitter
}

func (s startedFirst) Emit(ctx context.Context, ev developer.Event) {
	if ev.Kind == extension.ProgressStarted && ev.ToolCallID != "" {
		if as, err := s.p.loaded.lookup(s.sessionID); err == nil {
			s.p.markInProgress(ctx, as, ev.ToolCallID)
		}
	}
	s.next.Emit(ctx, ev)
}
