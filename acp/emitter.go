package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/developer"
)

// emitter turns developer tool progress into tool_call_updates while the
// tool runs: live shell output (Zed's _meta.terminal_* extension when the
// editor asks for it), delegated terminal ids, edit locations and diffs.
type emitter struct {
	s         *Server
	sessionID string
}

var _ developer.Emitter = (*emitter)(nil)

func (e *emitter) Emit(ctx context.Context, ev developer.Event) {
	if ev.ToolCallID == "" {
		return
	}
	u := SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: ev.ToolCallID}
	switch ev.Kind {
	case "shell_output":
		if !e.s.wantsTerminalOutput() {
			return
		}
		e.s.startTerminalDisplay(ctx, e.sessionID, ev.ToolCallID)
		u.Meta = Meta{"terminal_output": map[string]any{"terminal_id": ev.ToolCallID, "data": ev.Output}}
	case "terminal":
		if as, err := e.s.lookup(e.sessionID); err == nil {
			as.term.track(ev.TerminalID, ev.ToolCallID)
		}
		u.ToolContent = []ToolCallContent{{Type: "terminal", TerminalID: ev.TerminalID}}
	case "locations":
		for _, l := range ev.Lines {
			u.Locations = append(u.Locations, ToolCallLocation{Path: ev.Path, Line: row(l)})
		}
		if len(u.Locations) == 0 {
			u.Locations = []ToolCallLocation{{Path: ev.Path}}
		}
	case "diff":
		newText := ev.NewText
		u.ToolContent = []ToolCallContent{{Type: "diff", Path: ev.Path, OldText: ev.OldText, NewText: &newText}}
	default:
		return
	}
	e.s.notify(ctx, e.sessionID, u)
}

// startTerminalDisplay sends, once per tool call, the terminal content
// block and _meta.terminal_info that make Zed render live output.
func (s *Server) startTerminalDisplay(ctx context.Context, sessionID, toolCallID string) {
	as, err := s.lookup(sessionID)
	if err != nil {
		return
	}
	as.mu.Lock()
	if as.terminals == nil {
		as.terminals = map[string]bool{}
	}
	started := as.terminals[toolCallID]
	as.terminals[toolCallID] = true
	cwd := as.cwd
	as.mu.Unlock()
	if started {
		return
	}
	s.notify(ctx, sessionID, SessionUpdate{
		SessionUpdate: UpdateToolCallUpdate, ToolCallID: toolCallID, Status: "in_progress",
		ToolContent: []ToolCallContent{{Type: "terminal", TerminalID: toolCallID}},
		Meta:        Meta{"terminal_info": map[string]any{"terminal_id": toolCallID, "cwd": cwd}},
	})
}
