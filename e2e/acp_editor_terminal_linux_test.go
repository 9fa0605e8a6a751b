//go:build linux

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestTerminalReleasedAfterFinalUpdate: Zed forgets a
// terminal on terminal/release, so the final tool_call_update (which names
// the terminal and carries the exit) must come first; its rawOutput holds
// the text output.
func TestTerminalReleasedAfterFinalUpdate(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, toolCallTurn("call_t", "shell", map[string]string{"command": "echo order-out-7"}), textTurn("ok"))
	c := startAgent(t, env)
	ts := &terminals{}
	ts.install(c)
	c.initialize(acp.ClientCapabilities{Terminal: true})
	sess := c.newSession(work)
	if r := c.prompt(sess.SessionID, "run"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if ts.live() != 0 {
		t.Fatalf("%d terminals not released before the prompt result", ts.live())
	}
	final, release := -1, -1
	c.mu.Lock()
	for i, l := range c.rawLines {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update acp.SessionUpdate `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(l), &m) != nil {
			continue
		}
		switch {
		case m.Method == "terminal/release":
			release = i
		case m.Method == "session/update" && m.Params.Update.ToolCallID == "call_t" && m.Params.Update.Status == "completed":
			final = i
			if out, _ := m.Params.Update.RawOutput.(string); !strings.Contains(out, "order-out-7") {
				t.Errorf("final update rawOutput = %q", out)
			}
			var term bool
			for _, tc := range m.Params.Update.ToolContent {
				term = term || (tc.Type == "terminal" && tc.TerminalID == "term-1")
			}
			if !term {
				t.Errorf("final update does not name the terminal: %s", l)
			}
		}
	}
	c.mu.Unlock()
	if final < 0 || release < 0 || final > release {
		t.Errorf("final update at line %d, terminal/release at line %d: the update must come first", final, release)
	}
}
