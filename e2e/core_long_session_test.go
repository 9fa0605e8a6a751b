package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestResumedCompactedSessionRequest: a compacted session (1.5 MB of
// history the model no longer sees) closed and resumed in the same
// process starts its turns from the part the model sees; the chat
// completions request it sends holds, byte for byte, the messages and
// the rest a fresh process reading the whole history sends for the same
// history.
func TestResumedCompactedSessionRequest(t *testing.T) {
	env := newAgentEnv(t)
	cwd := t.TempDir()
	id := seedCompacted(t, env, cwd)
	turn := providertest.Turn{Text: []string{"Done."}, Usage: &providertest.Usage{Input: 50, Output: 3}}
	resume := map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}}
	closeReq := map[string]any{"sessionId": id}

	a := spawnRaw(t, env)
	a.call(t, "initialize", initParams)
	env.LLM.Script.Append(turn, turn, turn)
	for _, text := range []string{"one", "two", "three"} { // "two" and "three" start from the tail
		a.call(t, "session/resume", resume)
		a.prompt(t, id, text)
		a.call(t, "session/close", closeReq)
	}
	a.stop()

	b := spawnRaw(t, env) // a fresh process reads the whole history
	defer b.stop()
	b.call(t, "initialize", initParams)
	env.LLM.Script.Append(turn)
	b.call(t, "session/resume", resume)
	b.prompt(t, id, "four")

	reqs := env.LLM.Script.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	tail, whole := splitChatBody(t, reqs[2]), splitChatBody(t, reqs[3])
	// "three" and its turn context, then "Done." and "four" in the whole read.
	if n := len(tail.Messages); len(whole.Messages) != n+2 {
		t.Fatalf("the tail's request has %d messages, the whole read's %d (want 2 more)", n, len(whole.Messages))
	}
	for i, m := range tail.Messages {
		if !bytes.Equal(m, whole.Messages[i]) {
			t.Fatalf("message %d of the tail's request\n%s\nthe whole read's\n%s", i, m, whole.Messages[i])
		}
	}
	// The system prompt, then what the model sees of the history.
	if len(tail.Messages) < 2 || !strings.Contains(string(tail.Messages[1]), "summary of the older messages") ||
		!strings.Contains(string(tail.Messages[len(tail.Messages)-1]), "three") || strings.Contains(string(reqs[2]), "older message 0:") {
		t.Fatalf("the tail's request: %s", reqs[2])
	}
	for k, v := range tail.Rest {
		if k != "messages" && !bytes.Equal(v, whole.Rest[k]) {
			t.Errorf("request field %q: tail %s, whole read %s", k, v, whole.Rest[k])
		}
	}
}

type chatBody struct {
	Messages []json.RawMessage
	Rest     map[string]json.RawMessage
}

func splitChatBody(t *testing.T, body []byte) chatBody {
	t.Helper()
	var out chatBody
	if err := json.Unmarshal(body, &out.Rest); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Rest["messages"], &out.Messages); err != nil {
		t.Fatal(err)
	}
	return out
}

// seedCompacted stores a compacted session as goose leaves it: 48 older
// messages of 32 KiB the user sees and the model does not, then the
// summary and the continuation only the model sees.
func seedCompacted(t *testing.T, env *agentEnv, cwd string) string {
	t.Helper()
	ctx := context.Background()
	store, sess := seedStore(t, env, cwd)
	defer store.Close()
	var msgs []conversation.Message
	at := int64(1_700_000_000)
	for i := range 48 {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		m := conversation.NewMessage(role, at).WithID(fmt.Sprintf("old_%02d", i)).
			WithText(fmt.Sprintf("older message %d: %s", i, strings.Repeat("lorem ipsum ", 32<<10/12)))
		m.Metadata = conversation.Metadata{UserVisible: true, AgentVisible: false}
		msgs = append(msgs, m)
	}
	modelOnly := conversation.Metadata{UserVisible: false, AgentVisible: true}
	summary := conversation.NewMessage(conversation.RoleUser, at).WithID("summary").WithText("summary of the older messages")
	summary.Metadata = modelOnly
	cont := conversation.NewMessage(conversation.RoleAssistant, at).WithID("continuation").WithText("Continue the session.")
	cont.Metadata = modelOnly
	if err := store.ReplaceConversation(ctx, sess.ID, append(msgs, summary, cont)); err != nil {
		t.Fatal(err)
	}
	return sess.ID
}
