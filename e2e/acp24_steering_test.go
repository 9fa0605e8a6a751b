package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// steeredTurn answers with "working" and then takes a while (a steering
// message arrives meanwhile).
func steeredTurn() providertest.Turn {
	text := []string{"working"}
	for range 40 {
		text = append(text, ".")
	}
	return providertest.Turn{Text: text, Delay: 50 * time.Millisecond}
}

// _session/steering as claude-agent-acp and codex-acp serve it, through the
// SDK client: advertised as initialize's _meta.steering.supported; while
// idle it answers promptRequired when asked to, else starts a turn with
// the message (startedNewTurn: the message shown as the user's, then the
// turn); during a turn it is injected and reaches the turn's next model
// request, and the turn answers it before ending.
func TestSessionSteering(t *testing.T) {
	env := newAgentEnv(t, steeredTurn(), textTurn("checked the tests"), textTurn("answered the steer"))
	r := runACP24(t, env, t.TempDir(), `{}`, "steering")
	want := map[string]string{
		"steerIdle":      `{"outcome":"promptRequired","reason":"noRunningTurn"}`,
		"steerRunning":   `{"outcome":"injected"}`,
		"steerIdleStart": `{"outcome":"startedNewTurn"}`,
		"firstStop":      `"end_turn"`,
		"steerErrors":    `[-32602,-32602,-32002]`,
		"steeredShown":   `["also check the tests|true"]`,
	}
	for k, v := range want {
		if got := string(r.Report[k]); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	var newTurn []string
	r.field(t, "newTurn", &newTurn)
	if len(newTurn) < 2 || newTurn[0] != "user_message_chunk:one more thing" || !slices.Contains(newTurn, "agent_message_chunk:answered the steer") {
		t.Errorf("the steered turn's updates %q", newTurn)
	}
	reqs := env.LLM.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests", len(reqs))
	}
	if last := lastUserText(t, reqs[1].Body); last != "also check the tests" {
		t.Errorf("the running turn's next request ends with the user's %q", last)
	}
	if last := lastUserText(t, reqs[2].Body); last != "one more thing" {
		t.Errorf("the steered turn's request ends with the user's %q", last)
	}
}

// lastUserText is the text of the last user message of an OpenAI chat
// request, without the agent's own turn context.
func lastUserText(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) != nil {
			var parts []struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(m.Content, &parts)
			for _, p := range parts {
				s += p.Text
			}
		}
		// The turn context may come merged into the user's message.
		s, _, _ = strings.Cut(s, "<turn-context>")
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
