package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// todoConfig turns goose's todo extension on in config.yaml; it is off by
// default since goose 1.54.
const todoConfig = "extensions:\n  todo:\n    enabled: true\n    type: platform\n    name: todo\n    description: Enable a todo list for goose so it can keep track of what it is doing\n    display_name: Todo\n    bundled: true\n"

// enableTodo writes config.yaml with the todo extension on.
func (e *agentEnv) enableTodo(t *testing.T) {
	t.Helper()
	e.writeConfig(t, todoConfig)
}

// withoutTurnContext drops the agent's per-turn <turn-context> messages
// (stored agent-only since goose 1.54) from a stored conversation, for
// tests that count the conversation's other messages.
func withoutTurnContext(msgs []conversation.Message) []conversation.Message {
	return conversation.Conversation(msgs).WithoutTurnContext()
}

// rawWithoutTurnContext is withoutTurnContext for a conversation read as
// JSON from goosed's REST API.
func rawWithoutTurnContext(msgs []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range msgs {
		if !strings.Contains(string(m), `"turnContext":true`) {
			out = append(out, m)
		}
	}
	return out
}
