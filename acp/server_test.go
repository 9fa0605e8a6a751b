package acp

import (
	"encoding/json"
	"testing"
)

// updateFrame bypasses jsonrpc2's encoder; it must produce the same message
// the Conn would have sent, and stay one line.
func TestUpdateFrameMatchesTheConnsEncoding(t *testing.T) {
	title, line, old := "developer: shell · echo <hi> & \"bye\"", 3, "a\nb"
	updates := []SessionUpdate{
		chunk(UpdateAgentMessageChunk, "msg_1", textBlock("Hello <b>\n")),
		chunk(UpdateAgentThoughtChunk, "", textBlock("")),
		{SessionUpdate: UpdateToolCall, ToolCallID: "call_1", Title: &title, Kind: "execute", Status: "pending", RawInput: map[string]any{"command": "echo <hi>"}},
		{SessionUpdate: UpdateToolCallUpdate, ToolCallID: "call_1", Status: "completed",
			ToolContent: []ToolCallContent{{Type: "diff", Path: "/x", OldText: &old, NewText: &old}},
			Locations:   []ToolCallLocation{{Path: "/x", Line: &line}}},
	}
	for _, u := range updates {
		frame, err := updateFrame("20260101_1", u)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "session/update",
			"params": SessionNotification{SessionID: "20260101_1", Update: u}})
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(string(frame), string(want)) {
			t.Errorf("frame differs:\n got %s\nwant %s", frame, want)
		}
		for _, c := range frame {
			if c == '\n' {
				t.Fatalf("frame holds a raw newline: %s", frame)
			}
		}
	}
}
