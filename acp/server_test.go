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

func TestMCPServersAcceptsLuaEmptyTable(t *testing.T) {
	for _, in := range []string{`{"cwd":"/w","mcpServers":{}}`, `{"cwd":"/w","mcpServers":[]}`, `{"cwd":"/w","mcpServers":null}`, `{"cwd":"/w"}`} {
		var req NewSessionRequest
		if err := json.Unmarshal([]byte(in), &req); err != nil || len(req.MCPServers) != 0 {
			t.Errorf("%s: %v %v", in, req.MCPServers, err)
		}
	}
	var req NewSessionRequest
	if err := json.Unmarshal([]byte(`{"cwd":"/w","mcpServers":[{"name":"a","command":"x","args":[],"env":[]}]}`), &req); err != nil || len(req.MCPServers) != 1 || req.MCPServers[0].Command != "x" {
		t.Errorf("list: %+v %v", req.MCPServers, err)
	}
	if err := json.Unmarshal([]byte(`{"cwd":"/w","mcpServers":{"a":1}}`), &req); err == nil {
		t.Error("a non-empty object was accepted as a server list")
	}
}
