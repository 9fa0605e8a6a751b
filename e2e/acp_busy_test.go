package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// A second prompt while a turn runs is refused by the agent
// (agent.ErrSessionBusy → -32602, the adapter keeps no busy flag of its
// own), and a cancel still reaches the running turn afterwards.
func TestSecondPromptIsRefusedAndCancelStillStopsTheFirst(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"partial "}, Hang: true})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	first := c.promptAsync(sess.SessionID, "go")
	c.waitFor("the first chunk", func() bool { return strings.Contains(c.agentText(sess.SessionID), "partial") })

	var resp acp.PromptResponse
	err := c.tryCall("session/prompt", acp.PromptRequest{SessionID: sess.SessionID, Prompt: []acp.ContentBlock{{Type: "text", Text: "too soon"}}}, &resp)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
	if e := err.(*jsonrpc2.Error); e.Data == nil || !strings.Contains(string(*e.Data), "busy") {
		t.Fatalf("refusal data %v", e.Data)
	}

	c.notify("session/cancel", acp.SessionIDRequest{SessionID: sess.SessionID})
	if r := c.awaitPrompt(first, 10*time.Second); r.StopReason != "cancelled" {
		t.Fatalf("first prompt: stopReason %q, want cancelled", r.StopReason)
	}
	env.LLM.Script.Append(textTurn("again"))
	if r := c.prompt(sess.SessionID, "once more"); r.StopReason != "end_turn" {
		t.Fatalf("after the cancel: %q", r.StopReason)
	}
}
