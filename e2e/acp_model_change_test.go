package e2e

import (
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// modelOption is the model select's current value in one
// config_option_update.
func modelOption(u acp.SessionUpdate) (string, bool) {
	if u.SessionUpdate != acp.UpdateConfigOption {
		return "", false
	}
	for _, o := range u.ConfigOptions {
		if o.ID == "model" {
			return o.CurrentValue, true
		}
	}
	return "", false
}

// Regression: when a lead/worker provider hands over to the
// worker, the editor is told the worker's model, not the session's
// (lead) model the adapter used to keep a copy of.
func TestLeadWorkerSwitchAnnouncesTheActiveModel(t *testing.T) {
	env := newAgentEnv(t, textTurn("from the lead"), textTurn("from the worker"))
	env.Vars["GOOSE_MODEL"] = "gpt-4o-mini"
	env.Vars["GOOSE_LEAD_MODEL"] = "gpt-4o"
	env.Vars["GOOSE_LEAD_TURNS"] = "1"
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)

	announced := func() []string {
		var out []string
		for _, u := range c.updatesOf(sess.SessionID) {
			if m, ok := modelOption(u); ok {
				out = append(out, m)
			}
		}
		return out
	}
	if r := c.prompt(sess.SessionID, "first"); r.StopReason != "end_turn" {
		t.Fatalf("first turn: %q", r.StopReason)
	}
	if got := announced(); len(got) != 1 || got[0] != "gpt-4o" {
		t.Fatalf("after the lead's turn the editor was told %q; want [gpt-4o]", got)
	}
	if r := c.prompt(sess.SessionID, "second"); r.StopReason != "end_turn" {
		t.Fatalf("second turn: %q", r.StopReason)
	}
	got := announced()
	if len(got) != 2 || got[1] != "gpt-4o-mini" {
		t.Fatalf("after the worker's turn the editor was told %q; want [gpt-4o gpt-4o-mini]\n%s", got, c.dump(sess.SessionID))
	}
	// The models the mock saw confirm who answered.
	reqs := env.LLM.Script.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d provider requests", len(reqs))
	}
}
