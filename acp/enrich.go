package acp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/developer"
)

// finalUpdate completes a tool call's last update with what the tool
// reported in its result _meta. A call that never ran — refused, or
// cancelled while or right after the user was asked (agent-shell's Reject
// answers and cancels the turn 2 ms later) — ends failed showing again
// what its permission request showed, so the refused diff stays in view;
// the words for the model (refusal, cancel) stay in rawOutput.
func finalUpdate(as *acpSession, u *SessionUpdate, m conversation.Message) {
	preview, asked := as.takePreview(u.ToolCallID)
	res := resultFor(m, u.ToolCallID)
	if agent.Declined(res) || (asked && len(preview) > 0 && res == nil && u.Status == "failed") {
		u.ToolContent = preview
		as.mu.Lock()
		delete(as.shown, u.ToolCallID)
		as.mu.Unlock()
		return
	}
	enrichResult(as, u, m)
	keepTerminal(as, u)
	keepShellOutput(as, u, res != nil)
}

// enrichResult adds what developer reported in the result _meta to the
// final tool_call_update: the edit's diff and locations, the delegated
// terminal, and Zed's terminal_exit.
func enrichResult(as *acpSession, u *SessionUpdate, m conversation.Message) {
	res := resultFor(m, u.ToolCallID)
	if res == nil || res.Meta == nil {
		return
	}
	addEdit(u, res)
	var term developer.TerminalMeta
	if decodeMeta(res.Meta, developer.MetaKeyTerminal, &term) && term.TerminalID != "" {
		u.ToolContent = append([]ToolCallContent{{Type: "terminal", TerminalID: term.TerminalID}}, u.ToolContent...)
	}
	var shell developer.ShellMeta
	as.mu.Lock()
	displayed := as.terminals[u.ToolCallID]
	as.mu.Unlock()
	if displayed && decodeMeta(res.Meta, developer.MetaKeyShell, &shell) {
		u.ToolContent = append([]ToolCallContent{{Type: "terminal", TerminalID: u.ToolCallID}}, u.ToolContent...)
		u.Meta = Meta{"terminal_exit": map[string]any{"terminal_id": u.ToolCallID, "exit_code": shell.ExitCode, "signal": nil}}
	}
}

// addEdit puts the file change a result's _meta records first in the
// update's content, with the edited lines as its locations.
func addEdit(u *SessionUpdate, res *conversation.CallToolResult) {
	var edit developer.EditMeta
	if !decodeMeta(res.Meta, developer.MetaKeyEdit, &edit) || edit.Path == "" {
		return
	}
	newText := edit.NewText
	diff := ToolCallContent{Type: "diff", Path: edit.Path, OldText: edit.OldText, NewText: &newText}
	u.ToolContent = append([]ToolCallContent{diff}, u.ToolContent...)
	u.Locations = nil
	for _, l := range edit.Locations {
		u.Locations = append(u.Locations, ToolCallLocation{Path: l.Path, Line: row(l.Line)})
	}
}

// enrichReplay is enrichResult for a replayed result: the stored diff
// (so a reopened thread shows the change as the live one did); the
// terminal is gone, its output is in the text content.
func enrichReplay(u *SessionUpdate, m conversation.Message) {
	if res := resultFor(m, u.ToolCallID); res != nil && res.Meta != nil {
		addEdit(u, res)
	}
}

func resultFor(m conversation.Message, id string) *conversation.CallToolResult {
	for _, r := range m.ToolResponses() {
		if r.ID == id && r.ToolResult.IsOK() {
			return r.ToolResult.Value
		}
	}
	return nil
}

func decodeMeta(meta map[string]any, key string, v any) bool {
	raw, ok := meta[key]
	if !ok {
		return false
	}
	b, err := json.Marshal(raw)
	return err == nil && json.Unmarshal(b, v) == nil
}

// updatePlan sends the todo list as an ACP plan whenever the model writes it.
func (p *promptAPI) updatePlan(ctx context.Context, as *acpSession, m conversation.Message) {
	for _, r := range m.ToolRequests() {
		if !r.ToolCall.IsOK() || !strings.HasSuffix(r.ToolCall.Value.Name, "todo_write") {
			continue
		}
		content, _ := r.ToolCall.Value.Arguments["content"].(string)
		p.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdatePlan, Entries: planEntries(content)})
	}
}

// planEntries reads markdown task lines: "- [ ] a" pending, "- [x] b"
// completed, "- [~] c" / "- [-] c" / "- [>] c" in progress.
func planEntries(content string) []PlanEntry {
	entries := []PlanEntry{}
	for _, line := range strings.Split(content, "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimLeft(t, "-*+ ")
		if len(t) < 4 || t[0] != '[' || t[2] != ']' {
			continue
		}
		status := "pending"
		switch t[1] {
		case 'x', 'X':
			status = "completed"
		case '~', '-', '>':
			status = "in_progress"
		}
		if text := strings.TrimSpace(t[3:]); text != "" {
			entries = append(entries, PlanEntry{Content: text, Priority: "medium", Status: status})
		}
	}
	return entries
}
