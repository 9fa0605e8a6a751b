package agent

import (
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// A subagent's progress names its calls as the editor titles tool calls:
// the action and its object, no "<extension>__" tool name.
func TestDelegateProgressTitlesCallsAsEditorsDo(t *testing.T) {
	info := map[string]toolinfo.Info{"write": {Kind: toolinfo.Edit, Path: "path", Verb: "Write"}} // as developer declares it
	p := newDelegateProgress("20260101_2", "look around", "call_d", "/w", func(tool string) toolinfo.Info {
		if i, ok := info[tool]; ok {
			return i
		}
		return toolinfo.Guess(tool)
	})
	m := conversation.NewMessage(conversation.RoleAssistant, 0).
		With(conversation.ToolRequestContent("t1", "shell", map[string]any{"command": "ls -la"})).
		With(conversation.ToolRequestContent("t2", "write", map[string]any{"path": "/w/src/x.go", "content": "package x"}))
	if !p.observe(m) {
		t.Fatal("no change seen")
	}
	var params struct{ Message string }
	_ = json.Unmarshal(p.event().Params, &params)
	want := "Running subagent 20260101_2 (look around)\n• Run ls -la\n• Write src/x.go"
	if params.Message != want {
		t.Fatalf("progress %q, want %q", params.Message, want)
	}
}
