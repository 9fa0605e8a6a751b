package e2e

import (
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// After the first exchange goose names the session in the background; the
// editor hears it as session_info_update, whether the name arrives during
// the turn or after it ended.
func TestGeneratedTitleReachesTheEditor(t *testing.T) {
	// Naming runs concurrently with the turn, so either request may take
	// either scripted turn: both answer the same text.
	env := newAgentEnv(t,
		providertest.Turn{Text: []string{"Fix the failing build"}},
		providertest.Turn{Text: []string{"Fix the failing build"}},
	)
	delete(env.Vars, "GOOSE_DISABLE_SESSION_NAMING")
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	if resp := c.prompt(sess.SessionID, "why does the build fail?"); resp.StopReason != "end_turn" {
		t.Fatalf("stopReason = %q", resp.StopReason)
	}
	// First the message itself titles the session, then the generated title.
	var titles []string
	c.waitFor("the generated title", func() bool {
		titles = nil
		for _, u := range c.updatesOf(sess.SessionID) {
			if u.SessionUpdate == acp.UpdateSessionInfo && u.Title != nil {
				titles = append(titles, *u.Title)
			}
		}
		return len(titles) == 2
	})
	if titles[0] != "why does the build fail?" || titles[1] != "Fix the failing build" {
		t.Fatalf("titles = %q", titles)
	}
}
