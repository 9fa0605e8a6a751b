package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// everythingEntry is @modelcontextprotocol/server-everything from
// e2e/mcpeverything, installed on first use; without node/npm it skips
// (fails in CI).
func everythingEntry(t *testing.T) string {
	t.Helper()
	dir := npmtest.Install(t, "mcpeverything")
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// TestElicitation: an MCP server's elicitation reaches the editor as
// elicitation/create when it advertises the capability, and the answer
// goes back to the server; without the capability it is declined at once
// and the tool finishes instead of waiting out its timeout.
func TestElicitation(t *testing.T) {
	entry := everythingEntry(t)
	for _, withCap := range []bool{true, false} {
		t.Run(map[bool]string{true: "advertised", false: "not advertised"}[withCap], func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t, toolCallTurn("call_el", "everything__trigger-elicitation-request", map[string]any{}), textTurn("thanks"))
			c := startAgent(t, env)
			c.on("elicitation/create", func(json.RawMessage) (any, error) {
				return map[string]any{"action": "accept", "content": map[string]any{"name": "Ada Lovelace", "check": true}}, nil
			})
			caps := acp.ClientCapabilities{}
			if withCap {
				raw := json.RawMessage(`{"form":{}}`)
				caps.Elicitation = &raw
			}
			c.initialize(caps)
			var sess acp.NewSessionResponse
			c.call("session/new", acp.NewSessionRequest{CWD: work, MCPServers: []acp.MCPServer{{Name: "everything", Command: "node", Args: []string{entry}, Env: []acp.EnvVariable{}}}}, &sess)
			start := time.Now()
			if r := c.prompt(sess.SessionID, "ask me"); r.StopReason != "end_turn" {
				t.Fatalf("stopReason %q", r.StopReason)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the turn took %v", d)
			}
			reqs := c.callsTo("elicitation/create")
			if withCap {
				if len(reqs) != 1 || !strings.Contains(string(reqs[0]), `"email"`) || !strings.Contains(string(reqs[0]), sess.SessionID) {
					t.Fatalf("elicitation/create = %s", reqs)
				}
				if !llmSaw(env, "Ada Lovelace") {
					t.Error("the editor's answer did not reach the server and the model")
				}
			} else {
				if len(reqs) != 0 {
					t.Fatalf("elicitation/create sent without the capability: %s", reqs)
				}
				if llmSaw(env, "Ada Lovelace") {
					t.Error("accepted without asking")
				}
			}
			if got := c.finalStatus(sess.SessionID, "call_el"); got != "completed" {
				t.Errorf("status %q\n%s", got, c.dump(sess.SessionID))
			}
		})
	}
}
