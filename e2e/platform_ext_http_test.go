package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestPlatformExtensionsToggleThroughTheRESTAPI: goose 1.54's platform
// extensions are listed by /config/extensions with goose's defaults
// (skills and summon on; summarize, apps and Code Mode off); toggling them
// there changes the tools the next ACP session offers, and apps, once
// enabled, answers why it cannot work here.
func TestPlatformExtensionsToggleThroughTheRESTAPI(t *testing.T) {
	env := newAgentEnv(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_app", Name: "apps__create_app", Arguments: `{"prd":"a clock"}`}}},
		textTurn("no apps here"),
	)
	secret := "platform-secret"
	base := startPlainGoosed(t, env, secret)
	list := func() map[string]bool {
		var out struct {
			Extensions []struct {
				Name    string `json:"name"`
				Type    string `json:"type"`
				Enabled bool   `json:"enabled"`
			} `json:"extensions"`
		}
		if code := httpCall(t, "GET", base+"/config/extensions", secret, "", &out); code != 200 {
			t.Fatalf("GET /config/extensions = %d", code)
		}
		m := map[string]bool{}
		for _, e := range out.Extensions {
			if e.Type == "platform" {
				m[e.Name] = e.Enabled
			}
		}
		return m
	}
	got := list()
	want := map[string]bool{"skills": true, "summon": true, "summarize": false, "apps": false, "code_execution": false}
	for name, on := range want {
		if v, ok := got[name]; !ok || v != on {
			t.Fatalf("%s: listed=%v enabled=%v, want enabled=%v (all %v)", name, ok, v, on, got)
		}
	}
	toggle := func(name string, on bool) {
		body, _ := json.Marshal(map[string]any{"name": name, "enabled": on, "config": map[string]any{"type": "platform", "name": name, "description": "", "bundled": true}})
		if code := httpCall(t, "POST", base+"/config/extensions", secret, string(body), nil); code != 200 {
			t.Fatalf("toggle %s = %d", name, code)
		}
	}
	toggle("summon", false)
	toggle("apps", true)
	if got := list(); got["summon"] || !got["apps"] {
		t.Fatalf("after toggling: %v", got)
	}

	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	if resp := c.prompt(sess.SessionID, "make me a clock app"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	var body struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	reqs := env.LLM.Requests()
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tool := range body.Tools {
		tools = append(tools, tool.Function.Name)
	}
	if slices.Contains(tools, "delegate") || !slices.Contains(tools, "apps__create_app") || !slices.Contains(tools, "load_skill") {
		t.Fatalf("tools after toggling = %v", tools)
	}
	if !llmSaw(env, "Apps are not available in goose-acp: needs goose Desktop") {
		t.Fatalf("apps did not say why it is unavailable\n%s", c.dump(sess.SessionID))
	}
	if got := strings.Join(c.statuses(sess.SessionID, "call_app"), ">"); !strings.HasSuffix(got, "failed") {
		t.Fatalf("apps call statuses %s", got)
	}
}
