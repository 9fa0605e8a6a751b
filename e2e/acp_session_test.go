package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
)

func TestListPagesOf50WithCursor(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	work, other := t.TempDir(), t.TempDir()
	for range 51 {
		c.newSession(work)
	}
	c.newSession(other)
	var page1, page2 acp.ListSessionsResponse
	c.call("session/list", acp.ListSessionsRequest{CWD: work}, &page1)
	if len(page1.Sessions) != 50 || page1.NextCursor == "" {
		t.Fatalf("page 1: %d sessions, nextCursor %q; want 50 and a cursor", len(page1.Sessions), page1.NextCursor)
	}
	c.call("session/list", acp.ListSessionsRequest{CWD: work, Cursor: page1.NextCursor}, &page2)
	if len(page2.Sessions) != 1 || page2.NextCursor != "" {
		t.Fatalf("page 2: %d sessions, nextCursor %q; want 1 and none", len(page2.Sessions), page2.NextCursor)
	}
	seen := map[string]bool{}
	for _, s := range append(page1.Sessions, page2.Sessions...) {
		if s.CWD != work || s.UpdatedAt == "" || seen[s.SessionID] {
			t.Fatalf("bad or repeated entry %+v", s)
		}
		seen[s.SessionID] = true
	}
	err := c.tryCall("session/list", acp.ListSessionsRequest{CWD: "relative/dir"}, &page1)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
}

