package acp

import (
	"sync"

	"github.com/goose-acp/goose-acp/core/agent"
)

// holders counts, per core agent, the ACP connections of this process that
// have a session open. One agent serves stdio and every /acp connection at
// once (goose-acp serve, --http), and its sessions belong to it, not to a
// connection: a connection that ends or loads a session must not close it
// under another connection that has it open. The agent closes a session
// (its extensions) only when the last connection holding it lets go.
var holders = struct {
	mu sync.Mutex
	n  map[holderKey]int
}{n: map[holderKey]int{}}

type holderKey struct {
	agent *agent.Agent
	id    string
}

func holdSession(a *agent.Agent, id string) {
	holders.mu.Lock()
	defer holders.mu.Unlock()
	holders.n[holderKey{a, id}]++
}

// releaseSession lets go of a session this connection held and reports
// whether no connection holds it any more.
func releaseSession(a *agent.Agent, id string) bool {
	holders.mu.Lock()
	defer holders.mu.Unlock()
	k := holderKey{a, id}
	if holders.n[k] <= 1 {
		delete(holders.n, k)
		return true
	}
	holders.n[k]--
	return false
}

// heldElsewhere reports whether some connection holds the session.
func heldElsewhere(a *agent.Agent, id string) bool {
	holders.mu.Lock()
	defer holders.mu.Unlock()
	return holders.n[holderKey{a, id}] > 0
}
