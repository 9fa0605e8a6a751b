package e2e

// The thinking effort of a model that thinks is a config option of
// category thought_level (goose's thinking_effort): set over ACP, it
// reaches the provider request and stays with the session.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func configOption(opts []acp.ConfigOption, id string) (acp.ConfigOption, bool) {
	for _, o := range opts {
		if o.ID == id {
			return o, true
		}
	}
	return acp.ConfigOption{}, false
}

func TestThinkingEffortConfigOption(t *testing.T) {
	env := newAgentEnvFor(t, providertest.Anthropic, textTurn("ok"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	opt, ok := configOption(sess.ConfigOptions, "thinking_effort")
	if !ok {
		t.Fatalf("no thinking_effort option for a Claude model: %+v", sess.ConfigOptions)
	}
	var values []string
	for _, v := range opt.Options {
		values = append(values, v.Value+"="+v.Name)
	}
	if opt.Category != "thought_level" || opt.Type != "select" || opt.CurrentValue != "off" ||
		strings.Join(values, ",") != "off=Off,low=Low,medium=Medium,high=High,max=Max" {
		t.Fatalf("thinking_effort option %+v", opt)
	}
	var resp acp.SetConfigOptionResponse
	c.call("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "thinking_effort", Value: json.RawMessage(`"high"`)}, &resp)
	if opt, _ := configOption(resp.ConfigOptions, "thinking_effort"); opt.CurrentValue != "high" {
		t.Fatalf("after setting high: %+v", opt)
	}
	if model, _ := configOption(resp.ConfigOptions, "model"); model.CurrentValue != "claude-sonnet-4-20250514" {
		t.Fatalf("the model changed with the effort: %+v", model)
	}
	// High is 16,000 tokens of budget, within claude-sonnet-4's 64,000
	// max_tokens less 1,024 for the answer (goose clamps it to that).
	c.prompt(sess.SessionID, "think about it")
	reqs := env.LLM.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"max_tokens":64000`) ||
		!strings.Contains(string(reqs[0].Body), `"thinking":{"type":"enabled","budget_tokens":16000}`) {
		b := string(reqs[len(reqs)-1].Body)
		t.Fatalf("the provider request does not think with high effort: %s", b[max(0, strings.Index(b, `"thinking"`)-200):])
	}
	err := c.tryCall("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "thinking_effort", Value: json.RawMessage(`"extreme"`)}, nil)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
	// goose keeps "thought_level" itself an unsupported option id.
	err = c.tryCall("session/set_config_option", acp.SetConfigOptionRequest{SessionID: sess.SessionID, ConfigID: "thought_level", Value: json.RawMessage(`"high"`)}, nil)
	assertRPCError(t, err, jsonrpc2.CodeInvalidParams)
}

// A model that does not think has no thinking option.
func TestNoThinkingEffortForModelsThatDoNotThink(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	if opt, ok := configOption(sess.ConfigOptions, "thinking_effort"); ok {
		t.Fatalf("gpt-4o offers a thinking option: %+v", opt)
	}
}
