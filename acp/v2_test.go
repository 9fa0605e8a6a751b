package acp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func framesJSON(t *testing.T, frames []map[string]any) []string {
	t.Helper()
	var out []string
	for _, f := range frames {
		b, err := jsonMarshal(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func eqFrames(t *testing.T, name string, got []map[string]any, want ...string) {
	t.Helper()
	g := framesJSON(t, got)
	if len(g) != len(want) {
		t.Fatalf("%s: %d frames %q, want %d", name, len(g), g, len(want))
	}
	for i := range g {
		if !jsonEqual(g[i], want[i]) {
			t.Errorf("%s frame %d:\n got %s\nwant %s", name, i, g[i], want[i])
		}
	}
}

// TestV2Frames pins how each v1 update reads in v2.
func TestV2Frames(t *testing.T) {
	title := "echo hi"
	terms := &v2Terminals{}
	eqFrames(t, "tool call announced with its display terminal",
		v2Frames(SessionUpdate{SessionUpdate: UpdateToolCall, ToolCallID: "c1", Title: &title, Kind: "execute", Status: "pending",
			RawInput: map[string]any{"command": "echo hi"}, ToolContent: []ToolCallContent{{Type: "terminal", TerminalID: "c1"}},
			Meta: Meta{"terminal_info": map[string]any{"terminal_id": "c1", "cwd": "/w"}}}, true, terms),
		`{"sessionUpdate":"terminal_update","terminalId":"c1","command":"echo hi","cwd":"/w","capabilities":{"cancel":{}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","title":"echo hi","kind":"execute","status":"pending","capabilities":{"cancel":{}},
		  "content":[{"type":"terminal","terminalId":"c1"}],"rawInput":{"command":"echo hi"}}`)
	eqFrames(t, "output alone is a terminal chunk",
		v2Frames(SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: "c1",
			Meta: Meta{"terminal_output": map[string]any{"terminal_id": "c1", "data": "hi\n"}}}, true, terms),
		`{"sessionUpdate":"terminal_output_chunk","terminalId":"c1","data":"aGkK"}`)
	eqFrames(t, "a final update ends the terminal it left open",
		v2Frames(SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: "c1", Status: "failed"}, true, terms),
		`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"failed","capabilities":null}`,
		`{"sessionUpdate":"terminal_update","terminalId":"c1","exitStatus":{"exitCode":null,"signal":null},"capabilities":null}`)
	old := "a\n"
	eqFrames(t, "replayed diff",
		v2Frames(SessionUpdate{SessionUpdate: UpdateToolCallUpdate, ToolCallID: "c2", Status: "pending",
			ToolContent: []ToolCallContent{{Type: "diff", Path: "/w/f", OldText: &old, NewText: new(string)}}}, false, terms),
		`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"pending","content":[{"type":"diff",
		  "changes":[{"operation":"modify","path":"/w/f","fileType":"text"}],
		  "patch":{"format":"git_patch","text":"diff --git a/w/f b/w/f\n--- a/w/f\n+++ b/w/f\n@@ -1 +0,0 @@\n-a\n"}}]}`)
	eqFrames(t, "plan", v2Frames(SessionUpdate{SessionUpdate: UpdatePlan, Entries: []PlanEntry{{Content: "x", Priority: "high", Status: "pending"}}}, true, nil),
		`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"plan","entries":[{"content":"x","priority":"high","status":"pending"}]}}`)
	eqFrames(t, "no modes in v2", v2Frames(SessionUpdate{SessionUpdate: UpdateCurrentMode, CurrentModeID: "auto"}, true, nil))
	eqFrames(t, "config options by configId, selects with values only",
		v2Frames(SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: []ConfigOption{
			{ID: "mode", Name: "Mode", Category: "mode", Type: "select", CurrentValue: "auto", Options: []ConfigOptionValue{{Value: "auto", Name: "Auto"}}},
			{ID: "model", Name: "Model", Type: "select", CurrentValue: ""}}}, true, nil),
		`{"sessionUpdate":"config_option_update","configOptions":[{"configId":"mode","name":"Mode","category":"mode","type":"select","currentValue":"auto","options":[{"value":"auto","name":"Auto"}]}]}`)
	eqFrames(t, "empty commands list kept", v2Frames(SessionUpdate{SessionUpdate: UpdateAvailableCommands}, true, nil),
		`{"sessionUpdate":"available_commands_update","availableCommands":[]}`)
	text := ContentBlock{Type: "text", Text: "hi"}
	eqFrames(t, "chunk", v2Frames(SessionUpdate{SessionUpdate: UpdateAgentMessageChunk, MessageID: "m1", Content: &text}, true, nil),
		`{"sessionUpdate":"agent_message_chunk","messageId":"m1","content":{"type":"text","text":"hi"}}`)
}