func TestSetModeSendsUpdateBeforeResponse(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	var ids []string
	for _, m := range sess.Modes.AvailableModes {
		ids = append(ids, m.ID)
	}
	if got := strings.Join(ids, ","); got != "auto,approve,smart_approve,chat" || sess.Modes.CurrentModeID != "auto" {
		t.Fatalf("modes %s current %s", got, sess.Modes.CurrentModeID)
	}
	c.setMode(sess.SessionID, "chat")
	update, response := c.rawIndex(`"currentModeId":"chat"`), c.lastResponseIndex()
	if update < 0 || update > response {
		t.Fatalf("current_mode_update at line %d, set_mode response at line %d: the update must come first", update, response)
	}
	err := c.tryCall("session/set_mode", acp.SetModeRequest{SessionID: sess.SessionID, ModeID: "yolo"}, nil)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
	err = c.tryCall("session/set_mode", acp.SetModeRequest{SessionID: "nope", ModeID: "auto"}, nil)
	assertRPCError(t, err, acp.CodeResourceNotFound)
	// chat mode skips tools: the developer tool never runs.
	env.LLM.Script.Append(toolCallTurn("call_c", "shell", map[string]string{"command": "echo nope"}), textTurn("plan"))
	if r := c.prompt(sess.SessionID, "do it"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if llmSaw(env, "nope\\n") {
		t.Error("a tool ran in chat mode")
	}
}

func TestConfigOptions(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	var ids []string
	for _, o := range sess.ConfigOptions {
		ids = append(ids, o.ID+"="+o.CurrentValue)
	}
	if got := strings.Join(ids, ","); got != "provider=openai,mode=auto,model=gpt-4o" {
		t.Fatalf("configOptions = %s", got)
	}
	var resp acp.SetConfigOptionResponse
	c.call("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "mode", Value: json.RawMessage(`"approve"`)}, &resp)
	if resp.ConfigOptions[1].CurrentValue != "approve" {
		t.Fatalf("response configOptions %+v", resp.ConfigOptions)
	}
	update, response := c.rawIndex(`"sessionUpdate":"config_option_update"`), c.lastResponseIndex()
	if update < 0 || update > response {
		t.Fatalf("config_option_update at line %d, response at %d", update, response)
	}
	c.call("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "model", Value: json.RawMessage(`"gpt-4.1"`)}, &resp)
	if resp.ConfigOptions[2].CurrentValue != "gpt-4.1" {
		t.Fatalf("model not switched: %+v", resp.ConfigOptions[2])
	}
	env.LLM.Script.Append(textTurn("hi"))
	c.prompt(sess.SessionID, "hello")
	reqs := env.LLM.Requests()
	if !strings.Contains(string(reqs[len(reqs)-1].Body), `"model":"gpt-4.1"`) {
		t.Errorf("the next turn did not use the chosen model")
	}
	err := c.tryCall("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "mode", Value: json.RawMessage(`{"x":1}`)}, nil)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
	err = c.tryCall("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "thought_level", Value: json.RawMessage(`"high"`)}, nil)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
}

func TestErrorCodes(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	assertRPCError(t, c.tryCall("_goose/no_such_method", map[string]any{}, nil), jsonrpc2.CodeMethodNotFound)
	assertRPCError(t, c.tryCall("session/no_such_method", map[string]any{}, nil), jsonrpc2.CodeMethodNotFound)
	assertRPCError(t, c.tryCall("session/prompt", acp.PromptRequest{SessionID: "missing", Prompt: []acp.ContentBlock{{Type: "text", Text: "x"}}}, nil), acp.CodeResourceNotFound)
	assertRPCError(t, c.tryCall("session/load", acp.LoadSessionRequest{SessionID: "missing", CWD: env.Root, MCPServers: []acp.MCPServer{}}, nil), acp.CodeResourceNotFound)
	assertRPCError(t, c.tryCall("session/new", map[string]any{"cwd": 5}, nil), jsonrpc2.CodeInvalidParams)
	assertRPCError(t, c.tryCall("session/new", acp.NewSessionRequest{CWD: "relative"}, nil), jsonrpc2.CodeInvalidParams)
}

func TestCloseDeleteFork(t *testing.T) {
	env := newAgentEnv(t, textTurn("answer one"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	c.prompt(sess.SessionID, "question one")
	var fork acp.NewSessionResponse
	c.call("session/fork", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: env.Root, MCPServers: []acp.MCPServer{}}, &fork)
	if fork.SessionID == "" || fork.SessionID == sess.SessionID || fork.Meta["messageCount"] != float64(2) {
		t.Fatalf("fork = %+v", fork)
	}
	c.call("session/close", acp.SessionIDRequest{SessionID: sess.SessionID}, nil)
	assertRPCError(t, c.tryCall("session/prompt", acp.PromptRequest{SessionID: sess.SessionID, Prompt: []acp.ContentBlock{{Type: "text", Text: "x"}}}, nil), acp.CodeResourceNotFound)
	// A closed session can be resumed (no replay) and used again.
	before := len(c.updatesOf(sess.SessionID))
	c.call("session/resume", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: env.Root, MCPServers: []acp.MCPServer{}}, nil)
	for _, u := range c.updatesOf(sess.SessionID)[before:] {
		if strings.HasSuffix(u.SessionUpdate, "_chunk") {
			t.Fatalf("resume replayed history: %+v", u)
		}
	}
	c.call("session/delete", acp.SessionIDRequest{SessionID: fork.SessionID}, nil)
	var list acp.ListSessionsResponse
	c.call("session/list", acp.ListSessionsRequest{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != sess.SessionID {
		t.Fatalf("after delete: %+v", list.Sessions)
	}
	assertRPCError(t, c.tryCall("session/delete", acp.SessionIDRequest{SessionID: fork.SessionID}, nil), acp.CodeResourceNotFound)
}

func assertRPCError(t *testing.T, err error, code int64) {
	t.Helper()
	e, ok := err.(*jsonrpc2.Error)
	if !ok || e.Code != code {
		t.Fatalf("error = %v, want JSON-RPC code %d", err, code)
	}
}

// rawIndex is the index of the first stdout line containing s, or -1.
func (c *acpClient) rawIndex(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, l := range c.rawLines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

// lastResponseIndex is the index of the last response line on stdout.
func (c *acpClient) lastResponseIndex() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.rawLines) - 1; i >= 0; i-- {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(c.rawLines[i]), &m) == nil && m["method"] == nil && m["id"] != nil {
			return i
		}
	}
	panic(fmt.Sprintf("no response among %d lines", len(c.rawLines)))
}

// TestCancelRequestCancelsThePrompt: $/cancel_request naming a running
// session/prompt ends it at once (cancelled, or the -32800 error).
func TestCancelRequestCancelsThePrompt(t *testing.T) {
	env := newAgentEnv(t, slowTurn("partial "))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	done := make(chan error, 1)
	var resp acp.PromptResponse
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done <- c.conn.Call(ctx, "session/prompt", acp.PromptRequest{SessionID: sess.SessionID, Prompt: []acp.ContentBlock{{Type: "text", Text: "go"}}},
			&resp, jsonrpc2.PickID(jsonrpc2.ID{Str: "prompt-1", IsString: true}))
	}()
	c.waitFor("the first chunk", func() bool { return strings.Contains(c.agentText(sess.SessionID), "partial") })
	c.notify("$/cancel_request", map[string]any{"requestId": "prompt-1"})
	select {
	case err := <-done:
		if e, ok := err.(*jsonrpc2.Error); !(err == nil && resp.StopReason == "cancelled") && !(ok && e.Code == acp.CodeRequestCancelled) {
			t.Fatalf("prompt ended with %v / %+v, want cancelled or -32800", err, resp)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("$/cancel_request did not end the prompt")
	}
	stoppedEarly(t, c.agentText(sess.SessionID))
}
