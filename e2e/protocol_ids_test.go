package e2e

import (
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestMessageIDsArePinned: ACP v1's message ids as clients rely on them.
// Every chunk of one streamed reply (text and thought alike) carries the
// same non-empty messageId (the thought and the text of one model message
// are one message), two replies different ones, and the id is the
// stored message's: session/load in a new process replays each reply
// under the id it streamed with, and each user message under an id of
// its own.
func TestMessageIDsArePinned(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnvFor(t, providertest.Anthropic,
		providertest.Turn{Thinking: []string{"let me ", "think"}, ThinkingSignature: "sig", Text: []string{"first ", "reply"}},
		providertest.Turn{Text: []string{"second ", "reply"}},
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "one")
	c.prompt(sess.SessionID, "two")
	live := map[string][]string{} // text of each message id, in order
	var order []string
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate != acp.UpdateAgentMessageChunk && u.SessionUpdate != acp.UpdateAgentThoughtChunk {
			continue
		}
		if u.MessageID == "" {
			t.Fatalf("live chunk without messageId: %+v", u)
		}
		if _, seen := live[u.MessageID]; !seen {
			order = append(order, u.MessageID)
		}
		live[u.MessageID] = append(live[u.MessageID], u.SessionUpdate+":"+u.Content.Text)
	}
	if len(order) != 2 {
		t.Fatalf("live message ids %q: want one per reply", order)
	}
	first, second := order[0], order[1]
	if got, _ := json.Marshal(live[first]); string(got) != `["agent_thought_chunk:let me think","agent_message_chunk:first ","agent_message_chunk:reply"]` {
		t.Fatalf("first reply's chunks under %s: %s", first, got)
	}
	c.close()

	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	var resp acp.SessionSetupResponse
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, &resp)
	var users []string
	replayed := map[string]string{}
	for _, u := range c2.updatesOf(sess.SessionID) {
		switch u.SessionUpdate {
		case acp.UpdateUserMessageChunk:
			users = append(users, u.MessageID)
		case acp.UpdateAgentMessageChunk:
			replayed[u.MessageID] += u.Content.Text
		}
	}
	if replayed[first] != "first reply" || replayed[second] != "second reply" || len(replayed) != 2 {
		t.Fatalf("replayed replies by id %q, want the live ids %s and %s", replayed, first, second)
	}
	if len(users) != 2 || users[0] == "" || users[0] == users[1] || users[0] == first || users[1] == second {
		t.Fatalf("replayed user message ids %q", users)
	}
}

// TestSDKCancelRequestBothWays pins $/cancel_request with the npm SDK's
// client: its cancellationSignal on a running session/prompt ends the
// prompt, and the agent withdraws a permission request the cancelled turn
// no longer needs (the SDK aborts its handler's signal).
func TestSDKCancelRequestBothWays(t *testing.T) {
	dir := nodeHarness(t)
	work := t.TempDir()
	env := newAgentEnv(t, slowTurn("wait"), toolCallTurn("call_held", "shell", map[string]string{"command": "echo never"}))
	var report struct {
		Frames     int               `json:"frames"`
		Violations []json.RawMessage `json:"violations"`
	}
	runNodeHarness(t, dir, append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work), &report, "cancelrequest", "withdraw")
	if report.Frames == 0 || len(report.Violations) != 0 {
		t.Fatalf("frames=%d violations=%s", report.Frames, report.Violations)
	}
}