// TestV2HeldPrompts: a prompt sent while one runs waits and runs next, in
// order; session/cancel answers the held ones -32800; $/cancel_request
// withdraws one.
func TestV2HeldPrompts(t *testing.T) {
	q := &v2Turns{}
	if err := q.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 3)
	for _, name := range []string{"a", "b"} {
		go func() {
			if err := q.acquire(context.Background()); err != nil {
				got <- name + ":" + err.Error()
				return
			}
			got <- name
		}()
		time.Sleep(20 * time.Millisecond)
	}
	withdrawn, cancel := context.WithCancel(context.Background())
	go func() {
		if err := q.acquire(withdrawn); errors.Is(err, context.Canceled) {
			got <- "c:withdrawn"
		}
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	if g := <-got; g != "c:withdrawn" {
		t.Fatalf("first out: %s", g)
	}
	q.release()
	if g := <-got; g != "a" {
		t.Fatalf("next: %s", g)
	}
	q.cancelHeld()
	var e interface{ Error() string } = errHeldPromptCancelled
	if g := <-got; g != "b:"+e.Error() {
		t.Fatalf("held: %s", g)
	}
	b, _ := json.Marshal(errHeldPromptCancelled)
	if string(b) != `{"code":-32800,"message":"Request cancelled"}` {
		t.Fatalf("held prompt answer %s", b)
	}
}

// TestVersionNegotiation: 2 or more gets v2 (at most 2), anything else
// v1 as before; each version's methods answer -32601 to the other.
func TestVersionNegotiation(t *testing.T) {
	v1 := serveLines(t, Options{})
	v1.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	var init struct {
		Result struct {
			ProtocolVersion int             `json:"protocolVersion"`
			AgentInfo       json.RawMessage `json:"agentInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(v1.read(t)), &init); err != nil || init.Result.ProtocolVersion != 1 || init.Result.AgentInfo == nil {
		t.Fatalf("v1 initialize %+v %v", init, err)
	}
	for i, m := range []string{"auth/login", "auth/logout", "tool_call/cancel", "terminal/cancel"} {
		v1.send(t, `{"jsonrpc":"2.0","id":`+string(rune('2'+i))+`,"method":"`+m+`","params":{}}`)
		want := `{"id":` + string(rune('2'+i)) + `,"error":{"code":-32601,"message":"Method not found","data":"` + m + `"},"jsonrpc":"2.0"}`
		if got := v1.read(t); got != want {
			t.Errorf("v1 %s:\n got %s\nwant %s", m, got, want)
		}
	}
	v2 := serveLines(t, Options{Version: "9"})
	v2.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":3,"info":{"name":"c","version":"1"},"capabilities":{}}}`)
	want := `{"id":1,"result":{"protocolVersion":2,"info":{"name":"goose-acp","title":"goose","version":"9"},"capabilities":{"session":{"prompt":{"image":{},"embeddedContext":{}},"mcp":{"stdio":{},"http":{}},"delete":{},"additionalDirectories":{}}},` +
		`"authMethods":[{"type":"agent","methodId":"goose-provider","name":"Configure Provider","description":"Run ` + "`goose-acp configure`" + ` in a terminal to choose a provider, API key and model, or start goose-acp with OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY set; then authenticate re-checks."}]},"jsonrpc":"2.0"}`
	if got := v2.read(t); got != want {
		t.Fatalf("v2 initialize:\n got %s\nwant %s", got, want)
	}
	v2.send(t, `{"jsonrpc":"2.0","id":2,"method":"session/set_mode","params":{"sessionId":"s","modeId":"auto"}}`)
	if got := v2.read(t); got != `{"id":2,"error":{"code":-32601,"message":"Method not found","data":"session/set_mode"},"jsonrpc":"2.0"}` {
		t.Fatalf("v2 set_mode: %s", got)
	}
}
