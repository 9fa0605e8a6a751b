package acp

import (
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"
)

// Options.SessionAnswered runs once a session's answer is written — the
// editor has it even while the hook still runs — for session/new and
// session/load, and not for a refused session/new.
func TestSessionAnsweredAfterTheAnswer(t *testing.T) {
	a := instantAgent(t)
	var calls atomic.Int32
	inHook := make(chan struct{}, 4)
	release := make(chan struct{})
	c := serveLines(t, Options{Agent: a, Store: a.Sessions(), Builtins: []string{}, SessionAnswered: func() {
		calls.Add(1)
		inHook <- struct{}{}
		<-release
	}})
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	c.read(t)
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"relative","mcpServers":[]}}`)
	if r := readReply(t, c, 2); r.Error == nil {
		t.Fatal("a relative cwd made a session")
	}
	params, _ := json.Marshal(map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}})
	c.send(t, `{"jsonrpc":"2.0","id":3,"method":"session/new","params":`+string(params)+`}`)
	r := readReply(t, c, 3) // written before the hook returns
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if r.Error != nil || json.Unmarshal(r.Result, &s) != nil || s.SessionID == "" {
		t.Fatalf("session/new: %s %+v", r.Result, r.Error)
	}
	waitHook(t, inHook)
	release <- struct{}{}
	load, _ := json.Marshal(map[string]any{"sessionId": s.SessionID, "cwd": t.TempDir(), "mcpServers": []any{}})
	c.send(t, `{"jsonrpc":"2.0","id":4,"method":"session/load","params":`+string(load)+`}`)
	if r := readReply(t, c, 4); r.Error != nil {
		t.Fatalf("session/load: %+v", r.Error)
	}
	waitHook(t, inHook)
	release <- struct{}{}
	if n := calls.Load(); n != 2 {
		t.Fatalf("SessionAnswered called %d times, want 2 (session/new, session/load)", n)
	}
}

func waitHook(t *testing.T, in <-chan struct{}) {
	t.Helper()
	select {
	case <-in:
	case <-time.After(10 * time.Second):
		t.Fatal("SessionAnswered was not called after the answer")
	}
}
