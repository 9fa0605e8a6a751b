package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/developer"
)

// developerProgress hands what a developer tool reports while it runs to
// the agent (extension.Env.Progress), which puts it on the session's event
// stream as an agent.ToolProgressEvent.
type developerProgress func(context.Context, extension.ToolProgress)

var _ developer.Emitter = developerProgress(nil)

func (f developerProgress) Emit(ctx context.Context, ev developer.Event) {
	if f == nil {
		return
	}
	f(ctx, extension.ToolProgress{ToolCallID: ev.ToolCallID, Kind: ev.Kind, Stream: ev.Stream, Output: ev.Output,
		TerminalID: ev.TerminalID, Path: ev.Path, Lines: ev.Lines, OldText: ev.OldText, NewText: ev.NewText})
}

// emitter turns a running tool's progress (agent.ToolProgressEvent) into
// tool_call_updates: in_progress when it starts, live shell output (Zed's
// _meta.terminal_* extension when the editor asks for it), delegated
// terminal ids, edit locations and diffs.
type emitter struct {
	p         *promptAPI
	sessionID string
}

func (e *emitter) progress(ctx context.Context, ev extension.ToolProgress) {
	if ev.ToolCallID == "" {
		return
	}
	u := SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: ev.ToolCallID}
	switch ev.Kind {
	case extension.ProgressStarted:
		if as, err := e.p.loaded.lookup(e.sessionID); err == nil {
			e.p.markInProgress(ctx, as, ev.ToolCallID)
		}
		return
	case extension.ProgressShellOutput:
		if !e.p.wantsTerminalOutput() {
			if as, err := e.p.loaded.lookup(e.sessionID); err == nil {
				as.recordShellOutput(ev.ToolCallID, ev.Output)
			}
			return
		}
		e.p.startTerminalDisplay(ctx, e.sessionID, ev.ToolCallID)
		u.Meta = Meta{"terminal_output": map[string]any{"terminal_id": ev.ToolCallID, "data": ev.Output}}
	case extension.ProgressTerminal:
		// Its release is tracked on the tool's goroutine (startedFirst).
		if as, err := e.p.loaded.lookup(e.sessionID); err == nil {
			as.showTerminal(ev.ToolCallID, ev.TerminalID)
		}
		u.ToolContent = []ToolCallContent{{Type: "terminal", TerminalID: ev.TerminalID}}
	case extension.ProgressLocations:
		for _, l := range ev.Lines {
			u.Locations = append(u.Locations, ToolCallLocation{Path: ev.Path, Line: row(l)})
		}
		if len(u.Locations) == 0 {
			u.Locations = []ToolCallLocation{{Path: ev.Path}}
		}
	case extension.ProgressDiff:
		newText := ev.NewText
		u.ToolContent = []ToolCallContent{{Type: "diff", Path: ev.Path, OldText: ev.OldText, NewText: &newText}}
	default:
		return
	}
	e.p.notify(ctx, e.sessionID, u)
}

// startTerminalDisplay sends, once per tool call, the terminal content
// block and _meta.terminal_info that make Zed render live output.
func (p *promptAPI) startTerminalDisplay(ctx context.Context, sessionID, toolCallID string) {
	as, err := p.loaded.lookup(sessionID)
	if err != nil {
		return
	}
	as.mu.Lock()
	if as.terminals == nil {
		as.terminals = map[string]bool{}
	}
	started := as.terminals[toolCallID]
	as.terminals[toolCallID] = true
	as.mu.Unlock()
	cwd := as.translator.workingDir()
	as.showTerminal(toolCallID, toolCallID)
	if started {
		return
	}
	p.notify(ctx, sessionID, SessionUpdate{
		SessionUpdate: UpdateToolCallUpdate, ToolCallID: toolCallID, Status: "in_progress",
		ToolContent: []ToolCallContent{{Type: "terminal", TerminalID: toolCallID}},
		Meta:        Meta{"terminal_info": map[string]any{"terminal_id": toolCallID, "cwd": cwd}},
	})
}

// announceTerminal makes a live-output tool's tool_call a terminal from
// its start for a client that renders Zed's display terminals
// (_meta.terminal_output) and leaves commands to the agent (no terminal
// capability): Zed creates the display terminal only from the tool_call's
// _meta.terminal_info, and output sent for a terminal it does not know
// fails with "Terminal … not found".
// display says whether the client renders display terminals and leaves
// commands to the agent.
func announceTerminal(as *acpSession, u *SessionUpdate, display bool) {
	if u.SessionUpdate != UpdateToolCall || !display {
		return
	}
	if info, ok := as.translator.CallInfo(u.ToolCallID); !ok || !info.Terminal {
		return
	}
	cwd := as.translator.workingDir()
	as.showTerminal(u.ToolCallID, u.ToolCallID)
	u.ToolContent = append(u.ToolContent, ToolCallContent{Type: "terminal", TerminalID: u.ToolCallID})
	if u.Meta == nil {
		u.Meta = Meta{}
	}
	u.Meta["terminal_info"] = map[string]any{"terminal_id": u.ToolCallID, "cwd": cwd}
}

// showTerminal records the terminal a tool call's content shows.
func (as *acpSession) showTerminal(toolCallID, terminalID string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.shown == nil {
		as.shown = map[string]string{}
	}
	as.shown[toolCallID] = terminalID
}

// keepTerminal keeps the terminal a call showed in its final update when
// the result does not name it (a cancelled command): ACP's content
// replaces the call's, and the terminal holds what the command printed.
// Zed's display terminal is also told the command ended.
func keepTerminal(as *acpSession, u *SessionUpdate) {
	as.mu.Lock()
	id := as.shown[u.ToolCallID]
	delete(as.shown, u.ToolCallID)
	displayed := as.terminals[u.ToolCallID]
	as.mu.Unlock()
	if id == "" {
		return
	}
	for _, c := range u.ToolContent {
		if c.Type == "terminal" {
			return
		}
	}
	u.ToolContent = append([]ToolCallContent{{Type: "terminal", TerminalID: id}}, u.ToolContent...)
	if id == u.ToolCallID && displayed && u.Meta["terminal_exit"] == nil {
		if u.Meta == nil {
			u.Meta = Meta{}
		}
		u.Meta["terminal_exit"] = map[string]any{"terminal_id": id, "exit_code": nil, "signal": nil}
	}
}
