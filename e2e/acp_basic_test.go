package e2e

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestInitializeAnswersWithoutTouchingTheProvider(t *testing.T) {
	env := newAgentEnv(t)
	env.Vars["OPENAI_HOST"] = "http://127.0.0.1:1" // nothing listens: a provider call would fail
	c := startAgent(t, env)
	resp := c.initialize(acp.ClientCapabilities{FS: acp.FSCapabilities{ReadTextFile: true}})
	if resp.ProtocolVersion != 1 || !resp.AgentCapabilities.LoadSession || !resp.AgentCapabilities.PromptCapabilities.Image ||
		!resp.AgentCapabilities.PromptCapabilities.EmbeddedContext || resp.AgentCapabilities.SessionCapabilities.List == nil {
		t.Fatalf("unexpected initialize response: %+v", resp)
	}
	if len(resp.AuthMethods) != 1 || resp.AuthMethods[0].ID != "goose-provider" {
		t.Fatalf("auth methods: %+v", resp.AuthMethods)
	}
	if resp.AgentInfo == nil || resp.AgentInfo.Name != "goose-acp" {
		t.Fatalf("agentInfo: %+v", resp.AgentInfo)
	}
}

func TestBasicTurnStreamsChunksAndEndsTurn(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"Hel", "lo ", "there"}, Usage: &providertest.Usage{Input: 100, Output: 3}})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	if sess.SessionID == "" || sess.Modes == nil || sess.Modes.CurrentModeID != "auto" || len(sess.ConfigOptions) != 3 {
		t.Fatalf("session/new response: %+v", sess)
	}
	resp := c.prompt(sess.SessionID, "say hello")
	if resp.StopReason != "end_turn" {
		t.Fatalf("stopReason = %q, want end_turn", resp.StopReason)
	}
	if got := c.agentText(sess.SessionID); got != "Hello there" {
		t.Fatalf("agent text = %q, want %q", got, "Hello there")
	}
	var chunks int
	var msgID string
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateAgentMessageChunk {
			chunks++
			if msgID == "" {
				msgID = u.MessageID
			} else if u.MessageID != msgID {
				t.Errorf("chunks of one reply carry different message ids: %q vs %q", msgID, u.MessageID)
			}
		}
	}
	if chunks != 3 {
		t.Errorf("got %d agent_message_chunk updates, want 3 (one per streamed delta)", chunks)
	}
	if n := len(env.LLM.Requests()); n != 1 {
		t.Errorf("LLM saw %d requests, want 1", n)
	}
}

func TestMalformedLinesAreAnsweredAndTheAgentKeepsServing(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	io.WriteString(c.stdin, "this is not json\n[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}]\n{\"jsonrpc\":\"2.0\",\"id\":99}\n")
	c.waitFor("three error frames", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.rawLines) >= 3
	})
	c.mu.Lock()
	lines := append([]string(nil), c.rawLines[:3]...)
	c.mu.Unlock()
	wantCodes := []float64{-32700, -32600, -32600}
	for i, l := range lines {
		var m struct {
			ID    any `json:"id"`
			Error struct {
				Code float64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.Error.Code != wantCodes[i] {
			t.Errorf("frame %d = %s, want error code %v", i, l, wantCodes[i])
		}
	}
	resp := c.initialize(acp.ClientCapabilities{})
	if resp.ProtocolVersion != 1 {
		t.Fatalf("agent stopped serving after bad input")
	}
}

func TestCancelDuringStreamAnswersCancelled(t *testing.T) {
	env := newAgentEnv(t, slowTurn("partial "))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	done := make(chan acp.PromptResponse, 1)
	go func() {
		var resp acp.PromptResponse
		if err := c.tryCall("session/prompt", acp.PromptRequest{SessionID: sess.SessionID, Prompt: []acp.ContentBlock{{Type: "text", Text: "go"}}}, &resp); err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- resp
	}()
	c.waitFor("the first chunk", func() bool { return strings.Contains(c.agentText(sess.SessionID), "partial") })
	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	select {
	case resp := <-done:
		if resp.StopReason != "cancelled" {
			t.Fatalf("stopReason = %q, want cancelled", resp.StopReason)
		}
		// The answer came while the model was still streaming: the
		// cancel ended the stream instead of waiting it out.
		stoppedEarly(t, c.agentText(sess.SessionID))
	case <-time.After(10 * time.Second):
		t.Fatal("prompt did not return after session/cancel")
	}
	// The session keeps working after a cancel.
	env.LLM.Script.Append(providertest.Turn{Text: []string{"again"}})
	if resp := c.prompt(sess.SessionID, "once more"); resp.StopReason != "end_turn" {
		t.Fatalf("after cancel, stopReason = %q", resp.StopReason)
	}
}

func TestLoadReplaysHistoryBeforeResponding(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"first answer"}})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	c.prompt(sess.SessionID, "first question")
	c.close()

	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	var resp acp.SessionSetupResponse
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: env.Root, MCPServers: []acp.MCPServer{}}, &resp)
	var kinds, texts []string
	for _, u := range c2.updatesOf(sess.SessionID) {
		if u.Content != nil {
			kinds = append(kinds, u.SessionUpdate)
			texts = append(texts, u.Content.Text)
		}
	}
	want := []string{"user_message_chunk", "agent_message_chunk"}
	if strings.Join(kinds, ",") != strings.Join(want, ",") || texts[0] != "first question" || texts[1] != "first answer" {
		t.Fatalf("replay = %v %q, want %v [first question, first answer]", kinds, texts, want)
	}
	if resp.Modes == nil {
		t.Fatalf("load response has no modes: %+v", resp)
	}
}

// slowTurn streams first and then a chunk every 50 ms for about 10 s, so a
// test can act after the first chunk arrived and before the turn ends.
// (Hang blocks after the role chunk, before any text.)
// stoppedEarly fails t when text holds the whole of a slowTurn's reply:
// a cancel that waited for the stream to end (10 s of deltas) instead of
// ending it. It asserts what happened, not how long it took, so a loaded
// machine cannot fail it.
func stoppedEarly(t *testing.T, text string) {
	t.Helper()
	if n := strings.Count(text, "."); n >= slowTurnDeltas {
		t.Errorf("all %d deltas of the slow reply arrived before the cancelled answer: the cancel waited for the stream", n)
	}
}

// slowTurnDeltas is how many deltas follow slowTurn's first text, 50 ms
// apart.
const slowTurnDeltas = 200

func slowTurn(first string) providertest.Turn {
	text := []string{first}
	for range slowTurnDeltas {
		text = append(text, ".")
	}
	return providertest.Turn{Text: text, Delay: 50 * time.Millisecond}
}
