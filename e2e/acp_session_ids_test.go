package e2e

import (
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestDeletedSessionIDNeverReused: a client that deletes its newest
// session and starts another must get a new id, in the same process and
// after a restart (goose hands the deleted "YYYYMMDD_N" out again,
// goose#11654, and clients keyed by session id then mix two
// conversations up).
func TestDeletedSessionIDNeverReused(t *testing.T) {
	env := newAgentEnv(t)
	seen := map[string]bool{}
	newAndDelete := func(c *acpClient) {
		t.Helper()
		id := c.newSession(env.Root).SessionID
		if seen[id] {
			t.Fatalf("session/new handed out %s again (seen %v)", id, seen)
		}
		seen[id] = true
		c.call("session/delete", acp.SessionIDRequest{SessionID: id}, nil)
	}
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	newAndDelete(c)
	newAndDelete(c)
	c.close()

	c = startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	newAndDelete(c)
	id := c.newSession(env.Root).SessionID
	if seen[id] {
		t.Fatalf("after a restart, session/new handed out %s again (seen %v)", id, seen)
	}
	var list acp.ListSessionsResponse
	c.call("session/list", acp.ListSessionsRequest{}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != id {
		t.Fatalf("session/list = %+v, want only %s", list.Sessions, id)
	}
}
