package e2e

import (
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// usage_update as it stands, pinned with the SDK client: one after
// session/new (nothing used yet), then one after each model call of a
// turn, in order among the turn's other updates, carrying the tokens the
// context holds after that call and the model's context size (a cost only
// when the model's price is known, as it is not here); the prompt's answer
// carries the turn's token counts.
func TestUsageUpdatePerModelCallPinned(t *testing.T) {
	call := toolCallTurn("call_u", "shell", map[string]string{"command": "echo hi"})
	call.Usage = &providertest.Usage{Input: 1200, Output: 30}
	answer := textTurn("it printed hi")
	answer.Usage = &providertest.Usage{Input: 1260, Output: 9}
	env := newAgentEnv(t, call, answer)
	r := runACP24(t, env, t.TempDir(), `{}`, "usage")
	var turn []string
	r.field(t, "turn", &turn)
	want := []string{
		"session_info_update title=run it",
		"tool_call",
		"usage_update used=1230 size=128000",
		"tool_call_update",
		"agent_message_chunk",
		"usage_update used=1269 size=128000",
	}
	if strings.Join(turn, "\n") != strings.Join(want, "\n") {
		t.Errorf("the turn's updates\n got %q\nwant %q", turn, want)
	}
	var opened []string
	r.field(t, "newSession", &opened)
	if strings.Join(opened, ",") != "available_commands_update,usage_update used=0 size=128000" {
		t.Errorf("after session/new %q", opened)
	}
	if got := string(r.Report["promptUsage"]); got != `{"totalTokens":1269,"inputTokens":1260,"outputTokens":9}` {
		t.Errorf("the prompt's usage %s", got)
	}
}
